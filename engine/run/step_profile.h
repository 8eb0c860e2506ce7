// Where a training step's time goes (issue 30 §1, `lipschitz-cli bench --roofline`): one run
// under LibTorch's profiler, each op's self time put in one category, the GEMM-class ops'
// FLOPs counted. The trainer marks its phases (lwb::train_step, lwb::data, lwb::optimizer,
// lwb::constraint) and our BLAS syrk (lwb::syrk) as profiler scopes; everything else is named
// by ATen. The profiler's own cost lands in "framework": compare ms/step with an unprofiled run.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lwb::run {

struct StepCategory {
  std::string name;     // gemm, elementwise, layout, softmax, loss, optimizer, constraint, data, allocation, autograd, framework
  double msPerStep = 0;
  double opsPerStep = 0;  // profiled ops (ranges) whose self time is in this category
};

struct OpTime {
  std::string name;  // ATen's op name (aten::gelu) or our scope (lwb::syrk)
  std::string category;
  double msPerStep = 0;  // self time, profiler cost not removed
  double callsPerStep = 0;
};

// One shape of 2-D product C[m, n] = A[m, k]·B[k, n] the steps ran, and how often.
struct GemmShape {
  int64_t m = 0, k = 0, n = 0;
  double callsPerStep = 0;
};

struct StepProfile {
  int64_t steps = 0;           // lwb::train_step scopes seen
  double msPerStep = 0;        // inside the step scopes, profiled
  double gemmGflopPerStep = 0; // mm/addmm/bmm/baddbmm/addmv/mv/dot (ATen's FLOP count) + syrk n(n+1)k
  double gemmMsPerStep = 0;    // those ops' self time
  // The 2-D products (mm, addmm, lwb::gemm) by shape, for a GEMM floor at the step's own
  // shapes; the rest of the GEMM-class FLOPs (bmm, syrk, Newton–Schulz, mv, dot) apart.
  std::vector<GemmShape> gemmShapes;
  double otherGemmGflopPerStep = 0;
  std::vector<StepCategory> categories;  // sums to msPerStep; largest first
  std::vector<OpTime> ops;               // every op seen in the steps, largest self time first
};

// The category of an op by its name, inside the innermost lwb:: phase scope (empty: none).
// GEMM-class ops are "gemm" in every phase. Exposed for the test.
std::string stepCategoryOf(const std::string& op, const std::string& phase);

// Runs `train` (which trains some steps on this thread) with the profiler on and splits the
// time of its lwb::train_step scopes.
StepProfile profileSteps(const std::function<void()>& train);

// The profiler costs about the same for every op it records, so categories of many small ops
// are inflated most. Removes `perOpMs` per recorded op from each category (floored at 0): an
// estimate, labelled so. Within one profiled run, so a load change between two runs cannot
// skew it (an unprofiled run beside it is the check).
std::vector<StepCategory> withoutProfilerCost(const StepProfile& p, double perOpMs);

// What the profiler adds to one recorded op in this process: tiny ops timed with and without
// it, best of several rounds (ms).
double profilerCostPerOpMs();

}  // namespace lwb::run
