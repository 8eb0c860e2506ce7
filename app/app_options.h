// Command-line options of lipschitz-workbench, for demos, tests and screenshots:
//   --preset ID [--set key=value]... [--start]   load a preset (and start it)
//   --open RUN_DIR                                follow a run directory (repeatable)
//   --screenshot FILE.png [--after SECONDS]       render the window, then exit
//   --page train|cliplab|inspector|compare|sweeps the page shown first
//   --inspect FILE                                open FILE in the Checkpoint Inspector
//   --compare RUN_DIR...                          compare run directories (or folders of them)
//   --robustness RUN_DIR|CHECKPOINT               attack and certify it on the Robustness page (repeatable)
//   --lang de|en                                  the UI language for this session
//   --sweep SWEEP_DIR                             show a sweep folder in the Sweeps page
//   --attention-preset ID                         an Attention Lab lecture preset (implies --page attention)
// Parsed without a QApplication (so --help works without a display).
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace lwb::app {

struct AppOptions {
  QString preset;
  QStringList overrides;  // --set key=value
  bool start = false;
  int processes = 1;  // --processes N: data-parallel ranks for the run panel's next run
  QStringList openRunDirs;
  QString screenshot;
  double screenshotAfter = 5.0;
  QString runsDir;        // --runs-dir: where new runs go (else settings / default)
  QString page;           // --page (implied by --inspect / --compare / --robustness)
  QString inspectFile;    // --inspect FILE
  QStringList compareDirs;  // --compare RUN_DIR... (later positional arguments count too)
  QStringList robustnessTargets;  // --robustness RUN_DIR|CHECKPOINT (repeatable): computed at once
  QString labPreset;        // --lab-preset: a Clip Lab lecture preset (implies --page cliplab)
  QString language;         // --lang: "de" or "en" (empty: View → Language, else the system's)
  QString sweepDir;         // --sweep SWEEP_DIR: a sweep folder shown in the Sweeps page
  QString attentionPreset;  // --attention-preset: an Attention Lab lecture preset (implies --page attention)
};

struct ParsedOptions {
  AppOptions options;
  QString error;        // non-empty: print it (one line) and exit 2
  QString helpText;     // non-empty: print it and exit 0 (--help / --version)
};

// args[0] is the program name, as in QCoreApplication::arguments().
ParsedOptions parseAppOptions(const QStringList& args);

}  // namespace lwb::app
