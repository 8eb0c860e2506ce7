// A registry entry's words for one kind of a family (a task, a model, an optimizer): its
// canonical id (ARCHITECTURE.md), a title for forms, and the dotted config keys only it reads.
// Forms show a family's keys for the selected kind alone; keys no kind of the family claims
// apply to all. Each family's registry row (data/task_kinds.h, models/model_kinds.h,
// optim/optimizer_kinds.h) holds one KindInfo beside its enum value and its traits; the
// helpers below give every family the same parse / toString / choices.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
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

namespace kinds {

// Rows with a `kind` (the enum) and an `info` (KindInfo).
template <class Row>
const Row& rowOf(std::span<const Row> rows, decltype(Row::kind) kind) {
  for (const auto& r : rows)
    if (r.kind == kind) return r;
  throw std::logic_error("a kind without a registry row");  // every enum value has a row (tested)
}

template <class Row>
const Row* findRow(std::span<const Row> rows, std::string_view id) {
  for (const auto& r : rows)
    if (r.info.id == id) return &r;
  return nullptr;
}

template <class Row>
std::vector<KindInfo> infosOf(std::span<const Row> rows) {
  std::vector<KindInfo> out;
  for (const auto& r : rows) out.push_back(r.info);
  return out;
}

// "a, b or c": the ids, for messages.
template <class Row>
std::string idList(std::span<const Row> rows) {
  std::string out;
  for (size_t i = 0; i < rows.size(); ++i)
    out += (i == 0 ? "" : i + 1 == rows.size() ? " or " : ", ") + std::string(rows[i].info.id);
  return out;
}

}  // namespace kinds
}  // namespace lwb
