// The model interface the trainer, optimizers, bound calculator and live plots share.
// Models are plain C++ objects holding LibTorch tensors with requires_grad; forward passes
// use ATen ops, so no torch::nn headers are needed (compile time; see docs/DESIGN.md).
#pragma once

#include "models/activation_stats.h"
#include "models/model_config.h"

#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

namespace lwb::models {

// What a weight matrix does; the optimizer, the constraint step and the bound key on it.
enum class Role {
  Embedding,  // token / input embedding (columns are per-token vectors)
  Hidden,     // hidden linear layer of an MLP
  Head,       // final classifier / logit head
  Query, Key, Value, AttnOut,  // attention projections
  MlpIn, MlpOut,              // transformer MLP
  InputConv,  // causal convolution over the embedded tokens (lipschitz_gpt model.input_conv)
  Other,      // non-matrix parameters (gains, biases)
};

const char* toString(Role r);

// One parameter with a stable name ("blocks.0.attn.q", "layers.1", "head", ...).
// Matrices are stored (d_out, d_in) as torch.nn.Linear weights; embeddings (vocab, d).
struct Param {
  std::string name;
  Role role = Role::Other;
  at::Tensor tensor;  // leaf tensor with requires_grad
  int block = -1;     // residual block index (transformers), layer index (MLPs)
  bool isMatrix() const { return tensor.dim() == 2 && role != Role::Other; }
};

// Appends max |entry| and max per-token RMS of activation x [..., d] under `name`.
void recordActivation(ActivationStats& stats, const std::string& name, const at::Tensor& x);

class Model {
 public:
  virtual ~Model() = default;
  // inputs: task-specific (token ids [B, T], features [B, D], pairs [B, 2]); returns logits
  // [B, C] or [B, T, C].
  virtual at::Tensor forward(const at::Tensor& inputs) = 0;
  // Same forward pass, additionally measuring activation statistics (no grad needed).
  virtual at::Tensor forwardWithStats(const at::Tensor& inputs, ActivationStats& stats) = 0;
  virtual std::vector<Param> parameters() = 0;
  // Model-specific re-projections that are part of the architecture, run after every
  // optimizer step (e.g. RMS-normalising embedding columns, 000 App. F).
  virtual void afterStep() {}
  // Models whose forward pass differs between training and evaluation (the AttLip solver runs
  // a scheduled K in training and to tolerance at evaluation) switch here; others ignore it.
  virtual void setEvaluation(bool /*evaluation*/) {}
  // Before training step `step` (0-based) of `steps`: for schedules inside the model.
  virtual void setTrainingProgress(int64_t /*step*/, int64_t /*steps*/) {}
  virtual ModelKind kind() const = 0;
};

}  // namespace lwb::models
