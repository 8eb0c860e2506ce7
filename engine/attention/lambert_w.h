// Lambert W and the token factor c_N of the ℓ2-attention bound (Kim et al.; seed 004 Eq. 6).
// No LibTorch: the app and its pages call these directly.
#pragma once

#include <cstdint>

namespace lwb::attention {

// Principal branch W₀(x) for x ≥ −1/e (Halley iteration to machine precision). Throws
// std::invalid_argument below −1/e or for NaN; +inf gives +inf.
double lambertW0(double x);

// The N-dependent factor c_N = (√N/√d_h)(4 W₀((N−1)/e) + 1), the same in Kim's bound and in
// 004's Eq. 6 as printed. Throws std::invalid_argument unless tokens ≥ 1 and headDim > 0.
double l2BoundTokenFactor(int64_t tokens, double headDim);

}  // namespace lwb::attention
