// The status bar: progress of the current run (steps, steps/s, ETA), its state in plain
// words (a diverged or failed run says why), the device, and memory (this process's
// resident memory; free GPU memory when LibTorch has CUDA, queried off the GUI thread).
// It follows the RunManager's current run by itself.
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

class RunManager;
class RunSession;

class StatusPanel : public QObject {
  Q_OBJECT

 public:
  StatusPanel(QStatusBar* bar, RunManager* runs);

  void setDevices(const std::vector<DeviceInfo>& devices);
  // A one-line message in place of the run's state until the run next changes
  // ("Cannot start: …", "Stopping runs before closing…").
  void showMessage(const QString& text);

  QProgressBar* progressBar() const { return progress_; }
  QLabel* stateLabel() const { return state_; }

 private:
  void createWidgets(QStatusBar* bar);
  // Shows this run (nullptr: idle).
  void showRun(RunSession* session);
  void refresh() { showRun(run_); }
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
