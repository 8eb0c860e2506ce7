// LabMatrix's tensors (engine/lab only: includes LibTorch).
#pragma once

#include "lab/lab_matrix.h"

#include "spectral/newton_schulz.h"

#include <ATen/core/Tensor.h>

#include <map>
#include <mutex>
#include <optional>

namespace lwb::lab {

// The exact SVD of the matrix a method actually sees: u [m, k], s [k], vh [k, n] float64
// (u and vh undefined when singular vectors were not asked for).
struct Decomposition {
  std::vector<double> sigmas;  // descending
  at::Tensor u, s, vh;
};

struct LabMatrix::Impl {
  std::string name;
  at::Tensor w;  // float64, CPU, contiguous
  bool vectors = false;
  Decomposition exact;  // of w itself

  // The decomposition of w rounded to `dtype` and back: what a bfloat16 method starts from.
  // float32/float64 return `exact` (float32 rounding moves singular values by ~6e-8 sigma1,
  // far below any Newton–Schulz error the lab reports). Computed once per dtype; safe to
  // call from one worker while the GUI holds the matrix.
  const Decomposition& decompositionFor(at::ScalarType dtype) const;

  // msign(x), x = w in some dtype, under a Newton–Schulz schedule: the threshold-free first stage of the
  // nested clip forms (spectral_clip.h, ClipOptions::sign). Computed on the first request and
  // kept (only the latest key) while σmin/σmax sliders move; `reused` says which happened and
  // `seconds` is what computing it took.
  struct Sign {
    at::Tensor value;
    double seconds = 0;
    bool reused = false;
  };
  Sign signFor(const at::Tensor& x, const spectral::NewtonSchulzConfig& ns) const;

  mutable std::mutex mutex;
  mutable std::map<at::ScalarType, Decomposition> rounded;
  struct SignKey {
    at::ScalarType dtype;
    spectral::NsCoefficients coefficients;
    int steps, polishSteps;
    bool operator==(const SignKey&) const = default;
  };
  mutable std::optional<SignKey> signKey;
  mutable Sign sign;
};

// The decomposition of a float64 matrix: full SVD when `vectors`, else the singular values
// via the Gram matrix (cheaper for the Inspector's large layers).
Decomposition decompose(const at::Tensor& w64, bool vectors);

// Wraps a float64 matrix (any layout) into a LabMatrix, decomposing it.
LabMatrixPtr makeLabMatrix(std::string name, at::Tensor w64, bool vectors);

}  // namespace lwb::lab
