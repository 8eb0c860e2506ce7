#include "app/device_query.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace lwb::app {

DeviceQuery::DeviceQuery(QObject* parent) : QObject(parent) {}

void DeviceQuery::start() {
  if (started_) return;
  started_ = true;
  auto* watcher = new QFutureWatcher<std::vector<DeviceInfo>>(this);
  connect(watcher, &QFutureWatcher<std::vector<DeviceInfo>>::finished, this, [this, watcher] {
    devices_ = watcher->result();
    watcher->deleteLater();
    Q_EMIT ready();
  });
  watcher->setFuture(QtConcurrent::run([] { return availableDevices(); }));
}

}  // namespace lwb::app
