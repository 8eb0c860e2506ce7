// Where the Clip Lab's matrix comes from: a random matrix of a chosen kind whose top singular
// value is exactly sigma1, or a 2-D tensor of a loaded file. Throws InputError naming the
// field or tensor for bad input. No LibTorch in this header.
#pragma once

#include "io/raw_tensor.h"
#include "lab/lab_matrix.h"
#include "lab/lab_types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lwb::lab {

enum class SourceKind {
  Gaussian,      // i.i.d. normal entries (Marchenko–Pastur bulk), scaled to sigma1
  LowRankNoise,  // rank-r signal with singular values log-spaced 1 .. 0.5, plus Gaussian noise
  HeavyTailed,   // singular values drawn from a Pareto law: density ∝ σ^-(a+1)
  Prescribed,    // given singular values, or log-spaced from sigma1 down to sigmaLow
};

struct MatrixSpec {
  SourceKind kind = SourceKind::Gaussian;
  int64_t rows = 256, cols = 512;
  uint64_t seed = 1;
  double sigma1 = 3.0;        // every kind is scaled so that its top singular value is this
  int64_t rank = 8;           // LowRankNoise
  double noise = 0.05;        // LowRankNoise: the noise's top singular value, relative
  double tailExponent = 1.5;  // HeavyTailed: a (smaller is heavier)
  double sigmaLow = 0.01;     // Prescribed, log-spaced: smallest singular value
  std::vector<double> values; // Prescribed: explicit values (used when not empty; sigma1 ignored)
};

// Empty when the spec is valid, else what is wrong ("rows: ...").
std::string validateSpec(const MatrixSpec& spec);

// Builds the matrix and its exact SVD (singular vectors included). Throws InputError for an
// invalid spec and Cancelled when `cancel` is set between stages.
LabMatrixPtr makeMatrix(const MatrixSpec& spec, const CancelFlag* cancel = nullptr);

// A 2-D floating-point tensor of a file (any dtype the readers give), as float64. Throws
// InputError naming the tensor when it is not a finite 2-D floating-point matrix or has more
// than maxEntries entries. `singularVectors` false keeps only the singular values (cheaper;
// no matrix error in applyToMatrix).
LabMatrixPtr matrixFromRaw(const io::RawTensor& raw, bool singularVectors,
                           int64_t maxEntries = kMaxLabEntries, const CancelFlag* cancel = nullptr);

// A short description for titles and tooltips: "Gaussian 256×512, σ₁ = 3".
std::string describeSpec(const MatrixSpec& spec);

}  // namespace lwb::lab
