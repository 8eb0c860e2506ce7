#include "io/json_fields.h"

#include "io/input_error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lwb::fields {

using nlohmann::json;

void fail(const std::string& key, const std::string& what) {
  throw InputError(key + ": " + what);
}

std::string numberText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string describe(const json& v) {
  if (v.is_number_float()) return numberText(v.get<double>());
  if (v.is_number()) return v.dump();
  return v.type_name();
}

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

namespace {

void flatten(const json& schema, const std::string& prefix, std::vector<std::string>& out) {
  for (const auto& [k, v] : schema.items()) {
    out.push_back(prefix + k);
    if (v.is_object()) flatten(v, prefix + k + ".", out);
  }
}

std::string lastSegment(const std::string& dotted) {
  const auto dot = dotted.rfind('.');
  return dot == std::string::npos ? dotted : dotted.substr(dot + 1);
}

// A typo within two edits of a known key, else the same name in another section
// ("lr" at the top level -> "optimizer.lr"), else nothing.
std::string suggestion(const std::string& unknown, const std::vector<std::string>& known) {
  const std::string* best = nullptr;
  size_t bestDistance = 3;
  for (const auto& k : known) {
    const size_t d = editDistance(unknown, k);
    if (d < bestDistance) bestDistance = d, best = &k;
  }
  if (best) return "; did you mean '" + *best + "'?";
  std::string names;
  for (const auto& k : known)
    if (lastSegment(k) == lastSegment(unknown)) names += (names.empty() ? "'" : " or '") + k + "'";
  return names.empty() ? std::string() : "; did you mean " + names + "?";
}

void checkKeys(const json& input, const json& schema, const std::string& prefix,
               const std::vector<std::string>& known) {
  for (const auto& [k, v] : input.items()) {
    const std::string dotted = prefix + k;
    const auto it = schema.find(k);
    if (it == schema.end()) throw InputError("unknown key '" + dotted + "'" + suggestion(dotted, known));
    if (it->is_object()) {
      if (!v.is_object()) fail(dotted, std::string("expected an object, got ") + v.type_name());
      checkKeys(v, *it, dotted + ".", known);
    }
  }
}

}  // namespace

void checkKnownKeys(const json& input, const json& schema) {
  std::vector<std::string> known;
  flatten(schema, "", known);
  checkKeys(input, schema, "", known);
}

double readNumber(const json& v, const std::string& key, Range r) {
  if (!v.is_number()) fail(key, std::string("expected a number, got ") + v.type_name());
  const double x = v.get<double>();
  // Only reachable through a programmatic json or an overflowing literal such as 1e999.
  if (!std::isfinite(x)) fail(key, "must be a finite number");
  if (r.loOpen ? !(x > r.lo) : !(x >= r.lo))
    fail(key, std::string("must be ") + (r.loOpen ? "> " : ">= ") + numberText(r.lo) + ", got " + numberText(x));
  if (r.hiOpen ? !(x < r.hi) : !(x <= r.hi))
    fail(key, std::string("must be ") + (r.hiOpen ? "< " : "<= ") + numberText(r.hi) + ", got " + numberText(x));
  return x;
}

int64_t readInteger(const json& v, const std::string& key, int64_t lo, int64_t hi) {
  const auto tooLow = [&] { fail(key, "must be >= " + std::to_string(lo) + ", got " + describe(v)); };
  const auto tooHigh = [&] { fail(key, "must be <= " + std::to_string(hi) + ", got " + describe(v)); };
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(hi)) tooHigh();
    if (static_cast<int64_t>(u) < lo) tooLow();
    return static_cast<int64_t>(u);
  }
  if (v.is_number_integer()) {
    const int64_t x = v.get<int64_t>();
    if (x < lo) tooLow();
    if (x > hi) tooHigh();
    return x;
  }
  if (v.is_number_float()) {
    // 1e6 is a float in JSON; accept it when it is a whole number.
    const double d = v.get<double>();
    if (!std::isfinite(d) || d != std::floor(d)) fail(key, "expected an integer, got " + describe(v));
    if (d < static_cast<double>(lo)) tooLow();
    if (d > static_cast<double>(hi)) tooHigh();
    return static_cast<int64_t>(d);
  }
  fail(key, std::string("expected an integer, got ") + v.type_name());
}

void checkChoice(const std::string& value, const std::string& key,
                 const std::vector<std::string_view>& allowed) {
  std::string list;
  const std::string_view* closest = nullptr;
  size_t bestDistance = 3;
  for (const auto& a : allowed) {
    if (a == value) return;
    list += (list.empty() ? "" : ", ") + std::string(a);
    const size_t d = editDistance(value, a);
    if (d < bestDistance) bestDistance = d, closest = &a;
  }
  std::string msg = "must be one of " + list + "; got '" + value + "'";
  if (closest) msg += " (did you mean '" + std::string(*closest) + "'?)";
  fail(key, msg);
}

const json* FieldReader::find(std::string_view name) const {
  const auto it = obj_.find(std::string(name));
  return it == obj_.end() ? nullptr : &*it;
}

void FieldReader::number(std::string_view name, double& out, Range r) {
  if (const json* v = find(name)) out = readNumber(*v, key(name), r);
}

void FieldReader::integer(std::string_view name, int64_t& out, int64_t lo, int64_t hi) {
  if (const json* v = find(name)) out = readInteger(*v, key(name), lo, hi);
}

void FieldReader::integer(std::string_view name, int& out, int lo, int hi) {
  if (const json* v = find(name)) out = static_cast<int>(readInteger(*v, key(name), lo, hi));
}

void FieldReader::unsignedInteger(std::string_view name, uint64_t& out) {
  const json* v = find(name);
  if (!v) return;
  if (v->is_number_unsigned()) {
    out = v->get<uint64_t>();
  } else if (v->is_number_integer() && v->get<int64_t>() < 0) {
    fail(key(name), "must be >= 0, got " + v->dump());
  } else if (v->is_number_float() && v->get<double>() >= 18446744073709551616.0) {
    fail(key(name), "must be < 2^64, got " + describe(*v));
  } else {
    out = static_cast<uint64_t>(readInteger(*v, key(name), 0, std::numeric_limits<int64_t>::max()));
  }
}

void FieldReader::boolean(std::string_view name, bool& out) {
  const json* v = find(name);
  if (!v) return;
  if (!v->is_boolean()) fail(key(name), std::string("expected a boolean, got ") + v->type_name());
  out = v->get<bool>();
}

void FieldReader::text(std::string_view name, std::string& out) {
  const json* v = find(name);
  if (!v) return;
  if (!v->is_string()) fail(key(name), std::string("expected a string, got ") + v->type_name());
  out = v->get<std::string>();
}

void FieldReader::choice(std::string_view name, std::string& out,
                         const std::vector<std::string_view>& allowed) {
  std::string value = out;
  text(name, value);
  checkChoice(value, key(name), allowed);
  out = value;
}

void FieldReader::integerList(std::string_view name, std::vector<int64_t>& out, int64_t lo,
                              int64_t hi, size_t maxLength) {
  const json* v = find(name);
  if (!v) return;
  if (!v->is_array()) fail(key(name), std::string("expected an array, got ") + v->type_name());
  if (v->empty()) fail(key(name), "must not be empty");
  if (v->size() > maxLength) fail(key(name), "must have at most " + std::to_string(maxLength) + " entries");
  std::vector<int64_t> values;
  for (size_t i = 0; i < v->size(); ++i)
    values.push_back(readInteger((*v)[i], key(name) + "[" + std::to_string(i) + "]", lo, hi));
  out = std::move(values);
}

}  // namespace lwb::fields
