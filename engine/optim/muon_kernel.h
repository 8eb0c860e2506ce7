#pragma once

#include <cstdint>

namespace lwb::optim {

// Muon's momentum and the Frobenius norm its Newton–Schulz starts from, in one pass of n
// float32 values (torch-free, issue 30 §2). As LibTorch ops the step reads and writes buf,
// g and u eight times (mul_, add_, Nesterov's two muls and add, square, sum); this loop reads
// g and buf once and writes buf and u once:
//   buf = beta·buf + (1 − beta)·g;  u = nesterov ? (1 − beta)·g + beta·buf : buf.
// u may be buf itself (without Nesterov). Returns Σ u² over [begin, end), accumulated in
// double, so callers that split the range sum fixed blocks in a fixed order.
double muonMomentum(float* buf, const float* g, float* u, int64_t begin, int64_t end, float beta, bool nesterov);

}  // namespace lwb::optim
