#include "widgets/number_format.h"

#include "widgets/log_ticker.h"

#include <QCoreApplication>
#include <QLocale>
#include <QRegularExpression>

#include <cmath>

namespace lwb::widgets {

QString displayNumber(double v, char format, int precision) {
  QString text = QLocale().toString(v, format, precision);
  // QLocale writes the exponent as e/E, a sign (a locale may use U+2212) and at least two
  // digits: "7,7606E+06".
  static const QRegularExpression exponent(QStringLiteral("[eE]([+\\-\\x{2212}]?)(\\d+)$"));
  const QRegularExpressionMatch m = exponent.match(text);
  if (!m.hasMatch() || m.capturedStart() == 0) return text;
  const bool negative = !m.captured(1).isEmpty() && m.captured(1) != QLatin1String("+");
  const int power = m.captured(2).toInt();
  return text.left(m.capturedStart()) + QStringLiteral("·") + powerOfTenLabel(negative ? -power : power);
}

std::optional<double> readDisplayNumber(const QString& text) {
  QString t = text.trimmed();
  // "7,76·10⁶", "1·10⁻⁵": the mantissa in the locale, the power as superscript digits.
  if (const qsizetype dot = t.indexOf(QStringLiteral("·10")); dot > 0) {
    static const QString digits = QStringLiteral("⁰¹²³⁴⁵⁶⁷⁸⁹");
    QString power;
    for (const QChar c : t.mid(dot + 3)) {
      if (c == QChar(0x207B)) power += QLatin1Char('-');  // superscript minus
      else if (const qsizetype d = digits.indexOf(c); d >= 0) power += QChar(u'0' + static_cast<char16_t>(d));
      else return std::nullopt;
    }
    bool mantissaOk = false, powerOk = false;
    const double mantissa = QLocale().toDouble(t.left(dot), &mantissaOk);
    const int exponent = power.toInt(&powerOk);
    return mantissaOk && powerOk ? std::optional<double>(mantissa * std::pow(10.0, exponent)) : std::nullopt;
  }
  bool ok = false;
  const double v = QLocale().toDouble(t, &ok);
  return ok ? std::optional<double>(v) : std::nullopt;
}

QString bytesText(qint64 bytes) {
  if (bytes < 0) return QCoreApplication::translate("Numbers", "unknown");
  return QLocale().formattedDataSize(bytes, bytes < 1024 ? 0 : 1, QLocale::DataSizeIecFormat);
}

}  // namespace lwb::widgets
