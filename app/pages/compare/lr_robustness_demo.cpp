#include "app/pages/compare/lr_robustness_demo.h"

#include <QCoreApplication>

namespace lwb::app::pages {

QList<DemoRun> lrRobustnessRuns(const PresetCatalog& presets, QString* error) {
  struct Base {
    const char* preset;
    const char* name;
  };
  QList<DemoRun> runs;
  for (const Base& b : {Base{"icl_adamw_cpu", "AdamW"}, Base{"icl_muon_cpu", "Muon"}, Base{"icl_manifold_muon_cpu", "Manifold Muon"}}) {
    const Preset* p = presets.find(QString::fromLatin1(b.preset));
    if (!p) {
      if (error) *error = QCoreApplication::translate("LrDemo", "preset %1 not found").arg(QString::fromLatin1(b.preset));
      return {};
    }
    const double best = p->config.value("/optimizer/lr"_json_pointer, 0.0);
    for (const int factor : {1, 10}) {
      DemoRun r;
      r.config = p->config;
      r.config["steps"] = kDemoSteps;
      r.config["optimizer"]["lr"] = best * factor;
      r.config["optimizer"]["warmup_steps"] = kDemoSteps / 50;  // the presets' 2 %
      r.label = factor == 1 ? QCoreApplication::translate("LrDemo", "%1 · lr %L2").arg(QString::fromLatin1(b.name)).arg(best)
                            : QCoreApplication::translate("LrDemo", "%1 · lr %L2 (10×)").arg(QString::fromLatin1(b.name)).arg(best * factor);
      runs.append(r);
    }
  }
  return runs;
}

}  // namespace lwb::app::pages
