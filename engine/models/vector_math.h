// Helpers of the fused CPU kernels (models/fused_ops.cpp, models/attention_ops.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

// Hot loops are compiled for AVX-512, AVX2 and the baseline, chosen at load time (GCC function
// multiversioning), so a generic x86-64 build still runs wide vectors where the CPU has them.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define LWB_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define LWB_VECTOR_CLONES
#endif

namespace lwb::models {

constexpr int64_t kElementwiseGrain = 32768;  // ATen's own grain for elementwise loops

// exp(v) for v ≤ 0, branch-free so a loop over it vectorizes (std::exp does not without
// -ffast-math): v = n·ln2 + r with |r| ≤ ln2/2, Cephes' degree-6 polynomial for e^r (≈ 1 ulp),
// 2^n through the exponent bits; below −87 it flushes to 0 (e^−87 ≈ 1.6e−38, the float32
// normal range's end).
inline float expNonPositive(float v) {
  v = std::max(v, -87.0f);
  const float n = std::nearbyint(v * 1.44269504088896341f);
  const float r = (v - n * 0.693359375f) + n * 2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float er = p * r * r + r + 1.0f;
  const int32_t bits = (static_cast<int32_t>(n) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return er * scale;
}
// float64 keeps the library's exp: its loops are the tests' and the rare double runs'.
inline double expNonPositive(double v) { return std::exp(v); }

}  // namespace lwb::models
