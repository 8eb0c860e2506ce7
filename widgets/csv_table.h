// The text a plot's "Export data as CSV" writes (RFC 4180: comma separated, fields with a
// comma, quote or newline quoted, "\n" line ends), plus the wide step table most plots use.
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

#include <vector>

namespace lwb::widgets {

struct CsvTable {
  QStringList header;
  QVector<QStringList> rows;
};

// One named (x, y) series.
struct CsvSeries {
  QString name;
  std::vector<double> xs, ys;
};

// Shortest text that reads back as the same double: fixed notation for 1e-4 <= |v| < 1e15
// ("0.1", "448", "100000"), scientific outside ("1e-05"); NaN/inf -> "".
QString csvNumber(double v);

// Header "<xName>,<series names…>"; one row per distinct x (ascending, over all series);
// a cell is empty where a series has no point at that x.
CsvTable wideTable(const QString& xName, const std::vector<CsvSeries>& series);

QString toCsvText(const CsvTable& table);

}  // namespace lwb::widgets
