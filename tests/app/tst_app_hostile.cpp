// Hostile files and runaway resources in the app (issue 33): Compare reads an index row whose
// config nests 200 000 levels without a stack overflow, and the app exits promptly while an
// Inspector job is inside an uninterruptible LibTorch call (an SVD of a large matrix).
#include "app/pages/compare/run_record.h"
#include "io/safetensors.h"
#include "support/scratch_home.h"
#include "sweep/run_index.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cstring>
#include <random>

using namespace lwb;

class TestAppHostile : public QObject {
  Q_OBJECT
  lwb::test::ScratchHome home_;  // settings and runs, never the user's
  QTemporaryDir tmp_;

 private Q_SLOTS:
  // 1. A row's config text is parsed by the shared reader: too deep, it is no config at all.
  void compareReadsADeepConfigRow() {
    const std::string file = tmp_.filePath(QStringLiteral("index.sqlite")).toStdString();
    {
      sweep::RunIndex index(file);
      sweep::IndexRow r;
      r.path = "/runs/deep";
      r.id = "deep";
      r.status = "finished";
      r.config = R"({"model": )" + std::string(200000, '[') + std::string(200000, ']') + "}";
      index.upsert(r);
    }
    const auto records = app::pages::loadIndexRecords(QString::fromStdString(file));
    QCOMPARE(records.size(), size_t{1});
    QCOMPARE(records.front().name, QStringLiteral("deep"));
  }

  // 9. Closing the window ends the process, whatever a page's worker is computing.
  void appExitsWhileAnInspectorJobRuns() {
    // One 3000 × 3000 matrix: its exact SVD takes 10–50 s on one thread, and cannot be cancelled.
    constexpr int64_t n = 3000;
    auto bytes = std::make_shared<std::string>(static_cast<size_t>(n * n * 4), '\0');
    std::mt19937 gen(1);
    std::normal_distribution<float> normal;
    for (int64_t i = 0; i < n * n; ++i) {
      const float v = normal(gen);
      std::memcpy(bytes->data() + i * 4, &v, 4);
    }
    io::RawTensor w;
    w.name = "w";
    w.dtype = io::DType::F32;
    w.shape = {n, n};
    w.data = io::viewInto(bytes, 0);
    w.nbytes = bytes->size();
    const QString file = tmp_.filePath(QStringLiteral("big.safetensors"));
    io::writeSafetensors(file.toStdString(), {w}, {});

    QProcess app;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LWB_THREADS"), QStringLiteral("1"));
    app.setProcessEnvironment(env);
    QElapsedTimer clock;
    clock.start();
    app.start(QStringLiteral(LWB_APP_PATH), {QStringLiteral("--inspect"), file, QStringLiteral("--screenshot"),
                                            tmp_.filePath(QStringLiteral("shot.png")), QStringLiteral("--after"),
                                            QStringLiteral("1")});
    QVERIFY(app.waitForFinished(120000));
    const double seconds = clock.elapsed() / 1000.0;
    QCOMPARE(app.exitCode(), 0);
    QVERIFY(QFileInfo::exists(tmp_.filePath(QStringLiteral("shot.png"))));
    // Start-up, one second and the screenshot; waiting for the SVD took 43–92 s.
    QVERIFY2(seconds < 15, qPrintable(QStringLiteral("exited after %1 s").arg(seconds)));
  }
};

QTEST_MAIN(TestAppHostile)
#include "tst_app_hostile.moc"
