// A registry entry for one kind of a family (a task, a model, an optimizer): its canonical id
// (ARCHITECTURE.md), a title for forms, and the dotted config keys only it reads. Forms show a
// family's keys for the selected kind alone; keys no kind of the family claims apply to all.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

namespace lwb {

struct KindInfo {
  std::string_view id;
  std::string_view title;
  std::vector<std::string_view> reads;  // dotted config keys this kind alone reads
  std::string_view description;

  bool readsKey(std::string_view key) const { return std::find(reads.begin(), reads.end(), key) != reads.end(); }
};

inline const KindInfo* findKind(std::span<const KindInfo> family, std::string_view id) {
  for (const auto& k : family)
    if (k.id == id) return &k;
  return nullptr;
}

inline std::vector<std::string_view> kindIds(std::span<const KindInfo> family) {
  std::vector<std::string_view> ids;
  for (const auto& k : family) ids.push_back(k.id);
  return ids;
}

}  // namespace lwb
