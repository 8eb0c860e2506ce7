// Per-log-step measurements of a model: exact singular values of every weight matrix
// (batched by shape, on the training device) and the Lipschitz upper bound with its trace.
#pragma once

#include "bounds/lipschitz_bound.h"
#include "models/model.h"
#include "run/metrics.h"

#include <optional>
#include <vector>

namespace lwb::run {

struct MatrixSpectrum {
  std::string name;
  models::Role role;
  std::vector<float> singularValues;  // descending
  double rmsScale = 1;                // sqrt(d_in / d_out)
};

// Singular values of every matrix parameter (embeddings included), one batched SVD per shape.
std::vector<MatrixSpectrum> measureSpectra(const std::vector<models::Param>& params);

std::vector<MatrixNorm> normsFrom(const std::vector<MatrixSpectrum>& spectra);

// Norms for a certificate (lipschitz-cli bound / robustness, the Inspector): sigma1 of every
// matrix parameter from bounds::sigmaMaxUpper (exact float64 SVD, or the Gram iteration
// upper bound for large matrices), never an estimate from below. `methods`, when given,
// receives the method used for each returned norm.
std::vector<MatrixNorm> certifiedNorms(const std::vector<models::Param>& params,
                                       std::vector<bounds::SigmaMethod>* methods = nullptr);

// RMS(d_in) -> RMS(d_head) norm of each head's row slice of a (heads * d_head, d_in)
// projection (W_Q, W_K, W_V), by exact float64 SVD: the per-head norms of the sound
// multi-head bound.
std::vector<double> headSliceNorms(const at::Tensor& w, int64_t heads);

// The bound for the model kinds that have one: mlp (product of norms, ReLU),
// modular_mlp (product times GeLU's max slope 1.1289), lipschitz_gpt (the sound multi-head
// bound, with 000 App. D's single-head value in trace.singleHeadBound), attlip (attention
// block × (1 + MLP) × head in the RMS norm of the whole sequence; measurements.cpp). Empty for
// the standard GPT baseline (LayerNorm has no global bound) and standard attention.
std::optional<bounds::BoundTrace> lipschitzBound(models::Model& model, const std::vector<MatrixNorm>& norms);

}  // namespace lwb::run
