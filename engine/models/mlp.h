// `mlp`: ReLU, no bias, zero-initialised last layer (000 App. F). Layers are named
// "layers.0" ... and the last one "head".
#pragma once

#include "models/model.h"

#include <ATen/core/Generator.h>

#include <vector>

namespace lwb::models {

class Mlp final : public Model {
 public:
  Mlp(int64_t inputDim, const std::vector<int64_t>& widths, int64_t numClasses, at::Generator& gen,
      const at::Device& device);
  at::Tensor forward(const at::Tensor& inputs) override;
  at::Tensor forwardWithStats(const at::Tensor& inputs, ActivationStats& stats) override;
  std::vector<Param> parameters() override { return params_; }
  std::string kind() const override { return "mlp"; }

 private:
  at::Tensor run(const at::Tensor& inputs, ActivationStats* stats);
  std::vector<Param> params_;
};

}  // namespace lwb::models
