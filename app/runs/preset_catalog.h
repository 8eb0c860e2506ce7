// The presets the run panel offers: resources/presets/<id>.json. Looked up in
// $LWB_PRESETS_DIR, then the source tree's resources/presets (a developer build), then
// the copy compiled into the app (:/presets), so an installed app still has them. Presets
// name bundled data as "@data/...", which the engine resolves (data/data_location.h).
#pragma once

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <vector>

namespace lwb::app {

struct Preset {
  QString id;       // file name without .json
  QString summary;  // "chars · lipschitz_gpt · muon · spectral_soft_cap σmax=3"
  nlohmann::json config;
};

class PresetCatalog {
 public:
  // Reads every *.json of the first folder that has any; malformed files are skipped and
  // named in problems().
  static PresetCatalog load();
  static PresetCatalog loadFrom(const QString& folder);

  QStringList ids() const;
  const Preset* find(const QString& id) const;
  QStringList problems() const { return problems_; }

 private:
  std::vector<Preset> presets_;
  QStringList problems_;
};

}  // namespace lwb::app
