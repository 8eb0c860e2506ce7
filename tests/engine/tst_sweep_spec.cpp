// Sweep specs (engine/sweep/sweep_spec.h): expansion (grid × seeds, order, ranges, the union
// form, steps) and validation (unknown key, empty grid, bad values, base not found), every
// message naming what is wrong.
#include "support/test_files.h"
#include "sweep/sweep_spec.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <filesystem>

using namespace lwb;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

json baseConfig() {
  return {{"task", "modular_addition"}, {"modulus", 23}, {"steps", 50}, {"batch_size", 64},
          {"model", {{"kind", "modular_mlp"}, {"embed_dim", 23}, {"width", 32}}},
          {"optimizer", {{"kind", "muon"}, {"lr", 0.1}}},
          {"constraint", {{"method", "spectral_hammer"}, {"sigma_max", 2.0}}}};
}

// A spec whose base is a config file next to it.
struct SpecDir {
  QTemporaryDir tmp;
  fs::path dir() const { return tmp.path().toStdString(); }
  SpecDir() { test::writeFile(tmp.path() + "/base.json", baseConfig().dump()); }
  sweep::SweepSpec parse(json spec) const {
    if (!spec.contains("base")) spec["base"] = "base.json";
    return sweep::parseSweepSpec(spec, dir());
  }
  QString error(const json& spec) const {
    return test::inputErrorOf([&] { sweep::expandSweep(parse(spec)); });
  }
};

}  // namespace

class TestSweepSpec : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void crossProductOfGridAndSeeds() {
    SpecDir d;
    const auto spec = d.parse({{"grid", {{"optimizer.lr", {0.1, 0.2, 0.4}}, {"constraint.sigma_max", {1.0, 4.0}}}},
                               {"seeds", {0, 1}},
                               {"steps", 30}});
    QCOMPARE(sweep::countPoints(spec), int64_t{12});
    const auto points = sweep::expandSweep(spec);
    QCOMPARE(points.size(), size_t{12});
    QCOMPARE(points[0].id, std::string("0000"));
    QCOMPARE(points[11].id, std::string("0011"));
    // Keys in name order (constraint.sigma_max before optimizer.lr), seeds fastest.
    QCOMPARE(points[0].assignment, json({{"constraint.sigma_max", 1.0}, {"optimizer.lr", 0.1}, {"seed", 0}}));
    QCOMPARE(points[1].assignment, json({{"constraint.sigma_max", 1.0}, {"optimizer.lr", 0.1}, {"seed", 1}}));
    QCOMPARE(points[2].assignment["optimizer.lr"], json(0.2));
    QCOMPARE(points[6].assignment["constraint.sigma_max"], json(4.0));
    // Configs are resolved (every key present) with the point's values applied.
    QCOMPARE(points[7].config["optimizer"]["lr"], json(0.1));
    QCOMPARE(points[7].config["constraint"]["sigma_max"], json(4.0));
    QCOMPARE(points[7].config["seed"], json(1));
    QCOMPARE(points[7].config["steps"], json(30));
    QVERIFY(points[7].config.contains("eval_every"));
    // Distinct points, distinct configs.
    for (size_t i = 0; i < points.size(); ++i)
      for (size_t j = i + 1; j < points.size(); ++j) QVERIFY(points[i].config != points[j].config);
  }

  void rangesAndUnionOfGrids() {
    SpecDir d;
    const auto log = sweep::gridValues("x", {{"from", 0.001}, {"to", 0.1}, {"count", 3}, {"scale", "log"}});
    QCOMPARE(log.size(), size_t{3});
    QCOMPARE(log[0].get<double>(), 0.001);
    QCOMPARE(log[1].get<double>(), 0.01);
    QCOMPARE(log[2].get<double>(), 0.1);
    const auto lin = sweep::gridValues("x", {{"from", 1}, {"to", 2}, {"count", 5}});
    QCOMPARE(lin[1].get<double>(), 1.25);
    // λ for weight decay, σmax for the spectral methods: two cross products, one sweep.
    const auto spec = d.parse(
        {{"grid",
          {{{"constraint.method", {"weight_decay"}}, {"constraint.lambda", {0.01, 0.1}}},
           {{"constraint.method", {"spectral_normalize", "spectral_hammer"}}, {"constraint.sigma_max", {1, 2, 4}}}}}});
    const auto points = sweep::expandSweep(spec);
    QCOMPARE(points.size(), size_t{8});
    QCOMPARE(points[0].config["constraint"]["method"], json("weight_decay"));
    QCOMPARE(points[7].config["constraint"]["method"], json("spectral_hammer"));
    QCOMPARE(points[7].config["constraint"]["sigma_max"], json(4.0));
    QCOMPARE(points[7].id, std::string("0007"));
    // Overlapping grids: their common point (lr 0.2) ran twice under two ids; a union has it once.
    const auto overlap = sweep::expandSweep(d.parse({{"grid", {{{"optimizer.lr", {0.1, 0.2}}}, {{"optimizer.lr", {0.2, 0.3}}}}}}));
    QCOMPARE(overlap.size(), size_t{3});
    QCOMPARE(overlap[2].assignment["optimizer.lr"], json(0.3));
    QCOMPARE(overlap[2].id, std::string("0002"));
  }

  // The base's own unknown key was reported as "grid.optimizer.lr: value 0.1: unknown key …".
  void badBaseIsBlamedOnTheBase() {
    SpecDir d;
    json base = baseConfig();
    base["optimizer"]["lrr"] = 1;
    test::writeFile(d.tmp.path() + "/bad_base.json", base.dump());
    const QString msg = d.error({{"base", "bad_base.json"}, {"grid", {{"optimizer.lr", {0.1, 0.2}}}}});
    QVERIFY2(msg.startsWith(QLatin1String("base bad_base.json: unknown key 'optimizer.lrr'")), qPrintable(msg));
    // A value that is wrong only with the grid's value is still the grid's.
    QVERIFY(d.error({{"grid", {{"optimizer.lr", {-1}}}}}).startsWith(QLatin1String("grid.optimizer.lr: value -1")));
  }

  void presetBaseById() {
    qputenv("LWB_PRESETS_DIR", LWB_PRESETS_DIR);
    const auto spec = sweep::parseSweepSpec({{"base", "mnist_muon_softcap"}, {"grid", {{"optimizer.lr", {0.1}}}}}, ".");
    QCOMPARE(spec.base["task"], json("mnist"));
    QCOMPARE(sweep::expandSweep(spec)[0].config["data_path"], json("@data/mnist"));
  }

  void invalidSpecsNameTheKey_data() {
    QTest::addColumn<QByteArray>("spec");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown key") << QByteArray(R"({"grid": {"optimizer.lrr": [0.1]}})") << "grid.optimizer.lrr";
    QTest::newRow("unknown key message") << QByteArray(R"({"grid": {"optimizer.lrr": [0.1]}})") << "lrr";
    QTest::newRow("empty grid") << QByteArray(R"({"grid": {}})") << "grid: empty";
    QTest::newRow("no grid") << QByteArray(R"({})") << "grid: empty";
    QTest::newRow("empty value list") << QByteArray(R"({"grid": {"optimizer.lr": []}})")
                                      << "grid.optimizer.lr: empty list of values";
    QTest::newRow("bad value") << QByteArray(R"({"grid": {"optimizer.lr": [0.1, -1]}})")
                               << "grid.optimizer.lr: value -1";
    QTest::newRow("bad value type") << QByteArray(R"({"grid": {"steps": ["many"]}})") << "grid.steps: value \"many\"";
    QTest::newRow("bad choice") << QByteArray(R"({"grid": {"constraint.method": ["spectral_magic"]}})")
                                << "grid.constraint.method: value \"spectral_magic\"";
    QTest::newRow("not a list") << QByteArray(R"({"grid": {"optimizer.lr": 0.1}})") << "grid.optimizer.lr: expected a list";
    QTest::newRow("bad range") << QByteArray(R"({"grid": {"optimizer.lr": {"from": 0, "to": 1, "count": 3, "scale": "log"}}})")
                               << "grid.optimizer.lr: a log range needs";
    QTest::newRow("range count") << QByteArray(R"({"grid": {"optimizer.lr": {"from": 0.1, "to": 1}}})")
                                 << "grid.optimizer.lr.count";
    QTest::newRow("seeds") << QByteArray(R"({"grid": {"optimizer.lr": [0.1]}, "seeds": [-1]})") << "seeds: -1";
    QTest::newRow("steps") << QByteArray(R"({"grid": {"optimizer.lr": [0.1]}, "steps": 0})") << "steps:";
    QTest::newRow("unknown spec key") << QByteArray(R"({"grid": {"optimizer.lr": [0.1]}, "seed": [1]})")
                                      << "seed: unknown sweep spec key";
    QTest::newRow("base not found") << QByteArray(R"({"base": "no_such_preset", "grid": {"optimizer.lr": [0.1]}})")
                                    << "base: 'no_such_preset' is neither";
    QTest::newRow("grid list empty") << QByteArray(R"({"grid": []})") << "grid: empty list of grids";
    QTest::newRow("too many points")
        << QByteArray(R"({"grid": {"optimizer.lr": {"from": 0.1, "to": 1, "count": 1000}, "batch_size": {"from": 1, "to": 1000, "count": 1000}}})")
        << "more than 100000 points";
  }
  void invalidSpecsNameTheKey() {
    QFETCH(QByteArray, spec);
    QFETCH(QString, expected);
    SpecDir d;
    const QString msg = d.error(json::parse(spec.toStdString()));
    QVERIFY2(msg.contains(expected), qPrintable(msg));
  }

  void specFileErrorsNameTheFile() {
    QTemporaryDir tmp;
    const QString file = tmp.path() + "/s.json";
    test::writeFile(file, "{\"base\": ");
    const QString msg = test::inputErrorOf([&] { sweep::loadSweepSpec(file.toStdString()); });
    QVERIFY2(msg.contains(file) && msg.contains("not valid JSON"), qPrintable(msg));
    // The shared JSON reader (issue 33) words it as every file reader does.
    QVERIFY(test::inputErrorOf([&] { sweep::loadSweepSpec((tmp.path() + "/none.json").toStdString()); })
                .contains("none.json: no such file"));
  }
};

QTEST_GUILESS_MAIN(TestSweepSpec)
#include "tst_sweep_spec.moc"
