#include "app/runs/run_types.h"

#include "common/run_messages.h"

#include <QCoreApplication>
#include <QLocale>
#include <QRegularExpression>

#include <optional>

namespace lwb::app {

namespace {

// Each session state once: the engine status it stands for (whose word run/run_status.h
// spells and marks for translation), or its own word where only a live session has it.
struct RunStateRow {
  RunState state;
  std::optional<run::RunStatus> status;
  const char* ownWord;  // session-only states
  bool active;          // the session still has a run going (or being followed)
};
using S = run::RunStatus;
const RunStateRow kRows[] = {
    {RunState::Starting, std::nullopt, QT_TRANSLATE_NOOP("RunState", "starting"), true},
    {RunState::Running, S::Running, nullptr, true},
    {RunState::Paused, std::nullopt, QT_TRANSLATE_NOOP("RunState", "paused"), true},
    {RunState::Stopping, std::nullopt, QT_TRANSLATE_NOOP("RunState", "stopping"), true},
    {RunState::Finished, S::Finished, nullptr, false},
    {RunState::Diverged, S::Diverged, nullptr, false},
    {RunState::Stopped, S::Stopped, nullptr, false},
    {RunState::Failed, S::Failed, nullptr, false},
    {RunState::Following, std::nullopt, QT_TRANSLATE_NOOP("RunState", "following"), true},
};

const RunStateRow& row(RunState s) {
  for (const RunStateRow& r : kRows)
    if (r.state == s) return r;
  return kRows[static_cast<size_t>(RunState::Failed)];
}

// Words shown beside the engine's: a run whose status cannot be read, and a Slurm task's wait.
const char* const kUnknownWord = QT_TRANSLATE_NOOP("RunState", "unknown");
const char* const kQueuedWord = QT_TRANSLATE_NOOP("RunState", "queued");

}  // namespace

QString toDisplayString(RunState s) {
  const RunStateRow& r = row(s);
  return QCoreApplication::translate("RunState", r.status ? run::toString(*r.status) : r.ownWord);
}

QString toDisplayString(run::RunStatus s) { return QCoreApplication::translate("RunState", run::toString(s)); }

QString statusWord(const QString& word) {
  (void)kQueuedWord;
  return QCoreApplication::translate("RunState", word.toUtf8().constData());
}

namespace {

// A template's text as an anchored pattern, %n a lazy group (the n-th capture in the order
// the placeholders appear, which is how Qt's arg() numbers them in every template we have).
QRegularExpression templatePattern(const char* tmpl) {
  static const QRegularExpression placeholder(QStringLiteral("%[1-9]"));
  QString pattern = QStringLiteral("^");
  const QString t = QString::fromUtf8(tmpl);
  qsizetype at = 0;
  for (auto it = placeholder.globalMatch(t); it.hasNext();) {
    const auto m = it.next();
    pattern += QRegularExpression::escape(t.mid(at, m.capturedStart() - at)) + QStringLiteral("(.+?)");
    at = m.capturedEnd();
  }
  return QRegularExpression(pattern + QRegularExpression::escape(t.mid(at)) + QStringLiteral("$"));
}

// A number in the engine's C-locale spelling gets the user's decimal mark; anything else is
// a message of its own (kMsgAtStep's %1) or a name, translated or kept.
QString messageArgument(const QString& arg) {
  bool isNumber = false;
  const double v = QLocale::c().toDouble(arg, &isNumber);
  QLocale user;
  user.setNumberOptions(QLocale::OmitGroupSeparator);  // "step 12000", as the engine wrote it
  if (isNumber && !arg.contains(QLatin1Char('e'))) {
    const qsizetype dot = arg.indexOf(QLatin1Char('.'));
    return user.toString(v, 'f', dot < 0 ? 0 : static_cast<int>(arg.size() - dot - 1));
  }
  if (isNumber) return user.toString(v, 'g', 6);
  return statusMessageText(arg.toStdString());
}

}  // namespace

QString statusMessageText(const std::string& message) {
  if (message.empty()) return {};
  const QString text = QString::fromStdString(message);
  const QString exact = QCoreApplication::translate("RunState", message.c_str());
  if (exact != text) return exact;
  // Messages with numbers: the engine's templates (common/run_messages.h), most specific first.
  static const auto patterns = [] {
    std::vector<std::pair<const char*, QRegularExpression>> p;
    for (const char* t : run::messageTemplates()) p.emplace_back(t, templatePattern(t));
    return p;
  }();
  for (const auto& [tmpl, pattern] : patterns) {
    const auto m = pattern.match(text);
    if (!m.hasMatch()) continue;
    // One pass over the translated template (an argument's own "%" is not a placeholder).
    const QString translated = QCoreApplication::translate("RunState", tmpl);
    QString out;
    for (qsizetype i = 0; i < translated.size(); ++i) {
      const QChar c = translated[i];
      const int n = i + 1 < translated.size() ? translated[i + 1].digitValue() : -1;
      if (c == QLatin1Char('%') && n >= 1 && n <= m.lastCapturedIndex()) {
        out += messageArgument(m.captured(n));
        ++i;
      } else {
        out += c;
      }
    }
    return out;
  }
  return text;
}

QString unknownStatusWord() { return QString::fromLatin1(kUnknownWord); }

QString attentionCertificateText(const QString& id) {
  if (id == QLatin1String("converged")) return QCoreApplication::translate("AttentionCertificate", "converged");
  if (id == QLatin1String("certified_step")) return QCoreApplication::translate("AttentionCertificate", "certified step");
  if (id == QLatin1String("none")) return QCoreApplication::translate("AttentionCertificate", "not certified");
  return id;
}

bool isActive(RunState s) { return row(s).active; }

RunState runState(run::RunStatus s) {
  for (const RunStateRow& r : kRows)
    if (r.status == s) return r.state;
  return RunState::Starting;  // Pending: not started
}

}  // namespace lwb::app
