#include "optim/update_scaling.h"

#include "io/input_error.h"

#include <cmath>

namespace lwb::optim {
namespace {

using models::Role;

// The Lipschitz transformer as Modula composes it (LT's modula/compound.py GPT): head @ blocks
// @ embed, masses 1, blocks_mass, 1. Inside the blocks every linear atom has the same mass
// mu = blocks_mass / (6N) (tare scales the six atoms of each block equally), so an attention
// residual layer carries 4 mu and an MLP residual layer 2 mu. App. F's trick gives the
// residual Muls sensitivity 1, so each residual layer (1-a) x + a f(x) with a unit-sensitive
// branch has sensitivity 2: a layer's target is halved once for every residual layer after it.
// The attention's own 1/3 stays a Mul of sensitivity 1/3 (so the branch is unit-sensitive):
// dividing by it, (V, scores) get 3x their share: q, k, v 3/4 of the layer's target, the
// output projection 1/4. The MLP's two matrices get 1/2 each.
std::vector<double> gptTargets(const std::vector<models::Param>& params, const ModulaLayout& l) {
  const double n = static_cast<double>(l.blocks);
  const double total = l.blocksMass + 2.0;  // embed 1 + blocks + head 1
  const double mu = l.blocksMass / (6.0 * n);
  const int64_t residualLayers = 2 * l.blocks;
  const double blocksSensitivity = std::pow(2.0, static_cast<double>(residualLayers));
  std::vector<double> out;
  for (const auto& p : params) {
    double t = 0.0;
    const bool attention = p.role == Role::Query || p.role == Role::Key || p.role == Role::Value || p.role == Role::AttnOut;
    const bool mlp = p.role == Role::MlpIn || p.role == Role::MlpOut;
    // model.input_conv sits between the embedding and the blocks, with every residual layer
    // after it: it takes the embedding's share (not in LT's GPT, which has no such layer).
    if (p.role == Role::Embedding || p.role == Role::InputConv) {
      t = (1.0 / total) / blocksSensitivity;
    } else if (p.role == Role::Head) {
      t = 1.0 / total;
    } else if (attention || mlp) {
      const int64_t layer = 2 * p.block + (mlp ? 1 : 0);  // residual layer, 0 applied first
      const double after = std::pow(2.0, static_cast<double>(residualLayers - 1 - layer));
      const double layerTarget = (attention ? 4.0 : 2.0) * mu / total / after;
      t = mlp ? layerTarget / 2.0 : p.role == Role::AttnOut ? layerTarget / 4.0 : layerTarget * 3.0 / 4.0;
    }
    out.push_back(t / l.outputScale);
  }
  return out;
}

// A plain MLP is a chain of unit-mass, unit-sensitivity linear maps (ReLU has sensitivity 1):
// each of L matrices gets 1/L (000 App. F: "Modula's mass calculation causes the effective
// learning rate to be scaled by 1/3" for 3 layers).
std::vector<double> mlpTargets(const std::vector<models::Param>& params) {
  double matrices = 0;
  for (const auto& p : params) matrices += p.isMatrix() ? 1.0 : 0.0;
  std::vector<double> out;
  for (const auto& p : params) out.push_back(p.isMatrix() ? 1.0 / matrices : 0.0);
  return out;
}

}  // namespace

std::vector<double> modulaTargets(const std::vector<models::Param>& params, const ModulaLayout& layout) {
  if (layout.mass == models::ModulaMass::ResidualBlocks && layout.blocks > 0) return gptTargets(params, layout);
  if (layout.mass == models::ModulaMass::Chain) return mlpTargets(params);
  std::string covered;
  for (const auto& m : models::modelRows())
    if (m.modula != models::ModulaMass::None) covered += (covered.empty() ? "" : " and ") + std::string(m.info.id);
  throw InputError("optimizer.lr_units: modula is defined for the " + covered + " models (the transformer Lipschitz, "
                   "not standard), not " + layout.modelName);
}

}  // namespace lwb::optim
