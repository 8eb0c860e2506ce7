#include "run/step_profile.h"

#include <torch/csrc/autograd/profiler_legacy.h>

#include <ATen/ops/add.h>
#include <ATen/ops/ones.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <string_view>

namespace lwb::run {
namespace {

namespace prof = torch::autograd::profiler;

bool isGemm(std::string_view op) {
  static constexpr std::string_view kGemm[] = {"aten::mm",  "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::addbmm",
                                               "aten::addmv", "aten::mv",  "aten::dot", "aten::vdot",    "lwb::syrk",
                                               "lwb::batched_gemm", "lwb::ns_step", "lwb::gemm"};
  return std::find(std::begin(kGemm), std::end(kGemm), op) != std::end(kGemm);
}

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// The engine's fused kernels (models/fused_ops.h, models/position_attention.h,
// models/attention_ops.h) record
// themselves like ATen ops; every other lwb:: range is a phase scope.
bool isFusedKernel(std::string_view op) {
  static constexpr std::string_view kKernels[] = {"lwb::position_attention", "lwb::residual_mix", "lwb::gelu", "lwb::cross_entropy",
                                                   "lwb::causal_softmax", "lwb::swiglu", "lwb::rope_heads", "lwb::maxmin",
                                                   "lwb::causal_taps"};
  return std::any_of(std::begin(kKernels), std::end(kKernels), [&](std::string_view k) { return op.rfind(k, 0) == 0; });
}

// FLOPs of a GEMM-class event from its recorded input shapes: 2mkn per product (bmm: per
// batch), syrk n(n+1)k. (The profiler's own FLOP count, with_flops, keeps every op's input
// tensors alive until the profile ends: on the ICL presets that tripled the profiled step.)
double gemmFlops(const prof::LegacyEvent& e) {
  const auto shapes = e.shapes();
  const std::string_view name = e.name();
  const auto dims = [&](size_t i, size_t rank) -> const std::vector<int64_t>* {
    return i < shapes.size() && shapes[i].size() == rank ? &shapes[i] : nullptr;
  };
  const auto d = [](int64_t v) { return static_cast<double>(v); };
  // Products a·b where a is input i and b input i+1 (the add-variants have the addend first).
  const size_t first = (name == "aten::addmm" || name == "aten::baddbmm" || name == "aten::addbmm" || name == "aten::addmv") ? 1 : 0;
  if (name == "lwb::ns_step") {
    // One Newton–Schulz step on each wide [m, n] matrix: syrk m(m+1)n, syrk m(m+1)m, GEMM 2m²n.
    const auto* x = dims(0, 2) ? dims(0, 2) : dims(0, 3);
    if (x) {
      const size_t r = x->size();
      const double m = d((*x)[r - 2]), n = d((*x)[r - 1]), batch = r == 3 ? d((*x)[0]) : 1.0;
      return batch * (m * (m + 1) * n + m * (m + 1) * m + 2.0 * m * m * n);
    }
  } else if (name == "lwb::syrk") {
    if (const auto* x = dims(0, 2)) return d((*x)[0]) * d((*x)[0] + 1) * d((*x)[1]);
  } else if (name == "aten::mm" || name == "aten::addmm" || name == "lwb::gemm") {
    const auto *a = dims(first, 2), *b = dims(first + 1, 2);
    if (a && b) return 2.0 * d((*a)[0]) * d((*a)[1]) * d((*b)[1]);
  } else if (name == "aten::bmm" || name == "aten::baddbmm" || name == "aten::addbmm" || name == "lwb::batched_gemm") {
    const auto *a = dims(first, 3), *b = dims(first + 1, 3);
    if (a && b) return 2.0 * d((*a)[0]) * d((*a)[1]) * d((*a)[2]) * d((*b)[2]);
  } else if (name == "aten::mv" || name == "aten::addmv") {
    if (const auto* m = dims(first, 2)) return 2.0 * d((*m)[0]) * d((*m)[1]);
  } else if (name == "aten::dot" || name == "aten::vdot") {
    if (const auto* v = dims(0, 1)) return 2.0 * d((*v)[0]);
  }
  return 0.0;
}

struct Open {
  const prof::LegacyEvent* push;
  double childUs = 0;
  std::string phase;  // innermost lwb:: phase scope at or above this event
  bool inStep = false;
};

}  // namespace

std::string stepCategoryOf(const std::string& op, const std::string& phase) {
  if (isGemm(op)) return "gemm";
  if (phase == "lwb::optimizer") return "optimizer";
  if (phase == "lwb::constraint") return "constraint";
  if (phase == "lwb::data") return "data";
  if (contains(op, "Backward") || contains(op, "autograd::")) return "autograd";  // the engine's node bookkeeping
  if (contains(op, "log_softmax") || contains(op, "nll_loss") || contains(op, "cross_entropy") || contains(op, "mse_loss"))
    return "loss";
  if (contains(op, "softmax") || contains(op, "position_attention")) return "softmax";
  if (op == "aten::matmul" || op == "aten::linear") return "framework";  // dispatch to mm/addmm and views
  if (op == "aten::empty" || op == "aten::empty_strided" || op == "aten::empty_like" || op == "aten::zeros" ||
      op == "aten::zeros_like" || op == "aten::zero_" || op == "aten::resize_" || op == "aten::fill_")
    return "allocation";
  static constexpr std::string_view kLayout[] = {"aten::view", "aten::reshape", "aten::_reshape_alias", "aten::t", "aten::transpose",
                                                 "aten::permute", "aten::as_strided", "aten::expand", "aten::contiguous",
                                                 "aten::clone", "aten::copy_", "aten::to", "aten::_to_copy", "aten::slice",
                                                 "aten::select", "aten::narrow", "aten::unsqueeze", "aten::squeeze", "aten::detach",
                                                 "aten::cat", "aten::stack", "aten::split", "aten::unbind", "aten::index_select",
                                                 "lwb::causal_taps", "lwb::causal_taps_backward"};
  if (std::find(std::begin(kLayout), std::end(kLayout), op) != std::end(kLayout)) return "layout";
  return "elementwise";  // arithmetic, activations, reductions, norms
}

StepProfile profileSteps(const std::function<void()>& train) {
  prof::thread_event_lists lists;
  {
    prof::TLSLegacyProfilerGuard guard(
        torch::profiler::impl::ProfilerConfig(torch::profiler::impl::ProfilerState::CPU, /*report_input_shapes=*/true,
                                              /*profile_memory=*/false, /*with_stack=*/false, /*with_flops=*/false),
        [&](const prof::thread_event_lists& l) { lists = l; });
    train();
  }
  StepProfile out;
  std::map<std::string, double> us;      // category -> self µs inside step scopes
  std::map<std::string, double> ranges;  // category -> ranges counted
  std::map<std::string, OpTime> perOp;   // op name -> self µs and calls inside step scopes
  std::map<std::array<int64_t, 3>, double> shapes;  // (m, k, n) of 2-D products -> calls
  double stepUs = 0, gemmFlop = 0, otherGemmFlop = 0;
  // The training thread's list holds the step scopes; ops that other threads ran inside
  // parallel regions are already inside its ops' times.
  for (const auto& list : lists) {
    std::vector<Open> stack;
    for (const auto& e : list) {
      if (e.kind() == prof::EventKind::PushRange) {
        Open o{&e, 0.0, {}, false};
        const std::string_view name = e.name();
        o.phase = stack.empty() ? std::string() : stack.back().phase;
        o.inStep = !stack.empty() && stack.back().inStep;
        if (name == "lwb::train_step") o.inStep = true, ++out.steps;
        else if (name == "lwb::data" || name == "lwb::optimizer" || name == "lwb::constraint") o.phase = name;
        stack.push_back(std::move(o));
      } else if (e.kind() == prof::EventKind::PopRange && !stack.empty()) {
        // Pops close the innermost range with the same handle (ranges nest on one thread).
        auto it = std::find_if(stack.rbegin(), stack.rend(), [&](const Open& o) { return o.push->handle() == e.handle(); });
        if (it == stack.rend()) continue;
        const Open o = *it;
        stack.erase(std::next(it).base(), stack.end());
        const double total = o.push->cpuElapsedUs(e);
        if (!stack.empty()) stack.back().childUs += total;
        const std::string name = o.push->name();
        if (name == "lwb::train_step") {
          stepUs += total;
          us["framework"] += total - o.childUs;  // the step's own code between ops
          ranges["framework"] += 1;
          continue;
        }
        if (!o.inStep) continue;
        const double self = std::max(0.0, total - o.childUs);
        if (name.rfind("lwb::", 0) == 0 && !isGemm(name) && !isFusedKernel(name)) {
          const std::string cat = o.phase.empty() ? "framework" : stepCategoryOf("", o.phase);
          us[cat] += self;  // the phase's own code
          ranges[cat] += 1;
          continue;
        }
        const std::string cat = stepCategoryOf(name, o.phase);
        us[cat] += self;
        ranges[cat] += 1;
        auto& op = perOp[name + "\x1f" + cat];
        op.name = name, op.category = cat, op.msPerStep += self, op.callsPerStep += 1;
        if (cat == "gemm") {
          const double flop = gemmFlops(*o.push);
          gemmFlop += flop;
          const auto in = o.push->shapes();
          const size_t first = name == "aten::addmm" ? 1 : 0;
          const bool product = name == "aten::mm" || name == "aten::addmm" || name == "lwb::gemm";
          if (product && in.size() >= first + 2 && in[first].size() == 2 && in[first + 1].size() == 2)
            shapes[{in[first][0], in[first][1], in[first + 1][1]}] += 1;
          else
            otherGemmFlop += flop;
        }
      }
    }
  }
  if (out.steps == 0) return out;
  const double n = static_cast<double>(out.steps);
  out.msPerStep = stepUs / 1000.0 / n;
  out.gemmGflopPerStep = gemmFlop / 1e9 / n;
  out.gemmMsPerStep = us["gemm"] / 1000.0 / n;
  out.otherGemmGflopPerStep = otherGemmFlop / 1e9 / n;
  for (const auto& [mkn, calls] : shapes) out.gemmShapes.push_back({mkn[0], mkn[1], mkn[2], calls / n});
  for (const auto& [name, v] : us) out.categories.push_back({name, v / 1000.0 / n, ranges[name] / n});
  std::sort(out.categories.begin(), out.categories.end(), [](const auto& a, const auto& b) { return a.msPerStep > b.msPerStep; });
  for (auto& [key, op] : perOp) {
    op.msPerStep /= 1000.0 * n;
    op.callsPerStep /= n;
    out.ops.push_back(op);
  }
  std::sort(out.ops.begin(), out.ops.end(), [](const auto& a, const auto& b) { return a.msPerStep > b.msPerStep; });
  return out;
}

std::vector<StepCategory> withoutProfilerCost(const StepProfile& p, double perOpMs) {
  std::vector<StepCategory> out = p.categories;
  for (auto& c : out) c.msPerStep = std::max(0.0, c.msPerStep - perOpMs * c.opsPerStep);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.msPerStep > b.msPerStep; });
  return out;
}

double profilerCostPerOpMs() {
  const auto a = at::ones({1});
  constexpr int kOps = 2000;
  const auto timeOps = [&] {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kOps; ++i) (void)at::add(a, a);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  double plain = 1e300, profiled = 1e300;
  for (int round = 0; round < 5; ++round) {
    plain = std::min(plain, timeOps());
    prof::TLSLegacyProfilerGuard guard(torch::profiler::impl::ProfilerConfig(torch::profiler::impl::ProfilerState::CPU, true, false, false, false));
    profiled = std::min(profiled, timeOps());
  }
  return std::max(0.0, profiled - plain) / kOps;
}

}  // namespace lwb::run
