// The precision experiment of 001 §6.1: spectral hard cap at σmax of matrices with growing
// σ₁ in every implementation, reporting σ₁ of the result and the largest singular-value
// error against the exact clip. In bfloat16 the nested form's error grows with σ₁ (001 §4:
// the ½W term must be cancelled by low-precision products); docs/BENCHMARKS.md has the
// measured table for 256×512, which this reproduces.
#pragma once

#include "lab/lab_types.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lwb::lab {

struct CapSweepRequest {
  int64_t rows = 256, cols = 512;
  std::vector<double> sigma1s = {1.5, 3, 10, 30, 100, 300, 1000};
  double sigmaMax = 1.0;
  double sigmaLow = 0.01;  // each matrix's singular values are log-spaced σ₁ → sigmaLow
  std::vector<std::string> impls = {"nested", "abd_dense", "abd_block", "svd"};
  std::string dtype = "bfloat16";
  std::string coefficients = "jordan5";
  int nsSteps = 10, polishSteps = 4;
  uint64_t seed = 7;
};

struct CapSweepSeries {
  std::string impl;
  std::vector<double> sigma1After;  // per sigma1s entry
  std::vector<double> maxError;     // max |σᵢ(W') − min(σᵢ, σmax)| over i, σ of the rounded input
  std::vector<double> seconds;      // the hard cap call alone
};

struct CapSweep {
  std::vector<double> sigma1s;
  double sigmaMax = 1.0;
  std::vector<CapSweepSeries> series;  // one per impl, in the request's order
};

// progress(done, total) after each (σ₁, impl) cell. Throws InputError for a bad request,
// Cancelled between cells.
CapSweep sweepHardCap(const CapSweepRequest& r, const std::function<void(int, int)>& progress = {},
                      const CancelFlag* cancel = nullptr);

}  // namespace lwb::lab
