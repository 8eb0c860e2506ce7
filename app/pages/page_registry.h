// The pages the workbench ships: one table (page_registry.cpp), one row per page in View-menu
// order, holding each page's identity: id, factory, command-line options (and which of them
// imply the page) and Ctrl+digit shortcut. pageIds(), --help, the implied --page and the
// View menu's shortcuts all derive from it; this file also wires pages to each other (the
// Inspector's "Open in Clip Lab").
#pragma once

#include "app/app_options.h"
#include "app/page.h"

#include <QList>
#include <QStringList>

#include <span>

class QWidget;

namespace lwb::app::pages {

// The page table, in View-menu order.
std::span<const PageRow> pageTable();

// Every page, parented to `parent` (the window's page stack), each given its row.
QList<Page*> createPages(const PageServices& services, QWidget* parent);

// Their ids, without building them: the command line's --page is checked before a
// QApplication exists.
QStringList pageIds();

// The row of page `id`, or nullptr.
const PageRow* pageRow(const QString& id);

// parseAppOptions with this table.
ParsedOptions parseOptions(const QStringList& args);

}  // namespace lwb::app::pages
