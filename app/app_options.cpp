#include "app/app_options.h"

#include "app/language.h"
#include "app/pages/page_registry.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTemporaryFile>

#include <cmath>

namespace lwb::app {
namespace {

// Why new run directories could not be made in `dir`, or empty. Checked when options are
// parsed so a scripted `--start --screenshot` fails at once with one line instead of
// meeting a dialog later. Writability is probed by creating a file (permission bits say
// nothing for root or for read-only mounts); a folder that does not exist yet is judged by
// its nearest existing parent, which is where it would be created.
QString runsDirError(const QString& dir) {
  if (dir.isEmpty()) return QStringLiteral("--runs-dir: expected a folder, got an empty name");
  const QFileInfo info(dir);
  if (info.exists() && !info.isDir()) return QStringLiteral("--runs-dir: '%1' is a file, not a folder").arg(dir);
  QString probeDir = info.absoluteFilePath();
  while (!QFileInfo(probeDir).exists()) probeDir = QFileInfo(probeDir).absolutePath();
  if (!QFileInfo(probeDir).isDir())
    return QStringLiteral("--runs-dir: '%1' cannot be created: '%2' is a file").arg(dir, probeDir);
  QTemporaryFile probe(QDir(probeDir).filePath(QStringLiteral(".lwb-write-probe-XXXXXX")));
  if (!probe.open())
    return probeDir == info.absoluteFilePath()
               ? QStringLiteral("--runs-dir: '%1' is not writable").arg(dir)
               : QStringLiteral("--runs-dir: '%1' cannot be created: '%2' is not writable").arg(dir, probeDir);
  return {};
}

// "permission denied" for a folder this user cannot list, else empty: such a folder reads as
// empty, which was reported as "not a run directory" or "no checkpoints" (issue 32).
QString deniedFolder(const QString& flag, const QString& dir) {
  const QFileInfo info(dir);
  if (info.isDir() && (!info.isReadable() || !info.isExecutable()))
    return QStringLiteral("%1: '%2': permission denied (the folder cannot be read)").arg(flag, dir);
  return {};
}

}  // namespace

ParsedOptions parseAppOptions(const QStringList& args) {
  QCommandLineParser p;
  p.setApplicationDescription(QStringLiteral(
      "Lipschitz Workbench: train neural networks with enforced Lipschitz bounds and watch them live.\n"
      "Headless runs (no display): lipschitz-cli train --config FILE.json --out RUN_DIR"));
  const QCommandLineOption help = p.addHelpOption();
  const QCommandLineOption version = p.addVersionOption();
  const QCommandLineOption preset({QStringLiteral("preset")}, QStringLiteral("Load preset ID (resources/presets/ID.json) into the run panel."),
                                  QStringLiteral("ID"));
  const QCommandLineOption set({QStringLiteral("set")}, QStringLiteral("Override a config key of the preset, e.g. --set steps=200 (repeatable)."),
                               QStringLiteral("key=value"));
  const QCommandLineOption start({QStringLiteral("start")}, QStringLiteral("Start the preset at once (needs --preset)."));
  const QCommandLineOption open({QStringLiteral("open")}, QStringLiteral("Open a run directory and follow it live (repeatable)."),
                                QStringLiteral("RUN_DIR"));
  const QCommandLineOption shot({QStringLiteral("screenshot")}, QStringLiteral("Render the window to a PNG file, then exit."),
                                QStringLiteral("FILE.png"));
  const QCommandLineOption after({QStringLiteral("after")}, QStringLiteral("Seconds to wait before --screenshot (default 5)."),
                                 QStringLiteral("SECONDS"));
  const QCommandLineOption runsDir({QStringLiteral("runs-dir")}, QStringLiteral("Folder for new run directories."),
                                   QStringLiteral("DIR"));
  const QCommandLineOption page({QStringLiteral("page")}, QStringLiteral("Show this page first: train, cliplab, inspector, compare, robustness, sweeps or attention."),
                                QStringLiteral("ID"));
  const QCommandLineOption inspect({QStringLiteral("inspect")},
                                   QStringLiteral("Open a .safetensors, .npz, .npy or .pt file, a model folder or a run directory (its checkpoints as a history) in the Checkpoint Inspector."),
                                   QStringLiteral("FILE|DIR"));
  const QCommandLineOption compare({QStringLiteral("compare")},
                                   QStringLiteral("Compare run directories (or folders of them); more may follow as arguments."),
                                   QStringLiteral("RUN_DIR"));
  const QCommandLineOption robustness({QStringLiteral("robustness")},
                                      QStringLiteral("Attack and certify a run directory or checkpoint on the Robustness page (repeatable)."),
                                      QStringLiteral("RUN_DIR"));
  const QCommandLineOption lang({QStringLiteral("lang")},
                                QStringLiteral("UI language for this session: de or en (default: View > Language, else the system's)."),
                                QStringLiteral("LANG"));
  const QCommandLineOption sweepOpt({QStringLiteral("sweep")}, QStringLiteral("Show a sweep folder's points in the Sweeps page."),
                                    QStringLiteral("SWEEP_DIR"));
  const QCommandLineOption labPreset({QStringLiteral("lab-preset")},
                                     QStringLiteral("Open the Clip Lab on this lecture preset (e.g. stiefel_retraction)."),
                                     QStringLiteral("ID"));
  const QCommandLineOption attentionPreset({QStringLiteral("attention-preset")},
                                           QStringLiteral("Open the Attention Lab on this lecture preset (e.g. table1)."),
                                           QStringLiteral("ID"));
  const QCommandLineOption processes({QStringLiteral("processes")},
                                     QStringLiteral("Train --start's run in N local processes (lipschitz-cli train --nproc N; default 1: inside the app)."),
                                     QStringLiteral("N"));
  for (const auto& o : {preset, set, start, open, shot, after, runsDir, page, inspect, compare, robustness, lang, sweepOpt,
                        labPreset, attentionPreset, processes})
    p.addOption(o);

  ParsedOptions out;
  if (!p.parse(args)) {
    out.error = p.errorText();
    return out;
  }
  if (p.isSet(help)) {
    // Parsed before QApplication exists, so Qt cannot know the program's name.
    out.helpText = p.helpText().replace(QLatin1String("<executable_name>"), QStringLiteral("lipschitz-workbench"));
    return out;
  }
  if (p.isSet(version)) {
    out.helpText = QCoreApplication::applicationName() + QLatin1Char(' ') + QCoreApplication::applicationVersion() + QLatin1Char('\n');
    return out;
  }
  if (!p.positionalArguments().isEmpty() && !p.isSet(compare)) {
    out.error = QStringLiteral("unexpected argument '%1' (to open a run directory: --open RUN_DIR)").arg(p.positionalArguments().first());
    return out;
  }
  AppOptions& o = out.options;
  o.preset = p.value(preset);
  o.labPreset = p.value(labPreset);
  o.attentionPreset = p.value(attentionPreset);
  o.overrides = p.values(set);
  o.start = p.isSet(start);
  o.openRunDirs = p.values(open);
  o.screenshot = p.value(shot);
  o.runsDir = p.value(runsDir);
  o.inspectFile = p.value(inspect);
  o.compareDirs = p.values(compare) + p.positionalArguments();
  o.language = p.value(lang);
  o.sweepDir = p.value(sweepOpt);
  o.robustnessTargets = p.values(robustness);
  o.page = p.isSet(page) ? p.value(page) : !o.sweepDir.isEmpty() ? QStringLiteral("sweeps")
                                         : !o.inspectFile.isEmpty() ? QStringLiteral("inspector")
                                         : !o.compareDirs.isEmpty() ? QStringLiteral("compare")
                                         : !o.robustnessTargets.isEmpty() ? QStringLiteral("robustness")
                                         : !o.labPreset.isEmpty()   ? QStringLiteral("cliplab")
                                         : !o.attentionPreset.isEmpty() ? QStringLiteral("attention") : QString();
  if (p.isSet(processes)) {
    bool ok = false;
    o.processes = p.value(processes).toInt(&ok);
    if (!ok || o.processes < 1 || o.processes > 1024) {
      out.error = QStringLiteral("--processes: '%1' is not a process count (1 to 1024)").arg(p.value(processes));
      return out;
    }
  }
  if (o.start && o.preset.isEmpty()) out.error = QStringLiteral("--start needs --preset ID");
  else if (!o.overrides.isEmpty() && o.preset.isEmpty()) out.error = QStringLiteral("--set needs --preset ID");
  for (const QString& a : o.overrides)
    if (out.error.isEmpty() && !a.contains(QLatin1Char('=')))
      out.error = QStringLiteral("--set: expected key=value, got '%1'").arg(a);
  if (out.error.isEmpty() && p.isSet(after)) {
    bool ok = false;
    o.screenshotAfter = p.value(after).toDouble(&ok);
    if (!ok || !std::isfinite(o.screenshotAfter) || o.screenshotAfter < 0 || o.screenshotAfter > 86400)
      out.error = QStringLiteral("--after: expected seconds between 0 and 86400, got '%1'").arg(p.value(after));
    else if (o.screenshot.isEmpty())
      out.error = QStringLiteral("--after needs --screenshot FILE.png");
  }
  if (out.error.isEmpty() && !o.screenshot.isEmpty() && !o.screenshot.endsWith(QLatin1String(".png"), Qt::CaseInsensitive))
    out.error = QStringLiteral("--screenshot: the file name must end in .png, got '%1'").arg(o.screenshot);
  if (out.error.isEmpty() && p.isSet(runsDir)) out.error = runsDirError(o.runsDir);
  for (const QString& dir : o.openRunDirs)
    if (out.error.isEmpty() && !QFileInfo(dir).isDir()) out.error = QStringLiteral("--open: '%1' is not a folder").arg(dir);
    else if (out.error.isEmpty()) out.error = deniedFolder(QStringLiteral("--open"), dir);
  if (out.error.isEmpty() && !o.page.isEmpty() && !pages::pageIds().contains(o.page))
    out.error = QStringLiteral("--page: unknown page '%1' (%2)").arg(o.page, pages::pageIds().join(QStringLiteral(", ")));
  if (out.error.isEmpty() && !o.inspectFile.isEmpty() && !QFileInfo(o.inspectFile).isFile() && !QFileInfo(o.inspectFile).isDir())
    out.error = QStringLiteral("--inspect: '%1' is not a file or folder").arg(o.inspectFile);
  for (const QString& dir : o.compareDirs)
    if (out.error.isEmpty() && !QFileInfo(dir).isDir()) out.error = QStringLiteral("--compare: '%1' is not a folder").arg(dir);
    else if (out.error.isEmpty()) out.error = deniedFolder(QStringLiteral("--compare"), dir);
  if (out.error.isEmpty() && !o.sweepDir.isEmpty() && !QFileInfo(o.sweepDir).isDir())
    out.error = QStringLiteral("--sweep: '%1' is not a folder").arg(o.sweepDir);
  for (const QString& t : o.robustnessTargets) {
    if (out.error.isEmpty() && !QFileInfo::exists(t)) out.error = QStringLiteral("--robustness: '%1' does not exist").arg(t);
    else if (out.error.isEmpty() && QFileInfo(t).isDir()) out.error = deniedFolder(QStringLiteral("--robustness"), t);
    else if (out.error.isEmpty() && !QFileInfo(t).isReadable())
      out.error = QStringLiteral("--robustness: '%1': permission denied").arg(t);
  }
  if (out.error.isEmpty() && p.isSet(lang) && !availableLanguages().contains(o.language))
    out.error = QStringLiteral("--lang: unknown language '%1' (%2)").arg(o.language, availableLanguages().join(QStringLiteral(", ")));
  return out;
}

}  // namespace lwb::app
