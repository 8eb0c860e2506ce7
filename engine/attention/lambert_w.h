// Lambert W and the token factor of the ℓ2-attention bound (seed 004 Eq. 6). No LibTorch:
// the app and its pages call these directly.
#pragma once

#include <cstdint>

namespace lwb::attention {

// Principal branch W₀(x) for x ≥ −1/e (Halley iteration to machine precision). Throws
// std::invalid_argument below −1/e or for NaN; +inf gives +inf.
double lambertW0(double x);

// The N-dependent factor of Eq. 6: (√N/√d_h)(4 W₀((N−1)/e) + 1). Throws
// std::invalid_argument unless tokens ≥ 1 and headDim > 0.
double l2BoundTokenFactor(int64_t tokens, double headDim);

}  // namespace lwb::attention
