// Seed 002 Fig. 2 as one action (issue 14): the three CPU ICL presets (AdamW, Muon, Manifold
// Muon) at their best learning rate and at 10×, started together and shown in Compare. The
// paper: AdamW and Muon diverge at 10× while Manifold Muon stays stable even at lr 1; at CPU
// scale AdamW at 10× still trains (docs/RESULTS.md), so the demo shows what this machine can.
#pragma once

#include "app/runs/preset_catalog.h"

#include <QList>
#include <QString>

#include <nlohmann/json.hpp>

namespace lwb::app::pages {

struct DemoRun {
  QString label;          // "AdamW · lr 0.003", "AdamW · lr 0.03 (10×)"
  nlohmann::json config;  // the preset with optimizer.lr and steps set
};

// Steps per demo run: six runs share the cores, so shorter than the presets' 2,000.
inline constexpr int kDemoSteps = 600;

// The six runs, or an empty list with `error` set when a preset is missing.
QList<DemoRun> lrRobustnessRuns(const PresetCatalog& presets, QString* error);

}  // namespace lwb::app::pages
