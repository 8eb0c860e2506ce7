// Sweeps: build a sweep spec from a preset and a grid (keys from the config registry, values
// as lists or ranges, seeds), preview the point count and an estimated time, launch it on
// this machine or on Slurm (or export the batch script), and watch every point's progress.
// The sweep itself is `lipschitz-cli sweep` in a child process (sweep_process.h), so it
// survives nothing it should not and the GUI thread never waits on it; the per-point table
// reads the sweep's run index on a worker.
#pragma once

#include "app/page.h"

#include <QLatin1String>
#include <QWidget>

#include <nlohmann/json.hpp>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;
class QTableWidget;
class QTimer;

namespace lwb::app::pages {

class SweepPointsModel;
class SweepProcess;

class SweepsPage : public QWidget, public Page {
  Q_OBJECT

 public:
  static constexpr QLatin1String kId{"sweeps"};

  explicit SweepsPage(const PageServices& services, QWidget* parent = nullptr);
  ~SweepsPage() override;

  QString id() const override { return kId; }
  QString title() const override { return tr("S&weeps"); }
  QKeySequence shortcut() const override { return QKeySequence(Qt::CTRL | Qt::Key_6); }
  QWidget* widget() override { return this; }
  // --sweep SWEEP_DIR: shows that sweep's points and statuses.
  bool applyOptions(const AppOptions& options, QString* error) override;

  // The spec the form describes, or nullopt with *error naming the field.
  std::optional<nlohmann::json> spec(QString* error) const;
  // Points of the spec (0 with *error set when it is invalid).
  long long pointCount(QString* error) const;

  // Form access for tests and --sweep.
  void setPreset(const QString& id);
  void addGridRow(const QString& key, const QString& values);
  void setSeeds(const QString& seeds);
  void setSteps(int steps);
  void setOutputFolder(const QString& dir);
  void setBackend(const QString& backend);  // "local" | "slurm"
  void setJobs(int jobs);

  // Writes the spec into the output folder and starts the sweep (false, *error set, if the
  // spec or folder is refused).
  bool launch(QString* error);
  void stop();
  // Shows an existing sweep folder's points (points.json + index.sqlite).
  bool openSweep(const QString& dir, QString* error);
  bool isRunning() const;

  SweepPointsModel* pointsModel() const { return model_; }
  QString previewText() const;
  QString progressText() const;
  QString errorText() const;

 Q_SIGNALS:
  void sweepFinished(int exitCode);

 private:
  QWidget* createForm();
  QWidget* createPoints();
  void updatePreview();
  void showError(const QString& text);
  QStringList cliArgs(bool withBackendOptions) const;
  bool writeSpecFiles(QString* error) const;
  void previewPlan();
  void exportScript();
  void pollIndex();
  void onEvent(const nlohmann::json& e);
  void fillFormFromSpec(const QString& specFile);

  PresetCatalog presets_;
  QString runsRoot_;
  QComboBox* preset_ = nullptr;
  QSpinBox* steps_ = nullptr;
  QLineEdit* seeds_ = nullptr;
  QLineEdit* out_ = nullptr;
  QComboBox* backend_ = nullptr;
  QSpinBox* jobs_ = nullptr;
  QLineEdit* slurmArgs_ = nullptr;
  QTableWidget* grid_ = nullptr;
  QLabel* preview_ = nullptr;
  QLabel* message_ = nullptr;
  QLabel* progress_ = nullptr;
  QProgressBar* bar_ = nullptr;
  QPushButton* launch_ = nullptr;
  QPushButton* stop_ = nullptr;
  QTableView* table_ = nullptr;
  SweepPointsModel* model_ = nullptr;
  SweepProcess* process_ = nullptr;
  QTimer* poll_ = nullptr;
  QString sweepDir_;     // the sweep shown in the table
  bool polling_ = false;
  int previewGeneration_ = 0;  // the newest preview's number: older estimates are dropped
  double stepsPerSecond_ = 0;  // of earlier runs like these (time estimate), 0: unknown
};

}  // namespace lwb::app::pages
