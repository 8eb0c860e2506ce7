// Writing side of the run directory. Whole-file artefacts (config, summary, status, the
// spectra index) are replaced atomically so a reader (the app, rsync) never sees half a
// file; append-only streams (metrics.jsonl, spectra.bin) are flushed per record.
#include "run/run_directory.h"

#include "io/file_io.h"
#include "io/input_error.h"
#include "run/run_directory_reader.h"
#include "run/run_layout.h"
#include "run/spectra_format.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace lwb::run {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Compact, and never throwing on invalid UTF-8 in a string value (a matrix name, a
// message): one bad byte must not kill a long run. NaN/inf are written as null by nlohmann.
std::string compact(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string child(const std::string& dir, const char* name) { return (fs::path(dir) / name).string(); }

}  // namespace

RunFolderLock::RunFolderLock(const std::string& path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) throw InputError(path + ": cannot open the run folder (" + std::strerror(errno) + ")");
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    if (err == EWOULDBLOCK)
      throw InputError(path + ": another process is writing this run (training or resuming it); stop it first");
    // Other errors: a file system without flock on folders (NFS maps it to a POSIX write lock,
    // which a read-only folder descriptor cannot take). Runs there go unlocked, as before.
  }
}

RunFolderLock::~RunFolderLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the flock
}

namespace {

// The folder exists (created when absent) and is empty; the lock is taken once it exists.
const std::string& createdEmpty(const std::string& path) {
  std::error_code ec;
  if (fs::exists(path, ec)) {
    if (!fs::is_directory(path, ec)) throw InputError(path + ": exists and is not a directory");
    if (!fs::is_empty(path, ec) || ec) throw InputError(path + ": run directory exists and is not empty");
  } else {
    // Judged by the result, not the return value (false for "a/b/" on some libstdc++).
    fs::create_directories(path, ec);
    if (ec || !fs::is_directory(path))
      throw InputError(path + ": cannot create run directory" + io::creationFailure(path, ec));
  }
  return path;
}

// Rewrites an existing small file in place (no new file, no new block for a few bytes).
bool overwriteInPlace(const std::string& file, const std::string& text) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::pwrite(fd, text.data(), text.size(), 0) == static_cast<ssize_t>(text.size()) &&
                  ::ftruncate(fd, static_cast<off_t>(text.size())) == 0 && ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

const std::string& existingRun(const std::string& path) {
  if (!RunDirectoryReader::isRunDirectory(path))
    throw InputError(path + ": not a run directory (no config.json or metrics.jsonl)");
  return path;
}

}  // namespace

RunDirectory::RunDirectory(const std::string& path) : path_(path), lock_(createdEmpty(path)) {
  // Created up front so a watcher can open it before the first logged step.
  errno = 0;
  metrics_.open(child(path_, layout::kMetricsFile), std::ios::binary | std::ios::app);
  // errno from the failed open(2): a read-only folder said only "cannot create" (trial).
  if (!metrics_)
    throw InputError(path + ": cannot create metrics.jsonl" + (errno ? " (" + std::string(std::strerror(errno)) + ")" : std::string()));
}

namespace {

// Renames a damaged file to NAME.damaged (or .damaged.2, …: an earlier one is never replaced);
// returns the new file name.
std::string setAside(const std::string& file) {
  for (int i = 1; i < 1000; ++i) {
    const std::string to = file + ".damaged" + (i == 1 ? "" : "." + std::to_string(i));
    std::error_code ec;
    if (fs::exists(to, ec)) continue;
    fs::rename(file, to, ec);
    if (ec) throw InputError(file + ": damaged, and cannot be moved aside (" + ec.message() + ")");
    return fs::path(to).filename().string();
  }
  throw InputError(file + ": damaged, and 999 earlier damaged copies are in the way");
}

}  // namespace

RunDirectory::RunDirectory(const std::string& path, ContinueAfter resume) : path_(path), lock_(existingRun(path)) {
  const RunDirectoryReader reader(path);
  // metrics.jsonl: keep whole rows up to the step (a torn last line is dropped too).
  std::string kept;
  for (const auto& row : reader.metrics()) {
    // Rows without a numeric step are not metrics rows; they are kept as they were.
    const auto step = row.find("step");
    if (step == row.end() || !step->is_number() || step->get<double>() <= static_cast<double>(resume.step)) {
      kept += compact(row) + "\n";
      if (step != row.end() && step->is_number()) lastMetricsStep_ = std::max(lastMetricsStep_, static_cast<int64_t>(step->get<double>()));
    }
  }
  writeFileAtomically(child(path, layout::kMetricsFile), kept);
  errno = 0;
  metrics_.open(child(path_, layout::kMetricsFile), std::ios::binary | std::ios::app);
  if (!metrics_)
    throw InputError(path + ": cannot open metrics.jsonl for appending" +
                     (errno ? " (" + std::string(std::strerror(errno)) + ")" : std::string()));
  // spectra: drop later snapshots from the index and cut spectra.bin after the last kept one.
  const auto indexPath = child(path, layout::kSpectraIndexFile);
  std::error_code ec;
  if (fs::exists(indexPath, ec)) {
    // The reader's checks (sizes, overflow-safe offsets inside spectra.bin) apply here too.
    const auto binPath = child(path, layout::kSpectraDataFile);
    std::vector<SpectraIndexEntry> entries;
    try {
      // Only the snapshots the resume keeps are checked: later ones may point past a
      // spectra.bin that was cut short, and are dropped anyway.
      entries = reader.spectraIndex(nullptr, resume.step);
    } catch (const InputError& e) {
      // A file that cannot be read (permissions, a folder in its place) is not damage: said
      // as it is. Damaged spectra (a torn copy, a full disk) used to block the resume although
      // the checkpoint and metrics are sound: they are set aside, kept, and the run goes on.
      const auto readable = [](const fs::path& f) {
        std::error_code e2;
        return !fs::exists(f, e2) || (fs::is_regular_file(f, e2) && ::access(f.c_str(), R_OK) == 0);
      };
      if (!readable(indexPath) || !readable(binPath)) throw;
      const std::string index = setAside(indexPath), bin = fs::exists(binPath, ec) ? setAside(binPath) : std::string();
      warnings_.push_back(std::string(e.what()) + ": the saved spectra were moved aside (" + index + (bin.empty() ? "" : ", " + bin) +
                          ") and the run records new snapshots after step " + std::to_string(resume.step));
    }
    uint64_t end = 0;
    for (const SpectraIndexEntry& e : entries) {
      if (e.step > resume.step) continue;
      end = std::max(end, (e.offset + e.count) * 4);
      spectraIndex_.push_back({{"step", e.step}, {"name", e.name}, {"offset", e.offset}, {"count", e.count}});
    }
    if (!fs::exists(binPath, ec) && end == 0) {
      writeFileAtomically(indexPath, "[]\n");
      return;
    }
    fs::resize_file(binPath, end, ec);
    if (ec) throw InputError(binPath + ": cannot truncate (" + ec.message() + ")");
    spectraBytes_ = end;
    writeFileAtomically(indexPath, compact(spectraIndex_) + "\n");
  }
}

void RunDirectory::writeConfig(const json& resolved) {
  writeFileAtomically(child(path_, layout::kConfigFile), resolved.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
}

void RunDirectory::writeSummary(const json& summary) {
  writeFileAtomically(child(path_, layout::kSummaryFile), summary.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
}

void RunDirectory::appendMetrics(const json& row) {
  const std::string file = child(path_, layout::kMetricsFile), line = compact(row) + "\n";
  std::error_code ec;
  const auto before = fs::file_size(file, ec);
  metrics_.write(line.data(), static_cast<std::streamsize>(line.size()));
  metrics_.flush();
  if (metrics_) return;
  // Disk full (or a file size limit): cut the torn row off again, so the file keeps whole rows
  // only, and say why.
  const std::string why = std::strerror(errno);
  metrics_.close();
  if (!ec) fs::resize_file(file, before, ec);
  metrics_.clear();
  metrics_.open(file, std::ios::binary | std::ios::app);
  throw std::runtime_error(file + ": write failed (" + why + ")");
}

void RunDirectory::appendSpectra(int64_t step, const std::map<std::string, std::vector<float>>& spectra) {
  const std::string binPath = child(path_, layout::kSpectraDataFile);
  // Opened on first use: runs with spectra_every = 0 get no spectra files at all.
  if (!spectraBin_.is_open()) {
    spectraBin_.open(binPath, std::ios::binary | std::ios::app);
    if (!spectraBin_) throw std::runtime_error(binPath + ": cannot open for writing");
  }
  json entries = json::array();
  for (const auto& [name, values] : spectra) {
    const std::string bytes = detail::encodeFloat32LE(values);
    spectraBin_.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    entries.push_back({{"step", step}, {"name", name}, {"offset", spectraBytes_ / 4}, {"count", values.size()}});
    spectraBytes_ += bytes.size();
  }
  // The data reaches the file before the index that points at it.
  spectraBin_.flush();
  if (!spectraBin_) throw std::runtime_error(binPath + ": write failed");
  for (auto& e : entries) spectraIndex_.push_back(std::move(e));
  writeFileAtomically(child(path_, layout::kSpectraIndexFile), compact(spectraIndex_) + "\n");
}

namespace {

void writeStatus(const std::string& dir, RunStatus s, const std::string& message) {
  // The message is one line by contract (line 2 of the file); fold any newlines in it.
  std::string oneLine = message;
  for (char& ch : oneLine)
    if (ch == '\n' || ch == '\r') ch = ' ';
  // The reader takes at most kMaxStatusBytes; a long exception text must not make the file
  // unreadable.
  if (oneLine.size() > 1000) oneLine = oneLine.substr(0, 997) + "...";
  std::string text = std::string(toString(s)) + "\n";
  if (!oneLine.empty()) text += oneLine + "\n";
  const std::string file = child(dir, layout::kStatusFile);
  try {
    writeFileAtomically(file, text);
  } catch (const std::exception&) {
    // Disk full: no temporary file can be made, but the status file's own block can be
    // rewritten in place, so a failed run never stays "running".
    if (!overwriteInPlace(file, text)) throw;
  }
}

}  // namespace

void RunDirectory::setStatus(RunStatus s, const std::string& message) { writeStatus(path_, s, message); }

void markRunEnded(const std::string& path, RunStatus s, const std::string& message) {
  const RunFolderLock lock(path);  // InputError while a writer still holds the folder
  writeStatus(path, s, message);
}

}  // namespace lwb::run
