// Shared helpers of the CLI subcommands: device selection, exact measurements, JSON output.
#pragma once

#include "cli/exit_codes.h"

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

namespace CLI {
class Validator;
}

namespace lwb::cli {

// CLI11 validator: a finite number >= 0 (CLI::NonNegativeNumber lets "nan" through).
const CLI::Validator& finiteNonNegative();

// CLI11 validator for unsigned options (seeds): digits only. CLI11 converts "-1" into an
// uint64_t by wrapping it to 2^64 - 1 without a word.
const CLI::Validator& unsignedInteger();

// CLI11 validator: a value that is not empty ("--delta ''" was taken as "no --delta").
const CLI::Validator& nonEmpty();

}  // namespace lwb::cli
