// lipschitz-workbench: parses the command line, checks for a display, shows the window.
#include "app/app_options.h"
#include "app/language.h"
#include "app/main_window.h"
#include "app/quit_on_signal.h"
#include "app/pages/page_registry.h"
#include "app/pages/common/latest_wins.h"
#include "app/runs/run_manager.h"
#include "common/float_env.h"
#include "common/malloc_policy.h"
#include "common/threads.h"
#include "common/version.h"

#include <QApplication>

#include <cstdio>
#include <cstdlib>

namespace {

// Without any display Qt would abort with a platform-plugin error; say what to do instead.
bool haveDisplay() {
#if defined(Q_OS_LINUX)
  return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
         !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
#else
  return true;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  // Before anything else: a short OpenMP spin, set before a second start of this binary
  // since libgomp reads it when LibTorch loads (common/threads.h). Returns when set already.
  lwb::reexecWithOpenMpWaitPolicy(argv);
  lwb::configureAllocator();  // tensor buffers reused, not re-faulted each step (common/malloc_policy.h)
  lwb::configureFloatingPoint();  // denormals flushed: common/float_env.h
  QCoreApplication::setOrganizationName(QStringLiteral("LipschitzWorkbench"));
  QCoreApplication::setApplicationName(QStringLiteral("lipschitz-workbench"));
  QCoreApplication::setApplicationVersion(QString::fromStdString(std::string(lwb::version())));

  QStringList args;
  for (int i = 0; i < argc; ++i) args << QString::fromLocal8Bit(argv[i]);
  const lwb::app::ParsedOptions parsed = lwb::app::pages::parseOptions(args);
  if (!parsed.helpText.isEmpty()) {
    std::fputs(qPrintable(parsed.helpText), stdout);
    return 0;
  }
  if (!parsed.error.isEmpty()) {
    std::fprintf(stderr, "lipschitz-workbench: %s\n", qPrintable(parsed.error));
    return 2;
  }
  if (!haveDisplay()) {
    std::fprintf(stderr,
                 "lipschitz-workbench: no display (DISPLAY and WAYLAND_DISPLAY are unset). The desktop app needs one;\n"
                 "  for headless training use lipschitz-cli, e.g.\n"
                 "  lipschitz-cli train --config resources/presets/chars_small_cpu.json --out runs/chars\n"
                 "  (or run the app under Xvfb: xvfb-run -a lipschitz-workbench ...)\n");
    return 2;
  }

  QApplication app(argc, argv);
  // Before any window exists: --lang, else View → Language, else the system locale.
  lwb::app::applyLanguage(parsed.options.language.isEmpty() ? lwb::app::languageSetting() : parsed.options.language);
  // Debian's LibTorch starts with one intra-op thread: $LWB_THREADS, or all cores but the
  // GUI's (run_manager.h).
  lwb::app::applyAppIntraOpThreads();
  lwb::app::MainWindow window;
  // Ctrl+C, kill, a closed terminal: stop the runs with checkpoints, then quit (not lose them).
  lwb::app::QuitOnSignal quitOnSignal([&window](int signal) { window.quitOnSignal(signal); });
  window.show();
  QString error;
  if (!window.applyOptions(parsed.options, &error)) {
    std::fprintf(stderr, "lipschitz-workbench: %s\n", qPrintable(error));
    return 2;
  }
  const int rc = app.exec();
  const int code = window.requestedExitCode() >= 0 ? window.requestedExitCode() : rc;
  // The window has closed: runs were stopped and settings saved (MainWindow::closeEvent). A
  // page's background job still in a LibTorch call (only views are computed there, nothing
  // is written) would hold the exit until it ends; leave without waiting for it.
  if (lwb::app::pages::LatestWins::anyJobInFlight()) {
    std::fflush(nullptr);
    std::_Exit(code);
  }
  return code;
}
