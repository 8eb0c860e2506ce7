// One rank of engine/dist's communicator on one device (issue 28 on a GPU machine: "run 1 rank
// with NCCL"): the backend connect() takes for the device (Gloo for cpu, NCCL for cuda in a
// build with LWB_WITH_NCCL), each collective checked against what one rank must get, the
// gradient averaging and parameter broadcast of a data-parallel step on that device, and the
// all-reduce time per bucket size. One rank is what a one-GPU machine can run (NCCL refuses two
// ranks on one GPU), so the times are this backend's floor, not a network's cost.
//
//   lwb-bench-dist [--device cpu|cuda]
//
// Prints Markdown; exit status 1 when a check fails.
#include "dist/communicator.h"
#include "dist/grad_sync.h"
#include "dist/world.h"

#include <ATen/Context.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/allclose.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/equal.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/zeros.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

using lwb::dist::Communicator;

int failures = 0;

void check(const char* what, bool ok, const std::string& detail = {}) {
  std::printf("| %s | %s | %s |\n", what, ok ? "PASS" : "FAIL", detail.c_str());
  failures += ok ? 0 : 1;
}

bool same(const at::Tensor& a, const at::Tensor& b) {
  return a.device() == b.device() && a.sizes() == b.sizes() && at::equal(a.cpu(), b.cpu());
}

void runChecks(Communicator& comm, const at::Device& dev) {
  std::printf("| check | verdict | detail |\n|---|---|---|\n");
  const auto values = at::arange(1000, at::TensorOptions().dtype(at::kFloat)).to(dev);
  {  // One rank's sum is its own tensor, in place, on its device.
    std::vector<at::Tensor> t{values.clone(), values.clone() * 2};
    comm.allreduceSum(t);
    check("all-reduce (sum) of two float32 tensors on the device", same(t[0], values) && same(t[1], values * 2));
  }
  {  // The trainer's stop flags and config hash are CPU tensors: through the GPU and back.
    std::vector<at::Tensor> t{at::scalar_tensor(int64_t{0x7123456789abcdef}, at::kLong).reshape({1})};
    comm.allreduceSum(t);
    // With one rank the values come back unchanged, so this shows the staged path runs, not
    // that its copy-back is right (that needs two GPUs).
    check("all-reduce of a CPU int64 (staged through the device; one rank: passes through)",
          t[0].device().is_cpu() && t[0].item<int64_t>() == 0x7123456789abcdef, std::to_string(t[0].item<int64_t>()));
  }
  {
    std::vector<at::Tensor> t{values.clone()};
    comm.broadcast(t, 0);
    check("broadcast from rank 0", same(t[0], values));
  }
  {
    const auto local = at::scalar_tensor(int64_t{42}, at::kLong).reshape({1});
    const auto all = comm.allgather(local);
    check("all-gather of a CPU int64 (the config hash)", all.size() == 1 && same(all[0], local));
    const auto onDev = comm.allgather(values);
    check("all-gather of a device tensor", onDev.size() == 1 && same(onDev[0], values));
  }
  comm.barrier();
  check("barrier", true);
  {  // A data-parallel step's gradient averaging: one rank with share 1/2 halves its gradients.
    std::vector<lwb::models::Param> params;
    for (auto shape : {std::vector<int64_t>{64, 32}, {32}, {10, 64}}) {
      auto p = at::randn(shape, at::TensorOptions().device(dev)).set_requires_grad(true);
      p.mutable_grad() = at::randn(shape, at::TensorOptions().device(dev));
      std::string name(1, 'p');  // built with append: GCC 12 warns falsely on "p" + to_string
      name.append(std::to_string(params.size()));
      params.push_back({name, {}, p, -1});
    }
    std::vector<at::Tensor> expected;
    for (auto& p : params) expected.push_back(p.tensor.grad().clone() * 0.5);
    lwb::dist::averageGradients(params, comm, 0.5);
    bool ok = true;
    for (size_t i = 0; i < params.size(); ++i) ok = ok && at::allclose(params[i].tensor.grad(), expected[i], 0, 0);
    check("averageGradients (bucketed, share 1/2) on the device", ok);
    std::vector<at::Tensor> before;
    for (auto& p : params) before.push_back(p.tensor.detach().clone());
    lwb::dist::broadcastParameters(params, comm);
    ok = true;
    for (size_t i = 0; i < params.size(); ++i) ok = ok && same(params[i].tensor.detach(), before[i]);
    check("broadcastParameters", ok);
  }
}

void sync(const at::Tensor& t) { (void)t.reshape(-1)[0].item<float>(); }

void runTimes(Communicator& comm, const at::Device& dev) {
  std::printf("\n| float32 elements (bytes) | all-reduce median | bytes/s |\n|---:|---:|---:|\n");
  for (int64_t n : {int64_t{1} << 10, int64_t{1} << 16, int64_t{1} << 20, lwb::dist::kBucketElements}) {
    std::vector<at::Tensor> t{at::zeros({n}, at::TensorOptions().device(dev))};
    for (int i = 0; i < 3; ++i) comm.allreduceSum(t);
    sync(t[0]);
    std::vector<double> secs;
    for (int s = 0; s < 7; ++s) {
      const int reps = 20;
      const auto t0 = std::chrono::steady_clock::now();
      for (int r = 0; r < reps; ++r) comm.allreduceSum(t);
      sync(t[0]);
      secs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps);
    }
    std::sort(secs.begin(), secs.end());
    const double med = secs[secs.size() / 2];
    std::printf("| %lld (%lld) | %.1f µs | %.3g |\n", static_cast<long long>(n), static_cast<long long>(4 * n), med * 1e6,
                4.0 * static_cast<double>(n) / med);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string device = "cpu";
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
      device = argv[++i];
    } else {
      std::fprintf(stderr, "lwb-bench-dist: unknown argument '%s' (--device cpu|cuda)\n", argv[i]);
      return 2;
    }
  }
  if (device != "cpu" && device != "cuda") {
    std::fprintf(stderr, "lwb-bench-dist: --device: expected cpu or cuda, got '%s'\n", device.c_str());
    return 2;
  }
  try {
    lwb::dist::World world;
    world.masterPort = lwb::dist::freeLocalPort();
    world.timeoutSeconds = 30;
    const bool cuda = device == "cuda";
    if (cuda && !at::hasCUDA()) {
      std::fprintf(stderr, "lwb-bench-dist: --device cuda: this build's LibTorch has no CUDA (or no GPU is visible)\n");
      return 2;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const auto comm = lwb::dist::connect(world, cuda);
    std::printf("## One rank of engine/dist on %s: backend %s (connected in %.2f s)\n\n", device.c_str(),
                lwb::dist::backendFor(device), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    const at::Device dev = cuda ? at::Device(at::kCUDA, 0) : at::Device(at::kCPU);
    runChecks(*comm, dev);
    runTimes(*comm, dev);
  } catch (const std::exception& e) {
    const std::string what = e.what();
    std::fprintf(stderr, "lwb-bench-dist: %s\n", what.substr(0, what.find('\n')).c_str());
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
