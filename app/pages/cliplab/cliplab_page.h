// Clip Lab: a teaching page for spectral clipping, driven live on a projector. The matrix
// (left, top) and the method (left, bottom) feed four tabs: what the method does
// (ConstraintView), Newton–Schulz step by step, nested vs ABD in low precision, and the
// weight-decay equilibria. All computation runs on workers with latest-wins scheduling
// (LatestWins): a dragged slider never queues stale work and the GUI thread never waits.
#pragma once

#include "app/page.h"
#include "io/raw_tensor.h"
#include "lab/lab.h"

#include <QElapsedTimer>
#include <QLatin1String>
#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QTabWidget;

namespace lwb::app::pages {

class CapSweepView;
class LecturePresetBar;
class ConstraintView;
class EquilibriumView;
class StiefelView;
class LatestWins;
class MatrixSourcePanel;
class MethodForm;
class NsStepsView;

class ClipLabPage : public QWidget, public Page {
  Q_OBJECT

 public:

  explicit ClipLabPage(QWidget* parent = nullptr);

  QString title() const override { return tr("Clip &Lab"); }
  QWidget* widget() override { return this; }
  // --lab-preset ID: applies that lecture preset.
  bool applyOptions(const AppOptions& options, QString* error) override;

  // Lecture presets (cliplab_presets.h), by id; false for an unknown id.
  bool applyPreset(const QString& id);
  QStringList presetIds() const;

  // Opens a tensor file as the matrix source (read on a worker).
  void openCheckpoint(const QString& path);
  // Uses a tensor of an already loaded file (the Inspector's "Open in Clip Lab").
  void useTensor(std::shared_ptr<const io::TensorFile> file, const QString& name);

  lab::LabMatrixPtr matrix() const { return matrix_; }
  // Above this estimate (lab::estimatedSeconds) a request waits for "Compute anyway": one
  // LibTorch call cannot be interrupted, so a slider touch must not start a minute of work
  // (ABD at 1024×4096). 8 s by default; tests lower it to exercise the rule on small matrices.
  void setConfirmAboveSeconds(double seconds) { confirmAboveSeconds_ = seconds; }
  double confirmAboveSeconds() const { return confirmAboveSeconds_; }
  void replotNow();

  MatrixSourcePanel* sourcePanel() const { return source_; }
  MethodForm* methodForm() const { return method_; }
  QWidget* controlsPane() const { return controls_; }
  QWidget* methodBox() const { return methodBox_; }
  ConstraintView* constraintView() const { return constraint_; }
  NsStepsView* newtonSchulzView() const { return ns_; }
  EquilibriumView* equilibriumView() const { return equilibrium_; }
  StiefelView* stiefelView() const { return stiefel_; }
  LatestWins* matrixRunner() const { return matrixRunner_; }
  LatestWins* updateRunner() const { return updateRunner_; }

 Q_SIGNALS:
  void matrixReady();
  void updateShown();  // a constraint result reached the plots

 private:
  QHBoxLayout* createPresetBar();
  QWidget* createControls();
  QWidget* createViews();
  void connectComputations();
  void cancelAll();
  void onSourceChanged();
  // `confirmed`: run even if the estimate says it takes long (the "Compute anyway" button).
  void requestUpdate(bool confirmed = false);
  void submitMatrixJob(std::function<lab::LabMatrixPtr(const CancelFlag&)> build, std::optional<lab::MatrixSpec> spec);
  void updateStatus();
  void showPresetCue(int index);
  // The Matrix/Method panel only on the tabs that read it.
  void showControlsForTab();

  MatrixSourcePanel* source_ = nullptr;
  MethodForm* method_ = nullptr;
  ConstraintView* constraint_ = nullptr;
  NsStepsView* ns_ = nullptr;
  CapSweepView* sweep_ = nullptr;
  EquilibriumView* equilibrium_ = nullptr;
  StiefelView* stiefel_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QWidget* controls_ = nullptr;     // the left pane: matrix source, method, status
  QWidget* methodBox_ = nullptr;    // the Method group
  LecturePresetBar* presetBar_ = nullptr;
  QLabel* status_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QPushButton* computeAnyway_ = nullptr;
  LatestWins* matrixRunner_ = nullptr;
  LatestWins* updateRunner_ = nullptr;
  LatestWins* fileRunner_ = nullptr;

  lab::LabMatrixPtr matrix_;
  std::optional<lab::MatrixSpec> matrixSpec_;  // the spec matrix_ was built from (random sources)
  std::shared_ptr<const io::TensorFile> file_;
  double lastUpdateSeconds_ = 0;
  double confirmAboveSeconds_ = 8.0;
  bool waitForRelease_ = false;
};

}  // namespace lwb::app::pages
