// Where the data a config names lives. Presets name the datasets shipped with the program
// as "@data/<path>" (resources/data in the source tree, share/lipschitz-workbench/data
// when installed), so a preset works from any clone location and from the installed
// package alike; any other data_path is the user's own file or folder and is used as
// given (relative paths against the current directory). No LibTorch, no Qt: the trainer,
// the CLI and the app's run form all resolve through here.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lwb::data {

inline constexpr std::string_view kBundledDataPrefix = "@data/";

bool isBundledDataName(std::string_view path);

// The folders a bundled name is looked up in, first match wins:
//   1. $LWB_DATA_DIR (an override: a relocated or trimmed copy, tests),
//   2. <folder of the running program>/../share/lipschitz-workbench/data (the installed
//      layout; also a `cmake --install` prefix),
//   3. <source tree>/resources/data, fixed at compile time (a developer build).
// Folders that do not exist are left out.
std::vector<std::string> bundledDataDirs();

// "@data/<rel>": the first bundled folder holding <rel>, or nullopt. Any other path is
// returned unchanged (existing or not: the dataset reader names a missing file).
std::optional<std::string> findDataPath(const std::string& path);

// As findDataPath, but a bundled name that is found nowhere throws InputError naming the
// file and the folders searched.
std::string resolveDataPath(const std::string& path);

}  // namespace lwb::data
