#include "app/pages/cliplab/cliplab_presets.h"

#include <QCoreApplication>

namespace lwb::app::pages {
namespace {

// Titles and cues are translated in context "ClipLabPresets" (spelled out at each call: a
// local tr() helper would make lupdate file the strings under the enclosing namespace).

ClipLabPreset preset(const QString& id, const QString& title, const QString& cue, ClipLabTab tab) {
  ClipLabPreset p;
  p.id = id;
  p.title = title;
  p.cue = cue;
  p.tab = tab;
  return p;
}

lab::MatrixSpec logSpaced(double sigma1, double low = 0.01) {
  lab::MatrixSpec m;
  m.kind = lab::SourceKind::Prescribed;
  m.sigma1 = sigma1;
  m.sigmaLow = low;
  return m;
}

using M = spectral::ConstraintMethod;

lab::ConstraintRequest method(M m, double sigmaMax, spectral::ClipImpl impl = spectral::ClipImpl::Nested,
                              const char* dtype = "float32") {
  lab::ConstraintRequest r;
  r.method = m;
  r.sigmaMax = sigmaMax;
  r.impl = impl;
  r.dtype = dtype;
  return r;
}

std::vector<ClipLabPreset> build() {
  std::vector<ClipLabPreset> p;
  {
    ClipLabPreset x = preset(QStringLiteral("hard_cap"), QCoreApplication::translate("ClipLabPresets", "1 · Hard cap: only σ above σmax move"),
                    QCoreApplication::translate("ClipLabPresets", "Singular values from 10 down to 0.01. Drag σmax: everything below the line stays put, everything above lands on it."),
                    ClipLabTab::Constraint);
    x.matrix = logSpaced(10);
    x.method = method(M::SpectralHardCap, 1.0);
    p.push_back(x);
  }
  {
    ClipLabPreset x = preset(QStringLiteral("soft_cap"), QCoreApplication::translate("ClipLabPresets", "2 · Soft cap p₂∘p₁ with α*"),
                    QCoreApplication::translate("ClipLabPresets", "A Gaussian matrix with σ₁ = σmax + η, the largest σ₁ an update of norm η can reach. α* (App. B) is the "
                       "least strength that brings it back to σmax; move η and watch α* follow. Far above σmax the polynomial "
                       "turns over: the soft cap keeps bounded weights bounded, it does not repair large ones."),
                    ClipLabTab::Constraint);
    lab::MatrixSpec m;
    m.sigma1 = 1.1;
    x.matrix = m;
    x.method = method(M::SpectralSoftCap, 1.0);
    x.method->lr = 0.1;
    p.push_back(x);
  }
  {
    ClipLabPreset x = preset(QStringLiteral("normalize_heavy_tail"), QCoreApplication::translate("ClipLabPresets", "3 · Spectral normalize on a heavy-tailed spectrum"),
                    QCoreApplication::translate("ClipLabPresets", "Normalisation divides every σ by σ₁/σmax: the bulk shrinks with the top. Switch to hard cap to keep the bulk."),
                    ClipLabTab::Constraint);
    lab::MatrixSpec m;
    m.kind = lab::SourceKind::HeavyTailed;
    m.sigma1 = 5;
    x.matrix = m;
    x.method = method(M::SpectralNormalize, 1.0);
    p.push_back(x);
  }
  {
    ClipLabPreset x = preset(QStringLiteral("clip_low_rank"), QCoreApplication::translate("ClipLabPresets", "4 · Clip to [σmin, σmax] on low rank + noise"),
                    QCoreApplication::translate("ClipLabPresets", "Eight signal directions above a noise floor. Clipping lifts the noise to σmin and caps the signal at σmax."),
                    ClipLabTab::Constraint);
    lab::MatrixSpec m;
    m.kind = lab::SourceKind::LowRankNoise;
    m.sigma1 = 3;
    x.matrix = m;
    x.method = method(M::SpectralClip, 1.0, spectral::ClipImpl::AbdBlock);
    x.method->sigmaMin = 0.25;
    p.push_back(x);
  }
  {
    ClipLabPreset x = preset(QStringLiteral("newton_schulz"), QCoreApplication::translate("ClipLabPresets", "5 · Newton–Schulz, one step at a time"),
                    QCoreApplication::translate("ClipLabPresets", "Press Play: each step applies the same odd quintic to every singular value at once. Small σ grow ~3.4× per "
                       "step; the polishing steps pull everything onto 1."),
                    ClipLabTab::NewtonSchulz);
    x.matrix = logSpaced(10);
    x.newtonSchulz = lab::NsTraceRequest{"jordan5", 10, 4, "float32"};
    p.push_back(x);
  }
  {
    ClipLabPreset x = preset(QStringLiteral("bf16_nested"), QCoreApplication::translate("ClipLabPresets", "6 · Low precision: nested hard cap in bfloat16"),
                    QCoreApplication::translate("ClipLabPresets", "σ₁ = 100 in bfloat16: the nested form must cancel ½W with low-precision products, so σ₁ after the cap "
                       "misses σmax. Switch the implementation to exact SVD or the precision to float32."),
                    ClipLabTab::Constraint);
    x.matrix = logSpaced(100);
    x.method = method(M::SpectralHardCap, 1.0, spectral::ClipImpl::Nested, "bfloat16");
    p.push_back(x);
  }
  {
    ClipLabPreset x = preset(QStringLiteral("nested_vs_abd"), QCoreApplication::translate("ClipLabPresets", "7 · Nested vs anti-block-diagonal, σ₁ up to 1000"),
                    QCoreApplication::translate("ClipLabPresets", "The spectral-clipping paper, §6.1: hard cap of matrices with growing σ₁ in every implementation. In bfloat16 the error grows "
                       "like eps·σ₁; compare the implementations, then rerun in float32."),
                    ClipLabTab::CapSweep);
    x.sweep = lab::CapSweepRequest{};
    x.sweep->rows = 128;
    x.sweep->cols = 256;
    p.push_back(x);
  }
  {
    ClipLabPreset x = preset(QStringLiteral("wd_equilibrium"), QCoreApplication::translate("ClipLabPresets", "8 · Weight decay pulls σ₁ to 1/λ"),
                    QCoreApplication::translate("ClipLabPresets", "Updates of norm η = 0.1 with decay λ = 0.5: σ₁ = σ₁(1 − λη) + η settles at 1/λ = 2. Clipped decay "
                       "settles at β + (1 − λ)η/λ, the soft cap stays at σmax."),
                    ClipLabTab::Equilibrium);
    x.equilibrium = lab::EquilibriumRequest{};
    p.push_back(x);
  }
  {
    ClipLabPreset x = preset(QStringLiteral("clipped_decay"), QCoreApplication::translate("ClipLabPresets", "9 · Clipped decay: a tight bound with a gentle λ"),
                    QCoreApplication::translate("ClipLabPresets", "λ = 0.1: weight decay would allow σ₁ = 10, clipped decay holds β + 0.9·η/0.1 = 1.9. Lower η: its "
                       "equilibrium approaches β."),
                    ClipLabTab::Equilibrium);
    lab::EquilibriumRequest r;
    r.lambda = 0.1;
    r.steps = 600;
    x.equilibrium = r;
    p.push_back(x);
  }
  {
    ClipLabPreset x = preset(QStringLiteral("random_updates"), QCoreApplication::translate("ClipLabPresets", "10 · Random updates: the predictions are upper bounds"),
                    QCoreApplication::translate("ClipLabPresets", "With updates only 30 % aligned with the weights, σ₁ settles below every predicted value."),
                    ClipLabTab::Equilibrium);
    lab::EquilibriumRequest r;
    r.alignment = 0.3;
    r.steps = 400;
    x.equilibrium = r;
    p.push_back(x);
  }
  {
    // Seed 002 (issue 14): the tab has its own matrix (W on the manifold, a step off it).
    ClipLabPreset x = preset(QStringLiteral("stiefel_retraction"), QCoreApplication::translate("ClipLabPresets", "11 · Stiefel retraction: which msign converges"),
                    QCoreApplication::translate("ClipLabPresets", "Manifold Muon retracts W − ηA with msign: only Polar Express puts every σ back on 1 (to ~10⁻⁷); "
                       "Jordan's quintic (Muon's msign) leaves them far off 1 (here ≈ 0.7)."),
                    ClipLabTab::Stiefel);
    p.push_back(x);
  }
  return p;
}

}  // namespace

const std::vector<ClipLabPreset>& clipLabPresets() {
  static const std::vector<ClipLabPreset> presets = build();
  return presets;
}

}  // namespace lwb::app::pages
