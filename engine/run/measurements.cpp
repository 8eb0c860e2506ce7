#include "run/measurements.h"

#include "run/run_results.h"

#include "bounds/lipschitz_bound.h"
#include "common/torch_compat.h"
#include "models/attlip_model.h"
#include "models/lipschitz_gpt.h"
#include "models/model_kinds.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/stack.h>

#include <cmath>
#include <map>

namespace lwb::run {

std::vector<MatrixSpectrum> measureSpectra(const std::vector<models::Param>& params) {
  at::NoGradGuard noGrad;
  std::map<std::pair<int64_t, int64_t>, std::vector<size_t>> byShape;
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].isMatrix()) byShape[{params[i].tensor.size(0), params[i].tensor.size(1)}].push_back(i);
  std::vector<MatrixSpectrum> out(params.size());
  for (const auto& [shape, idx] : byShape) {
    std::vector<at::Tensor> mats;
    for (const auto i : idx) mats.push_back(params[i].tensor.detach());
    const auto s = compat::svdvals(compat::svdCompatible(at::stack(mats))).to(at::kCPU).to(at::kFloat).contiguous();
    for (size_t j = 0; j < idx.size(); ++j) {
      const float* p = s[static_cast<int64_t>(j)].data_ptr<float>();
      auto& m = out[idx[j]];
      m.name = params[idx[j]].name;
      m.role = params[idx[j]].role;
      m.singularValues.assign(p, p + s.size(1));
      m.rmsScale = std::sqrt(static_cast<double>(shape.second) / static_cast<double>(shape.first));
    }
  }
  std::vector<MatrixSpectrum> kept;
  for (auto& m : out)
    if (!m.name.empty()) kept.push_back(std::move(m));
  return kept;
}

std::vector<MatrixNorm> normsFrom(const std::vector<MatrixSpectrum>& spectra) {
  std::vector<MatrixNorm> norms;
  for (const auto& m : spectra) {
    const double s1 = m.singularValues.empty() ? 0.0 : m.singularValues.front();
    norms.push_back({m.name, models::toString(m.role), s1 * m.rmsScale, s1});
  }
  return norms;
}

std::vector<MatrixNorm> certifiedNorms(const std::vector<models::Param>& params,
                                       std::vector<bounds::SigmaMethod>* methods) {
  at::NoGradGuard noGrad;
  std::vector<MatrixNorm> norms;
  for (const auto& p : params) {
    if (!p.isMatrix()) continue;
    const auto s = bounds::sigmaMaxUpper(p.tensor);
    const double scale = std::sqrt(static_cast<double>(p.tensor.size(1)) / static_cast<double>(p.tensor.size(0)));
    norms.push_back({p.name, models::toString(p.role), s.value * scale, s.value});
    if (methods) methods->push_back(s.method);
  }
  return norms;
}

std::vector<double> headSliceNorms(const at::Tensor& w, int64_t heads) {
  at::NoGradGuard noGrad;
  const int64_t dOut = w.size(0), dIn = w.size(1), dHead = dOut / heads;
  // Rows [h d_head, (h + 1) d_head) of W produce head h's slice (the model's view/split).
  const auto slices = w.detach().to(at::kDouble).reshape({heads, dHead, dIn});
  const auto sigma = compat::svdvals(slices).amax(1).contiguous();
  const double scale = std::sqrt(static_cast<double>(dIn) / static_cast<double>(dHead));
  std::vector<double> out;
  for (int64_t h = 0; h < heads; ++h) out.push_back(sigma[h].item<double>() * scale);
  return out;
}

namespace {

// The attlip model's map from the embedded sequence to the logits, in the RMS norm of the whole
// sequence (‖X‖_F / √(N d); ℓ2 of the flattened sequence up to that constant, the norm AttLip's
// guarantee is in): attention block (AttLip's converged prox: 1, Thm 4; ℓ2: 1 + Kim's bound,
// attention::l2AttentionBound, for the residual x + Att_ℓ2(x); standard: none), then x + MLP(x) with GeLU's slope 1.1289, then the
// head. A token-wise map's RMS->RMS norm bounds it on the whole sequence too. Nullopt for
// standard attention: it has no global bound.
std::optional<bounds::BoundTrace> attlipModelBound(const models::AttLipModel& m, std::map<std::string, double>& byName) {
  using models::AttentionKind;
  const auto kind = m.shape().attention;
  bounds::BoundTrace t;
  double l = 1;
  if (kind != AttentionKind::None) {
    const auto att = m.attentionBound(m.shape().seqLen);
    if (!att) return std::nullopt;
    const double block = attention::info(kind).mapIsResidualStep ? *att : 1.0 + *att;
    l *= block;
    t.layers.push_back({"attn", block, l, kNotMeasured});  // no activation bound for this model
  }
  const double mlp = 1.0 + byName["mlp.out"] * byName["mlp.in"] * 1.1289;
  l *= mlp;
  t.layers.push_back({"mlp", mlp, l, kNotMeasured});
  l *= byName["head"];
  t.layers.push_back({"head", byName["head"], l, kNotMeasured});
  t.bound = l;
  return t;
}

}  // namespace

std::optional<bounds::BoundTrace> lipschitzBound(models::Model& model, const std::vector<MatrixNorm>& norms) {
  std::map<std::string, double> byName;
  for (const auto& n : norms) byName[n.name] = n.rmsNorm;
  if (const auto* attlip = dynamic_cast<const models::AttLipModel*>(&model)) return attlipModelBound(*attlip, byName);
  const auto params = model.parameters();
  const models::ModelRow& kind = models::row(model.kind());
  if (kind.bound == models::ModelBound::LayerChain) {
    std::vector<std::string> names;
    std::vector<double> values;
    for (const auto& p : params)
      if (p.isMatrix() && p.role != models::Role::Embedding) {
        names.push_back(p.name);
        values.push_back(byName[p.name]);
      }
    auto trace = bounds::mlpBound(names, values);
    // The activation between consecutive layers (ReLU 1; a plain GeLU 1.1289), in its place:
    // layers.0, gelu, layers.1, …, so every row's running bound is the map up to that row.
    // |GeLU(x)| ≤ |x|: the activation bound passes through it unchanged, and the layers after
    // it multiply it by their norms only (mlpBound's rows, which assume slope 1).
    if (kind.activationSlope != 1.0 && names.size() > 1) {
      std::vector<bounds::TraceEntry> rows;
      double l = 1.0;
      for (size_t i = 0; i < trace.layers.size(); ++i) {
        if (i > 0) {
          l *= kind.activationSlope;
          rows.push_back({std::string(kind.activation), kind.activationSlope, l, rows.back().activationBound});
        }
        bounds::TraceEntry layer = trace.layers[i];
        l *= layer.blockLipschitz;
        layer.lipschitzAfter = l;
        rows.push_back(layer);
      }
      trace.layers = std::move(rows);
      trace.bound = l;
    }
    return trace;
  }
  auto* gpt = dynamic_cast<models::LipschitzGpt*>(&model);
  if (!gpt || gpt->shape().standard) return std::nullopt;
  bounds::TransformerBoundInput in;
  in.blocks.resize(static_cast<size_t>(gpt->shape().blocks));
  for (const auto& p : params) {
    if (p.block < 0 || p.block >= gpt->shape().blocks) continue;
    auto& b = in.blocks[static_cast<size_t>(p.block)];
    const double v = byName[p.name];
    const int64_t heads = gpt->shape().heads;
    switch (p.role) {
      case models::Role::Query: b.query = v; b.queryHeads = headSliceNorms(p.tensor, heads); break;
      case models::Role::Key: b.key = v; b.keyHeads = headSliceNorms(p.tensor, heads); break;
      case models::Role::Value: b.value = v; b.valueHeads = headSliceNorms(p.tensor, heads); break;
      case models::Role::AttnOut: b.attnOut = v; break;
      case models::Role::MlpIn: b.mlpIn = v; break;
      case models::Role::MlpOut: b.mlpOut = v; break;
      default: break;
    }
  }
  in.embeddingRms = 1.0;  // rows RMS-normalised every step
  if (gpt->shape().inputConv > 0) in.inputConv = byName["input_conv"];
  in.headNorm = byName["head"];
  in.logitScale = gpt->shape().finalLogitScale;
  in.dHead = static_cast<double>(gpt->shape().dModel / gpt->shape().heads);
  in.attnScale = gpt->attentionScale();
  in.residualAlpha = gpt->residualAlpha();
  in.sumResidual = gpt->shape().sumResidual;
  in.attnOutScale = gpt->attentionOutScale();
  in.heads = static_cast<int>(gpt->shape().heads);
  if (gpt->shape().maxMin) in.gelu = in.activationSlope = 1.0;  // norm-preserving, 1-Lipschitz
  return bounds::transformerBound(in);  // sound multi-head bound, App. D value beside it
}

}  // namespace lwb::run
