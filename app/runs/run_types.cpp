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

// What each kind of placeholder may match (run_messages.h): a step is digits, a number the
// engine's %g spelling, a name has no spaces; a message is anything, checked afterwards.
QString placeholderPattern(char kind) {
  switch (kind) {
    case 's': return QStringLiteral("(\\d+)");
    case 'n': return QStringLiteral("([-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:e[-+]?\\d+)?|[-+]?inf|nan)");
    case 'w': return QStringLiteral("(\\S+)");
    default: return QStringLiteral("(.+)");
  }
}

// A template's text as an anchored pattern with one typed group per placeholder, in the
// order they appear (which is their number in every template we have).
QRegularExpression templatePattern(const run::MessageTemplate& t) {
  static const QRegularExpression placeholder(QStringLiteral("%[1-9]"));
  QString pattern = QStringLiteral("^");
  const QString text = QString::fromUtf8(t.text);
  qsizetype at = 0;
  for (auto it = placeholder.globalMatch(text); it.hasNext();) {
    const auto m = it.next();
    const int n = text[m.capturedStart() + 1].digitValue();
    pattern += QRegularExpression::escape(text.mid(at, m.capturedStart() - at)) + placeholderPattern(t.kinds[n - 1]);
    at = m.capturedEnd();
  }
  return QRegularExpression(pattern + QRegularExpression::escape(text.mid(at)) + QStringLiteral("$"));
}

// One message that is exactly a template (or a marked string), translated; nullopt otherwise.
std::optional<QString> translateOne(const QString& text) {
  const QByteArray utf8 = text.toUtf8();
  const QString exact = QCoreApplication::translate("RunState", utf8.constData());
  if (exact != text) return exact;
  static const auto patterns = [] {
    std::vector<std::pair<run::MessageTemplate, QRegularExpression>> p;
    for (const run::MessageTemplate& t : run::messageTemplates()) p.emplace_back(t, templatePattern(t));
    return p;
  }();
  for (const auto& [tmpl, pattern] : patterns) {
    const auto m = pattern.match(text);
    if (!m.hasMatch()) continue;
    std::vector<QString> args;
    bool ok = true;
    for (int i = 1; i <= m.lastCapturedIndex() && ok; ++i) {
      const QString arg = m.captured(i);
      const char kind = tmpl.kinds[i - 1];
      if (kind == 'm') {
        // Only a message we know: "%1 at step %2" would otherwise take any "… at step N".
        const auto inner = translateOne(arg);
        ok = inner.has_value();
        if (ok) args.push_back(*inner);
      } else if (kind == 'n') {
        // The engine's digits, the user's decimal mark ("0.378" → "0,378").
        args.push_back(QString(arg).replace(QLatin1Char('.'), QLocale().decimalPoint()));
      } else {
        args.push_back(arg);
      }
    }
    if (!ok) continue;
    // One pass over the translated template (an argument's own "%" is not a placeholder).
    const QString translated = QCoreApplication::translate("RunState", tmpl.text);
    QString out;
    for (qsizetype i = 0; i < translated.size(); ++i) {
      const int n = i + 1 < translated.size() ? translated[i + 1].digitValue() : -1;
      if (translated[i] == QLatin1Char('%') && n >= 1 && n <= static_cast<int>(args.size())) {
        out += args[static_cast<size_t>(n - 1)];
        ++i;
      } else {
        out += translated[i];
      }
    }
    return out;
  }
  return std::nullopt;
}

}  // namespace

QString statusMessageText(const std::string& message) {
  if (message.empty()) return {};
  const QString text = QString::fromStdString(message);
  if (const auto whole = translateOne(text)) return *whole;
  // An end message with notes ("stopped at step 300; at lr 0.5 the soft cap …"): each part.
  QStringList parts = text.split(QStringLiteral("; "));
  if (parts.size() < 2) return text;
  for (QString& part : parts)
    if (const auto t = translateOne(part)) part = *t;
  return parts.join(QStringLiteral("; "));
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
