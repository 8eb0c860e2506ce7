// Follows a run directory that another process (lipschitz-cli, another app, a cluster job
// synced with rsync) may still be writing, through the engine's RunDirectoryReader: tails
// metrics.jsonl from the cursor it has read so far (a torn last line waits until it is
// complete; a rewritten file starts over), picks up new spectra snapshots, and watches
// status. Lives on its own thread and polls on a timer, so the GUI thread never reads files;
// results go to a Mailbox.
#pragma once

#include "run/run_directory_reader.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>

class QTimer;

namespace lwb::app {

class Mailbox;

class RunFollower : public QObject {
  Q_OBJECT

 public:
  RunFollower(QString runDir, std::shared_ptr<Mailbox> mailbox, int pollMs = 250);
  ~RunFollower() override;

  // One pass over the directory (what each timer tick does). Returns true once the run
  // has ended (status finished/diverged/stopped/failed) and everything has been read.
  // Public so tests can drive it without threads.
  bool poll();

  // Reading stops at this many bytes per poll, so one tick stays cheap on a huge file;
  // the rest comes on the next ticks.
  static constexpr std::uint64_t kMaxBytesPerPoll = std::uint64_t{8} << 20;

 public Q_SLOTS:
  void start();  // on the follower's thread: first poll now, then every pollMs
  void stop();   // stops polling and emits finished()

 Q_SIGNALS:
  void finished();

 private:
  void readConfig();
  bool readMetrics();  // true when caught up with the file (a torn last line may remain)
  void readSpectra();
  std::optional<run::StatusRecord> readStatus();

  run::RunDirectoryReader reader_;
  std::shared_ptr<Mailbox> mailbox_;
  int pollMs_;
  QTimer* timer_ = nullptr;
  bool configRead_ = false;
  bool ended_ = false;
  bool following_ = false;  // "running" seen and posted as Following
  run::MetricsCursor metrics_;
  int malformedWarned_ = 0;  // lines of metrics.jsonl that are no row, said (up to a few)
  std::int64_t spectraIndexSize_ = -1;  // spectra.json as last read: re-read when it changes
  std::int64_t spectraIndexTime_ = -1;
  std::int64_t lastSpectraStep_ = -1;
};

}  // namespace lwb::app
