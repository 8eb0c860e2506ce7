#include "app/mailbox_sink.h"

#include <cmath>

namespace lwb::app {
namespace {

SpectrumMap toSpectrumMap(const run::SpectraSnapshot& s) {
  SpectrumMap out;
  for (const auto& [name, values] : s) out.emplace(QString::fromStdString(name), std::vector<double>(values.begin(), values.end()));
  return out;
}

std::optional<double> finite(double v) { return std::isfinite(v) ? std::optional<double>(v) : std::nullopt; }

}  // namespace

StepSample toStepSample(const run::StepMetrics& m) {
  StepSample s;
  s.step = m.step;
  s.lr = m.lr;
  s.trainLoss = m.trainLoss;
  s.trainAcc = m.trainAcc;
  s.stepsPerSecond = m.stepsPerSecond;
  s.etaSeconds = m.etaSeconds;
  s.alpha = m.alpha;
  s.norms.reserve(m.norms.size());
  for (const auto& n : m.norms)
    s.norms.push_back({QString::fromStdString(n.name), QString::fromStdString(n.role), n.rmsNorm, n.sigma1});
  s.lipschitzBound = m.lipschitzBound;
  for (const auto& t : m.boundTrace.layers)
    s.trace.push_back({QString::fromStdString(t.name), t.blockLipschitz, t.lipschitzAfter, t.activationBound});
  s.valLoss = m.valLoss;
  s.valAcc = m.valAcc;
  if (m.activations)
    for (size_t i = 0; i < m.activations->names.size(); ++i)
      s.activations.push_back({QString::fromStdString(m.activations->names[i]), m.activations->maxAbsEntry[i],
                               m.activations->maxTokenRms[i]});
  return s;
}

RunEnd toRunEnd(const run::RunSummary& s) {
  RunEnd e;
  e.state = runStateFromStatus(QString::fromStdString(s.status));
  e.message = QString::fromStdString(s.message);
  e.steps = s.steps;
  e.seconds = s.seconds;
  e.stepsPerSecond = s.stepsPerSecond;
  // The trainer reports NaN for values a run never measured (no eval step yet).
  e.valLoss = finite(s.valLoss);
  e.valAcc = finite(s.valAcc);
  e.lipschitzBound = finite(s.lipschitzBound);
  return e;
}

void MailboxSink::onStep(const run::StepMetrics& m) { mailbox_.postStep(toStepSample(m)); }

void MailboxSink::onSpectra(int64_t step, const run::SpectraSnapshot& after, const run::SpectraSnapshot& before) {
  mailbox_.postSpectra({step, toSpectrumMap(after), toSpectrumMap(before)});
}

void MailboxSink::onFinished(const run::RunSummary& s) { mailbox_.postEnd(toRunEnd(s)); }

}  // namespace lwb::app
