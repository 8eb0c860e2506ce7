#include "cli/cli_support.h"

#include "common/torch_compat.h"
#include "io/input_error.h"

#include <ATen/Context.h>

#include <iostream>

namespace lwb::cli {

at::Device parseDevice(const std::string& name) {
  if (name == "cpu") return at::Device(at::kCPU);
  if (name == "cuda") {
    if (!at::hasCUDA()) throw InputError("--device cuda: this build of LibTorch has no CUDA device available");
    return at::Device(at::kCUDA);
  }
  throw InputError("--device must be cpu or cuda, got '" + name + "'");
}

std::vector<double> exactSingularValues(const at::Tensor& w) {
  const auto s = compat::svdvals(w.to(at::kCPU).to(at::kDouble)).contiguous();
  return std::vector<double>(s.data_ptr<double>(), s.data_ptr<double>() + s.numel());
}

// A non-UTF-8 path or name in a value is replaced (U+FFFD), never thrown after the work is done.
void printJson(const nlohmann::json& j) {
  std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
}

}  // namespace lwb::cli

#include <CLI/CLI.hpp>

#include <cmath>

namespace lwb::cli {

const CLI::Validator& unsignedInteger() {
  static const CLI::Validator v(
      [](std::string& s) -> std::string {
        if (s.empty() || s.size() > 20 || s.find_first_not_of("0123456789") != std::string::npos)
          return "must be an integer >= 0, got " + s;
        return {};
      },
      "UINT");
  return v;
}

const CLI::Validator& nonEmpty() {
  static const CLI::Validator v([](std::string& s) -> std::string { return s.empty() ? "must not be empty" : ""; }, "TEXT");
  return v;
}

const CLI::Validator& finiteNonNegative() {
  // A namespace-scope object would be constructed before main for every TU; this is the
  // CLI's only static and holds no state.
  static const CLI::Validator v(
      [](std::string& s) -> std::string {
        try {
          size_t used = 0;
          const double x = std::stod(s, &used);
          if (used != s.size()) return "not a number: " + s;
          if (!std::isfinite(x) || x < 0) return "must be a finite number >= 0, got " + s;
        } catch (...) {
          return "not a number: " + s;
        }
        return {};
      },
      "FINITE>=0");
  return v;
}

}  // namespace lwb::cli
