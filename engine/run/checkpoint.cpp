#include "run/checkpoint.h"

#include "io/json_read.h"
#include "io/input_error.h"
#include "io/safetensors.h"
#include "io/tensor_convert.h"
#include "run/run_directory_reader.h"
#include "run/run_layout.h"

#include <signal.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <charconv>
#include <cstdio>
#include <string_view>

namespace lwb::run {

namespace fs = std::filesystem;

namespace {

// CRC-32 (zlib) over every tensor in name order: its name, dtype, shape and bytes. It catches
// a torn, truncated or bit-flipped file whose header still parses; it is no signature (a
// hostile file can carry a matching sum, and is then checked like any other file).
std::string tensorChecksum(std::vector<const io::RawTensor*> tensors) {
  std::sort(tensors.begin(), tensors.end(), [](const auto* a, const auto* b) { return a->name < b->name; });
  uLong crc = crc32(0L, Z_NULL, 0);
  const auto add = [&crc](const void* p, size_t n) {
    const auto* bytes = static_cast<const Bytef*>(p);
    while (n > 0) {  // zlib takes uInt lengths
      const auto chunk = static_cast<uInt>(std::min<size_t>(n, size_t{1} << 30));
      crc = crc32(crc, bytes, chunk);
      bytes += chunk;
      n -= chunk;
    }
  };
  for (const io::RawTensor* t : tensors) {
    add(t->name.data(), t->name.size() + 1);
    const std::string_view dtype = io::safetensorsName(t->dtype);
    add(dtype.data(), dtype.size());
    add(t->shape.data(), t->shape.size() * sizeof(int64_t));
    add(t->data.get(), t->nbytes);
  }
  char hex[16];
  std::snprintf(hex, sizeof hex, "%08lx", static_cast<unsigned long>(crc));
  return hex;
}

}  // namespace

std::string checkpointFileName(int64_t step) {
  return layout::kCheckpointPrefix + std::to_string(step) + layout::kCheckpointSuffix;
}

void writeCheckpoint(const fs::path& file, const Checkpoint& ckpt) {
  std::vector<io::RawTensor> raw;
  raw.reserve(ckpt.tensors.size());
  for (const auto& [name, t] : ckpt.tensors) raw.push_back(io::fromTensor(name, t));
  std::vector<const io::RawTensor*> all;
  for (const auto& r : raw) all.push_back(&r);
  const std::map<std::string, std::string> metadata{
      {"format", kCheckpointFormat},
      {"step", std::to_string(ckpt.step)},
      {"crc32", tensorChecksum(all)},
      {"config", ckpt.config.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)}};
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  io::writeSafetensors(file, raw, metadata);
}

RunConfig checkpointConfig(const Checkpoint& ckpt, const std::string& what, const std::string& device) {
  auto j = ckpt.config;
  for (const auto key : kConfigRecordKeys) j.erase(std::string(key));
  if (!device.empty()) j["device"] = device;
  try {
    return parseRunConfig(j);
  } catch (const InputError& e) {
    throw InputError(what + ": config in __metadata__: " + e.what());
  }
}

Checkpoint readCheckpoint(const fs::path& file) {
  Checkpoint c = checkpointFrom(io::readSafetensors(file), file.string());
  checkStepMatchesName(file, c.step);
  return c;
}

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
  // Checkpoints written before the sum existed have none; one that has it must match.
  if (const auto sum = f.metadata.find("crc32"); sum != f.metadata.end()) {
    std::vector<const io::RawTensor*> all;
    for (const auto& t : f.tensors) all.push_back(&t);
    if (tensorChecksum(all) != sum->second)
      throw InputError(where + "checksum mismatch (crc32 in __metadata__ is " + sum->second.substr(0, 16) +
                       "): the file is damaged");
  }
  c.config = jsonio::parse(meta("config"), what + ": __metadata__ config");
  if (!c.config.is_object()) throw InputError(where + "__metadata__ config is not a JSON object");
  for (const auto& t : f.tensors) c.tensors[t.name] = io::toTensor(t);
  return c;
}

void pruneCheckpoints(const fs::path& dir, int64_t keep, int64_t newestStep) {
  std::vector<CheckpointFile> all;
  try {
    all = listCheckpoints(dir);
  } catch (const std::exception&) {
    return;  // pruning is housekeeping: a folder that cannot be listed never stops training
  }
  // Only the run's own history counts: a file named past the step just written (a copy named
  // step_5000 in a 300-step run, a damaged checkpoint resumed from before) was counted as the
  // newest, and a real one was deleted to keep it. Such files are left alone.
  std::erase_if(all, [newestStep](const CheckpointFile& c) { return c.step > newestStep; });
  std::error_code ec;
  for (size_t i = 0; i + static_cast<size_t>(std::max<int64_t>(keep, 1)) < all.size(); ++i) fs::remove(all[i].path, ec);
  // A writer killed mid-write (kill -9, a lost node) leaves step_N.safetensors.tmp.<pid>
  // (io::writeFileAtomically): removed once no process of that pid is alive here. A live pid
  // may be another writer of this folder (on another machine the pid means nothing, so only
  // files at least a day old are removed whatever their pid says).
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const auto at = name.rfind(".safetensors.tmp.");
    if (name.rfind("step_", 0) != 0 || at == std::string::npos) continue;
    const std::string pidText = name.substr(at + 17);
    if (pidText.empty() || pidText.find_first_not_of("0123456789") != std::string::npos) continue;
    const long pid = std::strtol(pidText.c_str(), nullptr, 10);
    std::error_code te;
    const auto age = fs::file_time_type::clock::now() - fs::last_write_time(it->path(), te);
    const bool gone = pid > 0 && pid != ::getpid() && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
    if (gone || (!te && age > std::chrono::hours(24))) fs::remove(it->path(), te);
  }
}

}  // namespace lwb::run
