// Per-log-step measurements of a model: exact singular values of every weight matrix
// (batched by shape, on the training device) and the Lipschitz upper bound with its trace.
#pragma once

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

// The bound for the model kinds that have one: mlp (product of norms, ReLU),
// modular_mlp (product times GeLU's max slope 1.1289), lipschitz_gpt (000 App. D). Empty for
// the standard GPT baseline (LayerNorm has no global bound).
std::optional<bounds::BoundTrace> lipschitzBound(models::Model& model, const std::vector<MatrixNorm>& norms);

}  // namespace lwb::run
