// The Train page's "Generate text" action (issue 29 §4): for a character-level run followed
// on the page, Run ▸ Generate text… shows the sample dock on the run directory (the newest
// checkpoint) and generates on a worker with the engine job `lipschitz-cli sample` uses: a
// tiny run trained on "abcd" repeated continues the period at the 0.2 preset. A run of
// another task leaves the action disabled.
#include "app/pages/inspector/text_sample_panel.h"
#include "app/runs/run_manager.h"
#include "app/runs/run_session.h"
#include "app/pages/train/train_page.h"
#include "support/cli_run.h"
#include "support/scratch_home.h"
#include "support/train_page_host.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace lwb;
using namespace lwb::app;
using lwb::test::runCli;

namespace {

const QString kPreset = QStringLiteral(LWB_SOURCE_DIR "/resources/presets/chars_small_cpu.json");

bool writeFile(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

}  // namespace

class TestAppTextSample : public QObject {
  Q_OBJECT

  lwb::test::ScratchHome home_;
  QTemporaryDir dir_;
  QString run_;

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(home_.isValid() && dir_.isValid());
    const QString text = dir_.filePath(QStringLiteral("abcd.txt"));
    QVERIFY(writeFile(text, QByteArray("abcd").repeated(3000)));
    run_ = dir_.filePath(QStringLiteral("run"));
    const auto r = runCli({QStringLiteral("train"), QStringLiteral("--config"), kPreset, QStringLiteral("--set"),
                           QStringLiteral("data_path=") + text, QStringLiteral("--set"), QStringLiteral("steps=150"),
                           QStringLiteral("--set"), QStringLiteral("model.seq_len=16"), QStringLiteral("--set"),
                           QStringLiteral("eval_every=150"), QStringLiteral("--set"), QStringLiteral("threads=1"),
                           QStringLiteral("--out"), run_});
    QVERIFY2(r.code == 0, r.err.constData());
  }

  void generatesFromTheNewestCheckpoint() {
    test::TrainPageHost host;
    TrainPage* page = host.page;
    QVERIFY(!page->sampleAction()->isEnabled());  // no run yet
    QVERIFY(!page->dock(QStringLiteral("text_sample"))->isVisibleTo(page));
    QString error;
    RunSession* s = host.runs->followRun(run_, &error);
    QVERIFY2(s, qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(page->sampleAction()->isEnabled(), 10000);
    page->sampleAction()->trigger();
    QVERIFY(page->dock(QStringLiteral("text_sample"))->isVisibleTo(page));

    pages::TextSamplePanel* panel = page->samplePanel();
    panel->promptEdit()->setText(QStringLiteral("ab"));
    panel->tokensBox()->setValue(20);
    QComboBox* t = panel->temperatureBox();
    t->setCurrentIndex(t->findData(0.2));  // the 0.2 preset
    QCOMPARE(t->currentIndex(), 0);
    QSignalSpy done(panel, &pages::TextSamplePanel::finished);
    panel->generate();
    QVERIFY(panel->isBusy());  // on a worker: the GUI thread returned at once
    QVERIFY(QTest::qWaitFor([&] { return done.count() == 1; }, 120000));
    QVERIFY2(!panel->message()->isVisibleTo(panel), qPrintable(panel->message()->text()));
    QCOMPARE(panel->output()->toPlainText(), QStringLiteral("abcdabcdabcdabcdabcdab"));
  }

  void otherTasksHaveNoAction() {
    // A followed run whose config names another task.
    const QString other = dir_.filePath(QStringLiteral("icl"));
    QVERIFY(QDir().mkpath(other));
    QVERIFY(writeFile(other + QStringLiteral("/config.json"), R"({"task": "icl_least_squares", "steps": 10})"));
    QVERIFY(writeFile(other + QStringLiteral("/metrics.jsonl"), ""));
    test::TrainPageHost host;
    QString error;
    QVERIFY2(host.runs->followRun(other, &error), qPrintable(error));
    QTest::qWait(300);
    QVERIFY(!host.page->sampleAction()->isEnabled());
    host.page->sampleAction()->trigger();  // disabled: nothing happens
    QVERIFY(!host.page->dock(QStringLiteral("text_sample"))->isVisibleTo(host.page));
  }
};

QTEST_MAIN(TestAppTextSample)
#include "tst_app_text_sample.moc"
