#include "models/model.h"

#include "bounds/lipschitz_bound.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>

namespace lwb::models {

const char* toString(Role r) {
  switch (r) {
    case Role::Embedding: return "embedding";
    case Role::Hidden: return "hidden";
    case Role::Head: return "head";
    case Role::Query: return "q";
    case Role::Key: return "k";
    case Role::Value: return "v";
    case Role::AttnOut: return "o";
    case Role::MlpIn: return "mlp_in";
    case Role::MlpOut: return "mlp_out";
    case Role::InputConv: return "input_conv";
    case Role::Other: return "other";
  }
  return "?";
}

void recordActivation(ActivationStats& stats, const std::string& name, const at::Tensor& x) {
  at::NoGradGuard noGrad;
  stats.names.push_back(name);
  stats.maxAbsEntry.push_back(bounds::maxAbsEntry(x.detach()));
  stats.maxTokenRms.push_back(bounds::maxTokenRms(x.detach()));
  stats.meanTokenRms.push_back(x.detach().to(at::kFloat).square().mean({-1}).sqrt().mean().item<double>());
}

}  // namespace lwb::models
