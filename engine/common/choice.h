// A choice-valued config option (model.residual, optimizer.mode, …): an enum and one row per
// value with its config id. RunConfig holds the enum, so a consumer compares enum values (a
// misspelt value does not compile); the config reader, toJson and the form's choices read the
// table. Kinds with more to say (tasks, models, optimizers, schedules, attention kinds,
// constraint methods) have registries of their own.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lwb {

template <class E>
struct Choice {
  E value;
  std::string_view id;
};

template <class E, size_t N>
constexpr std::string_view choiceId(const std::array<Choice<E>, N>& table, E value) {
  for (const auto& c : table)
    if (c.value == value) return c.id;
  return {};
}

template <class E, size_t N>
constexpr std::optional<E> choiceValue(const std::array<Choice<E>, N>& table, std::string_view id) {
  for (const auto& c : table)
    if (c.id == id) return c.value;
  return std::nullopt;
}

template <class E, size_t N>
std::vector<std::string_view> choiceIds(const std::array<Choice<E>, N>& table) {
  std::vector<std::string_view> ids;
  for (const auto& c : table) ids.push_back(c.id);
  return ids;
}

template <class E, size_t N>
std::vector<std::string> choiceIdStrings(const std::array<Choice<E>, N>& table) {
  std::vector<std::string> ids;
  for (const auto& c : table) ids.emplace_back(c.id);
  return ids;
}

}  // namespace lwb
