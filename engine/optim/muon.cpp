#include "optim/muon.h"

#include "dist/communicator.h"

#include "io/input_error.h"
#include "optim/muon_kernel.h"

#include <ATen/Parallel.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/clamp_max.h>
#include <ATen/ops/clamp_min.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/stack.h>
#include <ATen/ops/zeros_like.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

namespace lwb::optim {

Muon::Muon(const OptimizerConfig& cfg, std::vector<ParamSlot> slots)
    : Optimizer(std::move(slots)), cfg_(cfg), adam_(cfg.beta1, cfg.beta2, cfg.eps, cfg.biasCorrection) {
  ns_ = {cfg.nsCoeffs, cfg.nsSteps, 0};
  kappa_ = spectral::nsMaxInflation(ns_);
}

double Muon::scaleFor(int64_t dOut, int64_t dIn) const {
  const double ratio = static_cast<double>(dOut) / static_cast<double>(dIn);
  return cfg_.muonScale == MuonScale::Jordan ? std::sqrt(std::max(1.0, ratio)) : std::sqrt(ratio);
}

double Muon::updateRmsBound(const ParamSlot& slot, double lr) const {
  const auto& w = slot.param.tensor;
  const double eta = lr * slot.lrMultiplier;
  if (!slot.param.isMatrix()) return -1.0;
  if (slot.param.role == models::Role::Embedding) return cfg_.embedUpdate == EmbedUpdate::AdamW ? -1.0 : eta;
  // ||Delta W||_2 <= eta * scale * kappa; RMS->RMS multiplies by sqrt(d_in / d_out).
  return eta * scaleFor(w.size(0), w.size(1)) * kappa_ *
         std::sqrt(static_cast<double>(w.size(1)) / static_cast<double>(w.size(0)));
}

void Muon::saveState(TensorMap& out) const {
  for (const auto& [name, buf] : buffers_) out["momentum." + name] = buf;
  adam_.save("adam.", out);
}

void Muon::loadState(StateIn& in) {
  buffers_.clear();
  for (const auto& slot : slots_)
    if (auto buf = in.take("momentum." + slot.param.name, slot.param.tensor); buf.defined()) buffers_[slot.param.name] = buf;
  adam_.load("adam.", in, slots_);
}

namespace {

// Matrices whose small side is at most this go through Newton–Schulz together with the others
// of their shape, as one stack (batched GEMMs): at d = 64 a step's ~20 tiny ops per matrix cost
// more in dispatch than in arithmetic. Larger ones keep their own call, where BLAS syrk
// (unbatched only) saves a quarter of the FLOPs.
constexpr int64_t kBatchedMsignMaxSide = 96;

struct PendingMsign {
  at::Tensor w, u;
  double step;             // eta * scale
  double frobenius = -1;   // ||u||_F when the fused momentum pass computed it
};

constexpr int64_t kMomentumBlock = 32768;

// Momentum (and Nesterov's look-ahead) in one pass for a float32 CPU matrix (optim/muon_kernel.h),
// with ||u||_F from fixed blocks summed in order (the same on any thread count); otherwise
// LibTorch ops and no norm (-1).
std::pair<at::Tensor, double> momentum(at::Tensor& buf, const at::Tensor& g, double beta, bool nesterov) {
  if (!buf.device().is_cpu() || buf.scalar_type() != at::kFloat || g.scalar_type() != at::kFloat || !buf.is_contiguous() ||
      !g.is_contiguous() || buf.sizes() != g.sizes()) {
    buf.mul_(beta).add_(g, 1.0 - beta);  // EMA momentum
    return {nesterov ? g * (1.0 - beta) + buf * beta : buf, -1.0};
  }
  at::Tensor u = nesterov ? at::empty_like(buf) : buf;
  const int64_t n = buf.numel(), blocks = (n + kMomentumBlock - 1) / kMomentumBlock;
  std::vector<double> sums(static_cast<size_t>(blocks));
  float* pb = buf.data_ptr<float>();
  const float* pg = g.data_ptr<float>();
  float* pu = u.data_ptr<float>();
  at::parallel_for(0, blocks, 1, [&](int64_t first, int64_t last) {
    for (int64_t k = first; k < last; ++k)
      sums[static_cast<size_t>(k)] = muonMomentum(pb, pg, pu, k * kMomentumBlock, std::min(n, (k + 1) * kMomentumBlock),
                                                  static_cast<float>(beta), nesterov);
  });
  double total = 0;
  for (double s : sums) total += s;
  return {u, std::sqrt(total)};
}

}  // namespace

void Muon::step(double lr) {
  const double beta = cfg_.momentum;
  // Every matrix update w -= step * msign(u), collected first: the result is the same whether
  // applied now or after the other slots' updates, and the msigns can then be batched by shape
  // and, in a data-parallel run, split between the ranks.
  std::vector<PendingMsign> pending;
  forEachUpdate(lr, cfg_.weightDecay, [&](const ParamSlot& slot, const at::Tensor& w, const at::Tensor& g, double eta) {
    const auto role = slot.param.role;
    if (!slot.param.isMatrix() || (role == models::Role::Embedding && cfg_.embedUpdate == EmbedUpdate::AdamW)) {
      adam_.apply(slot.param.name, w, g, eta);
      return;
    }
    auto& buf = buffers_[slot.param.name];
    if (!buf.defined()) buf = at::zeros_like(g);
    const auto [u, frobenius] = momentum(buf, g, beta, cfg_.nesterov);
    if (role == models::Role::Embedding) {
      // l1 -> RMS duality: each token's vector to unit RMS, inflated at most embed_max_inflation
      // times so rarely seen tokens are not pushed at full strength by stale momentum (App. F).
      const auto rms = u.square().mean({-1}, /*keepdim=*/true).sqrt();
      const auto factor = at::clamp_max(1.0 / at::clamp_min(rms, 1e-30), cfg_.embedMaxInflation);
      w.sub_(u * factor, eta);
    } else {
      pending.push_back({w, u, eta * scaleFor(w.size(0), w.size(1)), frobenius});
    }
  });
  at::NoGradGuard noGrad;
  const auto msignOf = [&](const PendingMsign& p) {
    return p.frobenius >= 0 ? spectral::msign(p.u, ns_, p.frobenius) : spectral::msign(p.u, ns_);
  };
  const int ranks = comm_ ? comm_->size() : 1, rank = comm_ ? comm_->rank() : 0;
  const auto owner = [&](size_t k) { return static_cast<int>(k % static_cast<size_t>(ranks)); };
  std::vector<at::Tensor> signs(pending.size());
  // Small matrices by (small side, large side), batched; large ones one by one.
  std::map<std::pair<int64_t, int64_t>, std::vector<size_t>> batches;
  for (size_t k = 0; k < pending.size(); ++k) {
    if (owner(k) != rank) continue;
    const auto& u = pending[k].u;
    const int64_t small = std::min(u.size(0), u.size(1)), large = std::max(u.size(0), u.size(1));
    if (small <= kBatchedMsignMaxSide) batches[{small, large}].push_back(k);
    else signs[k] = msignOf(pending[k]);
  }
  for (auto& [shape, group] : batches) {
    if (group.size() == 1) {
      signs[group[0]] = msignOf(pending[group[0]]);
      continue;
    }
    // msign of a tall matrix is msign of its transpose, transposed: stack every one wide.
    std::vector<at::Tensor> wide;
    for (const size_t k : group) wide.push_back(pending[k].u.size(0) > pending[k].u.size(1) ? pending[k].u.mT() : pending[k].u);
    const auto stacked = spectral::msign(at::stack(wide), ns_);
    for (size_t i = 0; i < group.size(); ++i) {
      const auto o = stacked[static_cast<int64_t>(i)];
      signs[group[i]] = pending[group[i]].u.size(0) > pending[group[i]].u.size(1) ? o.mT() : o;
    }
  }
  if (comm_) {
    // Distributed Muon: each msign comes from the rank that owns it.
    std::vector<int> roots;
    for (size_t k = 0; k < pending.size(); ++k) {
      signs[k] = owner(k) == rank ? signs[k].contiguous() : at::empty_like(pending[k].u, at::MemoryFormat::Contiguous);
      roots.push_back(owner(k));
    }
    comm_->broadcastEach(signs, roots);
  }
  for (size_t k = 0; k < pending.size(); ++k) pending[k].w.sub_(signs[k], pending[k].step);
}

}  // namespace lwb::optim
