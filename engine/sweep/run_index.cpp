#include "sweep/run_index.h"

#include "io/input_error.h"
#include "run/run_directory_reader.h"
#include "run/results_json.h"
#include "run/run_layout.h"

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <stdexcept>
#include <system_error>
#include <thread>

namespace fs = std::filesystem;
using nlohmann::json;

namespace lwb::sweep {
namespace {

// Every column of `runs`, in the order rows() reads and upsert() binds them.
constexpr const char* kColumns =
    "path, id, status, message, task, model, optimizer, method, sigma_max, lr, weight_decay, seed, steps, "
    "step_done, val_loss, val_acc, lipschitz_bound, max_act_entry, steps_per_s, seconds, config, sweep, point, "
    "slurm_job, scheduler_state, signature";

// Schema version N is reached by running kMigrations[N-1] on version N-1. Append, never edit:
// files written by older versions are migrated forward step by step.
constexpr const char* kMigrations[] = {
    // 1: the table and the indexes Compare's queries use (status filter, optimizer × method
    //    frontier).
    "CREATE TABLE runs (path TEXT PRIMARY KEY NOT NULL, id TEXT NOT NULL, status TEXT NOT NULL, message TEXT,"
    " task TEXT, model TEXT, optimizer TEXT, method TEXT, sigma_max REAL, lr REAL, weight_decay REAL,"
    " seed INTEGER, steps INTEGER, step_done INTEGER, val_loss REAL, val_acc REAL, lipschitz_bound REAL,"
    " max_act_entry REAL, steps_per_s REAL, seconds REAL, config TEXT, sweep TEXT, point INTEGER,"
    " signature TEXT);"
    "CREATE INDEX runs_status ON runs(status);"
    "CREATE INDEX runs_optimizer_method ON runs(optimizer, method);",
    // 2: Slurm sweeps: the array task and its scheduler state; a sweep's points in order.
    "ALTER TABLE runs ADD COLUMN slurm_job TEXT;"
    "ALTER TABLE runs ADD COLUMN scheduler_state TEXT;"
    "CREATE INDEX runs_sweep ON runs(sweep, point);",
};
static_assert(std::size(kMigrations) == RunIndex::kSchemaVersion);

std::string rebuildHint(const fs::path& file) {
  return "; rebuild it from the run directories with `lipschitz-cli index RUNS_DIR... --db " + file.string() +
         " --rebuild`";
}

class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql, const std::function<void(int)>& check) : check_(check) {
    check_(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr));
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  void bind(int i, const std::string& s) { check_(sqlite3_bind_text(stmt_, i, s.c_str(), -1, SQLITE_TRANSIENT)); }
  void bind(int i, int64_t v) { check_(sqlite3_bind_int64(stmt_, i, v)); }
  void bind(int i, double v) {
    check_(std::isfinite(v) ? sqlite3_bind_double(stmt_, i, v) : sqlite3_bind_null(stmt_, i));
  }
  // true while there is a row
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) check_(rc);
    return false;
  }
  void reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  std::string text(int i) const {
    const auto* t = sqlite3_column_text(stmt_, i);
    return t ? reinterpret_cast<const char*>(t) : std::string();
  }
  int64_t integer(int i, int64_t missing = 0) const {
    return sqlite3_column_type(stmt_, i) == SQLITE_NULL ? missing : sqlite3_column_int64(stmt_, i);
  }
  double number(int i) const {
    return sqlite3_column_type(stmt_, i) == SQLITE_NULL ? run::kNotMeasured : sqlite3_column_double(stmt_, i);
  }

 private:
  sqlite3_stmt* stmt_ = nullptr;
  std::function<void(int)> check_;
};

std::string seconds(int ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g s", ms / 1000.0);
  return buf;
}

// Throws for every SQLite result that is not success: InputError when the file is at fault.
std::function<void(int)> checker(sqlite3* db, const fs::path& file, int busyMs = RunIndex::kBusyTimeoutMs) {
  return [db, file, busyMs](int rc) {
    if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE) return;
    const std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    switch (rc & 0xff) {
      case SQLITE_NOTADB:
        throw InputError(file.string() + ": not a SQLite database (" + msg + ")" + rebuildHint(file));
      case SQLITE_CORRUPT:
        throw InputError(file.string() + ": the run index is corrupted (" + msg + ")" + rebuildHint(file));
      case SQLITE_CANTOPEN:
      case SQLITE_READONLY:
      case SQLITE_PERM:
        throw InputError(file.string() + ": cannot open the run index for writing (" + msg + ")");
      case SQLITE_BUSY:
      case SQLITE_LOCKED:
        throw IndexBusy(file.string() + ": another process kept the run index locked for " + seconds(busyMs) +
                        " (" + msg + ")");
      default:
        throw std::runtime_error(file.string() + ": SQLite error: " + msg);
    }
  };
}

// BEGIN IMMEDIATE takes the write lock up front (waiting up to the busy timeout), so a
// transaction never fails half-way because another writer got in first; rolls back unless
// committed.
class WriteTransaction {
 public:
  WriteTransaction(sqlite3* db, std::function<void(int)> check) : db_(db), check_(std::move(check)) {
    check_(sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr));
  }
  ~WriteTransaction() {
    if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  void commit() {
    check_(sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr));
    done_ = true;
  }

 private:
  sqlite3* db_;
  std::function<void(int)> check_;
  bool done_ = false;
};

int64_t pragmaInt(sqlite3* db, const char* sql, const std::function<void(int)>& check) {
  Statement s(db, sql, check);
  return s.step() ? s.integer(0) : 0;
}

// type|name|table|sql of every schema object, sorted. Reading sqlite_master runs nothing
// of the file's own: views are not evaluated and triggers fire only on writes.
using Schema = std::set<std::string>;
Schema schemaOf(sqlite3* db, const std::function<void(int)>& check) {
  Schema out;
  Statement s(db, "SELECT type, name, tbl_name, sql FROM sqlite_master", check);
  while (s.step()) out.insert(s.text(0) + " '" + s.text(1) + "' on " + s.text(2) + ": " + s.text(3));
  return out;
}

// The schema our migrations 1..version leave, built in a private in-memory database.
Schema expectedSchema(int version) {
  sqlite3* mem = nullptr;
  sqlite3_open_v2(":memory:", &mem, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
  const auto check = checker(mem, ":memory:");
  Schema out;
  try {
    for (int v = 0; v < version; ++v) check(sqlite3_exec(mem, kMigrations[v], nullptr, nullptr, nullptr));
    out = schemaOf(mem, check);
  } catch (...) {
    sqlite3_close(mem);
    throw;
  }
  sqlite3_close(mem);
  return out;
}

// Empty when every schema object of the file is one our migrations to its user_version
// create, with the same SQL text, and table runs is there; else the first that is not. A
// file with our application id but a view named runs (a recursive CTE grows without end),
// triggers (they run on every upsert), other columns, CHECK or DEFAULT expressions or
// indexes on expressions is someone else's SQL, never executed. An index of ours may be
// missing (it only speeds queries up).
std::string schemaMismatch(sqlite3* db, int version, const std::function<void(int)>& check) {
  if (version < 0 || version > RunIndex::kSchemaVersion) return {};  // reported as newer/foreign elsewhere
  const Schema have = schemaOf(db, check), want = expectedSchema(version);
  for (const std::string& o : have)
    if (!want.count(o)) return "unexpected schema object: " + o.substr(0, 120);
  const bool hasRuns = std::any_of(have.begin(), have.end(), [](const std::string& o) { return o.starts_with("table 'runs' on runs: "); });
  if (version > 0 && !hasRuns) return "no table runs";
  return {};
}

std::string str(const json& j, const char* section, const char* key) {
  const json* o = &j;
  if (section) {
    const auto it = j.find(section);
    if (it == j.end() || !it->is_object()) return {};
    o = &*it;
  }
  const auto it = o->find(key);
  return it != o->end() && it->is_string() ? it->get<std::string>() : std::string();
}
double num(const json& j, const char* section, const char* key) {
  const auto s = j.find(section);
  if (s == j.end() || !s->is_object()) return run::kNotMeasured;
  const auto it = s->find(key);
  return it != s->end() && it->is_number() ? it->get<double>() : run::kNotMeasured;
}
int64_t integer(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

std::string fileStamp(const fs::path& f) {
  std::error_code ec;
  const auto size = fs::file_size(f, ec);
  if (ec) return "-";
  const auto mtime = fs::last_write_time(f, ec).time_since_epoch().count();
  return std::to_string(size) + "@" + std::to_string(ec ? 0 : mtime);
}

bool isUnder(const std::string& path, const std::string& root) {
  if (root.empty()) return false;
  return path == root || (path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
                          (root.back() == '/' || path[root.size()] == '/'));
}

}  // namespace

std::string indexPath(const fs::path& p) {
  // "" is the current folder: the parent of a bare `--db runs.sqlite` (an empty base once cut
  // the first character off every stored path). Symbolic links are resolved, so a run reached
  // through a link is the same row as the run itself.
  const fs::path given = p.empty() ? fs::path(".") : p;
  std::error_code ec;
  fs::path abs = fs::weakly_canonical(given, ec);
  if (ec) abs = fs::absolute(given, ec);
  std::string s = (ec ? given : abs).lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

std::string runDirectorySignature(const fs::path& dir) {
  namespace layout = run::layout;
  return fileStamp(dir / layout::kStatusFile) + "|" + fileStamp(dir / layout::kSummaryFile) + "|" +
         fileStamp(dir / layout::kConfigFile) + "|" + fileStamp(dir / layout::kMetricsFile);
}

void setConfigColumns(IndexRow& r, const json& config) {
  r.config = config.dump();
  r.task = str(config, nullptr, "task");
  r.model = str(config, "model", "kind");
  r.optimizer = str(config, "optimizer", "kind");
  r.method = str(config, "constraint", "method");
  r.sigmaMax = num(config, "constraint", "sigma_max");
  r.lr = num(config, "optimizer", "lr");
  r.weightDecay = num(config, "optimizer", "weight_decay");
  r.seed = integer(config, "seed");
  r.steps = integer(config, "steps");
}

IndexRow rowFromRunDirectory(const fs::path& dir) {
  if (!run::RunDirectoryReader::isRunDirectory(dir))
    throw InputError(dir.string() + ": not a run directory (no config.json or metrics.jsonl)");
  const run::RunDirectoryReader reader(dir);
  IndexRow r;
  r.signature = runDirectorySignature(dir);  // before reading: a write in between reads again
  r.path = indexPath(dir);
  r.id = fs::path(r.path).filename().string();
  setConfigColumns(r, reader.config().value_or(json::object()));

  const auto summary = reader.summary();
  const auto status = reader.liveStatus();  // a killed writer's "running" is not shown as running
  if (status) {
    r.status = run::toString(status->status);
    r.message = status->message;
  } else if (summary) {
    r.status = run::toString(summary->status);
    r.message = summary->message;
  } else {
    r.status = run::toString(run::RunStatus::Running);
  }
  if (summary) {
    if (!summary->wrongTypes.empty()) {
      std::string keys;
      for (const auto& k : summary->wrongTypes) keys += (keys.empty() ? "" : ", ") + k;
      r.warnings.push_back(std::string(run::layout::kSummaryFile) + ": wrong type for " + keys +
                           "; indexed as not measured");
    }
    r.stepDone = summary->steps;
    r.valLoss = summary->valLoss;
    r.valAcc = summary->valAcc;
    r.lipschitzBound = summary->lipschitzBound;
    r.maxActEntry = summary->maxActEntry;
    r.stepsPerSecond = summary->stepsPerSecond;
    r.seconds = summary->seconds;
    return r;
  }
  // Still running (or killed before its summary): the latest logged values.
  for (const json& row : reader.metricsSince({}, run::RunDirectoryReader::kMaxJsonFileBytes).rows) {
    const auto m = run::stepMetricsFromJson(row);
    if (!m) continue;
    r.stepDone = m->step;
    r.stepsPerSecond = m->stepsPerSecond;
    if (m->lipschitzBound) r.lipschitzBound = *m->lipschitzBound;
    if (m->valLoss) r.valLoss = *m->valLoss;
    if (m->valAcc) r.valAcc = *m->valAcc;
    if (m->activations && !m->activations->maxAbsEntry.empty())
      r.maxActEntry = *std::max_element(m->activations->maxAbsEntry.begin(), m->activations->maxAbsEntry.end());
  }
  return r;
}

RunIndex::RunIndex(const fs::path& file, Access access, int busyTimeoutMs)
    : file_(file), busyMs_(std::max(0, busyTimeoutMs)), base_(indexPath(fs::path(file).parent_path())) {
  std::error_code ec;
  // SQLite opens "" as a private temporary database: everything indexed would be thrown away.
  if (file.empty()) throw InputError("the run index file name is empty");
  if (fs::is_directory(file, ec)) throw InputError(file.string() + ": is a folder, not a run index file");
  if (access == Access::ReadOnly && !fs::exists(file, ec)) throw InputError(file.string() + ": no such run index");
  open(access == Access::ReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  try {
    if (access == Access::ReadOnly) {
      const auto check = sqliteCheck();
      const int version = schemaVersion();
      if (version > kSchemaVersion)
        throw InputError(where("written by a newer Lipschitz Workbench") + rebuildHint(file_));
      Statement probe(db_, "SELECT application_id FROM pragma_application_id", check);
      const int64_t appId = probe.step() ? probe.integer(0) : 0;
      if (appId != kApplicationId)
        throw InputError(where("a SQLite database, but not a Lipschitz Workbench run index (application id ") +
                         std::to_string(appId) + ")" + rebuildHint(file_));
      if (const auto why = schemaMismatch(db_, version, check); !why.empty())
        throw InputError(where("not a Lipschitz Workbench run index (") + why + ")" + rebuildHint(file_));
      if (version == kSchemaVersion) return;
      sqlite3_close(db_);  // ours, only older: migrate it forward once
      db_ = nullptr;
      open(SQLITE_OPEN_READWRITE);
    }
    migrate();
    relativizeLegacyRows();
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

void RunIndex::open(int flags) {
  const int rc = sqlite3_open_v2(file_.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    const std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw InputError(file_.string() + ": cannot open the run index (" + msg + ")");
  }
  sqlite3_busy_handler(db_, &RunIndex::onBusy, this);
  sqlite3_extended_result_codes(db_, 1);
}

int RunIndex::onBusy(void* self, int calls) {
  auto& me = *static_cast<RunIndex*>(self);
  const auto now = std::chrono::steady_clock::now();
  if (calls == 0) {
    me.waitStart_ = now;
    me.waitReported_ = false;
  }
  const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(now - me.waitStart_).count();
  if (waited >= me.busyMs_) return 0;  // SQLITE_BUSY: checker() throws IndexBusy
  if (waited >= 1000 && !me.waitReported_ && me.onWaiting_) {
    me.waitReported_ = true;
    me.onWaiting_();
  }
  // sqlite3_busy_timeout's own back-off: short sleeps first, then 100 ms.
  static constexpr int kDelays[] = {1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100};
  const int delay = kDelays[std::min<size_t>(static_cast<size_t>(calls), std::size(kDelays) - 1)];
  std::this_thread::sleep_for(std::chrono::milliseconds(std::min<int64_t>(delay, me.busyMs_ - waited)));
  return 1;
}

RunIndex::~RunIndex() { sqlite3_close(db_); }

void RunIndex::setBusyTimeout(int ms) { busyMs_ = std::max(0, ms); }

std::string RunIndex::where(const char* what) const { return file_.string() + ": " + what; }

std::string RunIndex::key(const std::string& path) const {
  if (path.empty()) return path;
  const std::string abs = indexPath(path);
  if (abs == base_) return ".";  // a sweep's own folder (its index lies inside)
  if (isUnder(abs, base_)) return abs.substr(base_ == "/" ? 1 : base_.size() + 1);
  return abs;
}

std::string RunIndex::resolve(const std::string& stored) const {
  if (stored.empty() || stored.front() == '/') return stored;
  if (stored == ".") return base_;
  return base_ == "/" ? "/" + stored : base_ + "/" + stored;
}

// Rows written before keys were relative hold absolute paths: those under the index's folder
// get their relative key (a twin already under that key wins: it is the newer row).
void RunIndex::relativizeLegacyRows() {
  const auto check = sqliteCheck();
  std::vector<std::pair<std::string, std::string>> moves;  // stored path -> key
  {
    Statement s(db_, "SELECT path FROM runs WHERE substr(path, 1, 1) = '/'", check);
    while (s.step())
      if (const std::string p = s.text(0), k = key(p); k != p) moves.emplace_back(p, k);
  }
  std::vector<std::pair<std::string, std::string>> sweeps;
  {
    Statement s(db_, "SELECT DISTINCT sweep FROM runs WHERE substr(sweep, 1, 1) = '/'", check);
    while (s.step())
      if (const std::string p = s.text(0), k = key(p); k != p) sweeps.emplace_back(p, k);
  }
  if (moves.empty() && sweeps.empty()) return;
  WriteTransaction tx(db_, check);
  Statement drop(db_, "DELETE FROM runs WHERE path = ?1 AND EXISTS (SELECT 1 FROM runs WHERE path = ?2)", check);
  Statement move(db_, "UPDATE runs SET path = ?2 WHERE path = ?1", check);
  for (const auto& [from, to] : moves) {
    for (Statement* st : {&drop, &move}) {
      st->bind(1, from);
      st->bind(2, to);
      st->step();
      st->reset();
    }
  }
  Statement sweep(db_, "UPDATE runs SET sweep = ?2 WHERE sweep = ?1", check);
  for (const auto& [from, to] : sweeps) {
    sweep.bind(1, from);
    sweep.bind(2, to);
    sweep.step();
    sweep.reset();
  }
  tx.commit();
}

int RunIndex::pruneVanished() {
  const auto check = sqliteCheck();
  std::vector<std::string> gone;
  {
    Statement s(db_, "SELECT path, status, sweep FROM runs", check);
    std::error_code ec;
    while (s.step()) {
      const bool pending = run::parseStatusWord(s.text(1)) == run::RunStatus::Pending;
      const fs::path folder = resolve(pending ? s.text(2) : s.text(0));
      if (!folder.empty() && !fs::exists(folder, ec)) gone.push_back(s.text(0));
    }
  }
  if (gone.empty()) return 0;
  WriteTransaction tx(db_, check);
  Statement del(db_, "DELETE FROM runs WHERE path = ?", check);
  for (const std::string& p : gone) {
    del.bind(1, p);
    del.step();
    del.reset();
  }
  tx.commit();
  return static_cast<int>(gone.size());
}

std::function<void(int)> RunIndex::sqliteCheck() const { return checker(db_, file_, busyMs_); }

void RunIndex::exec(const char* sql) const { sqliteCheck()(sqlite3_exec(db_, sql, nullptr, nullptr, nullptr)); }

int RunIndex::schemaVersion() const { return static_cast<int>(pragmaInt(db_, "PRAGMA user_version", sqliteCheck())); }

void RunIndex::migrate() {
  const auto check = sqliteCheck();
  // Reading the header: a file that is not SQLite fails here (SQLITE_NOTADB). One statement,
  // so one snapshot: another process creating the index commits its tables and its
  // application id together, and this never sees one without the other.
  const auto foreign = [&] {
    Statement probe(db_, "SELECT application_id, (SELECT count(*) FROM sqlite_master) FROM pragma_application_id", check);
    const int64_t appId = probe.step() ? probe.integer(0) : 0, tables = probe.integer(1);
    if (appId != kApplicationId && (appId != 0 || tables != 0))
      throw InputError(where("a SQLite database, but not a Lipschitz Workbench run index (application id ") +
                       std::to_string(appId) + ")" + rebuildHint(file_));
    if (const auto why = schemaMismatch(db_, schemaVersion(), check); !why.empty())
      throw InputError(where("not a Lipschitz Workbench run index (") + why + ")" + rebuildHint(file_));
  };
  foreign();  // before anything is written to someone else's file
  if (schemaVersion() > kSchemaVersion)
    throw InputError(where("written by a newer Lipschitz Workbench (run index schema ") +
                     std::to_string(schemaVersion()) + ", this version reads up to " + std::to_string(kSchemaVersion) +
                     ")" + rebuildHint(file_));
  // WAL: readers never block the writer nor the writer the readers (a no-op once set).
  // Switching a new file's journal mode needs its exclusive lock; two connections switching
  // at once would deadlock, so SQLite answers one of them SQLITE_BUSY at once, without the busy
  // handler (seen once in CI: tst_run_index::concurrentWritersLoseNothing). Retried here until
  // the busy timeout, with a little jitter so that the racers part.
  {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(busyMs_);
    for (int attempt = 1;; ++attempt) {
      const int rc = sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
      const int primary = rc & 0xff;
      if ((primary != SQLITE_BUSY && primary != SQLITE_LOCKED) || std::chrono::steady_clock::now() >= deadline) {
        check(rc);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2 + (attempt * 7) % 13));
    }
  }
  exec("PRAGMA synchronous=NORMAL");
  // Already current: nothing to write, so no write lock to wait for (a sweep starts while
  // another process holds it; issue 33).
  if (schemaVersion() == kSchemaVersion && pragmaInt(db_, "PRAGMA application_id", check) == kApplicationId) return;
  WriteTransaction tx(db_, check);
  // Again under the write lock: another process may have created or migrated it.
  foreign();
  int version = schemaVersion();
  if (version > kSchemaVersion)
    throw InputError(where("written by a newer Lipschitz Workbench") + rebuildHint(file_));
  for (; version < kSchemaVersion; ++version) {
    exec(kMigrations[version]);
    exec(("PRAGMA user_version=" + std::to_string(version + 1)).c_str());
  }
  exec(("PRAGMA application_id=" + std::to_string(kApplicationId)).c_str());
  tx.commit();
}

void RunIndex::upsert(const std::vector<IndexRow>& rows) {
  const auto check = sqliteCheck();
  WriteTransaction tx(db_, check);
  // A refresh from the run directory knows nothing of the sweep and scheduler columns: keep
  // what the row had unless the new row says otherwise.
  Statement s(db_,
              std::string("INSERT INTO runs (") + kColumns +
                  ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT(path) DO UPDATE SET "
                  "id=excluded.id, status=excluded.status, message=excluded.message, task=excluded.task, "
                  "model=excluded.model, optimizer=excluded.optimizer, method=excluded.method, "
                  "sigma_max=excluded.sigma_max, lr=excluded.lr, weight_decay=excluded.weight_decay, "
                  "seed=excluded.seed, steps=excluded.steps, step_done=excluded.step_done, "
                  "val_loss=excluded.val_loss, val_acc=excluded.val_acc, lipschitz_bound=excluded.lipschitz_bound, "
                  "max_act_entry=excluded.max_act_entry, steps_per_s=excluded.steps_per_s, seconds=excluded.seconds, "
                  "config=excluded.config, signature=excluded.signature, "
                  "sweep=COALESCE(NULLIF(excluded.sweep, ''), runs.sweep), "
                  "point=CASE WHEN excluded.point >= 0 THEN excluded.point ELSE runs.point END, "
                  "slurm_job=COALESCE(NULLIF(excluded.slurm_job, ''), runs.slurm_job), "
                  "scheduler_state=COALESCE(NULLIF(excluded.scheduler_state, ''), runs.scheduler_state)",
              check);
  for (const IndexRow& r : rows) {
    int i = 0;
    s.bind(++i, key(r.path));
    s.bind(++i, r.id);
    s.bind(++i, r.status);
    s.bind(++i, r.message);
    s.bind(++i, r.task);
    s.bind(++i, r.model);
    s.bind(++i, r.optimizer);
    s.bind(++i, r.method);
    s.bind(++i, r.sigmaMax);
    s.bind(++i, r.lr);
    s.bind(++i, r.weightDecay);
    s.bind(++i, r.seed);
    s.bind(++i, r.steps);
    s.bind(++i, r.stepDone);
    s.bind(++i, r.valLoss);
    s.bind(++i, r.valAcc);
    s.bind(++i, r.lipschitzBound);
    s.bind(++i, r.maxActEntry);
    s.bind(++i, r.stepsPerSecond);
    s.bind(++i, r.seconds);
    s.bind(++i, r.config.empty() ? std::string("{}") : r.config);
    s.bind(++i, key(r.sweep));
    s.bind(++i, r.point);
    s.bind(++i, r.slurmJob);
    s.bind(++i, r.schedulerState);
    s.bind(++i, r.signature);
    s.step();
    s.reset();
  }
  tx.commit();
}

bool RunIndex::refresh(const fs::path& runDir) {
  {
    Statement s(db_, "SELECT signature FROM runs WHERE path = ?", sqliteCheck());
    s.bind(1, key(indexPath(runDir)));
    if (s.step() && s.text(0) == runDirectorySignature(runDir)) return false;
  }
  upsert(rowFromRunDirectory(runDir));
  return true;
}

void RunIndex::checkScanRoot(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    if (ec && ec != std::errc::no_such_file_or_directory) throw InputError(root.string() + ": cannot read (" + ec.message() + ")");
    std::error_code ex;
    throw InputError(root.string() + (fs::exists(root, ex) ? ": is a file, not a folder of runs" : ": no such folder"));
  }
  // A root that cannot be read is an error (an index of nothing would read as "no runs");
  // folders below it that cannot be read are skipped and named in scan()'s `problems`.
  if (::access(root.c_str(), R_OK | X_OK) != 0)
    throw InputError(root.string() + ": cannot read the folder (" + std::strerror(errno) + ")");
}

ScanReport RunIndex::scan(const std::vector<fs::path>& roots) {
  const auto check = sqliteCheck();
  ScanReport report;
  std::map<std::string, std::string> known;  // path -> signature
  {
    Statement s(db_, "SELECT path, signature, status FROM runs", check);
    while (s.step())
      if (const auto st = run::parseStatusWord(s.text(2)); st != run::RunStatus::Pending)
        // A running row is read again whatever its files say: its writer may have died since,
        // which changes no file (RunDirectoryReader::liveStatus).
        known[resolve(s.text(0))] = st == run::RunStatus::Running ? std::string() : s.text(1);
  }
  std::set<std::string> seen;
  std::vector<IndexRow> batch;
  const auto flush = [&] {
    if (!batch.empty()) upsert(batch);
    batch.clear();
  };
  const auto visit = [&](const fs::path& dir) {
    const std::string key = indexPath(dir);
    if (!seen.insert(key).second) return;
    const auto it = known.find(key);
    if (it != known.end() && it->second == runDirectorySignature(dir)) {
      ++report.unchanged;
      return;
    }
    try {
      batch.push_back(rowFromRunDirectory(dir));
      for (const std::string& w : batch.back().warnings) report.warnings.push_back(dir.string() + ": " + w);
      ++(it == known.end() ? report.added : report.updated);
    } catch (const std::exception& e) {
      report.problems.push_back(e.what());
    }
    if (batch.size() >= 500) flush();
  };
  for (const fs::path& root : roots) {
    checkScanRoot(root);
    if (run::RunDirectoryReader::isRunDirectory(root)) {
      visit(root);
      continue;
    }
    const auto isSweep = [](const fs::path& dir) {
      std::error_code e;
      return fs::is_regular_file(dir / run::layout::kSweepPointsFile, e);
    };
    if (isSweep(root)) report.sweeps.push_back(indexPath(root));
    std::error_code ec;
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
    if (ec) throw InputError(root.string() + ": cannot read the folder (" + ec.message() + ")");
    for (; it != end; it.increment(ec)) {
      if (ec) break;
      std::error_code dec;
      if (!it->is_directory(dec) || it->is_symlink(dec)) continue;
      if (it->path().filename() == run::layout::kSweepAttemptsDir && isSweep(it->path().parent_path())) {
        it.disable_recursion_pending();  // a sweep's retired attempts: not runs of the sweep
        continue;
      }
      if (isSweep(it->path())) report.sweeps.push_back(indexPath(it->path()));
      if (run::RunDirectoryReader::isRunDirectory(it->path())) {
        visit(it->path());
        it.disable_recursion_pending();
      } else if (::access(it->path().c_str(), R_OK | X_OK) != 0) {
        report.problems.push_back(it->path().string() + ": cannot read the folder (" + std::strerror(errno) + ")");
        it.disable_recursion_pending();
      }
    }
  }
  flush();
  // Rows under a scanned root whose folder is gone (a deleted run). Pending sweep points
  // have no folder yet and stay.
  std::vector<std::string> gone;
  for (const auto& [path, sig] : known) {
    if (seen.count(path)) continue;
    for (const fs::path& root : roots)
      if (isUnder(path, indexPath(root))) {
        gone.push_back(path);
        break;
      }
  }
  if (!gone.empty()) {
    WriteTransaction tx(db_, check);
    Statement del(db_, "DELETE FROM runs WHERE path = ?", check);
    for (const std::string& p : gone) {
      del.bind(1, key(p));
      del.step();
      del.reset();
    }
    tx.commit();
    report.removed = static_cast<int>(gone.size());
  }
  // Rows of folders that are gone anywhere (a sweep folder moved away: its old absolute rows).
  report.removed += pruneVanished();
  return report;
}

void RunIndex::setSchedulerState(const std::string& path, const std::string& slurmJob, const std::string& state) {
  const auto check = sqliteCheck();
  WriteTransaction tx(db_, check);
  Statement s(db_, "UPDATE runs SET slurm_job = ?, scheduler_state = ? WHERE path = ?", check);
  s.bind(1, slurmJob);
  s.bind(2, state);
  s.bind(3, key(path));
  s.step();
  tx.commit();
}

std::vector<IndexRow> RunIndex::rows(const IndexQuery& q) const {
  const auto check = sqliteCheck();
  std::string sql = std::string("SELECT ") + kColumns + " FROM runs";
  if (!q.withConfig) sql.replace(sql.find(" config,"), 8, " '',");
  if (!q.sweep.empty()) sql += " WHERE sweep = ?";
  sql += " ORDER BY sweep, point, path";
  Statement s(db_, sql, check);
  if (!q.sweep.empty()) s.bind(1, key(q.sweep));
  std::vector<IndexRow> out;
  while (s.step()) {
    IndexRow r;
    int i = 0;
    r.path = resolve(s.text(i++));
    r.id = s.text(i++);
    r.status = s.text(i++);
    r.message = s.text(i++);
    r.task = s.text(i++);
    r.model = s.text(i++);
    r.optimizer = s.text(i++);
    r.method = s.text(i++);
    r.sigmaMax = s.number(i++);
    r.lr = s.number(i++);
    r.weightDecay = s.number(i++);
    r.seed = s.integer(i++);
    r.steps = s.integer(i++);
    r.stepDone = s.integer(i++);
    r.valLoss = s.number(i++);
    r.valAcc = s.number(i++);
    r.lipschitzBound = s.number(i++);
    r.maxActEntry = s.number(i++);
    r.stepsPerSecond = s.number(i++);
    r.seconds = s.number(i++);
    r.config = s.text(i++);
    r.sweep = resolve(s.text(i++));
    r.point = s.integer(i++, -1);
    r.slurmJob = s.text(i++);
    r.schedulerState = s.text(i++);
    r.signature = s.text(i++);
    out.push_back(std::move(r));
  }
  return out;
}

std::optional<IndexRow> RunIndex::row(const std::string& path) const {
  for (IndexRow& r : rows())
    if (r.path == path) return std::move(r);
  return std::nullopt;
}

int64_t RunIndex::count() const { return pragmaInt(db_, "SELECT count(*) FROM runs", sqliteCheck()); }

std::string RunIndex::discard(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return {};
  if (fs::is_directory(file, ec)) throw InputError(file.string() + ": is a folder, not a run index file");
  // Ours (or so damaged that nothing can be told): derived data, deleted. Anything that
  // opens as another application's database, or is no SQLite file at all, is moved aside.
  bool ours = false;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, "PRAGMA application_id", -1, &s, nullptr) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
      ours = sqlite3_column_int64(s, 0) == RunIndex::kApplicationId;
    sqlite3_finalize(s);
    // Our application id on someone else's schema (views, triggers, other tables): moved
    // aside like any foreign file, not deleted.
    if (ours) {
      try {
        const auto check = checker(db, file);
        ours = schemaMismatch(db, static_cast<int>(pragmaInt(db, "PRAGMA user_version", check)), check).empty();
      } catch (const std::exception&) {
        // unreadable schema: damaged, ours by its id; deleted as before
      }
    }
  }
  sqlite3_close(db);
  if (ours) {
    for (const char* suffix : {"-wal", "-shm"}) fs::remove(fs::path(file.string() + suffix), ec);
    fs::remove(file, ec);
    if (ec) throw InputError(file.string() + ": cannot delete (" + ec.message() + ")");
    return {};
  }
  // FILE.bak, or FILE.bak.2, .3 … when an earlier one is there: a backup is never replaced.
  fs::path aside = file.string() + ".bak";
  for (int n = 2; fs::exists(aside, ec) || fs::exists(aside.string() + "-wal", ec); ++n) {
    if (n > 1000) throw InputError(file.string() + ": cannot move it aside (" + aside.string() + " and 999 more exist)");
    aside = file.string() + ".bak." + std::to_string(n);
  }
  fs::rename(file, aside, ec);
  std::error_code walEc;  // its journal travels with it
  if (!ec) fs::rename(file.string() + "-wal", aside.string() + "-wal", walEc);
  if (ec) throw InputError(file.string() + ": cannot move it aside to " + aside.string() + " (" + ec.message() + ")");
  return aside.string();
}

}  // namespace lwb::sweep
