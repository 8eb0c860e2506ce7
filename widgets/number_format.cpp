#include "widgets/number_format.h"

#include "widgets/log_ticker.h"

#include <QLocale>
#include <QRegularExpression>

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

}  // namespace lwb::widgets
