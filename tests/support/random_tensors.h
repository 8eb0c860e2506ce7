// Seeded float64 Gaussian tensors for the engine suites (one generator per call, so a test's
// inputs do not depend on the order of its draws).
#pragma once

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/randn.h>

#include <cstdint>

namespace lwb::test {

inline at::Tensor gaussian(at::IntArrayRef shape, uint64_t seed, double std = 1.0) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  return at::randn(shape, gen, at::TensorOptions().dtype(at::kDouble)) * std;
}

// Frobenius norm as a double.
inline double fro(const at::Tensor& t) { return t.norm().item<double>(); }

}  // namespace lwb::test
