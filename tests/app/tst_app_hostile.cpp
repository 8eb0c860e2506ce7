// Hostile files and runaway resources in the app (issue 33): Compare reads an index row whose
// config nests 200 000 levels without a stack overflow.
#include "app/pages/compare/run_record.h"
#include "support/scratch_home.h"
#include "sweep/run_index.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

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
};

QTEST_MAIN(TestAppHostile)
#include "tst_app_hostile.moc"
