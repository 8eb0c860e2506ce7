// `mlp`: ReLU, no bias, zero-initialised last layer (000 App. F). Layers are named
// "layers.0" ... and the last one "head".
#pragma once

#include "models/model.h"
#include "models/model_kinds.h"

#include <ATen/core/Generator.h>

#include <memory>

#include <vector>

namespace lwb::models {

class Mlp final : public Model {
 public:
  Mlp(int64_t inputDim, const std::vector<int64_t>& widths, int64_t numClasses, at::Generator& gen,
      const at::Device& device);
  at::Tensor forward(const at::Tensor& inputs) override;
  at::Tensor forwardWithStats(const at::Tensor& inputs, ActivationStats& stats) override;
  std::vector<Param> parameters() override { return params_; }
  ModelKind kind() const override { return ModelKind::Mlp; }

 private:
  at::Tensor run(const at::Tensor& inputs, ActivationStats* stats);
  std::vector<Param> params_;
};

// Its registry row's behaviour (models/model_kinds.cpp): the factory and the memory estimate's sizes.
std::unique_ptr<Model> buildMlp(const ModelBuild& b);
void mlpWeights(const ModelConfig& m, const ModelSize& size, WeightShapes& out);
double mlpActivations(const ModelConfig& m, const ModelSize& size);

}  // namespace lwb::models
