#include "app/run_follower.h"

#include "app/mailbox.h"
#include "app/run_json.h"
#include "run/spectra_format.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <map>

namespace lwb::app {
namespace {

using nlohmann::json;

constexpr qint64 kMaxJsonFileBytes = qint64{256} << 20;

std::uint64_t fileId(const QString& path) {
  struct stat st {};
  if (::stat(QFile::encodeName(path).constData(), &st) != 0) return 0;
  return static_cast<std::uint64_t>(st.st_ino);
}

std::optional<json> readJsonFile(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly) || f.size() > kMaxJsonFileBytes) return std::nullopt;
  const QByteArray bytes = f.readAll();
  json j = json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

}  // namespace

RunFollower::RunFollower(QString runDir, std::shared_ptr<Mailbox> mailbox, int pollMs)
    : dir_(std::move(runDir)), mailbox_(std::move(mailbox)), pollMs_(pollMs) {}

RunFollower::~RunFollower() = default;

void RunFollower::start() {
  timer_ = new QTimer(this);
  timer_->setInterval(pollMs_);
  connect(timer_, &QTimer::timeout, this, [this] {
    if (poll()) stop();
  });
  if (poll()) stop();
  else timer_->start();
}

void RunFollower::stop() {
  if (timer_) timer_->stop();
  Q_EMIT finished();
}

bool RunFollower::poll() {
  if (ended_) return true;
  if (!configRead_) readConfig();
  // The status is read first: when it says the run ended, everything the trainer wrote
  // before it is on disk, and the reads below see all of it.
  const bool terminal = readStatus();
  bool caughtUp = readMetrics();
  while (terminal && !caughtUp) caughtUp = readMetrics();
  readSpectra();
  if (terminal) {
    QFile statusFile(QDir(dir_).filePath(QStringLiteral("status")));
    StatusFile status{lastStatus_, {}};
    if (statusFile.open(QIODevice::ReadOnly)) status = parseStatusFile(statusFile.read(4096).toStdString());
    const auto summary = readJsonFile(QDir(dir_).filePath(QStringLiteral("summary.json")));
    mailbox_->postEnd(runEndFromJson(summary.value_or(json()), runStateFromStatus(status.status), status.message));
    ended_ = true;
  }
  return ended_;
}

void RunFollower::readConfig() {
  const auto config = readJsonFile(QDir(dir_).filePath(QStringLiteral("config.json")));
  if (!config) return;  // not written yet (or torn mid-copy): next tick
  configRead_ = true;
  if (const auto steps = totalStepsFromJson(*config)) mailbox_->postTotalSteps(*steps);
  mailbox_->postConstraint(constraintInfoFromJson(*config));
}

bool RunFollower::readStatus() {
  QFile f(QDir(dir_).filePath(QStringLiteral("status")));
  if (!f.open(QIODevice::ReadOnly)) return false;  // a run directory without status yet
  const StatusFile s = parseStatusFile(f.readAll().left(4096).toStdString());
  if (s.status != lastStatus_) {
    lastStatus_ = s.status;
    if (s.status == QLatin1String("running")) mailbox_->postState(RunState::Following);
  }
  return !s.status.isEmpty() && s.status != QLatin1String("running");
}

bool RunFollower::readMetrics() {
  const QString path = QDir(dir_).filePath(QStringLiteral("metrics.jsonl"));
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return true;
  const std::uint64_t id = fileId(path);
  if ((metricsFileId_ != 0 && id != metricsFileId_) || f.size() < metricsOffset_) {
    // Replaced or truncated (a resumed run keeps rows up to its checkpoint): start over.
    mailbox_->postReset();
    metricsOffset_ = 0;
    lastSpectraStep_ = -1;
    spectraIndexSize_ = -1;
  }
  metricsFileId_ = id;
  if (f.size() == metricsOffset_ || !f.seek(metricsOffset_)) return true;
  const QByteArray chunk = f.read(kMaxBytesPerPoll);
  const qsizetype lastNewline = chunk.lastIndexOf('\n');
  // Only a torn line so far: it completes on a later tick. (A line longer than the cap is
  // not a metrics row; it is never consumed, and never spun on.)
  if (lastNewline < 0) return true;
  qsizetype begin = 0;
  while (begin <= lastNewline) {
    const qsizetype end = chunk.indexOf('\n', begin);
    const char* first = chunk.constData() + begin;
    const json row = json::parse(first, chunk.constData() + end, nullptr, /*allow_exceptions=*/false);
    // A complete line that is not a metrics row (hand-edited, another tool's) is skipped.
    if (!row.is_discarded())
      if (auto sample = stepSampleFromJson(row)) mailbox_->postStep(std::move(*sample));
    begin = end + 1;
  }
  metricsOffset_ += lastNewline + 1;
  return chunk.size() < kMaxBytesPerPoll;
}

void RunFollower::readSpectra() {
  const QFileInfo indexInfo(QDir(dir_).filePath(QStringLiteral("spectra.json")));
  if (!indexInfo.exists()) return;
  const qint64 time = indexInfo.lastModified().toMSecsSinceEpoch();
  if (indexInfo.size() == spectraIndexSize_ && time == spectraIndexTime_) return;
  const auto index = readJsonFile(indexInfo.filePath());
  if (!index || !index->is_array()) return;  // mid-replace: next tick

  QFile bin(QDir(dir_).filePath(QStringLiteral("spectra.bin")));
  if (!bin.open(QIODevice::ReadOnly)) return;
  std::map<std::int64_t, SpectraSample> fresh;
  for (const auto& e : *index) {
    if (!e.is_object()) continue;
    const auto step = e.value("step", json());
    const auto name = e.value("name", json());
    const auto offset = e.value("offset", json());
    const auto count = e.value("count", json());
    if (!step.is_number_integer() || !name.is_string() || !offset.is_number_unsigned() || !count.is_number_unsigned())
      continue;
    const std::int64_t s = step.get<std::int64_t>();
    if (s <= lastSpectraStep_) continue;
    const qint64 begin = static_cast<qint64>(offset.get<std::uint64_t>()) * 4;
    const qint64 bytes = static_cast<qint64>(count.get<std::uint64_t>()) * 4;
    // The index is written after the data it points at; a shorter file means a copy in
    // progress: wait for the next tick rather than read past the end.
    if (begin < 0 || bytes < 0 || begin + bytes > bin.size()) return;
    if (!bin.seek(begin)) return;
    auto& sample = fresh[s];
    sample.step = s;
    // spectra.bin is float32 little-endian whatever the host: the engine's own decoder.
    const std::vector<float> values = run::detail::decodeFloat32LE(bin.read(bytes).toStdString());
    sample.after[QString::fromStdString(name.get<std::string>())] = std::vector<double>(values.begin(), values.end());
  }
  spectraIndexSize_ = indexInfo.size();
  spectraIndexTime_ = time;
  for (auto& [step, sample] : fresh) {
    lastSpectraStep_ = std::max(lastSpectraStep_, step);
    mailbox_->postSpectra(std::move(sample));
  }
}

}  // namespace lwb::app
