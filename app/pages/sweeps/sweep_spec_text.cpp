#include "app/pages/sweeps/sweep_spec_text.h"

#include "io/json_read.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStringList>

// A global context so that lupdate and the runtime agree on the name (a tr() helper inside the
// namespace was extracted under "lwb::app::pages" but looked up under another context).
struct SweepSpecText {
  Q_DECLARE_TR_FUNCTIONS(SweepSpecText)
};

namespace lwb::app::pages {

std::optional<nlohmann::json> parseGridValues(const QString& text, QString* error) {
  const QString t = text.trimmed();
  if (t.isEmpty()) {
    if (error) *error = SweepSpecText::tr("no values");
    return std::nullopt;
  }
  static const QRegularExpression range(
      QStringLiteral(R"(^([-+0-9.eE]+)\s*\.\.\s*([-+0-9.eE]+)\s*[x×]\s*(\d+)\s*(log|lin)?$)"));
  if (const auto m = range.match(t); m.hasMatch()) {
    bool okA = false, okB = false;
    const double a = m.captured(1).toDouble(&okA), b = m.captured(2).toDouble(&okB);
    if (!okA || !okB) {
      if (error) *error = SweepSpecText::tr("'%1': a range is FROM..TO xCOUNT [log]").arg(t);
      return std::nullopt;
    }
    return nlohmann::json{{"from", a}, {"to", b}, {"count", m.captured(3).toLongLong()},
                          {"scale", m.captured(4) == QLatin1String("log") ? "log" : "linear"}};
  }
  nlohmann::json list = nlohmann::json::array();
  for (const QString& part : t.split(QLatin1Char(','))) {
    const std::string s = part.trimmed().toStdString();
    if (s.empty()) {
      if (error) *error = SweepSpecText::tr("'%1': an empty value between commas").arg(t);
      return std::nullopt;
    }
    auto v = jsonio::tryParse(s);
    list.push_back(v ? std::move(*v) : nlohmann::json(s));
  }
  return list;
}

std::optional<nlohmann::json> parseSeeds(const QString& text, QString* error) {
  const QString t = text.trimmed();
  if (t.isEmpty()) return nlohmann::json();  // the preset's own seed
  static const QRegularExpression span(QStringLiteral(R"(^(\d+)\s*\.\.\s*(\d+)$)"));
  nlohmann::json seeds = nlohmann::json::array();
  if (const auto m = span.match(t); m.hasMatch()) {
    const qlonglong a = m.captured(1).toLongLong(), b = m.captured(2).toLongLong();
    if (b < a || b - a >= 1000) {
      if (error) *error = SweepSpecText::tr("seeds '%1': FROM..TO with FROM ≤ TO, at most 1000 seeds").arg(t);
      return std::nullopt;
    }
    for (qlonglong s = a; s <= b; ++s) seeds.push_back(s);
    return seeds;
  }
  for (const QString& part : t.split(QLatin1Char(','))) {
    bool ok = false;
    const qulonglong s = part.trimmed().toULongLong(&ok);
    if (!ok) {
      if (error) *error = SweepSpecText::tr("seeds: '%1' is not an integer ≥ 0").arg(part.trimmed());
      return std::nullopt;
    }
    seeds.push_back(s);
  }
  return seeds;
}

}  // namespace lwb::app::pages
