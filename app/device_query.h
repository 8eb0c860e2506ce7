// The compute devices LibTorch offers, asked once on a worker thread: with CUDA the first
// query creates a context (seconds), which must not freeze the GUI. The run form offers
// them; the status bar names them and watches their memory.
#pragma once

#include "common/device_info.h"

#include <QObject>
#include <QString>

#include <vector>

namespace lwb::app {

// A device's name as the app shows it: "CPU (2 threads)" in the user's language, a GPU's own name.
QString deviceLabel(const DeviceInfo& d);

class DeviceQuery : public QObject {
  Q_OBJECT

 public:
  explicit DeviceQuery(QObject* parent = nullptr);

  // Starts the query (once); ready() follows on the GUI thread.
  void start();
  // Empty until ready().
  const std::vector<DeviceInfo>& devices() const { return devices_; }

 Q_SIGNALS:
  void ready();

 private:
  std::vector<DeviceInfo> devices_;
  bool started_ = false;
};

}  // namespace lwb::app
