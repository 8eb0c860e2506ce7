// The Sweeps page's left pane: a preset, steps, seeds, the sweep folder, where it runs and how
// many at a time, and the grid of config keys and their values. It says what spec it
// describes (checked by the engine's own sweep reading), writes it, and fills itself from an
// opened sweep's spec.json.
#pragma once

#include "app/runs/preset_catalog.h"

#include <QWidget>

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

class QComboBox;
class QLineEdit;
class QSpinBox;
class QTableWidget;

namespace lwb::sweep {
struct SweepPoint;
}

namespace lwb::app::pages {

class SweepForm : public QWidget {
  Q_OBJECT

 public:
  SweepForm(PresetCatalog presets, const QString& runsRoot, QWidget* parent = nullptr);
  ~SweepForm() override;

  // The spec the form describes, or nullopt with *error naming the field.
  std::optional<nlohmann::json> spec(QString* error) const;
  // Its points, each a resolved run config (empty with *error set when it is invalid).
  std::vector<sweep::SweepPoint> points(QString* error) const;
  long long pointCount(QString* error) const;

  void setPreset(const QString& id);
  void addGridRow(const QString& key, const QString& values);
  void setSeeds(const QString& seeds);
  void setSteps(int steps);
  void setOutputFolder(const QString& dir);
  void setBackend(const QString& backend);  // "local" | "slurm"
  void setJobs(int jobs);
  // Fills the form from an opened sweep folder's spec.json (its preset base and its grid, or
  // the first of several); an unreadable spec leaves the form as it was. Returns a note when
  // the spec holds more than the form shows (several grids), else empty.
  QString fillFromSpec(const QString& specFile);

  QString outputFolder() const;
  int jobs() const;  // 0: one per core
  bool local() const;
  QStringList slurmArgs() const;
  // lipschitz-cli sweep's arguments for this form (with the sbatch options when asked).
  QStringList cliArgs(bool withBackendOptions) const;
  // Writes spec.input.json into the sweep folder (false, *error set, if refused).
  bool writeSpecFile(QString* error) const;

 Q_SIGNALS:
  void changed();

 private:
  void createFields();
  QWidget* createGrid();
  void connectFields();

  PresetCatalog presets_;
  QComboBox* preset_ = nullptr;
  QSpinBox* steps_ = nullptr;
  QLineEdit* seeds_ = nullptr;
  QLineEdit* out_ = nullptr;
  QComboBox* backend_ = nullptr;
  QSpinBox* jobs_ = nullptr;
  QLineEdit* slurmArgs_ = nullptr;
  QTableWidget* grid_ = nullptr;
};

}  // namespace lwb::app::pages
