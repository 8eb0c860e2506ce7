#include "app/status_panel.h"

#include "app/device_query.h"
#include "widgets/number_format.h"

#include "app/runs/run_manager.h"
#include "app/runs/run_session.h"

#include <QFile>
#include <QFutureWatcher>
#include <QLabel>
#include <QProgressBar>

#include <algorithm>
#include <QStatusBar>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <unistd.h>

#include <cmath>

namespace lwb::app {
namespace {

// Resident set size of this process, from /proc (Linux); -1 elsewhere.
qint64 residentBytes() {
  QFile f(QStringLiteral("/proc/self/statm"));
  if (!f.open(QIODevice::ReadOnly)) return -1;
  const QList<QByteArray> fields = f.readAll().split(' ');
  if (fields.size() < 2) return -1;
  return fields[1].toLongLong() * static_cast<qint64>(sysconf(_SC_PAGESIZE));
}


// "1:05:03" / "4:07" / "—" for an ETA.
QString formatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("—");
  const qint64 s = static_cast<qint64>(std::llround(seconds));
  if (s >= 3600) return QStringLiteral("%1:%2:%3").arg(s / 3600).arg(s / 60 % 60, 2, 10, QLatin1Char('0')).arg(s % 60, 2, 10, QLatin1Char('0'));
  return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

}  // namespace

StatusPanel::StatusPanel(QStatusBar* bar, RunManager* runs) : QObject(bar) {
  createWidgets(bar);
  memoryTimer_ = new QTimer(this);
  memoryTimer_->setInterval(2000);
  connect(memoryTimer_, &QTimer::timeout, this, &StatusPanel::refreshMemory);
  memoryTimer_->start();
  refreshMemory();
  showRun(runs->currentRun());

  connect(runs, &RunManager::currentRunChanged, this, &StatusPanel::showRun);
  connect(runs, &RunManager::sessionStateChanged, this, [this](RunSession* s) {
    if (s == run_) refresh();
  });
  connect(runs, &RunManager::deltasReady, this, &StatusPanel::refresh);
}

void StatusPanel::createWidgets(QStatusBar* bar) {
  state_ = new QLabel(bar);
  state_->setObjectName(QStringLiteral("runStateLabel"));
  state_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // A finished run's line can be long (figures, attention): it is cut at the window's edge,
  // never widens the window; the tooltip and the run's summary.json hold everything.
  state_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  progress_ = new QProgressBar(bar);
  progress_->setObjectName(QStringLiteral("runProgress"));
  progress_->setRange(0, 1000);
  progress_->setMinimumWidth(260);
  progress_->setTextVisible(true);
  device_ = new QLabel(bar);
  memory_ = new QLabel(bar);
  bar->addWidget(state_, 1);
  bar->addPermanentWidget(progress_);
  bar->addPermanentWidget(device_);
  bar->addPermanentWidget(memory_);
}

void StatusPanel::showMessage(const QString& text) { state_->setText(text); }

void StatusPanel::setDevices(const std::vector<DeviceInfo>& devices) {
  devices_ = devices;
  QStringList names;
  for (const auto& d : devices) names << deviceLabel(d);
  device_->setText(names.join(QStringLiteral(" | ")));
  refreshMemory();
}

void StatusPanel::showRun(RunSession* s) {
  run_ = s;
  if (!s) {
    // The status bar is the window's, so the hint reads right on every page (Ctrl+1: Train).
    // Short enough for a 1024-px German window (the longer hint was cut mid-sentence there).
    state_->setText(tr("No run selected: F5 starts the Train page's preset, Ctrl+O opens a run folder."));
    state_->setStyleSheet(QString());
    progress_->setValue(0);
    progress_->setFormat(tr("no run"));  // of runs only: a page computing (Attention Lab) has its own bar
    return;
  }
  const run::StepMetrics* latest = s->history().latest();
  const auto total = s->history().totalSteps();
  const int64_t step = s->end() && s->end()->steps > 0 ? s->end()->steps : (latest ? latest->step : 0);
  const double p = s->progress();
  progress_->setValue(p < 0 ? 0 : static_cast<int>(std::lround(p * 1000)));
  QString format = total ? tr("step %1 / %2").arg(step).arg(*total) : tr("step %1").arg(step);
  const double speed = s->stepsPerSecond();
  if (isActive(s->state()) && latest && speed > 0) {
    format += tr(" · %L1 steps/s · ETA %2").arg(widgets::displayNumber(speed, 'f', 1)).arg(formatDuration(latest->etaSeconds));
  } else if (s->end() && speed > 0) {
    format += tr(" · %L1 steps/s · %2").arg(widgets::displayNumber(speed, 'f', 1)).arg(formatDuration(s->end()->seconds));
  }
  progress_->setFormat(format);
  // Wide enough for its text ("step 790 / 1500 · 15,3 steps/s · ETA 0:46" was cut).
  progress_->setMinimumWidth(std::max(260, progress_->fontMetrics().horizontalAdvance(format) + 40));

  QString text = QStringLiteral("%1 — %2").arg(s->label(), toDisplayString(s->state()));
  if (s->processes() > 1) text += tr(" · %n processes", nullptr, s->processes());
  if (s->end() && !s->end()->message.empty()) text += QStringLiteral(": ") + statusMessageText(s->end()->message);
  if (s->state() == RunState::Finished && s->end()) {
    // NaN: never measured (no evaluation step) or not finite.
    const run::RunSummary& e = *s->end();
    if (std::isfinite(e.valLoss)) text += tr(" · val loss %L1").arg(widgets::displayNumber(e.valLoss, 'g', 4));
    if (std::isfinite(e.valAcc)) text += tr(" · val acc %L1").arg(widgets::displayNumber(e.valAcc, 'g', 3));
    // Seed 004's masked LM (issue 26): what the end of the run measured of its attention block.
    if (std::isfinite(e.attentionPgdEstimate)) {
      text += tr(" · attention PGD %L1").arg(widgets::displayNumber(e.attentionPgdEstimate, 'g', 3));
      // The estimate is a lower estimate of the block's constant, the bound an upper one.
      if (std::isfinite(e.attentionBound)) text += QStringLiteral(" ≤ %1").arg(widgets::displayNumber(e.attentionBound, 'g', 4));
      if (!e.attentionCertificate.empty()) text += QStringLiteral(" %1").arg(attentionCertificateText(QString::fromStdString(e.attentionCertificate)));
    }
    if (std::isfinite(e.attentionMixingMovement))
      text += tr(" · mixing %L1 / self %L2")
                  .arg(widgets::displayNumber(e.attentionMixingMovement, 'g', 2), widgets::displayNumber(e.attentionSelfMovement, 'g', 2));
    // Last: the longest part, so a narrow window cuts it rather than the attention figures.
    // "(a product over the layers)" is in the tooltip: the line must keep the number.
    if (std::isfinite(e.lipschitzBound)) text += tr(" · Lipschitz bound (RMS→RMS) %L1").arg(widgets::displayNumber(e.lipschitzBound, 'g', 4));
  }
  // A start warning shows while the run trains (the end message repeats it afterwards); one
  // the end message does not repeat (a damaged metrics.jsonl) shows after the end too.
  const QString endMessage = s->end() ? statusMessageText(s->end()->message) : QString();
  bool warn = false;
  for (const QString& w : s->warnings())
    if (!s->end() || !endMessage.contains(w)) {
      text += QStringLiteral(" — ⚠ ") + w;
      warn = true;
      break;
    }
  state_->setText(text);
  // Why an enforced-bound run can end with a bound of 10⁶: σmax holds each matrix, the
  // network's bound multiplies them (issue 32).
  state_->setToolTip(text + QLatin1Char('\n') + s->runDir() + QLatin1Char('\n') +
                     (s->warnings().isEmpty() ? QString() : QStringLiteral("⚠ ") + s->warnings().join(QStringLiteral("\n⚠ ")) + QLatin1Char('\n')) +
                     tr("The Lipschitz bound is a product over the layers: it multiplies every layer's factor: each matrix is held at σmax, so the bound "
                        "can still grow with depth. The Lipschitz bound panel's trace shows each layer's part.") +
                     (s->end() && std::isfinite(s->end()->attentionMixingMovement)
                          ? QLatin1Char('\n') +
                                tr("Attention (measured at the end on the first validation sequence): PGD estimate of the evaluated block "
                                   "against its bound; converged = the prox reached its tolerance, so the bound holds. Mixing / "
                                   "self: how far the converged prox moves the tokens, ÷‖X‖, by what other tokens contribute and "
                                   "by what each token contributes itself — mixing near 0 means the block barely attends.")
                          : QString()));
  const bool bad = s->state() == RunState::Diverged || s->state() == RunState::Failed;
  state_->setStyleSheet(bad ? QStringLiteral("color: #d55e00; font-weight: bold;")
                            : warn ? QStringLiteral("color: #b35900;") : QString());
}

void StatusPanel::refreshMemory() {
  QString text = tr("RAM %1").arg(widgets::bytesText(residentBytes()));
  bool hasGpu = false;
  for (const auto& d : devices_) hasGpu = hasGpu || d.id.rfind("cuda", 0) == 0;
  if (hasGpu && !gpuQueryRunning_) {
    // cudaMemGetInfo can stall behind a running kernel: never on the GUI thread.
    gpuQueryRunning_ = true;
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher] {
      gpuText_ = watcher->result();
      gpuQueryRunning_ = false;
      watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run([] {
      std::int64_t freeB = -1, totalB = -1;
      if (!cudaMemoryInfo(0, &freeB, &totalB)) return QString();
      return tr("GPU %1 free of %2").arg(widgets::bytesText(freeB), widgets::bytesText(totalB));
    }));
  }
  if (!gpuText_.isEmpty()) text += QStringLiteral(" · ") + gpuText_;
  memory_->setText(text);
}

}  // namespace lwb::app
