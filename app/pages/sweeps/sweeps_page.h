// Sweeps: build a sweep spec from a preset and a grid (keys from the config registry, values
// as lists or ranges, seeds), preview the point count and an estimated time, launch it on
// this machine or on Slurm (or export the batch script), and watch every point's progress.
// The sweep itself is `lipschitz-cli sweep` in a child process (sweep_process.h), so it
// survives nothing it should not and the GUI thread never waits on it; the per-point table
// reads the sweep's run index on a worker. The form is sweep_form.h, the time estimate
// sweep_estimate.h; this file holds the actions and the progress.
#pragma once

#include "app/page.h"

#include <QLatin1String>
#include <QWidget>

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class QTimer;

namespace lwb::app::pages {

class SweepForm;
class SweepPointsModel;
class SweepProcess;

class SweepsPage : public QWidget, public Page {
  Q_OBJECT

 public:
  explicit SweepsPage(const PageServices& services, QWidget* parent = nullptr);
  ~SweepsPage() override;

  QString title() const override { return tr("S&weeps"); }
  QWidget* widget() override { return this; }
  // --sweep SWEEP_DIR: shows that sweep's points and statuses.
  bool applyOptions(const AppOptions& options, QString* error) override;

  // The spec's fields (preset, grid, seeds, steps, folder, backend): tests and --sweep fill them.
  SweepForm* form() const { return form_; }

  // Writes the spec into the output folder and starts the sweep (false, *error set, if the
  // spec or folder is refused).
  bool launch(QString* error);
  void stop();
  // Shows an existing sweep folder's points (points.json + index.sqlite).
  bool openSweep(const QString& dir, QString* error);
  bool isRunning() const;
  QString runningWork() const override;
  void stopRunningWork() override { stop(); }

  SweepPointsModel* pointsModel() const { return model_; }
  QString previewText() const;
  QString progressText() const;
  QString errorText() const;

 Q_SIGNALS:
  void sweepFinished(int exitCode);

 private:
  QWidget* createFormPane(const PageServices& services);
  QWidget* createPoints();
  void connectActions(QPushButton* preview, QPushButton* exportButton, QPushButton* open);
  void connectProcess();
  void updatePreview();
  void showEstimate(long long points, long long steps, double stepsPerSecond);
  void showError(const QString& text);
  void showPlanOf(const nlohmann::json& spec);
  void previewPlan();
  void exportScript();
  void pollIndex();
  void onEvent(const nlohmann::json& e);

  QString runsRoot_;
  SweepForm* form_ = nullptr;
  QLabel* preview_ = nullptr;
  QLabel* message_ = nullptr;
  QLabel* progress_ = nullptr;
  QString planNote_;  // the last preview's plan, shown beside the index's counts until a launch
  QProgressBar* bar_ = nullptr;
  // Preview, Launch and Export stay off while the spec does not expand (the preview line
  // says why); Launch also while a sweep runs.
  QPushButton* previewButton_ = nullptr;
  QPushButton* exportButton_ = nullptr;
  bool specValid_ = false;
  QPushButton* launch_ = nullptr;
  QPushButton* stop_ = nullptr;
  QTableView* table_ = nullptr;
  SweepPointsModel* model_ = nullptr;
  SweepProcess* process_ = nullptr;
  QTimer* poll_ = nullptr;
  QString sweepDir_;     // the sweep shown in the table
  bool polling_ = false;
  int previewGeneration_ = 0;  // the newest preview's number: older estimates are dropped
};

}  // namespace lwb::app::pages
