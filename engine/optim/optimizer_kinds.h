// The optimizer registry: one row per optimizer kind with what it is (its state per weight for
// the memory estimate, whether Modula's units are defined for it) and
// its factory. makeOptimizer, the config check and the memory estimate ask the row. No
// LibTorch here.
#pragma once

#include "common/kind_info.h"

#include <memory>
#include <optional>
#include <vector>

namespace lwb::optim {

class Optimizer;
struct ParamSlot;
struct OptimizerConfig;

enum class OptimizerKind { AdamW, Muon, Sgd, ManifoldMuon };

struct OptimizerRow {
  OptimizerKind kind;
  KindInfo info;
  // State tensors of a weight's size it keeps per weight (momentum 1, AdamW's moments 2;
  // Manifold Muon 3: its momentum plus the AdamW moments of embeddings and head, counted for
  // every weight as an upper bound).
  double statePerWeight;
  // Modula's units (optimizer.lr_units = modula) are defined for it: its update is msign of
  // the momentum, whose RMS→RMS norm the mass rule sets.
  bool modulaUnits;
  std::unique_ptr<Optimizer> (*make)(const OptimizerConfig&, std::vector<ParamSlot>&&);
};

std::span<const OptimizerRow> optimizerRows();
const OptimizerRow& row(OptimizerKind kind);
std::string_view toString(OptimizerKind kind);
std::optional<OptimizerKind> parseOptimizerKind(std::string_view id);
std::span<const KindInfo> optimizerKinds();

}  // namespace lwb::optim
