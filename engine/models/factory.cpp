#include "models/factory.h"

#include "io/input_error.h"
#include "models/attlip_model.h"
#include "models/icl_transformer.h"
#include "models/lipschitz_gpt.h"
#include "models/mlp.h"
#include "models/modular_mlp.h"

namespace lwb::models {

std::unique_ptr<Model> makeModel(const ModelConfig& m, const TaskShape& task, const ModelContext& context,
                                 at::Generator& gen, const at::Device& device) {
  const std::string& taskId = context.task;
  const bool tokens = taskId == "chars";
  const bool modular = taskId == "modular_addition" || taskId == "modular_multiplication";
  if (m.kind == "mlp") {
    if (tokens || modular || taskId == "icl_least_squares") throw InputError("model.kind: mlp needs a feature task (mnist, cifar10), not " + taskId);
    return std::make_unique<Mlp>(task.inputDim, m.widths, task.numClasses, gen, device);
  }
  if (m.kind == "modular_mlp") {
    if (!modular) throw InputError("model.kind: modular_mlp needs a modular task, not " + taskId);
    return std::make_unique<ModularMlp>(task.numClasses, m.embedDim, m.width, gen, device,
                                        context.embedRmsMax);
  }
  if (m.kind == "lipschitz_gpt") {
    if (!tokens) throw InputError("model.kind: lipschitz_gpt needs the chars task, not " + taskId);
    GptShape s;
    s.vocab = task.numClasses;
    s.dModel = m.dModel;
    s.blocks = m.blocks;
    s.heads = m.heads;
    s.seqLen = m.seqLen;
    s.mlpRatio = m.mlpRatio;
    s.finalLogitScale = m.finalLogitScale;
    s.standard = m.standard;
    s.residualAlpha = m.residualAlpha;
    s.scoreScale = m.scoreScale;
    s.sumResidual = m.residual == "sum";
    s.positionBias = m.attentionScores != "content";
    s.contentScores = m.attentionScores != "position";
    if (s.positionBias && m.standard)
      throw InputError("model.attention_scores: " + m.attentionScores + " is a Lipschitz-model option; the standard baseline uses content scores");
    if (s.positionBias && s.sumResidual)
      throw InputError("model.attention_scores: " + m.attentionScores + " is for the convex residual, not with model.residual = sum");
    if (s.sumResidual && m.standard)
      throw InputError("model.residual: sum is a Lipschitz-model option; the standard baseline already adds x + block(x)");
    if (s.sumResidual && m.residualAlpha > 0)
      throw InputError("model.residual_alpha: only for the convex residual, not with model.residual = sum");
    s.zeroOutputs = m.zeroInit != "none";
    s.zeroHead = m.zeroInit == "outputs_and_head";
    if (s.dModel % s.heads != 0 || (s.dModel / s.heads) % 2 != 0)
      throw InputError("model.d_model: must split into model.heads heads of even size");
    return std::make_unique<LipschitzGpt>(s, gen, device);
  }
  if (m.kind == "icl_transformer") {
    if (taskId != "icl_least_squares")
      throw InputError("model.kind: icl_transformer needs the icl_least_squares task, not " + taskId);
    if (m.dModel % m.heads != 0 || (m.dModel / m.heads) % 2 != 0)
      throw InputError("model.d_model: must split into model.heads heads of even size");
    IclShape s;
    s.inputDim = task.inputDim;
    s.outputDim = task.numClasses;
    s.activeInputs = context.iclActiveInputs;
    s.dModel = m.dModel;
    s.layers = m.layers;
    s.heads = m.heads;
    s.lipschitz = m.lipschitz;
    s.rmsNorm = m.norm == "rms";
    s.attnScaleThird = m.attnScaleThird;
    s.mlpScaleThird = m.mlpScaleThird;
    s.gainCap = m.gainCap;
    s.residualPerSublayer = m.residualCount == "sublayers";
    return std::make_unique<IclTransformer>(s, gen, device);
  }
  if (m.kind == "attlip") {
    if (taskId != "chars_masked") throw InputError("model.kind: attlip needs the chars_masked task, not " + taskId);
    AttLipShape s;
    s.vocab = task.numClasses;
    s.seqLen = m.seqLen;
    s.dModel = m.dModel;
    s.heads = m.heads;
    s.mlpRatio = m.mlpRatio;
    s.attention = attention::attentionKindFromString(m.attention);
    s.proxSteps = m.proxSteps;
    s.proxStepsEval = m.proxStepsEval;
    s.proxTol = m.proxTol;
    s.eta = m.proxEta;
    s.wCap = m.proxWCap;
    s.tokenNorm = m.tokenNorm;
    s.rule = m.proxStepRule == "fixed" ? attention::ProxRule::Fixed : attention::ProxRule::Armijo;
    return std::make_unique<AttLipModel>(s, gen, device);
  }
  throw InputError("model.kind: unknown model '" + m.kind + "'");
}

}  // namespace lwb::models
