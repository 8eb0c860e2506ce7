// Lookups in a registry table: rows with an `id` (an enum) and a `key` (its canonical string),
// as the method, implementation and Newton–Schulz registries have.
#pragma once

#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace lwb::registry {

template <class Table, class Id>
const auto& rowOf(const Table& table, Id id) {
  for (const auto& row : table)
    if (row.id == id) return row;
  throw std::invalid_argument("unknown registry id");
}

template <class Table>
auto idOf(const Table& table, std::string_view key) -> std::optional<decltype(table[0].id)> {
  for (const auto& row : table)
    if (row.key == key) return row.id;
  return std::nullopt;
}

template <class Table>
std::vector<std::string_view> keysOf(const Table& table) {
  std::vector<std::string_view> keys;
  for (const auto& row : table) keys.push_back(row.key);
  return keys;
}

}  // namespace lwb::registry
