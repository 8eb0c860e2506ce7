// `lipschitz-cli sample` (issue 29 §4): a tiny chars run trained on a periodic text continues
// the period when sampled greedily and at the low presets; seeds reproduce; every bad input
// (flags, prompt, run, text file) exits 2 with one line naming it.
#include "support/cli_run.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using lwb::test::runCli;

namespace {

const QString kPreset = QStringLiteral(LWB_SOURCE_DIR "/resources/presets/chars_small_cpu.json");

bool writeFile(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

}  // namespace

class TestCliSample : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString run_, text_;

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    // "abcd" repeated: after any character the next is certain, so a trained model's greedy
    // continuation is known.
    text_ = dir_.filePath(QStringLiteral("abcd.txt"));
    QVERIFY(writeFile(text_, QByteArray("abcd").repeated(3000)));
    run_ = dir_.filePath(QStringLiteral("run"));
    const auto r = runCli({QStringLiteral("train"), QStringLiteral("--config"), kPreset, QStringLiteral("--set"),
                           QStringLiteral("data_path=") + text_, QStringLiteral("--set"), QStringLiteral("steps=150"),
                           QStringLiteral("--set"), QStringLiteral("model.seq_len=16"), QStringLiteral("--set"),
                           QStringLiteral("eval_every=150"), QStringLiteral("--set"), QStringLiteral("threads=1"),
                           QStringLiteral("--out"), run_});
    QVERIFY2(r.code == 0, r.err.constData());
  }

  void greedyAndLowTemperaturesContinueThePeriod() {
    for (const char* t : {"0", "0.2", "0.5"}) {
      const auto r = runCli({QStringLiteral("sample"), run_, QStringLiteral("--prompt"), QStringLiteral("ab"), QStringLiteral("--tokens"),
                             QStringLiteral("20"), QStringLiteral("--temperature"), QString::fromLatin1(t), QStringLiteral("--json")});
      QVERIFY2(r.code == 0, r.err.constData());
      const QJsonObject j = QJsonDocument::fromJson(r.out).object();
      QCOMPARE(j.value(QStringLiteral("prompt")).toString(), QStringLiteral("ab"));
      QCOMPARE(j.value(QStringLiteral("text")).toString(), QStringLiteral("cdabcdabcdabcdabcdab"));
    }
  }

  void plainOutputIsPromptThenText() {
    const auto r = runCli({QStringLiteral("sample"), run_, QStringLiteral("--prompt"), QStringLiteral("d"), QStringLiteral("--tokens"),
                           QStringLiteral("7"), QStringLiteral("--temperature"), QStringLiteral("0")});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.out, QByteArray("dabcdabc\n"));
  }

  void seedsReproduceAndDiffer() {
    auto sample = [&](const char* seed) {
      // Temperature 5 flattens the distribution: draws differ between seeds.
      return runCli({QStringLiteral("sample"), run_, QStringLiteral("--prompt"), QStringLiteral("a"), QStringLiteral("--tokens"),
                     QStringLiteral("40"), QStringLiteral("--temperature"), QStringLiteral("5"), QStringLiteral("--seed"), QString::fromLatin1(seed)})
          .out;
    };
    const QByteArray a = sample("1"), b = sample("1"), c = sample("2");
    QVERIFY(!a.isEmpty());
    QCOMPARE(a, b);
    QVERIFY(a != c);
    for (char ch : a.trimmed()) QVERIFY(QByteArray("abcd").contains(ch));
  }

  void badInputExitsTwoWithOneLine_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("names");
    const QString missing = dir_.filePath(QStringLiteral("nope"));
    QTest::newRow("tokens 0") << QStringList{QStringLiteral("--tokens"), QStringLiteral("0")} << QStringLiteral("--tokens");
    QTest::newRow("tokens huge") << QStringList{QStringLiteral("--tokens"), QStringLiteral("100000000")} << QStringLiteral("--tokens");
    QTest::newRow("tokens text") << QStringList{QStringLiteral("--tokens"), QStringLiteral("many")} << QStringLiteral("--tokens");
    QTest::newRow("tokens in e-notation") << QStringList{QStringLiteral("--tokens"), QStringLiteral("1e3")} << QStringLiteral("must be an integer from 1 to 100000, got 1e3");
    QTest::newRow("temperature negative") << QStringList{QStringLiteral("--temperature"), QStringLiteral("-1")} << QStringLiteral("--temperature -1:");
    QTest::newRow("temperature nan") << QStringList{QStringLiteral("--temperature"), QStringLiteral("nan")} << QStringLiteral("--temperature");
    QTest::newRow("temperature inf") << QStringList{QStringLiteral("--temperature"), QStringLiteral("inf")} << QStringLiteral("--temperature");
    QTest::newRow("prompt outside vocabulary") << QStringList{QStringLiteral("--prompt"), QStringLiteral("abz")} << QStringLiteral("'z'");
    // A character of two bytes is named as typed, not as "byte 206".
    QTest::newRow("prompt character outside") << QStringList{QStringLiteral("--prompt"), QStringLiteral("aΩ")} << QStringLiteral("'Ω' (byte 206 of its UTF-8");
    QTest::newRow("data file missing") << QStringList{QStringLiteral("--data"), missing} << QStringLiteral("nope");
    QTest::newRow("data is a directory") << QStringList{QStringLiteral("--data"), dir_.path()} << QStringLiteral("directory");
  }
  void badInputExitsTwoWithOneLine() {
    QFETCH(QStringList, args);
    QFETCH(QString, names);
    const auto r = runCli(QStringList{QStringLiteral("sample"), run_} + args);
    QCOMPARE(r.code, 2);
    const QString err = QString::fromUtf8(r.err).trimmed();
    QVERIFY2(!err.contains(QLatin1Char('\n')), qPrintable(err));
    QVERIFY2(err.contains(names), qPrintable(err));
  }

  void wrongTextOrRunIsRefused() {
    // Another text: 5 distinct characters against the embedding's 4 rows.
    const QString other = dir_.filePath(QStringLiteral("other.txt"));
    QVERIFY(writeFile(other, QByteArray("abcde").repeated(100)));
    auto r = runCli({QStringLiteral("sample"), run_, QStringLiteral("--data"), other});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("not the text this run was trained on"), r.err.constData());
    // No run there.
    r = runCli({QStringLiteral("sample"), dir_.filePath(QStringLiteral("missing_run"))});
    QCOMPARE(r.code, 2);
    // A run of another task.
    const QString mod = dir_.filePath(QStringLiteral("mod"));
    r = runCli({QStringLiteral("train"), QStringLiteral("--config"), QStringLiteral(LWB_SOURCE_DIR "/resources/presets/modular_addition_grokking.json"),
                QStringLiteral("--steps"), QStringLiteral("2"), QStringLiteral("--out"), mod});
    QVERIFY2(r.code == 0, r.err.constData());
    r = runCli({QStringLiteral("sample"), mod});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("not character-level"), r.err.constData());
    // A file that is not a checkpoint.
    r = runCli({QStringLiteral("sample"), text_});
    QCOMPARE(r.code, 2);
  }
};

QTEST_GUILESS_MAIN(TestCliSample)
#include "tst_cli_sample.moc"
