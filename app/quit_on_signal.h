// SIGINT (Ctrl+C in the terminal that started the app), SIGTERM (kill, a logout) and SIGHUP
// (the terminal closed) once killed the app at once, and a run it trained was left with no
// checkpoint and a status file that said "running" for good. They now reach the GUI thread
// (a socket pair written by the handler, read by a QSocketNotifier: the handler itself may
// only call async-signal-safe functions) and close the window as "Stop and quit" does. A
// second signal quits at once.
#pragma once

#include <QObject>

#include <functional>

class QSocketNotifier;

namespace lwb::app {

class QuitOnSignal : public QObject {
  Q_OBJECT

 public:
  // `onFirst` runs on the GUI thread with the signal's number; installs the handlers.
  explicit QuitOnSignal(std::function<void(int)> onFirst, QObject* parent = nullptr);
  ~QuitOnSignal() override;

 private:
  void readSignal();

  std::function<void(int)> onFirst_;
  QSocketNotifier* notifier_ = nullptr;
  bool seen_ = false;
};

}  // namespace lwb::app
