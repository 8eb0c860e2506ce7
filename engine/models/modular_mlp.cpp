#include "models/modular_mlp.h"

#include "common/linear.h"
#include "models/factory.h"
#include "io/input_error.h"

#include "models/init.h"

#include <ATen/TensorOperators.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/embedding.h>
#include <ATen/ops/gelu.h>
#include <ATen/ops/zeros.h>

#include <stdexcept>

namespace lwb::models {

ModularMlp::ModularMlp(int64_t modulus, int64_t embedDim, int64_t width, at::Generator& gen,
                       const at::Device& device, double embedRmsMax)
    : embedRmsMax_(embedRmsMax) {
  if (modulus < 2 || embedDim < 1 || width < 1) throw std::invalid_argument("modular_mlp: bad sizes");
  embed_ = {"embed", Role::Embedding, asParameter(rmsUnitRows(modulus, embedDim, gen), device), 0};
  hidden_ = {"layers.0", Role::Hidden, asParameter(orthogonalRmsUnit(width, 2 * embedDim, gen), device), 1};
  head_ = {"head", Role::Head,
           asParameter(at::zeros({modulus, width}, at::TensorOptions().dtype(at::kFloat)), device), 2};
}

at::Tensor ModularMlp::run(const at::Tensor& pairs, ActivationStats* stats) {
  // [B, 2] -> [B, 2, e] -> [B, 2e]: the two operands' embeddings side by side.
  const auto e = at::embedding(embed_.tensor, pairs).flatten(1);
  const auto h = at::gelu(lwb::linear(e, hidden_.tensor));
  if (stats) {
    recordActivation(*stats, "embed", e);
    recordActivation(*stats, "layers.0", h);
  }
  return lwb::linear(h, head_.tensor);
}

void ModularMlp::afterStep() {
  if (embedRmsMax_ > 0) capRowRms(embed_.tensor, embedRmsMax_);
}

std::unique_ptr<Model> buildModularMlp(const ModelBuild& b) {
  return std::make_unique<ModularMlp>(b.task.numClasses, b.config.embedDim, b.config.width, b.gen, b.device,
                                      b.context.embedRmsMax);
}

void modularMlpWeights(const ModelConfig& m, const ModelSize& size, WeightShapes& out) {
  const double e = static_cast<double>(m.embedDim), w = static_cast<double>(m.width);
  out.matrix(size.numClasses, e);
  out.matrix(w, 2 * e);
  out.matrix(size.numClasses, w);
}

double modularMlpActivations(const ModelConfig& m, const ModelSize& size) {
  return size.batch * (4 * static_cast<double>(m.embedDim) + 3 * static_cast<double>(m.width) + 3 * size.numClasses);
}

}  // namespace lwb::models
