#include "app/pages/attention/attention_presets.h"

#include "app/pages/attention/attention_common.h"

#include "lab/lab.h"

#include <QCoreApplication>

namespace lwb::app::pages {
namespace {

// Titles and cues are translated in context "AttentionLabPresets" (spelled out at each call,
// as in cliplab_presets.cpp).

AttentionPreset preset(const char* id, const QString& title, const QString& cue, AttentionTab tab) {
  AttentionPreset p;
  p.id = QLatin1String(id);
  p.title = title;
  p.cue = cue;
  p.tab = tab;
  return p;
}

LengthRequest length(int dim, int heads, std::vector<int> tokens, int iters, int restarts) {
  LengthRequest r;
  r.block.dim = dim;
  r.block.heads = heads;
  r.tokens = std::move(tokens);
  r.kinds = lab::attentionKindIds();
  r.pgd.iters = iters;
  r.pgd.restarts = restarts;
  return r;
}

ProxRequest prox(int tokens, int dim, double scale, int steps) {
  ProxRequest r;
  r.block.dim = dim;
  r.block.heads = 1;
  r.tokens = tokens;
  r.inputScale = scale;
  r.maxSteps = steps;
  return r;
}

std::vector<AttentionPreset> build() {
  std::vector<AttentionPreset> p;
  {
    AttentionPreset x = preset("plane", QCoreApplication::translate("AttentionLabPresets", "1 · Tokens in the plane: who pulls inputs apart"),
                               QCoreApplication::translate("AttentionLabPresets", "Six tokens in the plane and a copy moved by 0.5. Compare how far apart the two "
                                   "images land under each kind: AttLip's ratio is below 1. Raise the perturbation or change the seed."),
                               AttentionTab::Plane);
    x.plane = PlaneRequest{};
    p.push_back(x);
  }
  {
    AttentionPreset x = preset("table1", QCoreApplication::translate("AttentionLabPresets", "2 · Lipschitz vs N: AttLip stays at 1, ℓ2's bound grows"),
                               QCoreApplication::translate("AttentionLabPresets", "The AttLip paper's Table 1 in small (d 16, H 2): points arrive per N. AttLip's estimate sits just "
                                   "below its bound 1; ℓ2's bound grows like √N·log N while its estimate stays flat. The dotted "
                                   "lines are the paper's numbers at d 512, H 8 (its ℓ2 line is Eq. 6 as printed, not a bound)."),
                               AttentionTab::Length);
    x.length = length(16, 2, {8, 16, 32, 64}, 15, 2);
    x.paperOverlay = true;
    x.runNow = true;
    p.push_back(x);
  }
  {
    AttentionPreset x = preset("table1_cpu", QCoreApplication::translate("AttentionLabPresets", "3 · Table 1 at d 32, H 4 (the CPU reproduction)"),
                               QCoreApplication::translate("AttentionLabPresets", "The CPU reproduction's setting: N = 16 … 128 with PGD 30 × 3. Press Run: it takes "
                                   "minutes on two cores; Cancel keeps the points already computed."),
                               AttentionTab::Length);
    x.length = length(32, 4, {16, 32, 64, 128}, 30, 3);
    x.paperOverlay = true;
    p.push_back(x);
  }
  {
    AttentionPreset x = preset("prox_fig1", QCoreApplication::translate("AttentionLabPresets", "4 · Inside the prox: the residual falls fast"),
                               QCoreApplication::translate("AttentionLabPresets", "The AttLip paper's Fig. 1 in small: one head of width 64, inputs of size 1/√d. Armijo's residual "
                                   "‖g‖ falls by orders of magnitude in 20 steps; the fixed safe step, certified but tiny, barely moves. "
                                   "Press Play and watch φ decrease."),
                               AttentionTab::Prox);
    x.prox = prox(64, 64, 0.125, 20);
    p.push_back(x);
  }
  {
    AttentionPreset x = preset("prox_large_inputs", QCoreApplication::translate("AttentionLabPresets", "5 · Inside the prox: large inputs, a bumpy residual"),
                               QCoreApplication::translate("AttentionLabPresets", "The same block with inputs N(0, 1): Armijo backtracks (λ = 1/8 at the first step) "
                                   "and ‖g‖ goes up as well as down; Armijo only promises that φ decreases."),
                               AttentionTab::Prox);
    x.prox = prox(64, 64, 1.0, 40);
    p.push_back(x);
  }
  {
    AttentionPreset x = preset("armijo_small_k", QCoreApplication::translate("AttentionLabPresets", "6 · Armijo with small K is not 1-Lipschitz"),
                               QCoreApplication::translate("AttentionLabPresets", "Near pairs of inputs through K = 1 … 5 prox steps: with Armijo the ratio can "
                                   "exceed 1 (the accepted step jumps with the input); the fixed safe step never does."),
                               AttentionTab::FiniteK);
    FiniteKRequest r;
    r.block.dim = 64;
    r.block.heads = 4;
    x.finiteK = r;
    p.push_back(x);
  }
  {
    AttentionPreset x = preset("relaxed_prox", QCoreApplication::translate("AttentionLabPresets", "7 · The relaxed prox: 1-Lipschitz up to α = 2, not beyond"),
                               QCoreApplication::translate("AttentionLabPresets", "The block x + α(prox(x) − x), which masked_chars_attlip_cpu trains with α = 2. "
                                   "The prox is firmly non-expansive, so the block is 1-Lipschitz for α ≤ 2; here α = 3, its bound is "
                                   "α − 1 = 2 and PGD finds pairs that move apart. Set α to 2 and press Run: the bound is 1 again and the estimate stays at or below it."),
                               AttentionTab::Length);
    x.length = length(16, 2, {8, 32}, 15, 2);
    x.length->kinds = {attLipId()};
    x.length->block.relaxation = 3;
    x.runNow = true;
    p.push_back(x);
  }
  return p;
}

}  // namespace

const std::vector<AttentionPreset>& attentionPresets() {
  static const std::vector<AttentionPreset> presets = build();
  return presets;
}

}  // namespace lwb::app::pages
