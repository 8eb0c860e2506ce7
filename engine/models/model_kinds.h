// The model registry: one row per model kind with what it is (the task input it takes, how
// its Lipschitz bound is formed, whether Modula's mass rule covers it) and what it does (its
// factory and its size for the memory estimate). The trainer, the bound, the optimizer's
// units and the memory estimate ask the row, never the id. No LibTorch here.
#pragma once

#include "common/kind_info.h"
#include "data/task_kinds.h"

#include <algorithm>
#include <memory>
#include <optional>

namespace lwb::models {

class Model;
struct ModelBuild;  // models/factory.h: the config, the task's sizes, generator and device
struct ModelConfig;

enum class ModelKind { Mlp, LipschitzGpt, ModularMlp, IclTransformer, AttLip };

// How run::lipschitzBound forms the model's bound.
enum class ModelBound {
  LayerChain,   // product of the matrices' RMS→RMS norms times the activation's slope between layers
  Transformer,  // 000 App. D over the blocks (LipschitzGpt, not the standard baseline)
  AttLip,       // embedding → attention block → x + MLP(x) → head (seed 004)
  None,         // no sound bound
};

// Modula's mass rule (optimizer.lr_units = modula, optim/update_scaling.h).
enum class ModulaMass {
  None,            // not defined for this model: refused
  Chain,           // a chain of unit-mass layers: 1/L each
  ResidualBlocks,  // 000 App. F: blocks share a mass budget, ½ per residual layer
};

// The sizes the memory estimate needs besides the model section.
struct ModelSize {
  double inputDim = 0, numClasses = 0;  // as the task reports them
  double batch = 1;
  double tokens = 1;                    // sequence length per example (1 for feature tasks)
};

struct WeightShapes {
  double parameters = 0;
  double largestMatrix = 0;  // elements of the biggest weight matrix (constraint work space)
  void matrix(double rows, double cols) {
    parameters += rows * cols;
    largestMatrix = std::max(largestMatrix, rows * cols);
  }
};

struct ModelRow {
  ModelKind kind;
  KindInfo info;
  data::TaskInput input;  // the task input it takes; makeModel refuses other tasks
  ModelBound bound;
  // LayerChain: the activation between layers, its name in the bound's trace and its slope
  // (ReLU 1, GeLU 1.1289).
  std::string_view activation;
  double activationSlope;
  ModulaMass modula;
  std::unique_ptr<Model> (*make)(const ModelBuild&);
  void (*weights)(const ModelConfig&, const ModelSize&, WeightShapes&);
  double (*activations)(const ModelConfig&, const ModelSize&);  // elements kept for backward
};

std::span<const ModelRow> modelRows();
const ModelRow& row(ModelKind kind);
std::string_view toString(ModelKind kind);
std::optional<ModelKind> parseModelKind(std::string_view id);
std::span<const KindInfo> modelKinds();

}  // namespace lwb::models
