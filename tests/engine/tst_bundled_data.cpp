// The datasets shipped in resources/data: their bytes are the published ones (sha256, the
// table in resources/data/README.md), and "@data/..." names resolve in the documented
// order ($LWB_DATA_DIR, the installed share folder, the source tree) while a user's own
// path is used as given. The installed layout (a program next to ../share) is covered by
// tst_trainer, which runs a copied lipschitz-cli.
#include "data/data_location.h"
#include "support/test_files.h"

#include <QCryptographicHash>
#include <QtTest/QtTest>

using lwb::data::findDataPath;
using lwb::data::resolveDataPath;
using lwb::test::inputErrorOf;
using lwb::test::writeFile;

namespace {

const QString kSourceData = QStringLiteral(LWB_SOURCE_DATA_DIR);

// Restores $LWB_DATA_DIR (normally unset) when a case ends, even on a failed QVERIFY.
struct DataDirOverride {
  explicit DataDirOverride(const QString& dir) { qputenv("LWB_DATA_DIR", dir.toLocal8Bit()); }
  ~DataDirOverride() { qunsetenv("LWB_DATA_DIR"); }
};

}  // namespace

class TestBundledData : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { qunsetenv("LWB_DATA_DIR"); }

  void copiesAreByteForByte_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<QByteArray>("sha256");
    QTest::newRow("tiny shakespeare") << "tinyshakespeare/input.txt" << qint64{1115394}
                                      << QByteArray("86c4e6aa9db7c042ec79f339dcb96d42b0075e16b8fc2e86bf0ca57e2dc565ed");
    QTest::newRow("mnist images") << "mnist/t10k-images-idx3-ubyte.gz" << qint64{1648877}
                                  << QByteArray("8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6");
    QTest::newRow("mnist labels") << "mnist/t10k-labels-idx1-ubyte.gz" << qint64{4542}
                                  << QByteArray("f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6");
  }
  void copiesAreByteForByte() {
    QFETCH(QString, file);
    QFETCH(qint64, bytes);
    QFETCH(QByteArray, sha256);
    QFile f(kSourceData + QLatin1Char('/') + file);
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
    QCOMPARE(f.size(), bytes);
    QCryptographicHash hash(QCryptographicHash::Sha256);
    QVERIFY(hash.addData(&f));
    QCOMPARE(hash.result().toHex(), sha256);
    // SHA256SUMS (for `sha256sum -c`) agrees with the README's table.
    QFile sums(kSourceData + QStringLiteral("/SHA256SUMS"));
    QVERIFY(sums.open(QIODevice::ReadOnly));
    QVERIFY(sums.readAll().contains(sha256 + "  " + file.toLatin1() + '\n'));
  }

  void bundledNamesResolveToTheSourceTreeInABuild() {
    const auto text = findDataPath("@data/tinyshakespeare/input.txt");
    QVERIFY(text);
    QCOMPARE(QFileInfo(QString::fromStdString(*text)).canonicalFilePath(),
             QFileInfo(kSourceData + QStringLiteral("/tinyshakespeare/input.txt")).canonicalFilePath());
    QVERIFY(QFileInfo(QString::fromStdString(resolveDataPath("@data/mnist"))).isDir());
    QVERIFY(!lwb::data::bundledDataDirs().empty());
  }

  void usersOwnPathsAreUsedAsGiven() {
    for (const std::string p : {"runs/../my.txt", "/abs/missing/input.txt", "data.txt", "", "@datax/input.txt"}) {
      QCOMPARE(findDataPath(p), std::optional<std::string>(p));
      QCOMPARE(resolveDataPath(p), p);
    }
  }

  void overrideComesFirstThenTheOtherFolders() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QDir(dir.path()).mkpath(QStringLiteral("tinyshakespeare"));
    writeFile(dir.filePath(QStringLiteral("tinyshakespeare/input.txt")), "To be.\n");
    writeFile(dir.filePath(QStringLiteral("mine.txt")), "x\n");
    const DataDirOverride env(dir.path());
    QCOMPARE(QString::fromStdString(resolveDataPath("@data/tinyshakespeare/input.txt")),
             dir.filePath(QStringLiteral("tinyshakespeare/input.txt")));
    QCOMPARE(QString::fromStdString(resolveDataPath("@data/mine.txt")), dir.filePath(QStringLiteral("mine.txt")));
    // Not in the override: the next folder (here the source tree) still has it.
    QCOMPARE(QFileInfo(QString::fromStdString(resolveDataPath("@data/mnist"))).canonicalFilePath(),
             QFileInfo(kSourceData + QStringLiteral("/mnist")).canonicalFilePath());
  }

  void missingBundledFileNamesItAndWhereItLooked() {
    const QString msg = inputErrorOf([] { resolveDataPath("@data/nope/input.txt"); });
    QVERIFY2(msg.startsWith(QLatin1String("data_path: bundled file '@data/nope/input.txt' not found")), qPrintable(msg));
    QVERIFY2(msg.contains(QFileInfo(kSourceData).absoluteFilePath()) || msg.contains(kSourceData), qPrintable(msg));
    QVERIFY2(msg.contains(QLatin1String("LWB_DATA_DIR")), qPrintable(msg));
    // A name may not climb out of the data folder.
    QVERIFY(!findDataPath("@data/../data/tinyshakespeare/input.txt"));
    QVERIFY(!findDataPath("@data/"));
  }
};

QTEST_GUILESS_MAIN(TestBundledData)
#include "tst_bundled_data.moc"
