#include "data/data_location.h"

#include "io/input_error.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

// engine/data/CMakeLists.txt defines it for this file alone (the source tree's copy).
#ifndef LWB_SOURCE_DATA_DIR
#error "LWB_SOURCE_DATA_DIR must come from CMake (resources/data of the source tree)"
#endif

namespace fs = std::filesystem;

namespace lwb::data {
namespace {

// The running program's own folder, whoever links the engine (CLI, app, tests): Linux
// only, which is what the project targets; elsewhere the other folders still apply.
fs::path programDir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

bool isDir(const fs::path& p) {
  std::error_code ec;
  return !p.empty() && fs::is_directory(p, ec);
}

}  // namespace

bool isBundledDataName(std::string_view path) { return path.substr(0, kBundledDataPrefix.size()) == kBundledDataPrefix; }

std::vector<std::string> bundledDataDirs() {
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("LWB_DATA_DIR"); env && *env) candidates.emplace_back(env);
  if (const fs::path dir = programDir(); !dir.empty())
    candidates.push_back(dir.parent_path() / "share" / "lipschitz-workbench" / "data");
  candidates.emplace_back(LWB_SOURCE_DATA_DIR);
  std::vector<std::string> out;
  for (const fs::path& c : candidates)
    if (isDir(c)) out.push_back(c.lexically_normal().string());
  return out;
}

std::optional<std::string> findDataPath(const std::string& path) {
  if (!isBundledDataName(path)) return path;
  const fs::path rel = fs::path(path.substr(kBundledDataPrefix.size())).lexically_normal();
  // "@data/../x" would escape the data folder; such a name is no bundled file.
  if (rel.empty() || rel.is_absolute() || *rel.begin() == "..") return std::nullopt;
  for (const std::string& dir : bundledDataDirs()) {
    std::error_code ec;
    const fs::path candidate = fs::path(dir) / rel;
    if (fs::exists(candidate, ec)) return candidate.string();
  }
  return std::nullopt;
}

std::string resolveDataPath(const std::string& path) {
  if (auto found = findDataPath(path)) return *found;
  std::string searched;
  for (const std::string& dir : bundledDataDirs()) searched += (searched.empty() ? "" : ", ") + dir;
  throw InputError("data_path: bundled file '" + path + "' not found (searched: " +
                   (searched.empty() ? std::string("no data folder exists") : searched) +
                   "; set LWB_DATA_DIR to the folder holding the project's resources/data)");
}

}  // namespace lwb::data
