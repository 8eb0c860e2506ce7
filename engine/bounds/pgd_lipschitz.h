// Empirical Lipschitz constant by projected gradient ascent on pairs inside an ℓ2 ball
// (seed 004 §5.1 "PGD max"; settings of SEEDS-002-004 §D, which are ours: 004 gives none).
// A lower bound on the Lipschitz constant of f in the chosen norm.
#pragma once

#include "common/cancel.h"

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <string>

namespace lwb::bounds {

// Norm of one example z (dims after the batch dim):
//   L2:     Frobenius norm of the whole example (004's norm; AttLip's guarantee is in it);
//   InfRms: max over leading positions of the RMS over the last dim (000 App. D).
enum class PgdNorm { L2, InfRms };
const char* toString(PgdNorm n);          // "l2" | "inf_rms"
PgdNorm pgdNormFromString(const std::string& s);  // throws std::invalid_argument naming the value

struct PgdOptions {
  int iters = 30;        // I (CPU default; GPU 100)
  int restarts = 3;      // Rs (CPU default; GPU 5), run as one batch per example of x0
  double radius = 0;     // r of the ℓ2 (Frobenius) ball around x0; 0 = ‖x0_b‖_F per example
  PgdNorm norm = PgdNorm::L2;
  uint64_t seed = 0;
  // Called after every iteration with (iteration done, iters); may be empty.
  std::function<void(int, int)> progress;
  const CancelFlag* cancel = nullptr;  // checked every iteration; set => Cancelled
};

struct PgdResult {
  double best = 0;  // max ratio ‖f(x) − f(y)‖ / ‖x − y‖ seen
  at::Tensor x, y;  // the argmax pair, each of one example's shape (x0.shape without dim 0)
  int64_t evaluations = 0;  // number of f calls (each on a batch)
};

// f maps a batch [M, ...] to [M, ...] and treats examples independently. x0 is a batch
// [B, ...]; every example gets `restarts` pairs (δx, δy), all B·Rs pairs evaluated together.
//   δx uniform in the ball, δy = δx + 1e−2·r·z/√n; I steps of log-ratio ascent with step
//   2.5r/I along the normalised gradients, projection onto the ball, re-separation of δy
//   when ‖δx − δy‖ < 1e−6 r.
// Runs with grad mode on whatever the caller's mode; gradients reach only the pair.
// Throws std::invalid_argument for iters < 1, restarts < 1, a negative/non-finite radius,
// or a non-floating / empty x0.
PgdResult pgdLipschitz(const std::function<at::Tensor(const at::Tensor&)>& f, const at::Tensor& x0,
                       const PgdOptions& options = {});

}  // namespace lwb::bounds
