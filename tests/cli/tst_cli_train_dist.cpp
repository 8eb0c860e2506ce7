// lipschitz-cli train --nproc N (issue 28): two ranks over Gloo on 127.0.0.1 train the same
// model as one process (same global batch, gradients averaged); bad flags and environments exit
// 2 with one line; a rank that dies ends the run with nothing left running; Ctrl-C stops a
// run, one process or several, with exit 130.
#include "support/cli_run.h"
#include "support/safetensors_f32.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest/QtTest>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cstring>
#include <fstream>
#include <map>
#include <vector>

using lwb::test::readSafetensors;
using lwb::test::runCli;

namespace {

const QString kMnist = QStringLiteral(LWB_SOURCE_DIR "/resources/presets/mnist_muon_softcap.json");

QList<double> trainLosses(const QString& run) {
  QList<double> out;
  QFile f(run + QStringLiteral("/metrics.jsonl"));
  if (!f.open(QIODevice::ReadOnly)) return out;
  while (!f.atEnd()) out << QJsonDocument::fromJson(f.readLine()).object()[QStringLiteral("train_loss")].toDouble();
  return out;
}

QStringList trainArgs(const QString& out, int steps) {
  return {QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("train"), QStringLiteral("--config"), kMnist,
          QStringLiteral("--steps"), QString::number(steps), QStringLiteral("--set"), QStringLiteral("log_every=5"),
          QStringLiteral("--out"), out};
}

// Whether any lipschitz-cli whose command line holds `marker` is still running.
bool anyRunning(const QString& marker) {
  for (const auto& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
    QFile cmd(QStringLiteral("/proc/") + pid + QStringLiteral("/cmdline"));
    if (cmd.open(QIODevice::ReadOnly) && cmd.readAll().contains(marker.toUtf8())) return true;
  }
  return false;
}

// The run's first metrics row, written once training has started (waits up to a minute).
bool waitForTraining(const QString& out) {
  QElapsedTimer t;
  t.start();
  while (!QFile::exists(out + QStringLiteral("/metrics.jsonl")) && t.elapsed() < 60000) QThread::msleep(100);
  return QFile::exists(out + QStringLiteral("/metrics.jsonl"));
}

// The status file's text, empty when there is none.
QByteArray statusOf(const QString& out) {
  QFile status(out + QStringLiteral("/status"));
  return status.open(QIODevice::ReadOnly) ? status.readAll() : QByteArray();
}

}  // namespace

class TestCliTrainDist : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

 private Q_SLOTS:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  // The same global batch split over two ranks, gradients averaged: the same run as one
  // process up to summation order. Tolerance: float32 sums of two half-batch means instead of
  // one mean differ by ~1e-7 relative per step; Muon's Newton-Schulz and the soft cap are
  // smooth, so after 30 steps weights agree to ~1e-5 (measured 4e-6 on |w| <= 0.4).
  void twoRanksEqualOne() {
    const QString one = dir_.filePath(QStringLiteral("one")), two = dir_.filePath(QStringLiteral("two"));
    const auto a = runCli(trainArgs(one, 30));
    QVERIFY2(a.code == 0, a.err.constData());
    auto args = trainArgs(two, 30);
    args << QStringLiteral("--nproc") << QStringLiteral("2");
    const auto b = runCli(args);
    QVERIFY2(b.code == 0, b.err.constData());
    const auto la = trainLosses(one), lb = trainLosses(two);
    QCOMPARE(la.size(), 6);
    QCOMPARE(lb.size(), la.size());
    for (int i = 0; i < la.size(); ++i) QVERIFY2(std::abs(la[i] - lb[i]) <= 1e-5 * std::abs(la[i]), qPrintable(QString::number(i)));
    const auto wa = readSafetensors(one + QStringLiteral("/checkpoints/step_30.safetensors"));
    const auto wb = readSafetensors(two + QStringLiteral("/checkpoints/step_30.safetensors"));
    QVERIFY(!wa.empty());
    QCOMPARE(wb.size(), wa.size());
    const double worst = lwb::test::maxAbsDifference(wa, wb);
    qInfo("max |w_1 - w_2| after 30 steps: %.3g", worst);
    QVERIFY(worst <= 1e-4);
    // Only rank 0 wrote: one config, one metrics file, its checkpoints. config.json records
    // the ranks that started the run, and stays a valid --config (the record is skipped).
    QVERIFY(QFile::exists(two + QStringLiteral("/config.json")));
    const auto worldSize = [](const QString& run) {
      QFile f(run + QStringLiteral("/config.json"));
      return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object()[QStringLiteral("world_size")].toInt(-1) : -1;
    };
    QCOMPARE(worldSize(two), 2);
    QCOMPARE(worldSize(one), 1);
    const auto again = runCli({QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("train"), QStringLiteral("--config"),
                               two + QStringLiteral("/config.json"), QStringLiteral("--steps"), QStringLiteral("2"), QStringLiteral("--out"),
                               dir_.filePath(QStringLiteral("from_run_config"))});
    QVERIFY2(again.code == 0, again.err.constData());
  }

  // Resume with another number of processes: every rank holds the whole optimizer and
  // constraint state (msign and the constraint are split, their results and power vectors
  // broadcast), so rank 0's checkpoint is the run's. A 2-rank run
  // cut back to its step-15 checkpoint and resumed by one process ends where the one-process
  // run of twoRanksEqualOne ended, and the other way round.
  void resumeWithAnotherProcessCount() {
    const QString one = dir_.filePath(QStringLiteral("one"));
    QVERIFY(QFile::exists(one + QStringLiteral("/checkpoints/step_30.safetensors")));  // from twoRanksEqualOne
    const auto reference = readSafetensors(one + QStringLiteral("/checkpoints/step_30.safetensors"));
    for (const int first : {2, 1}) {
      const QString run = dir_.filePath(QStringLiteral("resume_from_%1").arg(first));
      auto args = trainArgs(run, 30);
      args << QStringLiteral("--set") << QStringLiteral("checkpoint_every=15") << QStringLiteral("--nproc") << QString::number(first);
      const auto a = runCli(args);
      QVERIFY2(a.code == 0, a.err.constData());
      QVERIFY(QFile::remove(run + QStringLiteral("/checkpoints/step_30.safetensors")));
      const auto b = runCli({QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("train"), QStringLiteral("--resume"), run,
                             QStringLiteral("--nproc"), QString::number(3 - first)});
      QVERIFY2(b.code == 0, b.err.constData());
      const auto w = readSafetensors(run + QStringLiteral("/checkpoints/step_30.safetensors"));
      QCOMPARE(w.size(), reference.size());
      const double worst = lwb::test::maxAbsDifference(reference, w);
      qInfo("%d then %d processes: max |w - w_one| = %.3g", first, 3 - first, worst);
      QVERIFY(worst <= 1e-4);
    }
  }

  // The constraint is split like Muon's msign (matrix k on rank k mod 2) and each result is
  // broadcast with its power-iteration vectors. With spectral normalisation (one warm power
  // iteration a step, so a lost state would change the weights) the 2-rank run equals the
  // 1-rank run, its rank-0 checkpoint holds the state of every matrix (also those rank 1
  // computed), and resuming that checkpoint in one process ends where the 1-rank run ended.
  void splitConstraintCarriesPowerState() {
    const auto args = [&](const QString& out) {
      auto a = trainArgs(out, 20);
      // σmax 1 so that the normalisation acts at every step: below its threshold it is the
      // identity, and Muon alone lets the two runs drift apart (2e-3 after 20 steps, measured).
      a << QStringLiteral("--set") << QStringLiteral("constraint.method=spectral_normalize") << QStringLiteral("--set")
        << QStringLiteral("constraint.sigma_max=1") << QStringLiteral("--set") << QStringLiteral("checkpoint_every=10");
      return a;
    };
    const QString one = dir_.filePath(QStringLiteral("sn_one")), two = dir_.filePath(QStringLiteral("sn_two"));
    const auto a = runCli(args(one));
    QVERIFY2(a.code == 0, a.err.constData());
    const auto b = runCli(args(two) << QStringLiteral("--nproc") << QStringLiteral("2"));
    QVERIFY2(b.code == 0, b.err.constData());
    const auto keys = [](const std::map<std::string, std::vector<float>>& m) {
      QStringList k;
      for (const auto& [name, _] : m) k << QString::fromStdString(name);
      return k;
    };
    const auto oneAt10 = readSafetensors(one + QStringLiteral("/checkpoints/step_10.safetensors"));
    const auto twoAt10 = readSafetensors(two + QStringLiteral("/checkpoints/step_10.safetensors"));
    QVERIFY(keys(oneAt10).filter(QStringLiteral("power_u.")).size() >= 2);
    QCOMPARE(keys(twoAt10), keys(oneAt10));
    const auto reference = readSafetensors(one + QStringLiteral("/checkpoints/step_20.safetensors"));
    const double together = lwb::test::maxAbsDifference(reference, readSafetensors(two + QStringLiteral("/checkpoints/step_20.safetensors")));
    qInfo("spectral normalize, 2 ranks vs 1: max |w_2 - w_1| = %.3g", together);
    QVERIFY(together <= 1e-4);
    QVERIFY(QFile::remove(two + QStringLiteral("/checkpoints/step_20.safetensors")));
    const auto c = runCli({QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("train"), QStringLiteral("--resume"), two});
    QVERIFY2(c.code == 0, c.err.constData());
    const double resumed = lwb::test::maxAbsDifference(reference, readSafetensors(two + QStringLiteral("/checkpoints/step_20.safetensors")));
    qInfo("2 ranks to step 10, then 1 process: max |w - w_1| = %.3g", resumed);
    QVERIFY(resumed <= 1e-4);
  }

  void badInputIsOneLine_data() {
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QByteArray>("rank");  // RANK/WORLD_SIZE to set, or empty
    QTest::addColumn<QByteArray>("names");
    QTest::newRow("zero processes") << QStringList{QStringLiteral("--nproc"), QStringLiteral("0")} << QByteArray() << QByteArray("--nproc");
    QTest::newRow("more ranks than examples")
        << QStringList{QStringLiteral("--nproc"), QStringLiteral("3"), QStringLiteral("--set"), QStringLiteral("batch_size=2")}
        << QByteArray() << QByteArray("cannot share a global batch_size of 2");
    QTest::newRow("nproc under a launcher") << QStringList{QStringLiteral("--nproc"), QStringLiteral("2")} << QByteArray("1")
                                            << QByteArray("already rank 1 of 2");
    QTest::newRow("bad RANK") << QStringList{} << QByteArray("x") << QByteArray("RANK");
    // CUDA ranks on a machine without a GPU stop before any starts (with GPUs, an NCCL build
    // refuses more local ranks than GPUs: "each rank needs a GPU of its own, and this machine
    // has 1" on the H200 of docs/RESULTS.md §4).
    QTest::newRow("cuda ranks without a GPU")
        << QStringList{QStringLiteral("--nproc"), QStringLiteral("2"), QStringLiteral("--device"), QStringLiteral("cuda")}
        << QByteArray() << QByteArray("--nproc 2 with --device cuda: this build sees no GPU");
  }
  void badInputIsOneLine() {
    QFETCH(QStringList, extra);
    QFETCH(QByteArray, rank);
    QFETCH(QByteArray, names);
    QProcess p;
    auto env = QProcessEnvironment::systemEnvironment();
    if (!rank.isEmpty()) {
      env.insert(QStringLiteral("RANK"), QString::fromUtf8(rank));
      env.insert(QStringLiteral("WORLD_SIZE"), QStringLiteral("2"));
    }
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(LWB_CLI_PATH), trainArgs(dir_.filePath(QStringLiteral("bad_") + QString::fromUtf8(QTest::currentDataTag()).replace(' ', '_')), 5) + extra);
    QVERIFY(p.waitForFinished(60000));
    const auto err = p.readAllStandardError();
    QCOMPARE(p.exitCode(), 2);
    QVERIFY2(err.contains(names), err.constData());
    QCOMPARE(err.trimmed().count('\n'), 0);
  }

  // Ranks started by hand (as srun would) with different configs refuse to train, each with
  // one line; a rank 0 whose port is taken says it cannot join. Both exit 2.
  void mismatchedConfigsAndBusyPort() {
    // A listening socket on 127.0.0.1 holds the port.
    const int busy = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    QVERIFY(::bind(busy, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 && ::listen(busy, 4) == 0 &&
            ::getsockname(busy, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
    const QString port = QString::number(ntohs(addr.sin_port));
    auto rankEnv = [&](int r, const QString& p) {
      auto env = QProcessEnvironment::systemEnvironment();
      env.insert(QStringLiteral("RANK"), QString::number(r));
      env.insert(QStringLiteral("WORLD_SIZE"), QStringLiteral("2"));
      env.insert(QStringLiteral("MASTER_ADDR"), QStringLiteral("127.0.0.1"));
      env.insert(QStringLiteral("MASTER_PORT"), p);
      env.insert(QStringLiteral("LWB_DIST_TIMEOUT"), QStringLiteral("10"));
      return env;
    };
    {
      QProcess rank0;
      rank0.setProcessEnvironment(rankEnv(0, port));
      rank0.start(QStringLiteral(LWB_CLI_PATH), trainArgs(dir_.filePath(QStringLiteral("busy")), 5));
      QVERIFY(rank0.waitForFinished(60000));
      const auto err = rank0.readAllStandardError();
      QCOMPARE(rank0.exitCode(), 2);
      QVERIFY2(err.contains("cannot join 127.0.0.1:" + port.toUtf8()), err.constData());
      QVERIFY2(!err.contains(" after "), err.constData());  // it failed at once: no "within 10 s"
      QCOMPARE(err.trimmed().count('\n'), 0);
    }
    ::close(busy);
    QProcess ranks[2];
    for (int r = 0; r < 2; ++r) {
      ranks[r].setProcessEnvironment(rankEnv(r, port));
      auto args = trainArgs(dir_.filePath(QStringLiteral("mismatch%1").arg(r)), 5);
      args << QStringLiteral("--set") << QStringLiteral("optimizer.lr=%1").arg(r == 0 ? 0.1 : 0.2);
      ranks[r].start(QStringLiteral(LWB_CLI_PATH), args);
    }
    for (auto& p : ranks) {
      QVERIFY(p.waitForFinished(60000));
      const auto err = p.readAllStandardError();
      QCOMPARE(p.exitCode(), 2);
      QVERIFY2(err.contains("was started with another config"), err.constData());
    }
  }

  // A rank killed mid-run: the launcher stops the other, exits non-zero within the collective
  // timeout plus its grace, leaves nothing running, and names the rank and the signal (the
  // survivor only said "Connection reset by peer"). Rank 0 killed left the run folder saying
  // "running" for good: the launcher now writes how it ended.
  void killedRankEndsTheRun_data() {
    QTest::addColumn<int>("rank");
    QTest::newRow("rank 1") << 1;
    QTest::newRow("rank 0") << 0;
  }
  void killedRankEndsTheRun() {
    QFETCH(int, rank);
    const QString out = dir_.filePath(QStringLiteral("killed%1").arg(rank));
    QProcess p;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LWB_DIST_TIMEOUT"), QStringLiteral("5"));
    p.setProcessEnvironment(env);
    auto args = trainArgs(out, 100000);
    args << QStringLiteral("--nproc") << QStringLiteral("2");
    p.start(QStringLiteral(LWB_CLI_PATH), args);
    QVERIFY(p.waitForStarted());
    // Wait for training to start (a metrics row), then kill rank 1 (RANK=1 in its environment).
    QElapsedTimer t;
    t.start();
    QVERIFY(waitForTraining(out));
    pid_t victim = 0;
    for (const auto& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
      QFile e(QStringLiteral("/proc/") + pid + QStringLiteral("/environ"));
      QFile c(QStringLiteral("/proc/") + pid + QStringLiteral("/cmdline"));
      if (e.open(QIODevice::ReadOnly) && c.open(QIODevice::ReadOnly) && c.readAll().contains(out.toUtf8()) &&
          e.readAll().split('\0').contains(QByteArray("RANK=") + QByteArray::number(rank)))
        victim = static_cast<pid_t>(pid.toInt());
    }
    QVERIFY(victim > 0);
    ::kill(victim, SIGKILL);
    QVERIFY(p.waitForFinished(60000));
    qInfo("launcher ended %lld ms after the start, exit %d", static_cast<long long>(t.elapsed()), p.exitCode());
    QVERIFY(p.exitCode() != 0);
    QVERIFY(!anyRunning(out));
    const QByteArray err = p.readAllStandardError();
    const QByteArray named = "rank " + QByteArray::number(rank) + " was killed by signal 9";
    QVERIFY2(err.contains(named), err.constData());
    // The survivor fails from its peer's loss with an error, not a silent SIGPIPE (Gloo writes
    // without MSG_NOSIGNAL); a CI run once named "rank 0 was killed by signal 13" here.
    QVERIFY2(!err.contains("signal 13"), err.constData());
    const QByteArray says = statusOf(out);
    QVERIFY2(says.startsWith("failed") || says.startsWith("stopped"), says.constData());
    if (rank == 0) QVERIFY2(says.contains(named), says.constData());
  }

  // Ctrl-C stops a training run cleanly (status "stopped") and the command exits 130, as
  // sweep, attention and robustness do: with exit 0 a shell loop of runs went on to the next
  // run. Through the launcher too, which once would have named rank 0's 130 a failure.
  void interruptedRunExits130_data() {
    QTest::addColumn<int>("nproc");
    QTest::newRow("one process") << 1;
    QTest::newRow("two ranks") << 2;
  }
  void interruptedRunExits130() {
    QFETCH(int, nproc);
    const QString out = dir_.filePath(QStringLiteral("interrupted%1").arg(nproc));
    QProcess p;
    auto args = trainArgs(out, 100000);
    if (nproc > 1) args << QStringLiteral("--nproc") << QString::number(nproc);
    p.start(QStringLiteral(LWB_CLI_PATH), args);
    QVERIFY(p.waitForStarted());
    QVERIFY(waitForTraining(out));
    ::kill(static_cast<pid_t>(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(60000));
    const QByteArray err = p.readAllStandardError();
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 130, qPrintable(QString::number(p.exitCode()) + QStringLiteral(": ") + QString::fromUtf8(err)));
    QVERIFY2(!err.contains("exited with status"), err.constData());
    QVERIFY(!anyRunning(out));
    const QByteArray says = statusOf(out);
    QVERIFY2(says.startsWith("stopped"), says.constData());
  }
};

QTEST_GUILESS_MAIN(TestCliTrainDist)
#include "tst_cli_train_dist.moc"
