// `modular_mlp` for grokking (001 §6.2.1): embeddings of a and b concatenated, then
// W1 (width x 2 embedDim), GeLU, head (p x width). Embedding rows are capped at RMS 1.
#pragma once

#include "models/model.h"
#include "models/model_kinds.h"

#include <ATen/core/Generator.h>

#include <memory>

namespace lwb::models {

class ModularMlp final : public Model {
 public:
  ModularMlp(int64_t modulus, int64_t embedDim, int64_t width, at::Generator& gen, const at::Device& device,
             double embedRmsMax = 1.0);
  at::Tensor forward(const at::Tensor& pairs) override { return run(pairs, nullptr); }
  at::Tensor forwardWithStats(const at::Tensor& pairs, ActivationStats& stats) override { return run(pairs, &stats); }
  std::vector<Param> parameters() override { return {embed_, hidden_, head_}; }
  void afterStep() override;
  ModelKind kind() const override { return ModelKind::ModularMlp; }

 private:
  at::Tensor run(const at::Tensor& pairs, ActivationStats* stats);
  Param embed_, hidden_, head_;
  double embedRmsMax_;
};

// Its registry row's behaviour (models/model_kinds.cpp): the factory and the memory estimate's sizes.
std::unique_ptr<Model> buildModularMlp(const ModelBuild& b);
void modularMlpWeights(const ModelConfig& m, const ModelSize& size, WeightShapes& out);
double modularMlpActivations(const ModelConfig& m, const ModelSize& size);

}  // namespace lwb::models
