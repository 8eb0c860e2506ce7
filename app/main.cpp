// lipschitz-workbench: parses the command line, checks for a display, shows the window.
#include "app/app_options.h"
#include "app/main_window.h"
#include "app/pages/compare/compare_page.h"
#include "app/pages/inspector/inspector_page.h"
#include "app/run_manager.h"
#include "app/run_panel.h"
#include "app/train_page.h"

#include <QApplication>

#include <cstdio>

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
  QCoreApplication::setOrganizationName(QStringLiteral("LipschitzWorkbench"));
  QCoreApplication::setApplicationName(QStringLiteral("lipschitz-workbench"));
  QCoreApplication::setApplicationVersion(QStringLiteral(LWB_VERSION));

  QStringList args;
  for (int i = 0; i < argc; ++i) args << QString::fromLocal8Bit(argv[i]);
  const lwb::app::ParsedOptions parsed = lwb::app::parseAppOptions(args);
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
  // Debian's LibTorch starts with one intra-op thread: $LWB_THREADS, or all cores but the
  // GUI's (run_manager.h).
  lwb::app::applyAppIntraOpThreads();
  const lwb::app::AppOptions& o = parsed.options;
  lwb::app::MainWindow window;
  if (!o.runsDir.isEmpty()) window.runs()->setRunsFolder(o.runsDir);
  window.show();

  QString error;
  for (const QString& dir : o.openRunDirs)
    if (!window.openRunDirectory(dir, &error)) {
      std::fprintf(stderr, "lipschitz-workbench: %s\n", qPrintable(error));
      return 2;
    }
  if (!o.preset.isEmpty()) {
    bool ok = true;
    if (o.start) ok = window.startPreset(o.preset, o.overrides, &error);
    else if (!window.trainPage()->runPanel()->selectPreset(o.preset)) {
      ok = false;
      error = QStringLiteral("--preset: unknown preset '%1'").arg(o.preset);
    } else if (const QString e = window.trainPage()->runPanel()->applyOverrides(o.overrides); !e.isEmpty() && !o.overrides.isEmpty()) {
      ok = false;
      error = e;
    }
    if (!ok) {
      std::fprintf(stderr, "lipschitz-workbench: %s\n", qPrintable(error));
      return 2;
    }
  }
  // Pages (issue 6): files and run folders load on workers; the page shows their progress.
  if (!o.inspectFile.isEmpty()) window.workbenchPages().inspector->openFile(o.inspectFile);
  if (!o.compareDirs.isEmpty()) window.workbenchPages().compare->addRunDirectories(o.compareDirs);
  if (!o.page.isEmpty()) window.showPage(o.page);
  if (!o.screenshot.isEmpty()) window.scheduleScreenshot(o.screenshot, o.screenshotAfter);
  const int rc = app.exec();
  return window.requestedExitCode() >= 0 ? window.requestedExitCode() : rc;
}
