// Numbers shown to the user (labels, tables, tooltips, the status bar, legends) use the
// default QLocale: a German UI shows 0,25. Files, JSON, CSV and config values never go through
// here (csv_table.h writes the C locale; the run form's fields are C-locale config text).
#pragma once

#include <QLocale>
#include <QString>

namespace lwb::widgets {

inline QString displayNumber(double v, char format = 'g', int precision = 6) { return QLocale().toString(v, format, precision); }

}  // namespace lwb::widgets
