#include "run/checkpoint.h"

#include "io/input_error.h"
#include "io/safetensors.h"
#include "io/tensor_convert.h"

#include <algorithm>
#include <charconv>

namespace lwb::run {

namespace fs = std::filesystem;

std::string checkpointFileName(int64_t step) { return "step_" + std::to_string(step) + ".safetensors"; }

void writeCheckpoint(const fs::path& file, const Checkpoint& ckpt) {
  std::vector<io::RawTensor> raw;
  raw.reserve(ckpt.tensors.size());
  for (const auto& [name, t] : ckpt.tensors) raw.push_back(io::fromTensor(name, t));
  const std::map<std::string, std::string> metadata{
      {"format", kCheckpointFormat},
      {"step", std::to_string(ckpt.step)},
      {"config", ckpt.config.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)}};
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  io::writeSafetensors(file, raw, metadata);
}

RunConfig checkpointConfig(const Checkpoint& ckpt, const std::string& what, const std::string& device) {
  auto j = ckpt.config;
  j.erase("versions");
  if (!device.empty()) j["device"] = device;
  try {
    return parseRunConfig(j);
  } catch (const InputError& e) {
    throw InputError(what + ": config in __metadata__: " + e.what());
  }
}

Checkpoint readCheckpoint(const fs::path& file) {
  const auto f = io::readSafetensors(file);
  const auto where = file.string() + ": ";
  const auto meta = [&](const char* key) -> const std::string& {
    const auto it = f.metadata.find(key);
    if (it == f.metadata.end())
      throw InputError(where + "not a Lipschitz Workbench checkpoint (no '" + key + "' in __metadata__)");
    return it->second;
  };
  if (meta("format") != kCheckpointFormat)
    throw InputError(where + "unsupported checkpoint format '" + meta("format") + "'");
  Checkpoint c;
  const auto& stepText = meta("step");
  const auto [end, err] = std::from_chars(stepText.data(), stepText.data() + stepText.size(), c.step);
  if (err != std::errc() || end != stepText.data() + stepText.size() || c.step < 0)
    throw InputError(where + "__metadata__ step '" + stepText + "' is not a step number");
  try {
    c.config = nlohmann::json::parse(meta("config"));
  } catch (const nlohmann::json::exception&) {
    throw InputError(where + "__metadata__ config is not valid JSON");
  }
  if (!c.config.is_object()) throw InputError(where + "__metadata__ config is not a JSON object");
  for (const auto& t : f.tensors) c.tensors[t.name] = io::toTensor(t);
  return c;
}

std::vector<std::pair<int64_t, fs::path>> listCheckpoints(const fs::path& dir) {
  std::vector<std::pair<int64_t, fs::path>> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const auto name = entry.path().filename().string();
    constexpr std::string_view prefix = "step_", suffix = ".safetensors";
    if (name.size() <= prefix.size() + suffix.size() || name.rfind(prefix, 0) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    int64_t step = 0;
    const char* first = name.data() + prefix.size();
    const char* last = name.data() + name.size() - suffix.size();
    const auto [end, err] = std::from_chars(first, last, step);
    if (err == std::errc() && end == last && entry.is_regular_file(ec)) out.emplace_back(step, entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<fs::path> newestCheckpoint(const fs::path& runDir) {
  const auto all = listCheckpoints(runDir / "checkpoints");
  if (all.empty()) return std::nullopt;
  return all.back().second;
}

void pruneCheckpoints(const fs::path& dir, int64_t keep) {
  const auto all = listCheckpoints(dir);
  std::error_code ec;
  for (size_t i = 0; i + static_cast<size_t>(std::max<int64_t>(keep, 1)) < all.size(); ++i) fs::remove(all[i].second, ec);
}

}  // namespace lwb::run
