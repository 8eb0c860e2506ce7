#include "models/mlp.h"

#include "common/linear.h"
#include "models/factory.h"
#include "io/input_error.h"

#include "models/init.h"

#include <ATen/TensorOperators.h>
#include <ATen/ops/relu.h>
#include <ATen/ops/zeros.h>

#include <stdexcept>

namespace lwb::models {

Mlp::Mlp(int64_t inputDim, const std::vector<int64_t>& widths, int64_t numClasses,
         at::Generator& gen, const at::Device& device) {
  if (inputDim < 1 || numClasses < 1) throw std::invalid_argument("mlp: bad input or class count");
  int64_t in = inputDim;
  for (size_t i = 0; i < widths.size(); ++i) {
    params_.push_back({"layers." + std::to_string(i), Role::Hidden,
                       asParameter(orthogonalRmsUnit(widths[i], in, gen), device), static_cast<int>(i)});
    in = widths[i];
  }
  params_.push_back({"head", Role::Head,
                     asParameter(at::zeros({numClasses, in}, at::TensorOptions().dtype(at::kFloat)), device),
                     static_cast<int>(widths.size())});
}

at::Tensor Mlp::forward(const at::Tensor& inputs) { return run(inputs, nullptr); }

at::Tensor Mlp::forwardWithStats(const at::Tensor& inputs, ActivationStats& stats) {
  return run(inputs, &stats);
}

at::Tensor Mlp::run(const at::Tensor& inputs, ActivationStats* stats) {
  at::Tensor x = inputs;
  for (size_t i = 0; i + 1 < params_.size(); ++i) {
    x = at::relu(lwb::linear(x, params_[i].tensor));
    if (stats) recordActivation(*stats, params_[i].name, x);
  }
  return lwb::linear(x, params_.back().tensor);
}

std::unique_ptr<Model> buildMlp(const ModelBuild& b) {
  return std::make_unique<Mlp>(b.task.inputDim, b.config.widths, b.task.numClasses, b.gen, b.device);
}

void mlpWeights(const ModelConfig& m, const ModelSize& size, WeightShapes& out) {
  double in = size.inputDim;
  for (const int64_t w : m.widths) {
    out.matrix(static_cast<double>(w), in);
    in = static_cast<double>(w);
  }
  out.matrix(size.numClasses, in);
}

double mlpActivations(const ModelConfig& m, const ModelSize& size) {
  double widths = 0;
  for (const int64_t w : m.widths) widths += static_cast<double>(w);
  return size.batch * (size.inputDim + 3 * widths + 3 * size.numClasses);
}

}  // namespace lwb::models
