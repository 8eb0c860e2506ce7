// The app's MetricsSink: runs on the engine worker thread and posts each engine result, as
// it is, to a Mailbox (the app uses the engine's run results directly; no LibTorch here).
#pragma once

#include "app/runs/mailbox.h"
#include "run/metrics.h"

namespace lwb::app {

class MailboxSink final : public run::MetricsSink {
 public:
  explicit MailboxSink(Mailbox& mailbox) : mailbox_(mailbox) {}
  void onStep(const run::StepMetrics& m) override { mailbox_.postStep(m); }
  void onSpectra(int64_t step, const run::SpectraSnapshot& after, const run::SpectraSnapshot& before) override {
    mailbox_.postSpectra({step, after, before});
  }
  void onFinished(const run::RunSummary& s) override { mailbox_.postEnd(s); }
  void onReferenceLevels(const std::vector<data::ReferenceLevel>& levels) override { mailbox_.postLevels(levels); }

 private:
  Mailbox& mailbox_;
};

}  // namespace lwb::app
