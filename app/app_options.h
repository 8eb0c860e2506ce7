// Command-line options of lipschitz-workbench, for demos, tests and screenshots. The window's
// own (--open, --screenshot/--after, --runs-dir, --page, --lang) are written here; each
// page's (--preset …, --inspect, --compare, --sweep …) come from its row of the page table
// (app/pages/page_registry.cpp), which the caller hands in, so this file knows no page.
// Parsed without a QApplication (so --help works without a display).
#pragma once

#include <QString>
#include <QStringList>

class QWidget;

#include <span>
#include <variant>

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

class Page;
struct PageServices;

// What a page's command-line option checks about its value before any window exists.
enum class OptionCheck {
  None,
  Folder,        // an existing folder this user can list
  FileOrFolder,  // an existing file or folder
  Readable,      // exists and can be read (a folder: listed)
};

// One command-line option a page takes: its name without "--", the value's name in --help
// (empty: a flag), the help line, where the value goes, and what is checked. An int target
// takes a value in [min, max], described as `what` in its error.
struct PageOption {
  const char* name;
  const char* valueName;
  const char* help;
  std::variant<bool AppOptions::*, int AppOptions::*, QString AppOptions::*, QStringList AppOptions::*> target;
  OptionCheck check = OptionCheck::None;
  bool impliesPage = false;  // given without --page, it shows this page
  int min = 0, max = 0;
  const char* what = "";
  bool takesArguments = false;  // later positional arguments are more values of it (--compare)
};

// A page's identity, one row per page in View-menu order (app/pages/page_registry.cpp):
// its id (--page, settings keys), how it is built, its options and its Ctrl+digit shortcut.
struct PageRow {
  const char* id;
  Page* (*create)(const PageServices& services, QWidget* parent);
  std::span<const PageOption> options;
  int ctrlDigit;  // Ctrl+1 … Ctrl+7
};

struct ParsedOptions {
  AppOptions options;
  QString error;        // non-empty: print it (one line) and exit 2
  QString helpText;     // non-empty: print it and exit 0 (--help / --version)
};

// args[0] is the program name, as in QCoreApplication::arguments(); `pages` is the page table
// (pages::pageTable()): its ids for --page, its options, the page they imply.
ParsedOptions parseAppOptions(const QStringList& args, std::span<const PageRow> pages);

// Why new run directories could not be made in `dir` ("'X' is a file, not a folder"), or
// empty: for --runs-dir, and for a runs folder from the settings when a run starts.
QString runsFolderError(const QString& dir);

}  // namespace lwb::app
