#include "app/runs/run_follower.h"

#include "app/runs/mailbox.h"
#include "app/runs/run_json.h"
#include "io/input_error.h"
#include "run/results_json.h"
#include "run/run_config.h"
#include "run/run_layout.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTimer>

#include <algorithm>

namespace lwb::app {

RunFollower::RunFollower(QString runDir, std::shared_ptr<Mailbox> mailbox, int pollMs)
    : reader_(runDir.toStdString()), mailbox_(std::move(mailbox)), pollMs_(pollMs) {}

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

// Every read below may meet a file mid-copy (rsync, cp) or a folder that went away: such a
// read says InputError and is retried on the next tick.
bool RunFollower::poll() {
  if (ended_) return true;
  if (!configRead_) readConfig();
  // The status is read first: when it says the run ended, everything the trainer wrote
  // before it is on disk, and the reads below see all of it.
  const std::optional<run::StatusRecord> status = readStatus();
  const bool terminal = status && run::isTerminal(status->status);
  bool caughtUp = readMetrics();
  while (terminal && !caughtUp) caughtUp = readMetrics();
  readSpectra();
  if (terminal) {
    // The run has ended, so a last line without its newline will never be completed: a cut
    // or damaged file, whose rows after it are lost.
    // Judged by the file's own last byte: a read that failed (InputError) also leaves the
    // offset short, and is no cut line.
    QFile metrics(QDir(QString::fromStdString(reader_.path().string())).filePath(QString::fromLatin1(run::layout::kMetricsFile)));
    const auto cutAtTheEnd = [&metrics, this] {
      if (static_cast<uint64_t>(metrics.size()) <= metrics_.offset || !metrics.open(QIODevice::ReadOnly)) return false;
      char last = '\n';
      return metrics.seek(metrics.size() - 1) && metrics.getChar(&last) && last != '\n';
    };
    if (cutAtTheEnd())
      mailbox_->postWarnings({tr("metrics.jsonl ends in a cut line after line %1: what it held is lost (a damaged or "
                                 "partly copied file)")
                                  .arg(metrics_.lines)
                                  .toStdString()});
    run::RunSummary end;
    try {
      if (auto summary = reader_.summary()) end = std::move(*summary);
    } catch (const InputError&) {
      // A malformed summary.json: the status file alone says how the run ended.
    }
    // The status file is the authority on how it ended; its message wins when it has one.
    end.status = status->status;
    if (!status->message.empty()) end.message = status->message;
    // Levels fitted on the data (task chars) are in the summary only.
    if (!end.referenceLevels.empty()) mailbox_->postLevels(end.referenceLevels);
    mailbox_->postEnd(std::move(end));
    ended_ = true;
  }
  return ended_;
}

void RunFollower::readConfig() {
  try {
    const auto config = reader_.config();
    if (!config) return;  // not written yet: next tick
    configRead_ = true;
    if (const auto steps = totalStepsFromJson(*config)) mailbox_->postTotalSteps(*steps);
    mailbox_->postConstraint(constraintInfoFromJson(*config));
    mailbox_->postLevels(run::storedLossReferenceLevels(*config));
    // A run started elsewhere (srun, `train --nproc`) says how many ranks train it.
    if (const auto ranks = config->find("world_size"); ranks != config->end() && ranks->is_number_integer() && *ranks > 1)
      mailbox_->postWorldSize(ranks->get<int>());
  } catch (const InputError&) {
  }
}

std::optional<run::StatusRecord> RunFollower::readStatus() {
  try {
    auto s = reader_.liveStatus();  // "running" with its writer gone reads as failed (interrupted)
    if (s && s->status == run::RunStatus::Running && !following_) {
      following_ = true;
      mailbox_->postState(RunState::Following);
    }
    return s;
  } catch (const InputError&) {
    return std::nullopt;
  }
}

bool RunFollower::readMetrics() {
  try {
    run::MetricsChunk chunk = reader_.metricsSince(metrics_, kMaxBytesPerPoll);
    if (chunk.restarted) {
      // Replaced or truncated (a resumed run keeps rows up to its checkpoint): start over.
      mailbox_->postReset();
      lastSpectraStep_ = -1;
      spectraIndexSize_ = -1;
    }
    metrics_ = chunk.next;
    // A complete line that is not a metrics row (hand-edited, another tool's, damaged) is
    // skipped, and said: plots with a gap and no word read as a run that logged nothing.
    std::vector<std::string> warnings;
    for (uint64_t line : chunk.malformedLines)
      if (malformedWarned_++ < 3)
        warnings.push_back(tr("metrics.jsonl: line %1 is not a metrics row and was skipped").arg(line).toStdString());
    if (!warnings.empty()) mailbox_->postWarnings(std::move(warnings));
    for (const auto& row : chunk.rows)
      if (auto m = run::stepMetricsFromJson(row)) mailbox_->postStep(std::move(*m));
    return chunk.caughtUp;
  } catch (const InputError&) {
    return true;  // nothing more to read this tick
  }
}

void RunFollower::readSpectra() {
  // spectra.json is rewritten whole after every snapshot; parse it only when it changed.
  const QFileInfo index(QDir(QString::fromStdString(reader_.path().string())).filePath(QString::fromLatin1(run::layout::kSpectraIndexFile)));
  if (!index.exists()) return;
  const std::int64_t time = index.lastModified().toMSecsSinceEpoch();
  if (index.size() == spectraIndexSize_ && time == spectraIndexTime_) return;
  try {
    std::vector<run::SpectraRecord> fresh = reader_.spectraSince(lastSpectraStep_);
    spectraIndexSize_ = index.size();
    spectraIndexTime_ = time;
    for (run::SpectraRecord& r : fresh) {
      lastSpectraStep_ = std::max(lastSpectraStep_, r.step);
      mailbox_->postSpectra(std::move(r));
    }
  } catch (const InputError&) {
    // The index points past spectra.bin (a copy in progress) or is being replaced: next tick.
  }
}

}  // namespace lwb::app
