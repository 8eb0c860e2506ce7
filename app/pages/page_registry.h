// The pages the workbench ships, in View-menu order (Ctrl+1 … Ctrl+7): Train, Clip Lab,
// Checkpoint Inspector, Compare, Robustness, Sweeps, Attention Lab. The one place that knows
// them all: it builds them from the window's services and wires them to each other (the
// Inspector's "Open in Clip Lab").
#pragma once

#include "app/page.h"

#include <QList>
#include <QStringList>

class QWidget;

namespace lwb::app::pages {

// Every page, parented to `parent` (the window's page stack).
QList<Page*> createPages(const PageServices& services, QWidget* parent);

// Their ids, without building them: the command line's --page is checked before a
// QApplication exists.
QStringList pageIds();

}  // namespace lwb::app::pages
