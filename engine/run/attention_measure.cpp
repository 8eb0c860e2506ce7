#include "run/attention_measure.h"

#include "bounds/pgd_lipschitz.h"

#include <ATen/core/grad_mode.h>

#include <algorithm>

namespace lwb::run {

std::optional<models::ProxReport> proxReport(const models::Model& model) {
  const auto* m = dynamic_cast<const models::AttLipModel*>(&model);
  return m ? m->lastProx() : std::nullopt;
}

std::string attentionCertificate(const models::Model& model, std::optional<bool> evalConverged) {
  const auto* m = dynamic_cast<const models::AttLipModel*>(&model);
  if (!m || m->shape().attention != models::AttentionKind::AttLip) return {};
  if (evalConverged == true) return "converged";
  // The fixed rule is certified for one λ on a ball that holds every input: tokenNorm (proxOptions).
  if (m->shape().rule == attention::ProxRule::Fixed && m->shape().tokenNorm) return "certified_step";
  return "none";
}

void measureAttentionBlock(models::Model& model, const data::Dataset& dataset, uint64_t seed, RunSummary& summary) {
  auto* m = dynamic_cast<models::AttLipModel*>(&model);
  if (!m || m->shape().attention == models::AttentionKind::None || dataset.size(data::Split::Val) < 1) return;
  at::Tensor x0;
  {
    at::NoGradGuard noGrad;
    x0 = m->embed(dataset.slice(data::Split::Val, 0, 1).inputs.to(m->parameters().front().tensor.device()))
             .detach()
             .to(at::kDouble);
  }
  // The evaluation forward's solver (η, rule, prox_tol), with at least 500 steps.
  m->setEvaluation(true);
  attention::ProxOptions converged = m->proxOptions();
  m->setEvaluation(false);
  const bool certifiedStep = attentionCertificate(model, std::nullopt) == "certified_step";
  if (!certifiedStep) {  // the fixed certified step is measured as evaluated: K steps, no stop
    converged.maxSteps = std::max(500, converged.maxSteps);
    converged.relTolerance = std::min(1e-6, converged.relTolerance > 0 ? converged.relTolerance : 1e-6);
  }
  bounds::PgdOptions o;
  o.seed = seed;
  // AttLip through attlipProxImplicit: the converged prox with the exact backward (C.2), so
  // the ascent's gradients do not unroll up to 500 solver steps.
  const bool attlip = m->shape().attention == models::AttentionKind::AttLip;
  const auto w = attlip ? m->attlipWeights().detach().to(at::kDouble) : at::Tensor();
  const auto f = [&](const at::Tensor& x) {
    if (attlip && !certifiedStep)
      return attention::relaxProx(x, attention::attlipProxImplicit(x, w, converged), m->shape().relaxation);
    return m->attentionOnly(x, converged, true);
  };
  const auto r = bounds::pgdLipschitz(f, x0, o);
  summary.attentionPgdEstimate = r.best;
  summary.attentionBound = m->attentionBound(x0.size(1)).value_or(kNotMeasured);
  if (attlip && !certifiedStep) {  // at the prox point, where y − x = −η∇f(y) splits exactly
    const auto parts = attention::proxMovementParts(x0, attention::attlipProx(x0, w, converged).output, w, converged.eta);
    summary.attentionMixingMovement = parts.mixingShare;
    summary.attentionSelfMovement = parts.selfShare;
  }
}

}  // namespace lwb::run
