// A run trained by several local processes from the app (issue 28): the Train page's
// "Processes" field makes RunManager start `lipschitz-cli train --nproc N` as a child process
// and follow the run directory rank 0 writes. The run ends finished with what the ranks
// trained; Stop ends every rank (nothing left running) with status stopped; a launch the CLI
// refuses ends the run failed with the CLI's own one-line reason.
#include "app/runs/run_manager.h"
#include "app/runs/run_session.h"
#include "run/results_json.h"
#include "run/run_config.h"
#include "support/scratch_home.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace lwb;
using namespace lwb::app;
using nlohmann::json;

namespace {

json mnistConfig(int steps) {
  QFile f(QStringLiteral(LWB_SOURCE_DIR "/resources/presets/mnist_muon_softcap.json"));
  if (!f.open(QIODevice::ReadOnly)) return {};
  json cfg = json::parse(f.readAll().toStdString());
  cfg["steps"] = steps;
  cfg["log_every"] = 5;
  cfg["threads"] = 1;
  // The preset names its data "@data/mnist": the resources folder of the source tree.
  cfg["data_path"] = LWB_SOURCE_DIR "/resources/data/mnist";
  return cfg;
}

// Whether any lipschitz-cli whose command line holds `marker` is still running.
bool anyRunning(const QString& marker) {
  for (const auto& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
    QFile cmd(QStringLiteral("/proc/") + pid + QStringLiteral("/cmdline"));
    if (cmd.open(QIODevice::ReadOnly) && cmd.readAll().contains(marker.toUtf8()) && pid != QString::number(QCoreApplication::applicationPid()))
      return true;
  }
  return false;
}

}  // namespace

class TestAppProcesses : public QObject {
  Q_OBJECT

  lwb::test::ScratchHome home_;
  QTemporaryDir runsDir_;

 private Q_SLOTS:
  void twoProcessesTrainAndFinish() {
    RunManager runs;
    runs.setRunsFolder(runsDir_.path());
    QString error;
    RunSession* s = runs.startRunInProcesses(run::parseRunConfig(mnistConfig(20)), QStringLiteral("two"), 2, &error);
    QVERIFY2(s, qPrintable(error));
    QCOMPARE(s->processes(), 2);
    QVERIFY(!s->isFollowing());  // it trains this run: Stop stops it
    QVERIFY(!s->canPause());
    bool sawRunning = false;
    connect(s, &RunSession::stateChanged, this, [&](RunState st) { sawRunning = sawRunning || st == RunState::Running; });
    QTRY_VERIFY_WITH_TIMEOUT(s->end().has_value(), 120000);
    QVERIFY2(s->state() == RunState::Finished, qPrintable(QString::fromStdString(s->end()->message)));
    QVERIFY(sawRunning);
    QCOMPARE(s->end()->steps, int64_t{20});
    QVERIFY(s->history().latest() && s->history().latest()->step == 20);
    QVERIFY(QFile::exists(s->runDir() + QStringLiteral("/checkpoints/step_20.safetensors")));
    // Rank 0 writes "finished" just before the processes exit.
    QTRY_VERIFY_WITH_TIMEOUT(!anyRunning(s->runDir()), 30000);
  }

  void stopEndsEveryRank() {
    RunManager runs;
    runs.setRunsFolder(runsDir_.path());
    QString error;
    RunSession* s = runs.startRunInProcesses(run::parseRunConfig(mnistConfig(100000)), QStringLiteral("long"), 2, &error);
    QVERIFY2(s, qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(s->history().latest() && s->history().latest()->step >= 10, 120000);
    QVERIFY(anyRunning(s->runDir()));
    s->stop();
    QCOMPARE(s->state(), RunState::Stopping);
    QTRY_VERIFY_WITH_TIMEOUT(s->end().has_value(), 60000);
    QVERIFY2(s->state() == RunState::Stopped, qPrintable(QString::fromStdString(s->end()->message)));
    QTRY_VERIFY_WITH_TIMEOUT(!anyRunning(s->runDir()), 30000);
  }

  void refusedLaunchFailsWithTheReason() {
    RunManager runs;
    runs.setRunsFolder(runsDir_.path());
    json cfg = mnistConfig(10);
    cfg["batch_size"] = 1;  // two ranks cannot share one example
    QString error;
    RunSession* s = runs.startRunInProcesses(run::parseRunConfig(cfg), QStringLiteral("refused"), 2, &error);
    QVERIFY2(s, qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(s->end().has_value(), 60000);
    QCOMPARE(s->state(), RunState::Failed);
    const QString message = QString::fromStdString(s->end()->message);
    QVERIFY2(message.contains(QStringLiteral("batch_size")), qPrintable(message));
    QVERIFY(!message.contains(QLatin1Char('\n')));
  }

  // A runs folder (from the settings) that is a file said only "cannot be created".
  void runsFolderThatIsAFileSaysSo() {
    QTemporaryDir tmp;
    const QString file = tmp.filePath(QStringLiteral("afile"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    RunManager runs;
    runs.setRunsFolder(file);
    QString error;
    QVERIFY(!runs.startRun(run::parseRunConfig(mnistConfig(10)), QStringLiteral("x"), &error));
    QVERIFY2(error.contains(QLatin1String("is a file, not a folder")) && error.contains(file), qPrintable(error));
  }
};

QTEST_MAIN(TestAppProcesses)
#include "tst_app_processes.moc"
