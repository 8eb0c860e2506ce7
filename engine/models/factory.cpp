#include "models/factory.h"

#include "io/input_error.h"
#include "models/lipschitz_gpt.h"
#include "models/mlp.h"
#include "models/modular_mlp.h"

namespace lwb::models {

std::unique_ptr<Model> makeModel(const run::RunConfig& cfg, const TaskShape& task, at::Generator& gen,
                                 const at::Device& device) {
  const auto& m = cfg.model;
  const bool tokens = cfg.task == "chars";
  const bool modular = cfg.task == "modular_addition" || cfg.task == "modular_multiplication";
  if (m.kind == "mlp") {
    if (tokens || modular) throw InputError("model.kind: mlp needs a feature task (mnist, cifar10), not " + cfg.task);
    return std::make_unique<Mlp>(task.inputDim, m.widths, task.numClasses, gen, device);
  }
  if (m.kind == "modular_mlp") {
    if (!modular) throw InputError("model.kind: modular_mlp needs a modular task, not " + cfg.task);
    return std::make_unique<ModularMlp>(task.numClasses, m.embedDim, m.width, gen, device,
                                        cfg.constraint.embedRmsMax);
  }
  if (m.kind == "lipschitz_gpt") {
    if (!tokens) throw InputError("model.kind: lipschitz_gpt needs the chars task, not " + cfg.task);
    GptShape s;
    s.vocab = task.numClasses;
    s.dModel = m.dModel;
    s.blocks = m.blocks;
    s.heads = m.heads;
    s.seqLen = m.seqLen;
    s.mlpRatio = m.mlpRatio;
    s.finalLogitScale = m.finalLogitScale;
    s.standard = m.standard;
    if (s.dModel % s.heads != 0 || (s.dModel / s.heads) % 2 != 0)
      throw InputError("model.d_model: must split into model.heads heads of even size");
    return std::make_unique<LipschitzGpt>(s, gen, device);
  }
  throw InputError("model.kind: unknown model '" + m.kind + "'");
}

}  // namespace lwb::models
