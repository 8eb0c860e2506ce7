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

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace lwb::cli {

const CLI::Validator& unsignedInteger() {
  static const CLI::Validator v(
      [](std::string& s) -> std::string {
        if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
          return "must be an integer >= 0, got " + s;
        // Past 2^64 - 1 CLI11 clamps without a word (digit strings of one length compare as numbers).
        const std::string digits = s.substr(std::min(s.find_first_not_of('0'), s.size()));
        static const std::string kMax = "18446744073709551615";
        if (digits.size() > kMax.size() || (digits.size() == kMax.size() && digits > kMax))
          return "must be at most 18446744073709551615 (2^64 - 1), got " + s;
        // CLI11 reads a leading 0 as octal ("010" would be seed 8): hand it the decimal digits.
        s = digits.empty() ? "0" : digits;
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

// CLI::Range reads "abc" as "not in range" and lets "nan" through a floating range; these say
// which of the two is wrong.
CLI::Validator integerIn(long long lo, long long hi) {
  const std::string range = "from " + std::to_string(lo) + " to " + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& s) -> std::string {
        long long x = 0;
        try {
          size_t used = 0;
          x = std::stoll(s, &used);
          if (used != s.size()) return "must be an integer " + range + ", got " + s;
        } catch (const std::out_of_range&) {
          return "must be " + range + ", got " + s;
        } catch (...) {
          return "must be an integer " + range + ", got " + s;
        }
        if (x < lo || x > hi) return "must be " + range + ", got " + s;
        s = std::to_string(x);  // CLI11 reads a leading 0 as octal: "010" would be 8
        return {};
      },
      "INT in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

CLI::Validator numberIn(double lo, double hi) {
  const auto text = [](double x) {
    std::string t = std::to_string(x);
    t.erase(t.find_last_not_of('0') + 1);  // 86400.000000 -> 86400
    if (!t.empty() && t.back() == '.') t.pop_back();
    return t;
  };
  const std::string range = "from " + text(lo) + " to " + text(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& s) -> std::string {
        double x = 0;
        try {
          size_t used = 0;
          x = std::stod(s, &used);
          if (used != s.size()) return "must be a number " + range + ", got " + s;
        } catch (const std::out_of_range&) {  // 1e400, 1e-320: a number, just not a double
          return "must be a finite number " + range + ", got " + s;
        } catch (...) {
          return "must be a number " + range + ", got " + s;
        }
        return !std::isfinite(x) || x < lo || x > hi ? "must be a finite number " + range + ", got " + s : std::string();
      },
      "NUMBER in [" + text(lo) + ", " + text(hi) + "]");
}

}  // namespace lwb::cli
