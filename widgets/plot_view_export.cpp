// PlotView, part 3: PNG/PDF/CSV export and the context menu that offers it.
#include "widgets/plot_view.h"
#include "widgets/save_dialog.h"

#include "widgets/qcp.h"

#include <QContextMenuEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>

#include <utility>
#include <vector>

namespace lwb::widgets {

namespace {
constexpr int kDefaultExportWidth = 640, kDefaultExportHeight = 400;
}  // namespace

// ---- export ----

QSize PlotView::exportSize(int width, int height) const {
  const bool laidOut = plot_->testAttribute(Qt::WA_WState_Created) && plot_->width() >= 16;
  return {width > 0 ? width : (laidOut ? plot_->width() : kDefaultExportWidth),
          height > 0 ? height : (laidOut ? plot_->height() : kDefaultExportHeight)};
}

bool PlotView::checkWritable(const QString& path, QString* error) const {
  const QFileInfo info(path);
  if (path.isEmpty() || !info.absoluteDir().exists()) {
    if (error) *error = tr("Cannot write %1: the folder does not exist.").arg(path);
    return false;
  }
  return true;
}

bool PlotView::savePng(const QString& path, int width, int height, QString* error) {
  if (!checkWritable(path, error)) return false;
  const QSize size = exportSize(width, height);
  syncAndFit();
  if (!plot_->savePng(path, size.width(), size.height(), 1.0)) {
    if (error) *error = tr("Cannot write %1.").arg(path);
    return false;
  }
  return true;
}

bool PlotView::savePdf(const QString& path, int width, int height, QString* error) {
  if (!checkWritable(path, error)) return false;
  const QSize size = exportSize(width, height);
  syncAndFit();
  // Vector markers in the PDF, not the on-screen pixmaps (setFastScatter).
  std::vector<std::pair<QCPGraph*, QCPScatterStyle>> onScreen;
  for (auto it = vectorScatters_.cbegin(); it != vectorScatters_.cend(); ++it) {
    onScreen.emplace_back(it.key(), it.key()->scatterStyle());
    it.key()->setScatterStyle(*it.value());
  }
  const bool ok = plot_->savePdf(path, size.width(), size.height(), QCP::epNoCosmetic, QStringLiteral("Lipschitz Workbench"), title_);
  for (const auto& [graph, style] : onScreen) graph->setScatterStyle(style);
  if (!ok) {
    if (error) *error = tr("Cannot write %1.").arg(path);
    return false;
  }
  return true;
}

CsvTable PlotView::csvTable() const {
  std::vector<CsvSeries> series;
  for (int p = 0; p < plot_->graphCount(); ++p) {
    QCPGraph* graph = plot_->graph(p);
    if (isDecoration(graph)) continue;
    CsvSeries s;
    s.name = graph->name();
    if (const XYData* source = graphSource(graph)) {
      s.xs = source->xs;
      s.ys = source->ys;
    } else {
      for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
        s.xs.push_back(it->key);
        s.ys.push_back(it->value);
      }
    }
    series.push_back(std::move(s));
  }
  const QString xName = plot_->xAxis->label().isEmpty() ? QStringLiteral("x") : plot_->xAxis->label();
  return wideTable(xName, series);
}

QString PlotView::toCsv() const { return toCsvText(csvTable()); }

bool PlotView::exportCsv(const QString& path, QString* error) const {
  if (!checkWritable(path, error)) return false;
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
    if (error) *error = tr("Cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  file.write(toCsv().toUtf8());
  if (!file.commit()) {
    if (error) *error = tr("Cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

QMenu* PlotView::createContextMenu(QWidget* parent) {
  auto* menu = new QMenu(parent ? parent : this);
  menu->addAction(tr("Reset view"), this, &PlotView::resetView);
  menu->addSeparator();
  QAction* logY = menu->addAction(tr("Log y"));
  logY->setCheckable(true);
  logY->setChecked(logY_);
  connect(logY, &QAction::toggled, this, &PlotView::setLogY);
  if (supportsLogX_) {
    QAction* logX = menu->addAction(tr("Log x"));
    logX->setCheckable(true);
    logX->setChecked(logX_);
    connect(logX, &QAction::toggled, this, &PlotView::setLogX);
  }
  menu->addSeparator();
  menu->addAction(tr("Save as PNG…"), this, [this] { saveWithDialog(QStringLiteral("png")); });
  menu->addAction(tr("Save as PDF…"), this, [this] { saveWithDialog(QStringLiteral("pdf")); });
  menu->addAction(tr("Export data as CSV…"), this, [this] { saveWithDialog(QStringLiteral("csv")); });
  return menu;
}

void PlotView::contextMenuEvent(QContextMenuEvent* event) {
  QMenu* menu = createContextMenu(this);
  menu->setAttribute(Qt::WA_DeleteOnClose);
  menu->popup(event->globalPos());
}

void PlotView::saveWithDialog(const QString& kind) {
  const QString filter = kind == QLatin1String("png")   ? tr("PNG image (*.png)")
                         : kind == QLatin1String("pdf") ? tr("PDF document (*.pdf)")
                                                        : tr("CSV table (*.csv)");
  const QString path = getSavePath(this, tr("Export plot"), QString(), filter, kind);
  if (path.isEmpty()) return;
  QString error;
  const bool ok = kind == QLatin1String("png")   ? savePng(path, 0, 0, &error)
                  : kind == QLatin1String("pdf") ? savePdf(path, 0, 0, &error)
                                                 : exportCsv(path, &error);
  if (!ok) QMessageBox::warning(this, tr("Export failed"), error);
}

}  // namespace lwb::widgets
