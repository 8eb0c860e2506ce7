// A matrix under study in the Clip Lab: kept in float64 with its exact singular values
// (and, when asked for, its singular vectors), so every method can be compared with the
// exact SVD result. The tensors live behind an opaque Impl: this header has no LibTorch.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace lwb::lab {

// Largest matrix the lab accepts: the 1024 x 4096 (entries, either orientation).
inline constexpr int64_t kMaxLabEntries = int64_t{1024} * 4096;

class LabMatrix {
 public:
  struct Impl;  // engine/lab only (lab_matrix_impl.h)
  explicit LabMatrix(std::unique_ptr<Impl> impl);
  ~LabMatrix();
  LabMatrix(const LabMatrix&) = delete;
  LabMatrix& operator=(const LabMatrix&) = delete;

  const std::string& name() const;
  int64_t rows() const;
  int64_t cols() const;
  // Exact singular values of the float64 matrix, descending (min(rows, cols) of them).
  const std::vector<double>& singularValues() const;
  // True when the exact singular vectors were computed (matrix errors need them).
  bool hasSingularVectors() const;

  const Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

using LabMatrixPtr = std::shared_ptr<const LabMatrix>;

// The same matrix scaled so its top singular value is sigma1 (> 0): W, Σ scale, U and V are
// shared, so a σ₁ slider needs no new SVD. Returns `m` itself when σ₁ is zero.
LabMatrixPtr withTopSingularValue(const LabMatrix& m, double sigma1, const std::string& name);

}  // namespace lwb::lab
