// Weight initialisation shared by the models.
#pragma once

#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

namespace lwb::models {

// Orthogonal (d_out, d_in) matrix scaled to unit RMS->RMS norm: every singular value equals
// sqrt(d_out / d_in) (000 App. F: "initialize all linear layer weight matrices to be
// orthogonal"). float32, CPU.
at::Tensor orthogonalRmsUnit(int64_t dOut, int64_t dIn, at::Generator& gen);

// Rows of a (count, dim) matrix drawn Gaussian and normalised to RMS 1.
at::Tensor rmsUnitRows(int64_t count, int64_t dim, at::Generator& gen);

// Scales rows whose RMS exceeds maxRms down to maxRms, in place, without autograd.
void capRowRms(at::Tensor& rows, double maxRms);

// Sets every row to RMS exactly 1, in place, without autograd.
void normalizeRowRms(at::Tensor& rows);

// Makes a leaf parameter on `device` that requires grad.
at::Tensor asParameter(const at::Tensor& t, const at::Device& device);

}  // namespace lwb::models
