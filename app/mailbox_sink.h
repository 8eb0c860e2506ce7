// The app's MetricsSink: runs on the engine worker thread, converts each engine snapshot to
// the app's plain values (run_types.h) and posts it to a Mailbox. One of the two app
// translation units that see LibTorch headers (through run/metrics.h).
#pragma once

#include "app/mailbox.h"
#include "run/metrics.h"

namespace lwb::app {

class MailboxSink final : public run::MetricsSink {
 public:
  explicit MailboxSink(Mailbox& mailbox) : mailbox_(mailbox) {}
  void onStep(const run::StepMetrics& m) override;
  void onSpectra(int64_t step, const run::SpectraSnapshot& after, const run::SpectraSnapshot& before) override;
  void onFinished(const run::RunSummary& s) override;

 private:
  Mailbox& mailbox_;
};

StepSample toStepSample(const run::StepMetrics& m);
RunEnd toRunEnd(const run::RunSummary& s);

}  // namespace lwb::app
