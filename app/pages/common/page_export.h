// Export helpers the pages share: a CSV table written atomically, a pair (or set) of plots saved as
// <stem>-<suffix>.png|.pdf, and the file dialogs around them (with a warning box on failure).
#pragma once

#include <QList>
#include <QPair>
#include <QString>

#include <functional>

class QWidget;

namespace lwb::widgets {
class PlotView;
struct CsvTable;
}  // namespace lwb::widgets

namespace lwb::app::pages {

bool writeCsvFile(const QString& path, const widgets::CsvTable& table, QString* error);

// `path` ends in .png or .pdf: writes <stem>-<suffix>.<ext> for each plot (the Attention Lab's
// small multiples have three).
bool savePlotSet(const QString& path, const QList<QPair<widgets::PlotView*, QString>>& plots, QString* error);

// `path` ends in .png or .pdf: writes <stem>-<firstSuffix>.<ext> and <stem>-<secondSuffix>.<ext>.
bool savePlotPair(const QString& path, widgets::PlotView* first, const QString& firstSuffix, widgets::PlotView* second,
                  const QString& secondSuffix, QString* error);

// Asks for a file name, then calls `write(path, &error)`; a warning box names a failure.
using FileWriter = std::function<bool(const QString& path, QString* error)>;
void exportCsvDialog(QWidget* parent, const QString& defaultName, const FileWriter& write);
void savePlotsDialog(QWidget* parent, const QString& defaultName, const FileWriter& save);

}  // namespace lwb::app::pages
