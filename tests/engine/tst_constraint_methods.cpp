// The method registry (spectral/constraint_methods.h) against what applyConstraint actually
// does: for every method, each trait flag is checked by perturbing that setting alone (the
// output changes iff the method reads it), enforcesBound on a matrix two of whose singular
// values exceed σmax, startsFromSign by handing in a bogus msign(W), and the one scalar map
// f(σ) against the singular values of the result. Plus the parser's one set of messages.
#include "io/input_error.h"
#include "spectral/spectral.h"
#include "support/spectra.h"

#include <ATen/ops/zeros_like.h>
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <functional>

using namespace lwb;
using spectral::ConstraintMethod;
using spectral::ConstraintParams;

Q_DECLARE_METATYPE(ConstraintMethod)

namespace {

// σ = 2.15, 2.1 above σmax = 2 (and below Theorem B.1's k = σmax(1 − λη) + η = 2.45, so the
// soft cap's α* applies), then a tail down to 0.05 straddling σmin = 0.2.
at::Tensor testMatrix() {
  auto s = spectral::logSpacedSpectrum(22, 1.0, 0.05);
  s.insert(s.begin(), {2.15, 2.1});
  return spectral::matrixWithSpectrum(24, 40, s, 11);  // float64
}

ConstraintParams base(ConstraintMethod m) {
  ConstraintParams p;
  p.method = m;
  p.sigmaMax = 2.0;
  p.sigmaMin = 0.2;
  p.lambda = 0.05;
  p.lr = 0.5;
  p.impl = spectral::ClipImpl::Nested;
  p.powerIterations = 3;
  return p;
}

// Power iteration starts from random vectors: the same seed for every call.
at::Tensor apply(const at::Tensor& w, const ConstraintParams& p) {
  at::manual_seed(7);
  return spectral::applyConstraint(w, p);
}

struct Perturbation {
  const char* name;
  unsigned flag;
  std::function<void(ConstraintParams&)> change;
};

const std::vector<Perturbation>& perturbations() {
  static const std::vector<Perturbation> list = {
      {"sigma_max", spectral::kSigmaMax, [](ConstraintParams& p) { p.sigmaMax = 1.7; }},
      {"sigma_min", spectral::kSigmaMin, [](ConstraintParams& p) { p.sigmaMin = 0.4; }},
      {"alpha", spectral::kAlpha, [](ConstraintParams& p) { p.alpha = 0.01; }},
      {"lambda", spectral::kLambda, [](ConstraintParams& p) { p.lambda = 0.2; }},
      {"lr", spectral::kLr, [](ConstraintParams& p) { p.lr = 0.25; }},
      {"impl", spectral::kImpl, [](ConstraintParams& p) { p.impl = spectral::ClipImpl::AbdBlock; }},
      {"ns", spectral::kNs, [](ConstraintParams& p) { p.ns.steps = 13; }},
      {"power_iters", spectral::kPowerIters, [](ConstraintParams& p) { p.powerIterations = 1; }},
  };
  return list;
}

}  // namespace

class TestConstraintMethods : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void registryIsComplete() {
    QCOMPARE(spectral::constraintMethods().size(), size_t{12});
    for (const auto& t : spectral::constraintMethods()) {
      QVERIFY(spectral::parseConstraintMethod(t.key) == t.id);
      QCOMPARE(spectral::toString(t.id), t.key);
      QVERIFY(!t.title.empty() && !t.mapName.empty());
    }
    for (const auto& i : spectral::clipImpls()) QVERIFY(spectral::parseClipImpl(i.key) == i.id);
    for (const auto& c : spectral::nsCoefficientSets()) QVERIFY(spectral::parseNsCoefficients(c.key) == c.id);
    QVERIFY(!spectral::parseConstraintMethod("spectral_cap"));
  }

  void readsMatchesApply_data() {
    QTest::addColumn<ConstraintMethod>("method");
    for (const auto& t : spectral::constraintMethods()) QTest::newRow(std::string(t.key).c_str()) << t.id;
  }

  // A setting is read iff changing it alone changes the output.
  void readsMatchesApply() {
    QFETCH(ConstraintMethod, method);
    const at::Tensor w = testMatrix();
    const at::Tensor ref = apply(w, base(method));
    for (const Perturbation& x : perturbations()) {
      ConstraintParams p = base(method);
      x.change(p);
      const bool changed = !apply(w, p).equal(ref);
      QVERIFY2(changed == spectral::reads(method, static_cast<spectral::MethodParam>(x.flag)),
               qPrintable(QStringLiteral("%1: output %2 but the trait says %3")
                              .arg(QLatin1String(x.name), changed ? "changed" : "did not change",
                                   spectral::reads(method, static_cast<spectral::MethodParam>(x.flag)) ? "reads" : "ignores")));
    }
  }

  void enforcesBoundMatchesApply_data() { readsMatchesApply_data(); }
  void enforcesBoundMatchesApply() {
    QFETCH(ConstraintMethod, method);
    ConstraintParams p = base(method);
    p.impl = spectral::ClipImpl::Svd;  // exact where there is a choice
    p.powerIterations = 1000;  // σ₂/σ₁ = 0.977: converged to float64
    const double sigma1 = test::singularValues(apply(testMatrix(), p)).front();
    const bool holds = sigma1 <= p.sigmaMax * (1 + 1e-6);
    QVERIFY2(holds == spectral::traits(method).enforcesBound, qPrintable(QStringLiteral("σ₁ after = %1").arg(sigma1)));
  }

  // The trait says the method may start from a given msign(W): a bogus one must change the
  // result exactly when startsFromSign(settings) says it is used.
  void startsFromSignMatchesApply_data() { readsMatchesApply_data(); }
  void startsFromSignMatchesApply() {
    QFETCH(ConstraintMethod, method);
    const at::Tensor w = testMatrix();
    for (const auto& impl : spectral::clipImpls()) {
      ConstraintParams p = base(method);
      p.impl = impl.id;
      const at::Tensor ref = apply(w, p);
      p.sign = at::zeros_like(w);
      const bool used = !apply(w, p).equal(ref);
      QCOMPARE(used, spectral::startsFromSign(p));
      if (used) QVERIFY(spectral::traits(method).startsFromSign);
    }
  }

  // The one scalar map: the result's singular values are |f(σᵢ)| (exact implementations).
  void scalarMapMatchesApply_data() { readsMatchesApply_data(); }
  void scalarMapMatchesApply() {
    QFETCH(ConstraintMethod, method);
    const at::Tensor w = testMatrix();
    ConstraintParams p = base(method);
    p.impl = spectral::ClipImpl::Svd;
    p.ns = {spectral::NsCoefficients::Jordan5, 30, 30};  // Stiefel: converged msign
    p.powerIterations = 1000;
    const auto before = test::singularValues(w);
    const auto after = test::singularValues(apply(w, p));
    const double alpha = spectral::reads(method, spectral::kAlpha) ? spectral::resolvedAlpha(p) : 0.0;
    std::vector<double> expected;
    for (double s : before) expected.push_back(std::abs(spectral::scalarMap(p, s, before.front(), alpha)));
    std::sort(expected.begin(), expected.end(), std::greater<>());
    for (size_t i = 0; i < expected.size(); ++i)
      QVERIFY2(std::abs(after[i] - expected[i]) < 1e-6 * 2.15,
               qPrintable(QStringLiteral("σ%1: %2 vs f = %3").arg(i + 1).arg(after[i]).arg(expected[i])));
  }

  // Unknown σ₁: every σ is taken as the top one (the curve of where σ₁ goes).
  void scalarMapWithoutSigma1() {
    ConstraintParams p = base(ConstraintMethod::SpectralNormalize);
    QCOMPARE(spectral::scalarMap(p, 3.0, 0.0, 0), 2.0);
    QCOMPARE(spectral::scalarMap(p, 1.0, 0.0, 0), 1.0);
    p.method = ConstraintMethod::SpectralHammer;
    QCOMPARE(spectral::scalarMap(p, 1.0, 0.0, 0), 2.0);
    p.method = ConstraintMethod::SpectralWeightDecay;
    QCOMPARE(spectral::scalarMap(p, 1.0, 0.0, 0), 0.95);
    QCOMPARE(spectral::scalarMap(p, 1.0, 3.0, 0), 1.0);  // not the top
  }

  // One parser, one set of ranges; messages name the setting as the caller spells it.
  void parserMessages_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("message");
    QTest::newRow("method") << R"({"method": "spectral_softcap"})" << "constraint.method: must be one of none, weight_decay";
    QTest::newRow("sigma_max") << R"({"sigma_max": 0})" << "constraint.sigma_max: must be > 0, got 0";
    QTest::newRow("sigma_min") << R"({"sigma_max": 1, "sigma_min": 2})" << "constraint.sigma_min: must be <= constraint.sigma_max (1), got 2";
    QTest::newRow("alpha") << R"({"alpha": "fast"})" << R"(constraint.alpha: expected a number or "auto", got 'fast')";
    QTest::newRow("lambda fraction") << R"({"method": "spectral_clipped_weight_decay", "lambda": 1.5})" << "constraint.lambda: must be <= 1, got 1.5";
    QTest::newRow("lr") << R"({"lr": -1})" << "constraint.lr: must be > 0, got -1";
    QTest::newRow("impl") << R"({"impl": "fast"})" << "constraint.impl: must be one of nested, abd_dense, abd_block, svd";
    QTest::newRow("coeffs") << R"({"ns_coeffs": "newton"})" << "constraint.ns_coeffs: must be one of jordan5, you6, polish";
    QTest::newRow("steps") << R"({"ns_steps": 101})" << "constraint.ns_steps: must be <= 100, got 101";
    QTest::newRow("no steps") << R"({"method": "stiefel", "ns_steps": 0, "ns_polish_steps": 0})" << "constraint.ns_steps: at least one";
    QTest::newRow("power") << R"({"power_iters": 0})" << "constraint.power_iters: must be >= 1, got 0";
    QTest::newRow("norm") << R"({"norm": "l2"})" << "constraint.norm: must be one of rms, spectral";
  }
  void parserMessages() {
    QFETCH(QString, json);
    QFETCH(QString, message);
    spectral::ConstraintSettings s;
    try {
      spectral::readSettings(nlohmann::json::parse(json.toStdString()), s, spectral::prefixedNamer("constraint."));
      QFAIL("accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).startsWith(message), e.what());
    }
  }

  void parserRoundTrip() {
    spectral::ConstraintSettings s;
    s.method = ConstraintMethod::SpectralClip;
    s.sigmaMax = 3;
    s.sigmaMin = 0.5;
    s.alpha = 0.25;
    s.impl = spectral::ClipImpl::AbdDense;
    s.ns = {spectral::NsCoefficients::You6, 6, 2};
    s.powerIterations = 4;
    s.norm = spectral::ThresholdNorm::Rms;
    nlohmann::json j;
    spectral::writeSettings(s, j);
    spectral::ConstraintSettings t;
    spectral::readSettings(j, t, spectral::prefixedNamer(""));
    nlohmann::json k;
    spectral::writeSettings(t, k);
    QCOMPARE(QString::fromStdString(k.dump()), QString::fromStdString(j.dump()));
  }

  // The labels name settings in the lab's words.
  void labNamer() {
    spectral::ConstraintSettings s;
    s.sigmaMax = -1;
    try {
      spectral::validate(s, spectral::settingLabel);
      QFAIL("accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).startsWith(QStringLiteral("σmax: must be > 0")), e.what());
    }
  }
};

QTEST_APPLESS_MAIN(TestConstraintMethods)
#include "tst_constraint_methods.moc"
