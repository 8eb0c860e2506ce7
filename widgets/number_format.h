// Numbers shown to the user (labels, tables, tooltips, the status bar, legends) use the
// default QLocale: a German UI shows 0,25. Files, JSON, CSV and config values never go through
// here (csv_table.h writes the C locale; the run form's fields are C-locale config text).
// This is the one function for a number on screen (issue 32 §4): a German screen mixed
// "7,7606E+06" beside "0.9838" while some texts formatted with %1 and others with %L1.
#pragma once

#include <QString>

#include <optional>

namespace lwb::widgets {

// QLocale().toString(v, format, precision), with an exponent written as ·10ⁿ (7,76·10⁶,
// 1.5·10⁻³) instead of the locale's "E+06": the same in every language, as on the log axes.
QString displayNumber(double v, char format = 'g', int precision = 6);

// The number displayNumber wrote (its ·10ⁿ and the locale's decimal mark read back); nullopt
// for other text. For values shown and sorted by their text (Compare's colour groups).
std::optional<double> readDisplayNumber(const QString& text);

// A byte count as the locale writes it, in binary units: "243.6 MiB", "243,6 MiB" in German
// (the engine's formatBytes is for the CLI); "unknown" (translated) for a negative count.
QString bytesText(qint64 bytes);

}  // namespace lwb::widgets
