// Shared helpers of the CLI subcommands: device selection, exact measurements, JSON output.
#pragma once

#include "cli/exit_codes.h"
#include "cli/validators.h"

#include <ATen/core/Tensor.h>
#include <nlohmann/json.hpp>

#include <string>

namespace lwb::cli {

// "cpu" or "cuda"; throws InputError when CUDA is asked for but not available.
at::Device parseDevice(const std::string& name);

// Exact singular values (descending) of a matrix, as doubles, by SVD in float64 on the CPU.
std::vector<double> exactSingularValues(const at::Tensor& w);

// One JSON object per line on stdout.
void printJson(const nlohmann::json& j);

}  // namespace lwb::cli
