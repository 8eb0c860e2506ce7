// Whole-file artefacts of a run directory (config, summary, status, spectra, checkpoints).
// metrics.jsonl, the one file read incrementally, is in metrics_reader.cpp.
#include "run/run_directory_reader.h"

#include "common/tr_noop.h"
#include "io/json_read.h"
#include "io/input_error.h"
#include "run/results_json.h"
#include "run/run_layout.h"
#include "run/spectra_format.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <fstream>
#include <string_view>

namespace lwb::run {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The file's bytes, or nullopt when it does not exist; InputError when it is not a regular
// file, larger than `cap`, or unreadable.
std::optional<std::string> readCapped(const fs::path& path, uint64_t cap) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::nullopt;
  const std::string where = path.string();
  if (!fs::is_regular_file(path, ec)) throw InputError(where + ": not a regular file");
  const uintmax_t size = fs::file_size(path, ec);
  if (ec) throw InputError(where + ": cannot read size (" + ec.message() + ")");
  if (size > cap) throw InputError(where + ": larger than " + std::to_string(cap >> 20) + " MiB");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(where + ": cannot be read");
  std::string bytes(static_cast<size_t>(size), '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  bytes.resize(static_cast<size_t>(in.gcount()));  // shorter when truncated meanwhile
  return bytes;
}

std::optional<json> readJsonObject(const fs::path& path) {
  const auto bytes = readCapped(path, RunDirectoryReader::kMaxJsonFileBytes);
  if (!bytes) return std::nullopt;
  json j = jsonio::parse(*bytes, path.string());
  if (!j.is_object()) throw InputError(path.string() + ": not a JSON object");
  return j;
}

// A non-negative integer member of an index entry, else an InputError naming the entry.
uint64_t indexInteger(const json& e, const char* key, const std::string& where) {
  const auto it = e.find(key);
  if (it == e.end() || !it->is_number_unsigned())
    throw InputError(where + ": '" + key + "' must be a non-negative integer");
  return it->get<uint64_t>();
}

std::string_view trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

}  // namespace

bool RunDirectoryReader::isRunDirectory(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir, ec) && (fs::exists(dir / layout::kConfigFile, ec) || fs::exists(dir / layout::kMetricsFile, ec));
}

RunDirectoryReader::RunDirectoryReader(fs::path dir) : dir_(std::move(dir)) {}

void RunDirectoryReader::requireDirectory() const {
  std::error_code ec;
  if (!fs::is_directory(dir_, ec)) throw InputError(dir_.string() + ": no such run directory");
}

std::optional<json> RunDirectoryReader::config() const {
  requireDirectory();
  return readJsonObject(file(layout::kConfigFile));
}

std::optional<RunSummary> RunDirectoryReader::summary() const {
  requireDirectory();
  const auto j = readJsonObject(file(layout::kSummaryFile));
  if (!j) return std::nullopt;
  return runSummaryFromJson(*j);
}

const char* const kInterruptedMessage = LWB_TR_NOOP(
    "RunState",
    "interrupted: no process is writing this run any more (killed or crashed); lipschitz-cli train --resume continues it "
    "from its last checkpoint, if it has one");

WriterState runFolderWriter(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return WriterState::Unknown;
  // A shared lock is refused while a writer holds its exclusive one (in this process too:
  // flock locks belong to the open file, not the process), and taken and dropped otherwise.
  const int rc = ::flock(fd, LOCK_SH | LOCK_NB);
  const int err = errno;
  ::close(fd);
  if (rc == 0) return WriterState::None;
  return err == EWOULDBLOCK ? WriterState::Writing : WriterState::Unknown;
}

std::optional<StatusRecord> RunDirectoryReader::liveStatus() const {
  auto s = status();
  if (s && s->status == RunStatus::Running && runFolderWriter(dir_.string()) == WriterState::None) {
    s->status = RunStatus::Failed;
    s->message = kInterruptedMessage;
  }
  return s;
}

std::optional<StatusRecord> RunDirectoryReader::status() const {
  requireDirectory();
  const fs::path path = file(layout::kStatusFile);
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::nullopt;
  if (!fs::is_regular_file(path, ec)) throw InputError(path.string() + ": not a regular file");
  // Two short lines by contract; whatever follows them is not read.
  std::ifstream in(path, std::ios::binary);
  std::string text(kMaxStatusBytes, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  const std::string_view all(text);
  const size_t firstEnd = std::min(all.find('\n'), all.size());
  const std::string_view word = trimmed(all.substr(0, firstEnd));
  if (word.empty()) return std::nullopt;  // created, not yet written (never with the engine's writer)
  std::string_view rest = firstEnd < all.size() ? all.substr(firstEnd + 1) : std::string_view();
  rest = trimmed(rest.substr(0, std::min(rest.find('\n'), rest.size())));
  StatusRecord s;
  s.message = std::string(rest);
  if (const auto known = parseRunStatus(word)) {
    s.status = *known;
  } else {
    s.status = RunStatus::Failed;
    if (s.message.empty()) s.message = "unknown status '" + std::string(word.substr(0, 64)) + "' in " + path.string();
  }
  return s;
}

std::vector<SpectraIndexEntry> RunDirectoryReader::spectraIndex(uint64_t* binFloatsOut, std::optional<int64_t> atMostStep) const {
  requireDirectory();
  const fs::path indexPath = file(layout::kSpectraIndexFile), binPath = file(layout::kSpectraDataFile);
  std::vector<SpectraIndexEntry> entries;
  if (binFloatsOut) *binFloatsOut = 0;
  const auto text = readCapped(indexPath, kMaxIndexBytes);
  if (!text) return entries;  // no snapshot yet, or spectra_every = 0
  const std::string where = indexPath.string();
  const json index = jsonio::parse(*text, where);
  if (!index.is_array()) throw InputError(where + ": expected a JSON array");

  // A torn trailing float (crash mid-write) is not addressable; whole floats only.
  std::error_code ec;
  const uint64_t binFloats = fs::exists(binPath, ec) ? fs::file_size(binPath, ec) / 4 : 0;
  if (ec) throw InputError(binPath.string() + ": cannot read size (" + ec.message() + ")");
  if (binFloatsOut) *binFloatsOut = binFloats;

  uint64_t total = 0;
  for (size_t i = 0; i < index.size(); ++i) {
    const json& e = index[i];
    const std::string at = where + ": entry " + std::to_string(i);
    if (!e.is_object()) throw InputError(at + ": expected an object");
    const auto step = e.find("step");
    if (step == e.end() || !step->is_number_integer() ||
        (step->is_number_unsigned() && step->get<uint64_t>() > uint64_t(INT64_MAX)))
      throw InputError(at + ": 'step' must be an integer");
    if (atMostStep && step->get<int64_t>() > *atMostStep) continue;
    const auto name = e.find("name");
    if (name == e.end() || !name->is_string()) throw InputError(at + ": 'name' must be a string");
    const uint64_t offset = indexInteger(e, "offset", at);
    const uint64_t count = indexInteger(e, "count", at);
    // Written so that it cannot overflow: offset + count <= binFloats.
    if (offset > binFloats || count > binFloats - offset)
      throw InputError(at + ": offset " + std::to_string(offset) + " + count " + std::to_string(count) +
                       " is beyond spectra.bin (" + std::to_string(binFloats) + " floats)");
    if (count > kMaxSpectrumValues)
      throw InputError(at + ": count " + std::to_string(count) + " is more singular values than a weight matrix has (at most " +
                       std::to_string(kMaxSpectrumValues) + ")");
    total += count;
    if (total > kMaxSpectraValues)
      throw InputError(where + ": the entries hold more than " + std::to_string(kMaxSpectraValues) +
                       " values in all, more than a run's spectra plot can show");
    entries.push_back({step->get<int64_t>(), name->get<std::string>(), offset, count});
  }
  return entries;
}

std::vector<SpectraRecord> RunDirectoryReader::spectraSince(int64_t afterStep) const {
  const std::vector<SpectraIndexEntry> index = spectraIndex();
  std::map<int64_t, SpectraSnapshot> byStep;
  const fs::path binPath = file(layout::kSpectraDataFile);
  std::ifstream bin;
  for (const SpectraIndexEntry& e : index) {
    if (e.step <= afterStep) continue;
    if (!bin.is_open()) bin.open(binPath, std::ios::binary);
    std::string bytes(e.count * 4, '\0');  // count <= spectra.bin's floats: checked above
    if (e.count > 0) {
      bin.seekg(static_cast<std::streamoff>(e.offset * 4));
      bin.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      if (!bin) throw InputError(binPath.string() + ": read failed at float " + std::to_string(e.offset));
    }
    // A step recorded twice (e.g. a final snapshot on a periodic step): the later one wins.
    byStep[e.step][e.name] = detail::decodeFloat32LE(std::move(bytes));
  }
  std::vector<SpectraRecord> out;
  out.reserve(byStep.size());
  for (auto& [step, after] : byStep) out.push_back({step, std::move(after), {}});
  return out;
}

namespace {

// N of "step_N.safetensors", or nullopt for any other name.
std::optional<int64_t> stepOfName(const std::string& name) {
  constexpr std::string_view prefix = layout::kCheckpointPrefix, suffix = layout::kCheckpointSuffix;
  if (name.size() <= prefix.size() + suffix.size() || name.rfind(prefix, 0) != 0 ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
    return std::nullopt;
  int64_t step = 0;
  const char* first = name.data() + prefix.size();
  const char* last = name.data() + name.size() - suffix.size();
  const auto [end, err] = std::from_chars(first, last, step);
  return err == std::errc() && end == last ? std::optional<int64_t>(step) : std::nullopt;
}

}  // namespace

void checkStepMatchesName(const fs::path& file, int64_t step) {
  const auto named = stepOfName(file.filename().string());
  if (named && *named != step)
    throw InputError(file.string() + ": holds step " + std::to_string(step) + ", not " + std::to_string(*named) +
                     " as its name says (renamed, or copied in from another run?)");
}

std::vector<CheckpointFile> listCheckpoints(const fs::path& dir) {
  std::vector<CheckpointFile> out;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  // A folder that is there but cannot be listed says so: "no checkpoints" would send the
  // user looking for files that exist (permission denied is not "not found").
  if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
    throw InputError(dir.string() + ": cannot list the checkpoints (" + ec.message() + ")");
  for (const auto& entry : it) {
    const auto step = stepOfName(entry.path().filename().string());
    if (step && entry.is_regular_file(ec)) out.push_back({*step, entry.path()});
  }
  std::sort(out.begin(), out.end(), [](const CheckpointFile& a, const CheckpointFile& b) {
    return a.step != b.step ? a.step < b.step : a.path < b.path;
  });
  return out;
}

std::vector<CheckpointFile> RunDirectoryReader::checkpoints() const { return listCheckpoints(file(layout::kCheckpointsDir)); }

std::optional<fs::path> RunDirectoryReader::newestCheckpoint() const {
  const auto all = checkpoints();
  if (all.empty()) return std::nullopt;
  return all.back().path;
}

}  // namespace lwb::run
