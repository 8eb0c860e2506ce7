#include "sweep/sweep_spec.h"

#include "io/json_read.h"
#include "io/input_error.h"
#include "run/run_config.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <system_error>

// engine/sweep/CMakeLists.txt defines it for this file alone (the source tree's presets).
#ifndef LWB_SOURCE_PRESETS_DIR
#error "LWB_SOURCE_PRESETS_DIR must come from CMake (resources/presets of the source tree)"
#endif

namespace fs = std::filesystem;
using nlohmann::json;

namespace lwb::sweep {
namespace {

constexpr uint64_t kMaxSpecBytes = 4 << 20;

json readJsonFile(const fs::path& file, const char* what) {
  // The shared reader: regular files only, the size cap, the nesting-depth limit.
  json j = jsonio::readFile(file.string(), kMaxSpecBytes);
  if (!j.is_object()) throw InputError(file.string() + ": the " + what + " must be a JSON object");
  return j;
}

json resolveBase(const std::string& name, const fs::path& specDir) {
  std::error_code ec;
  for (const fs::path& candidate : {fs::path(name), specDir / name})
    if (!name.empty() && fs::is_regular_file(candidate, ec)) return readJsonFile(candidate, "base config");
  if (name.find('/') == std::string::npos && name.find(".json") == std::string::npos)
    for (const fs::path& dir : presetDirs())
      if (fs::is_regular_file(dir / (name + ".json"), ec)) return readJsonFile(dir / (name + ".json"), "preset");
  std::string searched;
  for (const fs::path& dir : presetDirs()) searched += (searched.empty() ? "" : ", ") + dir.string();
  throw InputError("base: '" + name + "' is neither a config file nor a preset id (presets searched: " +
                   (searched.empty() ? std::string("none found") : searched) + ")");
}

Grid parseGrid(const json& g, const std::string& where) {
  if (!g.is_object()) throw InputError(where + ": must be an object {\"dotted.key\": [values…]}");
  Grid grid;
  for (const auto& [key, entry] : g.items()) grid.push_back({key, gridValues(where + "." + key, entry)});
  return grid;
}

void setKey(json& config, const std::string& key, const json& value) {
  run::applyOverride(config, key + "=" + value.dump());
}

int64_t gridPoints(const Grid& g) {
  int64_t n = 1;
  for (const GridAxis& a : g) {
    n *= static_cast<int64_t>(a.values.size());
    if (n > kMaxSweepPoints) return kMaxSweepPoints + 1;
  }
  return n;
}

}  // namespace

std::vector<fs::path> presetDirs() {
  std::vector<fs::path> out, candidates;
  if (const char* env = std::getenv("LWB_PRESETS_DIR"); env && *env) candidates.emplace_back(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(exe.parent_path().parent_path() / "share" / "lipschitz-workbench" / "presets");
  candidates.emplace_back(LWB_SOURCE_PRESETS_DIR);
  for (const fs::path& c : candidates)
    if (fs::is_directory(c, ec)) out.push_back(c.lexically_normal());
  return out;
}

// A value listed twice would run the same point twice under two ids.
void requireDistinct(const std::string& key, const std::vector<json>& values) {
  std::set<json> seen;
  for (const json& v : values)
    if (!seen.insert(v).second) throw InputError(key + ": value " + v.dump() + " appears more than once");
}

std::vector<json> gridValues(const std::string& key, const json& entry) {
  if (entry.is_array()) {
    if (entry.empty()) throw InputError(key + ": empty list of values");
    for (const json& v : entry)
      if (v.is_null()) throw InputError(key + ": null is not a value");
    std::vector<json> out(entry.begin(), entry.end());
    requireDistinct(key, out);
    return out;
  }
  if (!entry.is_object())
    throw InputError(key + ": expected a list of values or a range {\"from\", \"to\", \"count\", \"scale\"}");
  for (const auto& [k, v] : entry.items())
    if (k != "from" && k != "to" && k != "count" && k != "scale")
      throw InputError(key + "." + k + ": unknown range key (from, to, count, scale)");
  const auto number = [&](const char* k) {
    const auto it = entry.find(k);
    if (it == entry.end() || !it->is_number() || !std::isfinite(it->get<double>()))
      throw InputError(key + "." + k + ": a range needs a finite number here");
    return it->get<double>();
  };
  const double from = number("from"), to = number("to");
  const auto c = entry.find("count");
  if (c == entry.end() || !c->is_number_integer() || c->get<int64_t>() < 1 || c->get<int64_t>() > 10000)
    throw InputError(key + ".count: an integer from 1 to 10000");
  const int64_t count = c->get<int64_t>();
  const std::string scale = entry.value("scale", std::string("linear"));
  if (scale != "linear" && scale != "log") throw InputError(key + ".scale: 'linear' or 'log', not '" + scale + "'");
  if (scale == "log" && (from <= 0 || to <= 0)) throw InputError(key + ": a log range needs from > 0 and to > 0");
  std::vector<json> out;
  for (int64_t i = 0; i < count; ++i) {
    const double t = count == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(count - 1);
    const double v = scale == "log" ? std::exp(std::log(from) + t * (std::log(to) - std::log(from)))
                                    : from + t * (to - from);
    // Rounded to 6 significant digits: the values read as typed (0.001, not 0.0010000000000000002).
    std::ostringstream s;
    s.precision(6);
    s << v;
    out.push_back(std::stod(s.str()));
  }
  requireDistinct(key, out);  // from = to, or a range finer than 6 digits
  return out;
}

SweepSpec parseSweepSpec(const json& spec, const fs::path& specDir) {
  if (!spec.is_object()) throw InputError("the sweep spec must be a JSON object");
  for (const auto& [k, v] : spec.items())
    if (k != "base" && k != "grid" && k != "seeds" && k != "steps" && k != "name")
      throw InputError(k + ": unknown sweep spec key (base, grid, seeds, steps, name)");
  SweepSpec s;
  s.source = spec;
  const auto base = spec.find("base");
  if (base != spec.end() && base->is_object()) {  // a config written out in full (the Sweeps page)
    s.baseName = "(inline)";
    s.base = *base;
  } else {
    if (base == spec.end() || !base->is_string() || base->get<std::string>().empty())
      throw InputError("base: the spec needs \"base\": a preset id, a config file path or a config object");
    s.baseName = base->get<std::string>();
    s.base = resolveBase(s.baseName, specDir);
  }

  if (const auto g = spec.find("grid"); g != spec.end()) {
    if (g->is_array()) {
      if (g->empty()) throw InputError("grid: empty list of grids");
      for (size_t i = 0; i < g->size(); ++i) s.grids.push_back(parseGrid((*g)[i], "grid[" + std::to_string(i) + "]"));
    } else {
      s.grids.push_back(parseGrid(*g, "grid"));
    }
  }
  if (const auto seeds = spec.find("seeds"); seeds != spec.end()) {
    if (!seeds->is_array() || seeds->empty())
      throw InputError("seeds: expected a non-empty list of integers ≥ 0, e.g. [0, 1, 2]");
    for (const json& v : *seeds) {
      if (!v.is_number_integer() || v.get<int64_t>() < 0)
        throw InputError("seeds: " + v.dump() + " is not an integer ≥ 0");
      s.seeds.push_back(v.get<uint64_t>());
    }
    if (std::set<uint64_t>(s.seeds.begin(), s.seeds.end()).size() != s.seeds.size())
      throw InputError("seeds: a seed appears more than once");
  }
  // A grid axis "seed" and "seeds" would both set the seed, and seeds would silently win.
  for (const Grid& g : s.grids)
    for (const GridAxis& axis : g)
      if (axis.key == "seed" && !s.seeds.empty())
        throw InputError("grid.seed and seeds both vary the seed; list the seeds in one of them");
  bool anyAxis = false;
  for (const Grid& g : s.grids) anyAxis = anyAxis || !g.empty();
  if (!anyAxis && s.seeds.size() < 2)
    throw InputError("grid: empty (name at least one key to vary, or two or more seeds)");
  if (s.grids.empty()) s.grids.emplace_back();
  if (const auto st = spec.find("steps"); st != spec.end()) {
    if (!st->is_number_integer() || st->get<int64_t>() < 1) throw InputError("steps: an integer ≥ 1");
    s.steps = st->get<int64_t>();
    // As with seeds: "steps" is applied last and would make every grid.steps point the same run.
    for (const Grid& g : s.grids)
      for (const GridAxis& axis : g)
        if (axis.key == "steps")
          throw InputError("grid.steps and steps both set the number of steps; list them in one of them");
  }
  // Each value on its own against the base: the message names the grid key and the value, or
  // the base when the base alone fails the same way (its own unknown key was blamed on the
  // first grid value).
  std::optional<std::string> baseError;
  try {
    run::parseRunConfig(s.base);
  } catch (const InputError& e) {
    baseError = e.what();
  }
  for (size_t gi = 0; gi < s.grids.size(); ++gi)
    for (const GridAxis& axis : s.grids[gi])
      for (const json& v : axis.values) {
        json config = s.base;
        const std::string where = (s.grids.size() > 1 ? "grid[" + std::to_string(gi) + "]." : "grid.") + axis.key;
        try {
          setKey(config, axis.key, v);
          run::parseRunConfig(config);
        } catch (const InputError& e) {
          const std::string msg = e.what();
          // A value that only makes sense with another axis's value (σmax of a method the
          // base does not use) is checked per point; unknown keys and bad values are not.
          if (baseError && *baseError == msg) throw InputError("base " + s.baseName + ": " + msg);
          throw InputError(where + ": value " + v.dump() + ": " + msg);
        }
      }
  if (countPoints(s) > kMaxSweepPoints)
    throw InputError("the spec expands to more than " + std::to_string(kMaxSweepPoints) + " points");
  return s;
}

SweepSpec loadSweepSpec(const fs::path& file) {
  const json spec = readJsonFile(file, "sweep spec");
  try {
    return parseSweepSpec(spec, file.parent_path());
  } catch (const InputError& e) {
    throw InputError(file.string() + ": " + e.what());
  }
}

int64_t countPoints(const SweepSpec& spec) {
  int64_t n = 0;
  for (const Grid& g : spec.grids) n += gridPoints(g);
  return n * static_cast<int64_t>(std::max<size_t>(1, spec.seeds.size()));
}

std::vector<SweepPoint> expandSweep(const SweepSpec& spec) {
  const int64_t total = countPoints(spec);
  if (total > kMaxSweepPoints) throw InputError("the spec expands to more than " + std::to_string(kMaxSweepPoints) + " points");
  const int width = std::max<int>(4, static_cast<int>(std::to_string(std::max<int64_t>(total - 1, 0)).size()));
  std::vector<SweepPoint> points;
  points.reserve(static_cast<size_t>(total));
  // The grids of a list are a union: a point whose config an earlier grid already gave is left
  // out (it ran twice, under two ids).
  std::set<std::string> configs;
  for (const Grid& grid : spec.grids) {
    // Odometer over the axes; the last axis varies fastest, seeds fastest of all.
    std::vector<size_t> at(grid.size(), 0);
    for (int64_t n = gridPoints(grid), k = 0; k < n; ++k) {
      json assignment = json::object();
      for (size_t a = 0; a < grid.size(); ++a) assignment[grid[a].key] = grid[a].values[at[a]];
      const std::vector<uint64_t> seeds = spec.seeds.empty() ? std::vector<uint64_t>{} : spec.seeds;
      for (size_t si = 0; si < std::max<size_t>(1, seeds.size()); ++si) {
        SweepPoint p;
        p.index = static_cast<int64_t>(points.size());
        std::string id = std::to_string(p.index);
        p.id = std::string(static_cast<size_t>(std::max<int>(0, width - static_cast<int>(id.size()))), '0') + id;
        p.assignment = assignment;
        p.config = spec.base;
        for (const auto& [key, value] : assignment.items()) setKey(p.config, key, value);
        if (!seeds.empty()) {
          p.assignment["seed"] = seeds[si];
          p.config["seed"] = seeds[si];
        }
        if (spec.steps) p.config["steps"] = *spec.steps;
        try {
          p.config = run::toJson(run::parseRunConfig(p.config));  // resolved: every key explicit
        } catch (const InputError& e) {
          throw InputError("point " + p.id + " (" + describe(p.assignment) + "): " + e.what());
        }
        if (!configs.insert(p.config.dump()).second) continue;
        points.push_back(std::move(p));
      }
      for (size_t a = grid.size(); a-- > 0;) {
        if (++at[a] < grid[a].values.size()) break;
        at[a] = 0;
      }
    }
  }
  return points;
}

std::string describe(const json& assignment) {
  std::string out;
  for (const auto& [k, v] : assignment.items()) {
    out += (out.empty() ? "" : " ") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
  }
  return out;
}

}  // namespace lwb::sweep
