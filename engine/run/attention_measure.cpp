#include "run/attention_measure.h"

#include "bounds/pgd_lipschitz.h"

#include <ATen/core/grad_mode.h>

#include <algorithm>

namespace lwb::run {

std::optional<models::ProxReport> proxReport(const models::Model& model) {
  const auto* m = dynamic_cast<const models::AttLipModel*>(&model);
  return m ? m->lastProx() : std::nullopt;
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
  attention::ProxOptions converged;
  converged.rule = m->shape().rule;
  converged.maxSteps = static_cast<int>(std::max<int64_t>(500, m->shape().proxStepsEval));
  converged.relTolerance = 1e-6;
  bounds::PgdOptions o;
  o.seed = seed;
  // AttLip through attlipProxImplicit: the converged prox with the exact backward (C.2), so
  // the ascent's gradients do not unroll up to 500 solver steps.
  const bool attlip = m->shape().attention == models::AttentionKind::AttLip;
  const auto w = attlip ? m->attlipWeights().detach().to(at::kDouble) : at::Tensor();
  const auto f = [&](const at::Tensor& x) {
    return attlip ? attention::attlipProxImplicit(x, w, converged) : m->attentionOnly(x, converged, true);
  };
  const auto r = bounds::pgdLipschitz(f, x0, o);
  summary.attentionPgdEstimate = r.best;
  summary.attentionBound = m->attentionBound(x0.size(1)).value_or(kNotMeasured);
}

}  // namespace lwb::run
