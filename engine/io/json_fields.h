// Typed, range-checked reads of JSON members, with error messages that name the key as the
// caller spells it ("optimizer.lr: must be > 0, got -1", "--sigma-max: ..."). The run config
// and the constraint settings (spectral/constraint_methods.h) read through these, so every
// range message reads the same.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace lwb::fields {

// A closed or half-open interval for floating-point fields. Every field has a finite upper
// bound: JSON cannot spell NaN or inf, but 1e308 is legal and would overflow arithmetic.
struct Range {
  double lo = 0.0, hi = 1e12;
  bool loOpen = false, hiOpen = false;
};

// Throws lwb::InputError "<key>: <what>".
[[noreturn]] void fail(const std::string& key, const std::string& what);

// "%g"-style text for messages (1e+06, 0.1) and the JSON type name of a value.
std::string numberText(double v);
std::string describe(const nlohmann::json& v);  // "string", "boolean", "2.5" for numbers

// Levenshtein distance, for "did you mean" hints.
size_t editDistance(std::string_view a, std::string_view b);

// Rejects any key of `input` that `schema` lacks (recursing into sub-objects), suggesting
// the closest known dotted key. `schema` is toJson(RunConfig{}), so the accepted keys are
// exactly the ones toJson writes.
void checkKnownKeys(const nlohmann::json& input, const nlohmann::json& schema);

// Reads members of one JSON object; absent members leave the output untouched (defaults).
class FieldReader {
 public:
  // How a member's name appears in messages: the JSON name under a prefix ("optimizer." +
  // "lr"), or any spelling the caller uses for it ("--sigma-max" for "sigma_max").
  using Namer = std::function<std::string(std::string_view name)>;
  FieldReader(const nlohmann::json& object, std::string prefix)
      : obj_(object), name_([p = std::move(prefix)](std::string_view n) { return p + std::string(n); }) {}
  FieldReader(const nlohmann::json& object, Namer namer) : obj_(object), name_(std::move(namer)) {}

  std::string key(std::string_view name) const { return name_(name); }
  const nlohmann::json* find(std::string_view name) const;

  void number(std::string_view name, double& out, Range r);
  void integer(std::string_view name, int64_t& out, int64_t lo, int64_t hi);
  void integer(std::string_view name, int& out, int lo, int hi);
  void unsignedInteger(std::string_view name, uint64_t& out);
  void boolean(std::string_view name, bool& out);
  void text(std::string_view name, std::string& out);
  void choice(std::string_view name, std::string& out, const std::vector<std::string_view>& allowed);
  void integerList(std::string_view name, std::vector<int64_t>& out, int64_t lo, int64_t hi,
                   size_t maxLength);

 private:
  const nlohmann::json& obj_;
  Namer name_;
};

// The checks behind FieldReader, usable on any value (list elements, cross-field checks).
double readNumber(const nlohmann::json& v, const std::string& key, Range r);
int64_t readInteger(const nlohmann::json& v, const std::string& key, int64_t lo, int64_t hi);
void checkChoice(const std::string& value, const std::string& key,
                 const std::vector<std::string_view>& allowed);

}  // namespace lwb::fields
