#include "app/pages/common/page_export.h"

#include "widgets/csv_table.h"
#include "widgets/plot_view.h"
#include "widgets/save_dialog.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSaveFile>

// A global context so that lupdate and the runtime agree on the name (a tr() helper inside the
// namespace was extracted under "lwb::app::pages" but looked up under another context).
struct PageExport {
  Q_DECLARE_TR_FUNCTIONS(PageExport)
};

namespace lwb::app::pages {
namespace {
bool gAskBeforeReplacing = false;  // set while savePlotsDialog saves (GUI thread only)
}  // namespace

bool writeCsvFile(const QString& path, const widgets::CsvTable& table, QString* error) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(widgets::toCsvText(table).toUtf8()) < 0 || !f.commit()) {
    if (error) *error = PageExport::tr("Cannot write %1: %2").arg(path, f.errorString());
    return false;
  }
  return true;
}

bool savePlotSet(const QString& path, const QList<QPair<widgets::PlotView*, QString>>& plots, QString* error) {
  const QFileInfo info(path);
  const QString ext = info.suffix().toLower();
  if (ext != QLatin1String("png") && ext != QLatin1String("pdf")) {
    if (error) *error = PageExport::tr("%1: the file name must end in .png or .pdf").arg(path);
    return false;
  }
  const QString stem = info.absolutePath() + QLatin1Char('/') + info.completeBaseName() + QLatin1Char('-');
  QStringList files;
  for (const auto& [plot, suffix] : plots) files << stem + suffix + QLatin1Char('.') + ext;
  // The dialog asked about the name typed; the files written are named after it. Asked only
  // when a user chose the name (savePlotsDialog): scripted saves (--screenshot, tests) never wait.
  if (gAskBeforeReplacing && !widgets::confirmReplacing(QApplication::activeWindow(), files)) return true;  // kept, as chosen
  for (const auto& [plot, suffix] : plots) {
    const QString file = stem + suffix + QLatin1Char('.') + ext;
    if (!(ext == QLatin1String("png") ? plot->savePng(file, 0, 0, error) : plot->savePdf(file, 0, 0, error))) return false;
  }
  return true;
}

bool savePlotPair(const QString& path, widgets::PlotView* first, const QString& firstSuffix, widgets::PlotView* second,
                  const QString& secondSuffix, QString* error) {
  return savePlotSet(path, {{first, firstSuffix}, {second, secondSuffix}}, error);
}

void exportCsvDialog(QWidget* parent, const QString& defaultName, const FileWriter& write) {
  const QString path = widgets::getSavePath(parent, PageExport::tr("Export the table as CSV"), defaultName, PageExport::tr("CSV (*.csv)"),
                                            QStringLiteral("csv"));
  QString error;
  if (!path.isEmpty() && !write(path, &error)) QMessageBox::warning(parent, PageExport::tr("Export failed"), error);
}

void savePlotsDialog(QWidget* parent, const QString& defaultName, const FileWriter& save) {
  const QString path = widgets::getSavePath(parent, PageExport::tr("Save both plots"), defaultName,
                                            PageExport::tr("PNG image (*.png);;PDF document (*.pdf)"), QStringLiteral("png"));
  QString error;
  if (path.isEmpty()) return;
  gAskBeforeReplacing = true;
  const bool ok = save(path, &error);
  gAskBeforeReplacing = false;
  if (!ok) QMessageBox::warning(parent, PageExport::tr("Saving failed"), error);
}

}  // namespace lwb::app::pages
