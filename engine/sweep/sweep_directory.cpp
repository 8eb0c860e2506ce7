#include "sweep/sweep_directory.h"

#include "sweep/process.h"

#include "io/json_read.h"
#include "io/file_io.h"
#include "io/input_error.h"
#include "run/run_directory.h"
#include "run/run_directory_reader.h"
#include "run/run_layout.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <deque>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <system_error>

namespace fs = std::filesystem;
using nlohmann::json;

namespace lwb::sweep {
namespace {

constexpr uint64_t kMaxPointsFileBytes = uint64_t{256} << 20;

// Temp name + rename: a sweep killed while writing leaves the old file or the new one.
void writeFileAtomically(const fs::path& file, const std::string& text) {
  const fs::path tmp = file.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw InputError(file.string() + ": cannot write");
  }
  std::error_code ec;
  fs::rename(tmp, file, ec);
  if (ec) throw InputError(file.string() + ": cannot write (" + ec.message() + ")");
}

json readJson(const fs::path& file) {
  return jsonio::readFile(file.string(), kMaxPointsFileBytes);
}

json pointsJson(const std::vector<SweepPoint>& points) {
  json out = json::array();
  for (const SweepPoint& p : points) out.push_back({{"index", p.index}, {"id", p.id}, {"assignment", p.assignment}});
  return out;
}

// Why an existing folder without points.json must not become a sweep, or "" when it may: a
// run directory's or any other files would be mixed with the sweep's, and a run found in
// runs/<id> would count as that point's result whatever config it ran. A folder of the
// sweep's own names with an empty runs/ is a sweep killed while it was being written.
std::string notASweep(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec) || fs::exists(dir / run::layout::kSweepPointsFile, ec)) return {};
  const std::set<std::string> own{run::layout::kSweepRunsDir,  run::layout::kSweepConfigsDir, run::layout::kSweepLogsDir,
                                  run::layout::kSweepSlurmDir, run::layout::kSweepSpecFile,   run::layout::kSweepLockFile,
                                  run::layout::kSweepSpecInputFile, run::layout::kIndexFile};
  fs::directory_iterator it(dir, ec);
  if (ec) return "cannot be listed (" + ec.message() + ")";
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) return "cannot be listed (" + ec.message() + ")";
    const std::string name = it->path().filename().string();
    const bool temp = name.size() > 4 && name.compare(name.size() - 4, 4, ".tmp") == 0;
    const bool journal = name.rfind(std::string(run::layout::kIndexFile) + "-", 0) == 0;  // -wal, -shm
    if (!own.count(name) && !temp && !journal) return "holds '" + name + "' and no sweep (no points.json)";
  }
  if (!fs::is_empty(dir / run::layout::kSweepRunsDir, ec) && !ec)
    return "has runs/ but no sweep (no points.json)";
  return {};
}

}  // namespace


SweepDirectory::SweepDirectory(const fs::path& dir) : dir_(indexPath(dir)) {}

SweepDirectory::~SweepDirectory() {
  if (lockFd_ >= 0) close(lockFd_);  // releases the flock
}

SweepExtension SweepDirectory::check(std::vector<SweepPoint>& points) const {
  std::error_code ec;
  if (fs::exists(dir_, ec) && !fs::is_directory(dir_, ec)) throw InputError(dir_.string() + ": exists and is not a folder");
  if (const std::string why = notASweep(dir_); !why.empty())
    throw InputError(dir_.string() + ": " + why + "; choose an empty or new --out");
  return adoptNumbering(points);
}

// Points are matched by what they run (assignment and full config), not by position: a spec
// with more grid values or seeds expands in a new order, and its old points must keep the
// run folders they have. Extending a sweep was refused before ("holds a different sweep").
SweepExtension SweepDirectory::adoptNumbering(std::vector<SweepPoint>& points) const {
  std::error_code ec;
  if (!fs::exists(dir_ / run::layout::kSweepPointsFile, ec)) return {};
  const std::vector<SweepPoint> before = readPoints(dir_);
  const auto key = [](const SweepPoint& p) { return p.assignment.dump() + '\x1f' + p.config.dump(); };
  // What runs -> its positions in `points`, in order. A folder made before overlapping grids
  // were a union may hold one point twice: the first copy takes the spec's point, a later copy
  // is kept as the folder has it (its run is already there or resumes).
  std::map<std::string, std::deque<size_t>> spec;
  std::set<std::string> assignments;  // to tell "not in this spec" from "its config changed"
  for (size_t i = 0; i < points.size(); ++i) {
    spec[key(points[i])].push_back(i);
    assignments.insert(points[i].assignment.dump());
  }
  std::vector<bool> taken(points.size(), false);
  std::vector<SweepPoint> out;
  out.reserve(std::max(points.size(), before.size()));
  for (const SweepPoint& old : before) {
    const auto at = spec.find(key(old));
    if (at != spec.end() && at->second.empty()) {
      out.push_back(old);
      continue;
    }
    if (at == spec.end()) {
      const std::string why = assignments.count(old.assignment.dump())
                                  ? "has another config in this spec (its base config or steps changed)"
                                  : "is not in this spec";
      throw InputError(dir_.string() + ": holds a different sweep (its point " + old.id + ", " + describe(old.assignment) +
                       ", " + why + "; a sweep can gain points, not lose or change them); choose another --out");
    }
    taken[at->second.front()] = true;
    at->second.pop_front();
    out.push_back(old);
  }
  const size_t kept = out.size(), total = points.size();
  const int width = std::max<int>(4, static_cast<int>(std::to_string(std::max<size_t>(total, 1) - 1).size()));
  for (size_t i = 0; i < points.size(); ++i) {
    if (taken[i]) continue;
    SweepPoint p = std::move(points[i]);
    p.index = static_cast<int64_t>(out.size());
    const std::string id = std::to_string(p.index);
    p.id = std::string(static_cast<size_t>(std::max<int>(0, width - static_cast<int>(id.size()))), '0') + id;
    out.push_back(std::move(p));
  }
  points = std::move(out);
  return {kept, total - kept};
}

SweepExtension SweepDirectory::prepare(const SweepSpec& spec, std::vector<SweepPoint>& points) {
  std::error_code ec;
  if (fs::exists(dir_, ec) && !fs::is_directory(dir_, ec)) throw InputError(dir_.string() + ": exists and is not a folder");
  if (const std::string why = notASweep(dir_); !why.empty())
    throw InputError(dir_.string() + ": " + why + "; choose an empty or new --out");
  for (const char* sub : {run::layout::kSweepRunsDir, run::layout::kSweepConfigsDir, run::layout::kSweepLogsDir}) {
    fs::create_directories(dir_ / sub, ec);
    if (ec) throw InputError((dir_ / sub).string() + ": cannot create" + io::creationFailure((dir_ / sub).string(), ec));
  }
  // One sweep process per folder: a second would start the same points again.
  lockFd_ = open((dir_ / run::layout::kSweepLockFile).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lockFd_ < 0) throw InputError((dir_ / run::layout::kSweepLockFile).string() + ": cannot create the sweep lock");
  if (flock(lockFd_, LOCK_EX | LOCK_NB) != 0)
    throw InputError(dir_.string() + ": another `lipschitz-cli sweep` is running in this folder");

  const fs::path pointsFile = dir_ / run::layout::kSweepPointsFile;
  SweepExtension extension;
  if (fs::exists(pointsFile, ec)) {
    extension = adoptNumbering(points);  // again, now under the lock
    if (extension.added == 0) return extension;
  }
  json specFile = spec.source;
  specFile["base_config"] = spec.base;
  // Bounded text: an indented dump grows with nesting depth (jsonio::dumpReadable).
  writeFileAtomically(dir_ / run::layout::kSweepSpecFile, jsonio::dumpReadable(specFile) + "\n");
  for (size_t i = extension.kept; i < points.size(); ++i)
    writeFileAtomically(configFile(points[i].id), jsonio::dumpReadable(points[i].config) + "\n");
  // Last: marks the sweep (or its extension) complete; killed before, the folder still holds
  // the old sweep, and the spec's new points are added again next time.
  writeFileAtomically(pointsFile, pointsJson(points).dump(1) + "\n");
  return extension;
}

run::RunStatus SweepDirectory::status(const std::string& id) const {
  const fs::path run = runDir(id);
  std::error_code ec;
  if (!fs::exists(run, ec)) return run::RunStatus::Pending;
  try {
    if (const auto status = run::RunDirectoryReader(run).status()) return status->status;
  } catch (const std::exception&) {
  }
  return run::RunStatus::Running;
}

void SweepDirectory::retire(const std::string& id) {
  const fs::path run = runDir(id);
  std::error_code ec;
  if (!fs::exists(run, ec)) return;
  fs::create_directories(dir_ / run::layout::kSweepAttemptsDir, ec);
  for (int n = 1;; ++n) {
    const fs::path to = dir_ / run::layout::kSweepAttemptsDir / (id + "." + std::to_string(n));
    if (fs::exists(to, ec)) continue;
    fs::rename(run, to, ec);
    if (ec) throw InputError(run.string() + ": cannot move the earlier attempt aside (" + ec.message() + ")");
    return;
  }
}

int64_t SweepDirectory::resumableStep(const std::string& id) const {
  try {
    const run::RunDirectoryReader reader(runDir(id));
    const auto s = reader.status();
    if (!s || (s->status != run::RunStatus::Stopped && s->status != run::RunStatus::Running)) return 0;
    if (run::runFolderWriter(runDir(id).string()) == run::WriterState::Writing) return 0;  // still trained
    const auto checkpoints = reader.checkpoints();
    return checkpoints.empty() ? 0 : checkpoints.back().step;
  } catch (const std::exception&) {
    return 0;
  }
}

bool SweepDirectory::logMentions(const std::string& id, const std::string& text) const {
  std::ifstream in(logFile(id), std::ios::binary);
  if (!in) return false;
  const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return all.find(text) != std::string::npos;
}

void SweepDirectory::recordFailure(const SweepPoint& p, const std::string& message) const {
  try {
    if (run::RunDirectoryReader::isRunDirectory(runDir(p.id))) {
      // Killed while running (SIGKILL, the OOM killer, a node lost): its status file says
      // "running" for good; say what happened, on disk and so in the index (issue 33).
      const auto s = run::RunDirectoryReader(runDir(p.id)).status();
      if (!s || s->status == run::RunStatus::Running || (s->status == run::RunStatus::Failed && s->message.empty()))
        run::markRunEnded(runDir(p.id).string(), run::RunStatus::Failed, message);
    } else {
      // It never wrote its folder: write one that says why, so the point reads as failed
      // (and is kept unless --retry-failed), in the index as on disk.
      run::RunDirectory failed(runDir(p.id).string());
      failed.writeConfig(p.config);
      failed.setStatus(run::RunStatus::Failed, message);
    }
  } catch (const std::exception&) {
  }
}

std::string SweepDirectory::lastLogLine(const std::string& id) const {
  std::ifstream in(logFile(id), std::ios::binary);
  if (!in) return {};
  in.seekg(0, std::ios::end);
  const auto size = static_cast<int64_t>(in.tellg());
  in.seekg(std::max<int64_t>(0, size - 4096));
  std::string tail((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream lines(tail);
  std::string line, last;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto cr = line.rfind('\r');  // progress lines overwrite themselves with \r
    if (cr != std::string::npos) line = line.substr(cr + 1);
    // The command line spawnLogged wrote first is not the child's output.
    if (!line.empty() && line.rfind(kCommandLinePrefix, 0) != 0) last = line;
  }
  return last;
}

void SweepDirectory::syncIndex(RunIndex& index, const std::vector<SweepPoint>& points) const {
  // One pass over the sweep's rows, one transaction for everything that changed.
  std::map<std::string, IndexRow> known;
  for (IndexRow& r : index.rows({dir_.string(), false})) known.emplace(r.path, std::move(r));
  std::vector<IndexRow> changed;
  for (const SweepPoint& p : points) {
    const fs::path run = runDir(p.id);
    const std::string key = indexPath(run);
    const auto it = known.find(key);
    IndexRow r;
    if (run::RunDirectoryReader::isRunDirectory(run)) {
      if (it != known.end() && it->second.signature == runDirectorySignature(run)) continue;
      try {
        r = rowFromRunDirectory(run);
      } catch (const std::exception& e) {
        r.path = key;
        r.id = p.id;
        r.status = run::toString(run::RunStatus::Failed);
        r.message = e.what();
        setConfigColumns(r, p.config);
      }
    } else {
      if (it != known.end() && run::parseStatusWord(it->second.status) == run::RunStatus::Pending) continue;
      r.path = key;
      r.id = p.id;
      r.status = run::toString(run::RunStatus::Pending);
      setConfigColumns(r, p.config);
    }
    r.sweep = dir_.string();
    r.point = p.index;
    changed.push_back(std::move(r));
  }
  if (!changed.empty()) index.upsert(changed);
}

std::vector<SweepPoint> SweepDirectory::readPoints(const fs::path& dir) {
  const fs::path pointsFile = dir / run::layout::kSweepPointsFile;
  const json points = readJson(pointsFile);
  if (!points.is_array()) throw InputError(pointsFile.string() + ": not a list of points");
  std::vector<SweepPoint> out;
  for (const json& p : points) {
    if (!p.is_object() || !p.contains("id") || !p["id"].is_string() || !p.contains("index") ||
        !p["index"].is_number_integer())
      throw InputError(pointsFile.string() + ": a point without id or index");
    SweepPoint s;
    s.index = p["index"].get<int64_t>();
    s.id = p["id"].get<std::string>();
    if (s.id.empty() || s.id.find('/') != std::string::npos || s.id.find("..") != std::string::npos)
      throw InputError(pointsFile.string() + ": bad point id '" + s.id + "'");
    s.assignment = p.value("assignment", json::object());
    const fs::path cfg = dir / run::layout::kSweepConfigsDir / (s.id + ".json");
    std::error_code ec;
    s.config = fs::exists(cfg, ec) ? readJson(cfg) : json::object();
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace lwb::sweep
