#include "app/quit_on_signal.h"

#include <QSocketNotifier>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lwb::app {
namespace {

int gFds[2] = {-1, -1};  // [0]: the handler writes; [1]: the GUI thread reads
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void onSignal(int signal) {
  const int saved = errno;
  const unsigned char byte = static_cast<unsigned char>(signal);
  [[maybe_unused]] const ssize_t n = ::write(gFds[0], &byte, 1);  // async-signal-safe
  errno = saved;
}

}  // namespace

QuitOnSignal::QuitOnSignal(std::function<void(int)> onFirst, QObject* parent) : QObject(parent), onFirst_(std::move(onFirst)) {
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, gFds) != 0) return;  // default handling stays
  ::fcntl(gFds[0], F_SETFL, O_NONBLOCK);  // a full buffer drops a signal, never blocks the handler
  notifier_ = new QSocketNotifier(gFds[1], QSocketNotifier::Read, this);
  connect(notifier_, &QSocketNotifier::activated, this, &QuitOnSignal::readSignal);
  struct sigaction sa {};
  sa.sa_handler = onSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int s : kSignals) ::sigaction(s, &sa, nullptr);
}

QuitOnSignal::~QuitOnSignal() {
  for (int s : kSignals) std::signal(s, SIG_DFL);
  for (int& fd : gFds) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
}

void QuitOnSignal::readSignal() {
  unsigned char byte = 0;
  if (::read(gFds[1], &byte, 1) != 1) return;
  if (seen_) {
    std::fprintf(stderr, "lipschitz-workbench: second signal: quitting without waiting for the runs\n");
    std::fflush(nullptr);
    std::_Exit(128 + byte);
  }
  seen_ = true;
  onFirst_(byte);
}

}  // namespace lwb::app
