// A run directory's checkpoints as a history (issue 29 §2): one line per layer of a chosen
// metric (σ₁, RMS→RMS, ‖W‖_F or any WeightWatcher-parity metric) over the checkpoints' steps,
// and two chosen checkpoints side by side, per layer Δσ₁, Δα and ‖W_B − W_A‖_F / ‖W_A‖_F.
// Both computations run on workers (LatestWins) with a progress bar and Cancel; one job per
// user action (opening the folder, choosing a checkpoint, pressing "Compare").
#pragma once

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace lwb::inspect {
struct CheckpointHistory;
}

namespace lwb::widgets {
class CurvePlot;
}  // namespace lwb::widgets

namespace lwb::app::pages {

class LatestWins;

class HistoryPanel : public QWidget {
  Q_OBJECT

 public:
  explicit HistoryPanel(QWidget* parent = nullptr);
  ~HistoryPanel() override;

  // Reads RUN_DIR/checkpoints/step_N.safetensors on a worker (a previous load is cancelled).
  void openRun(const QString& runDir);
  void cancel();
  bool isBusy() const;
  QString runDir() const { return runDir_; }
  // The history shown (nullptr before the first successful load).
  const inspect::CheckpointHistory* history() const { return history_.get(); }

  // Per-layer deltas of the checkpoints chosen in the A and B boxes, on a worker; run when a
  // history is shown (first vs newest) and whenever A or B changes.
  void compare();

  QComboBox* metricBox() const { return metric_; }
  QComboBox* checkpointA() const { return a_; }
  QComboBox* checkpointB() const { return b_; }
  widgets::CurvePlot* plot() const { return plot_; }
  QTableWidget* deltaTable() const { return delta_; }
  QLabel* message() const { return message_; }
  QLabel* skippedLabel() const { return skipped_; }
  QLabel* titleLabel() const { return title_; }

  enum DeltaColumn { Layer, Shape, Sigma1A, Sigma1B, DeltaSigma1, DeltaAlpha, RelativeChange, DeltaColumns };

 Q_SIGNALS:
  void historyLoaded();
  void deltaReady();
  void failed(const QString& message);
  void cancelled();

 private:
  void createHistoryFields();
  void createDeltaFields();
  void layOut();
  void connectFields();
  void showHistory(std::shared_ptr<const inspect::CheckpointHistory> h);
  void replot();
  void showError(const QString& message);

  QString runDir_;
  std::shared_ptr<const inspect::CheckpointHistory> history_;
  LatestWins* loader_ = nullptr;
  LatestWins* deltaJob_ = nullptr;
  QComboBox* metric_ = nullptr;
  QComboBox* a_ = nullptr;
  QComboBox* b_ = nullptr;
  QPushButton* compare_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* title_ = nullptr;
  QLabel* message_ = nullptr;
  QLabel* skipped_ = nullptr;
  widgets::CurvePlot* plot_ = nullptr;
  QTableWidget* delta_ = nullptr;
};

}  // namespace lwb::app::pages
