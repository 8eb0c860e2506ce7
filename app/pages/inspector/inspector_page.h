// Checkpoint Inspector: open (or drop) a .safetensors, .npz, .npy or .pt file; it is read and
// every tensor's spectrum computed on a worker with progress and Cancel. A sortable,
// filterable table of the tensors; the selected matrix's spectrum (ranked, or a log-log
// density) with the σmax line; every matrix's σ₁ (or RMS→RMS norm, or any WeightWatcher-parity
// metric: columns chooser, CSV export) as bars; for workbench
// checkpoints the Lipschitz bound and its per-layer trace; a "what if" preview of any method.
// A run directory opens in the "Run history" tab (history_panel.h).
#pragma once

#include "app/page.h"
#include "app/pages/inspector/inspected_file.h"

#include <QLatin1String>
#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;
class QTabWidget;
class QTableWidget;
class QToolButton;

namespace lwb::widgets {
class BarChartPlot;
class SpectrumPlot;
}  // namespace lwb::widgets

namespace lwb::app::pages {

class HistoryPanel;
class LatestWins;
class TextSamplePanel;
class TensorFilterProxy;
class TensorTableModel;
class WhatIfPanel;

class InspectorPage : public QWidget, public Page {
  Q_OBJECT

 public:

  explicit InspectorPage(QWidget* parent = nullptr);

  QString title() const override { return tr("Checkpoint &Inspector"); }
  QWidget* widget() override { return this; }
  // --inspect FILE
  bool applyOptions(const AppOptions& options, QString* error) override;

  // Starts reading `path` (a previous load is cancelled).
  void openFile(const QString& path);
  void cancelLoad();
  bool isLoading() const;
  // The file shown (empty before the first successful load).
  const InspectedFile& inspected() const { return file_; }
  QString errorText() const;
  // Selects a tensor by name in the table (false if not shown).
  bool selectTensor(const QString& name);
  void replotNow();

  TensorTableModel* model() const { return model_; }
  TensorFilterProxy* proxy() const { return proxy_; }
  QTableView* table() const { return table_; }
  QLineEdit* filterEdit() const { return filter_; }
  widgets::SpectrumPlot* spectrumPlot() const { return spectrum_; }
  widgets::BarChartPlot* barPlot() const { return bars_; }
  QTableWidget* traceTable() const { return trace_; }
  WhatIfPanel* whatIf() const { return whatIf_; }
  // Shown for character-level workbench checkpoints (issue 29 §4).
  TextSamplePanel* samplePanel() const { return sample_; }
  // What if and Generate text (the latter offered for character-level checkpoints only).
  QTabWidget* toolTabs() const { return tools_; }
  // A run directory's checkpoints over steps and two checkpoints' deltas (issue 29 §2);
  // openFile(RUN_DIR) fills it and shows its tab.
  HistoryPanel* historyPanel() const { return history_; }
  QTabWidget* tabs() const { return tabs_; }
  // How 2-D weights are stored: (out, in) as PyTorch's Linear (the default), or (in, out) as
  // Hugging Face GPT-2's Conv1D (c_attn, c_fc, c_proj) and JAX. The RMS→RMS norm
  // σ₁·√(d_in/d_out) depends on it. Chosen by the user; a GPT-2 file is detected on load.
  bool weightsStoredInOut() const;
  void setWeightsStoredInOut(bool inOut);
  QComboBox* orientationBox() const { return orientation_; }
  // What the bars show: index 0 is σ₁ or the RMS→RMS norm (with the σmax line), then one
  // entry per TensorTableModel metric column (data = the column).
  QComboBox* barMetricBox() const { return barMetric_; }
  QToolButton* columnsButton() const { return columns_; }
  // Writes the table (every tensor, every column, `inspect`'s key names) to `path`.
  bool exportCsv(const QString& path, QString* error) const;
  // What a σmax line of the selected matrix means (shown under the spectrum).
  QString sigmaMaxNote() const;

 Q_SIGNALS:
  void loaded();
  void failed(const QString& message);
  void loadCancelled();
  void openInClipLab(std::shared_ptr<const io::TensorFile> file, const QString& name);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  QHBoxLayout* createFileBar();
  QWidget* createTensorTable();
  QWidget* createPlots();
  void connectWidgets();
  void showFile(InspectedFile file);
  void showError(const QString& message);
  // Reads a file on the Checkpoint tab; quiet: opened for the user (a run folder's newest
  // checkpoint), so a failure is said on that tab only, not as "Cannot open" above the page.
  void loadFile(const QString& path, bool quiet);
  bool quietLoad_ = false;
  void onSelectionChanged();
  void updateBars();
  void updateSigmaMaxLine();
  double rmsScaleOf(const InspectedTensor& t) const;
  // The table's RMS→RMS column follows the orientation.
  void applyOrientation();
  void chooseFile();
  void chooseCsvFile();
  QWidget* createColumnChooser();

  LatestWins* loader_ = nullptr;
  InspectedFile file_;
  TensorTableModel* model_ = nullptr;
  TensorFilterProxy* proxy_ = nullptr;
  QPushButton* open_ = nullptr;
  QPushButton* openFolder_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QLabel* fileLabel_ = nullptr;
  QLabel* message_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLineEdit* filter_ = nullptr;
  QCheckBox* matricesOnly_ = nullptr;
  QDoubleSpinBox* sigmaMax_ = nullptr;
  QCheckBox* rmsUnits_ = nullptr;
  QComboBox* orientation_ = nullptr;
  QComboBox* barMetric_ = nullptr;
  QToolButton* columns_ = nullptr;
  QPushButton* exportCsv_ = nullptr;
  QLabel* lineNote_ = nullptr;  // why the σmax line sits where it does
  QTableView* table_ = nullptr;
  QLabel* bound_ = nullptr;
  QTableWidget* trace_ = nullptr;
  widgets::SpectrumPlot* spectrum_ = nullptr;
  widgets::BarChartPlot* bars_ = nullptr;
  WhatIfPanel* whatIf_ = nullptr;
  TextSamplePanel* sample_ = nullptr;
  QTabWidget* tools_ = nullptr;
  HistoryPanel* history_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QString selected_;
};

}  // namespace lwb::app::pages
