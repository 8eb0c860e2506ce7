// The status bar: progress of the current run (steps, steps/s, ETA), its state in plain
// words (a diverged or failed run says why), the device, and memory (this process's
// resident memory; free GPU memory when LibTorch has CUDA, queried off the GUI thread).
#pragma once

#include "common/device_info.h"

#include <QObject>
#include <QPointer>

#include <vector>

class QLabel;
class QProgressBar;
class QStatusBar;
class QTimer;

namespace lwb::app {

class RunSession;

class StatusPanel : public QObject {
  Q_OBJECT

 public:
  explicit StatusPanel(QStatusBar* bar);

  void setDevices(const std::vector<DeviceInfo>& devices);
  // Shows this run (nullptr: idle); call again when it changes.
  void showRun(RunSession* session);
  void refresh() { showRun(run_); }

  QProgressBar* progressBar() const { return progress_; }
  QLabel* stateLabel() const { return state_; }

  // "1:05:03" / "4:07" / "—" for an ETA.
  static QString formatDuration(double seconds);

 private:
  void refreshMemory();

  QPointer<RunSession> run_;
  std::vector<DeviceInfo> devices_;
  QProgressBar* progress_ = nullptr;
  QLabel* state_ = nullptr;
  QLabel* device_ = nullptr;
  QLabel* memory_ = nullptr;
  QTimer* memoryTimer_ = nullptr;
  bool gpuQueryRunning_ = false;
  QString gpuText_;
};

}  // namespace lwb::app
