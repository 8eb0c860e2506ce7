#include "widgets/csv_table.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

namespace lwb::widgets {

QString csvNumber(double v) {
  if (!std::isfinite(v)) return QString();
  char buf[400];
  // Shortest text that reads back as the same double; plain digits ("100000", "0.0125")
  // in the everyday range, exponents ("1e-05", "3.3895313892515355e+38") outside it.
  const double a = std::abs(v);
  const auto format = a == 0 || (a >= 1e-4 && a < 1e15) ? std::chars_format::fixed : std::chars_format::scientific;
  const auto result = std::to_chars(buf, buf + sizeof buf, v, format);
  return QString::fromLatin1(buf, static_cast<int>(result.ptr - buf));
}

CsvTable wideTable(const QString& xName, const std::vector<CsvSeries>& series) {
  CsvTable table;
  table.header << xName;
  // x -> one cell per series; std::map orders rows by x.
  std::map<double, QStringList> rows;
  const int columns = static_cast<int>(series.size());
  for (int s = 0; s < columns; ++s) {
    const CsvSeries& cs = series[static_cast<std::size_t>(s)];
    table.header << cs.name;
    const std::size_t n = std::min(cs.xs.size(), cs.ys.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (std::isnan(cs.xs[i])) continue;
      auto [it, inserted] = rows.try_emplace(cs.xs[i]);
      if (inserted) {
        for (int c = 0; c < columns; ++c) it->second << QString();
      }
      it->second[s] = csvNumber(cs.ys[i]);
    }
  }
  for (auto& [x, cells] : rows) {
    QStringList row;
    row << csvNumber(x) << cells;
    table.rows << row;
  }
  return table;
}

namespace {

QString field(const QString& s) {
  if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n')) &&
      !s.contains(QLatin1Char('\r')))
    return s;
  QString quoted = s;
  quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
  return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString line(const QStringList& cells) {
  QStringList out;
  out.reserve(cells.size());
  for (const QString& c : cells) out << field(c);
  return out.join(QLatin1Char(',')) + QLatin1Char('\n');
}

}  // namespace

QString toCsvText(const CsvTable& table) {
  QString text = line(table.header);
  for (const QStringList& row : table.rows) text += line(row);
  return text;
}

}  // namespace lwb::widgets
