#include "app/app_options.h"

#include "app/language.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTemporaryFile>

#include <cmath>

namespace lwb::app {
namespace {

// "permission denied" for a folder this user cannot list, else empty: such a folder reads as
// empty, which was reported as "not a run directory" or "no checkpoints" (issue 32).
QString deniedFolder(const QString& flag, const QString& dir) {
  const QFileInfo info(dir);
  if (info.isDir() && (!info.isReadable() || !info.isExecutable()))
    return QStringLiteral("%1: '%2': permission denied (the folder cannot be read)").arg(flag, dir);
  return {};
}

// The window's own options; the pages' come from their rows.
struct WindowOptions {
  QCommandLineOption open{QStringLiteral("open"), QStringLiteral("Open a run directory and follow it live (repeatable)."),
                          QStringLiteral("RUN_DIR")};
  QCommandLineOption shot{QStringLiteral("screenshot"), QStringLiteral("Render the window to a PNG file, then exit."),
                          QStringLiteral("FILE.png")};
  QCommandLineOption after{QStringLiteral("after"), QStringLiteral("Seconds to wait before --screenshot (default 5)."),
                           QStringLiteral("SECONDS")};
  QCommandLineOption runsDir{QStringLiteral("runs-dir"), QStringLiteral("Folder for new run directories."), QStringLiteral("DIR")};
  QCommandLineOption page;
  QCommandLineOption lang{QStringLiteral("lang"),
                          QStringLiteral("UI language for this session: de or en (default: View > Language, else the system's)."),
                          QStringLiteral("LANG")};

  explicit WindowOptions(const QStringList& pageIds)
      : page(QStringLiteral("page"), QStringLiteral("Show this page first: %1.").arg(pageIds.join(QStringLiteral(", "))),
             QStringLiteral("ID")) {}
};

QStringList idsOf(std::span<const PageRow> pages) {
  QStringList ids;
  for (const PageRow& row : pages) ids << QString::fromLatin1(row.id);
  return ids;
}

QCommandLineOption toQt(const PageOption& o) {
  const QString name = QString::fromLatin1(o.name);
  if (*o.valueName == '\0') return QCommandLineOption(name, QString::fromUtf8(o.help));
  return QCommandLineOption(name, QString::fromUtf8(o.help), QString::fromLatin1(o.valueName));
}

// Why `value` fails the option's check, or empty.
QString checkValue(const PageOption& o, const QString& value) {
  const QString flag = QStringLiteral("--") + QString::fromLatin1(o.name);
  const QFileInfo info(value);
  switch (o.check) {
    case OptionCheck::None: return {};
    case OptionCheck::Folder:
      // A missing path is not "not a folder" (a newcomer's trial).
      if (!info.exists()) return QStringLiteral("%1: '%2' does not exist").arg(flag, value);
      if (!info.isDir()) return QStringLiteral("%1: '%2' is not a folder").arg(flag, value);
      return deniedFolder(flag, value);
    case OptionCheck::FileOrFolder:
      if (!info.exists()) return QStringLiteral("%1: '%2' does not exist").arg(flag, value);
      if (!info.isFile() && !info.isDir()) return QStringLiteral("%1: '%2' is not a file or folder").arg(flag, value);
      return {};
    case OptionCheck::Readable:
      if (!QFileInfo::exists(value)) return QStringLiteral("%1: '%2' does not exist").arg(flag, value);
      if (info.isDir()) return deniedFolder(flag, value);
      if (!info.isReadable()) return QStringLiteral("%1: '%2': permission denied").arg(flag, value);
      return {};
  }
  return {};
}

// Stores a page option's value(s) in `o`; an error for a value its check refuses.
QString takePageOption(const QCommandLineParser& p, const PageOption& opt, AppOptions& o) {
  const QString name = QString::fromLatin1(opt.name);
  QStringList values = p.values(name);
  if (opt.takesArguments) values += p.positionalArguments();
  if (const auto* flag = std::get_if<bool AppOptions::*>(&opt.target)) o.*(*flag) = p.isSet(name);
  if (values.isEmpty()) return {};
  if (const auto* one = std::get_if<QString AppOptions::*>(&opt.target)) o.*(*one) = values.last();
  if (const auto* many = std::get_if<QStringList AppOptions::*>(&opt.target)) o.*(*many) = values;
  if (const auto* number = std::get_if<int AppOptions::*>(&opt.target)) {
    bool ok = false;
    const int n = values.last().toInt(&ok);
    if (!ok || n < opt.min || n > opt.max)
      return QStringLiteral("--%1: '%2' is not %3 (%4 to %5)").arg(name, values.last(), QString::fromLatin1(opt.what)).arg(opt.min).arg(opt.max);
    o.*(*number) = n;
  }
  for (const QString& v : values)
    if (const QString e = checkValue(opt, v); !e.isEmpty()) return e;
  return {};
}

// The pages' options into `o`, and the page the first implying one names (in table order).
QString takePageOptions(const QCommandLineParser& p, std::span<const PageRow> pages, AppOptions& o) {
  QString error;
  for (const PageRow& row : pages)
    for (const PageOption& opt : row.options) {
      const bool given = p.isSet(QString::fromLatin1(opt.name)) || (opt.takesArguments && !p.positionalArguments().isEmpty());
      if (given && opt.impliesPage && o.page.isEmpty()) o.page = QString::fromLatin1(row.id);
      if (const QString e = takePageOption(p, opt, o); error.isEmpty()) error = e;
    }
  return error;
}

bool anyTakesArguments(const QCommandLineParser& p, std::span<const PageRow> pages) {
  for (const PageRow& row : pages)
    for (const PageOption& opt : row.options)
      if (opt.takesArguments && p.isSet(QString::fromLatin1(opt.name))) return true;
  return false;
}

// Options that need another: --start and --set need --preset, --after needs --screenshot.
QString crossChecks(const QCommandLineParser& p, const WindowOptions& w, AppOptions& o) {
  if (o.start && o.preset.isEmpty()) return QStringLiteral("--start needs --preset ID");
  if (!o.overrides.isEmpty() && o.preset.isEmpty()) return QStringLiteral("--set needs --preset ID");
  for (const QString& a : o.overrides)
    if (!a.contains(QLatin1Char('='))) return QStringLiteral("--set: expected key=value, got '%1'").arg(a);
  if (p.isSet(w.after)) {
    bool ok = false;
    o.screenshotAfter = p.value(w.after).toDouble(&ok);
    if (!ok || !std::isfinite(o.screenshotAfter) || o.screenshotAfter < 0 || o.screenshotAfter > 86400)
      return QStringLiteral("--after: expected seconds between 0 and 86400, got '%1'").arg(p.value(w.after));
    if (o.screenshot.isEmpty()) return QStringLiteral("--after needs --screenshot FILE.png");
  }
  return {};
}

// The window's options into `o`, checked.
QString takeWindowOptions(const QCommandLineParser& p, const WindowOptions& w, const QStringList& pageIds, AppOptions& o) {
  o.openRunDirs = p.values(w.open);
  o.screenshot = p.value(w.shot);
  o.runsDir = p.value(w.runsDir);
  o.language = p.value(w.lang);
  if (p.isSet(w.page)) o.page = p.value(w.page);
  if (!o.screenshot.isEmpty() && !o.screenshot.endsWith(QLatin1String(".png"), Qt::CaseInsensitive))
    return QStringLiteral("--screenshot: the file name must end in .png, got '%1'").arg(o.screenshot);
  if (p.isSet(w.runsDir))
    if (const QString e = runsFolderError(o.runsDir); !e.isEmpty()) return QStringLiteral("--runs-dir: ") + e;
  for (const QString& dir : o.openRunDirs) {
    if (!QFileInfo::exists(dir)) return QStringLiteral("--open: '%1' does not exist").arg(dir);
    if (!QFileInfo(dir).isDir()) return QStringLiteral("--open: '%1' is not a folder").arg(dir);
    if (const QString e = deniedFolder(QStringLiteral("--open"), dir); !e.isEmpty()) return e;
  }
  if (!o.page.isEmpty() && !pageIds.contains(o.page))
    return QStringLiteral("--page: unknown page '%1' (%2)").arg(o.page, pageIds.join(QStringLiteral(", ")));
  if (p.isSet(w.lang) && !availableLanguages().contains(o.language))
    return QStringLiteral("--lang: unknown language '%1' (%2)").arg(o.language, availableLanguages().join(QStringLiteral(", ")));
  return {};
}

}  // namespace

ParsedOptions parseAppOptions(const QStringList& args, std::span<const PageRow> pages) {
  QCommandLineParser p;
  p.setApplicationDescription(QStringLiteral(
      "Lipschitz Workbench: train neural networks with enforced Lipschitz bounds and watch them live.\n"
      "Headless runs (no display): lipschitz-cli train --config FILE.json --out RUN_DIR"));
  const QCommandLineOption help = p.addHelpOption();
  const QCommandLineOption version = p.addVersionOption();
  const QStringList pageIds = idsOf(pages);
  const WindowOptions w(pageIds);
  for (const auto& o : {w.open, w.shot, w.after, w.runsDir, w.page, w.lang}) p.addOption(o);
  for (const PageRow& row : pages)
    for (const PageOption& opt : row.options) p.addOption(toQt(opt));

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
  if (!p.positionalArguments().isEmpty() && !anyTakesArguments(p, pages)) {
    out.error = QStringLiteral("unexpected argument '%1' (to open a run directory: --open RUN_DIR)").arg(p.positionalArguments().first());
    return out;
  }
  // --page wins over the page an option implies, so the window's options are taken first.
  const QString windowError = takeWindowOptions(p, w, pageIds, out.options);
  const QString pageError = takePageOptions(p, pages, out.options);
  const QString crossError = crossChecks(p, w, out.options);
  out.error = !crossError.isEmpty() ? crossError : !windowError.isEmpty() ? windowError : pageError;
  return out;
}

// Why new run directories could not be made in `dir`, or empty. Checked when options are
// parsed so a scripted `--start --screenshot` fails at once with one line instead of
// meeting a dialog later. Writability is probed by creating a file (permission bits say
// nothing for root or for read-only mounts); a folder that does not exist yet is judged by
// its nearest existing parent, which is where it would be created.
QString runsFolderError(const QString& dir) {
  if (dir.isEmpty()) return QStringLiteral("expected a folder, got an empty name");
  const QFileInfo info(dir);
  if (info.exists() && !info.isDir()) return QStringLiteral("'%1' is a file, not a folder").arg(dir);
  QString probeDir = info.absoluteFilePath();
  while (!QFileInfo(probeDir).exists()) probeDir = QFileInfo(probeDir).absolutePath();
  if (!QFileInfo(probeDir).isDir())
    return QStringLiteral("'%1' cannot be created: '%2' is a file").arg(dir, probeDir);
  QTemporaryFile probe(QDir(probeDir).filePath(QStringLiteral(".lwb-write-probe-XXXXXX")));
  if (!probe.open())
    return probeDir == info.absoluteFilePath()
               ? QStringLiteral("'%1' is not writable").arg(dir)
               : QStringLiteral("'%1' cannot be created: '%2' is not writable").arg(dir, probeDir);
  return {};
}

}  // namespace lwb::app
