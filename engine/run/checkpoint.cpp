#include "run/checkpoint.h"

#include "io/input_error.h"
#include "io/safetensors.h"
#include "io/tensor_convert.h"
#include "run/run_directory_reader.h"

#include <algorithm>
#include <charconv>
#include <string_view>

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

Checkpoint readCheckpoint(const fs::path& file) { return checkpointFrom(io::readSafetensors(file), file.string()); }

Checkpoint checkpointFrom(const io::TensorFile& f, const std::string& what) {
  const auto where = what + ": ";
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

void pruneCheckpoints(const fs::path& dir, int64_t keep) {
  const auto all = listCheckpoints(dir);
  std::error_code ec;
  for (size_t i = 0; i + static_cast<size_t>(std::max<int64_t>(keep, 1)) < all.size(); ++i) fs::remove(all[i].path, ec);
}

}  // namespace lwb::run
