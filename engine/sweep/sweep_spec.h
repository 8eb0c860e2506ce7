// A sweep spec (ARCHITECTURE.md, `lipschitz-cli sweep`): {"base": PRESET_ID_OR_PATH,
// "grid": {"dotted.key": [values…], …}, "seeds": [0, 1, …], "steps": N?} — the cross
// product of grid × seeds. Also accepted: "grid" as a list of such objects (the union of
// their cross products, for sweeps whose keys depend on each other, e.g. λ for weight decay
// but σmax for the spectral methods), and a range object in place of a value list:
// {"from": A, "to": B, "count": N, "scale": "linear"|"log"}. Every point is validated as a
// run config before anything runs; errors name the spec key ("grid.optimizer.lr: value -1:
// …"). No LibTorch, no Qt.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace lwb::sweep {

struct GridAxis {
  std::string key;                   // dotted config key
  std::vector<nlohmann::json> values;
};
using Grid = std::vector<GridAxis>;  // one cross product, axes in spec order

struct SweepSpec {
  nlohmann::json source;        // the spec as written
  std::string baseName;         // "mnist_muon_softcap" or a path
  nlohmann::json base;          // the base config it names
  std::vector<Grid> grids;      // union of cross products (one for the object form)
  std::vector<uint64_t> seeds;  // empty: the base's own seed
  std::optional<int64_t> steps;
};

struct SweepPoint {
  int64_t index = 0;
  std::string id;             // zero-padded index: the run folder's name
  nlohmann::json assignment;  // {"optimizer.lr": 0.1, …, "seed": 0}: what sets it apart
  nlohmann::json config;      // the full config `lipschitz-cli train` gets
};

inline constexpr int64_t kMaxSweepPoints = 100000;

// The preset folders a base id is looked up in, first match wins: $LWB_PRESETS_DIR,
// <program folder>/../share/lipschitz-workbench/presets, the source tree's resources/presets.
std::vector<std::filesystem::path> presetDirs();

// `specDir` resolves a relative base path. InputError naming the key for everything wrong.
SweepSpec parseSweepSpec(const nlohmann::json& spec, const std::filesystem::path& specDir);
SweepSpec loadSweepSpec(const std::filesystem::path& file);

// The values of one grid entry: a non-empty list, or a range object.
std::vector<nlohmann::json> gridValues(const std::string& key, const nlohmann::json& entry);

// Every point, numbered in order, each validated by run::parseRunConfig (InputError naming the
// point's keys); a point whose resolved config an earlier one already has (overlapping grids
// of a list) is left out: the grids are a union.
std::vector<SweepPoint> expandSweep(const SweepSpec& spec);
// The number of points without building them.
int64_t countPoints(const SweepSpec& spec);

// "optimizer.lr=0.1 constraint.method=spectral_hammer seed=0"
std::string describe(const nlohmann::json& assignment);

}  // namespace lwb::sweep
