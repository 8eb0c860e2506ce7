#include "app/device_query.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace lwb::app {

QString deviceLabel(const DeviceInfo& d) {
  // Two messages, not %n: the app ships no English .ts to pluralise from.
  if (d.id == "cpu") return d.threads == 1 ? DeviceQuery::tr("CPU (1 thread)") : DeviceQuery::tr("CPU (%1 threads)").arg(d.threads);
  return QString::fromStdString(d.name);
}

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
