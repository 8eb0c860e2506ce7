// Robustness (000 §3.3, Fig. 3): pick any number of MNIST / CIFAR-10 runs or checkpoints,
// compute on a worker (progress, Cancel) the accuracy under a PGD-l2 attack and the accuracy
// certified by the Lipschitz bound vs eps, and the mean probability of the correct class vs
// eps; one colour per run (PGD solid, certified dashed), a table, CSV / PNG / PDF export, and
// the selected run's first held-out example attacked at each eps.
#pragma once

#include "app/page.h"
#include "app/pages/robustness/robustness_job.h"

#include <QLatin1String>
#include <QWidget>

#include <vector>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QUndoStack;

namespace lwb::widgets {
class CurvePlot;
}  // namespace lwb::widgets

namespace lwb::app::pages {

class LatestWins;

class RobustnessPage : public QWidget, public Page {
  Q_OBJECT

 public:

  explicit RobustnessPage(RunManager* sessionRuns = nullptr, QWidget* parent = nullptr);
  ~RobustnessPage() override;

  QString title() const override { return tr("&Robustness"); }
  QWidget* widget() override { return this; }
  // --robustness RUN_DIR|CHECKPOINT...: adds them and computes at once.
  bool applyOptions(const AppOptions& options, QString* error) override;

  void addTargets(const QStringList& targets);
  QStringList targets() const;
  // "Remove selected" (Delete in the list): one undo step (Edit → Undo, Ctrl+Z) that puts the
  // targets back in their rows; the results already computed are not touched.
  void removeSelectedTargets();
  QUndoStack* undoStack() const override { return undo_; }
  // Parses the eps field ("0, 0.5, 1"); false with *error naming the bad entry.
  bool request(RobustnessRequest* out, QString* error) const;
  // Computes every target on the worker; results replace the previous ones.
  void compute();
  void cancel();
  bool isBusy() const;

  const std::vector<RobustnessOutcome>& outcomes() const { return outcomes_; }
  QString errorText() const;
  bool exportTableCsv(const QString& path, QString* error = nullptr) const;
  // `path` ends in .png or .pdf: writes <stem>-accuracy.<ext> and <stem>-pcorrect.<ext>.
  bool savePlots(const QString& path, QString* error = nullptr);
  widgets::CurvePlot* accuracyPlot() const { return accuracy_; }
  widgets::CurvePlot* pCorrectPlot() const { return pCorrect_; }
  QTableWidget* table() const { return table_; }

 Q_SIGNALS:
  void computed();  // results shown (possibly with errors for some targets)

 private:
  QHBoxLayout* createTopBar();
  QWidget* createContent();
  void showOutcomes(std::vector<RobustnessOutcome> outcomes, const QStringList& errors);
  void showImages();
  void fitColumns();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void showMessage(const QString& text, bool error);
  void chooseRunFolder();
  void chooseCheckpoint();
  void exportDialog();
  void savePlotsDialog();

  friend class RemoveTargetsCommand;
  // The targets with these texts out of the list, each with the row it had (for undo).
  std::vector<std::pair<int, QString>> takeTargets(const QStringList& texts);
  void putBackTargets(const std::vector<std::pair<int, QString>>& taken);

  RunManager* sessionRuns_ = nullptr;
  QUndoStack* undo_ = nullptr;
  LatestWins* worker_ = nullptr;
  QListWidget* targets_ = nullptr;
  QWidget* targetButtons_ = nullptr;  // under the list: the top bar had no room for them in German
  QLineEdit* eps_ = nullptr;
  QSpinBox* examples_ = nullptr;
  QSpinBox* steps_ = nullptr;
  QPushButton* compute_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* message_ = nullptr;
  widgets::CurvePlot* accuracy_ = nullptr;
  widgets::CurvePlot* pCorrect_ = nullptr;
  QTableWidget* table_ = nullptr;
  QComboBox* imageRun_ = nullptr;
  QWidget* images_ = nullptr;
  std::vector<RobustnessOutcome> outcomes_;
};

}  // namespace lwb::app::pages
