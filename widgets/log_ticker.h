// Internal to widgets/. A log-axis ticker that always labels a few ticks: powers of ten
// when the range spans enough decades (10⁻¹, 10⁰, 10¹ …, every k-th decade when there are
// many), else mantissa sets 1-2-5, 1-2-3-5 or 1…9 × 10ᵏ (a loss between 1.5 and 3 gets
// 1.5, 2, 2.5, 3). QCPAxisTickerLog alone shows no label at all on such short ranges.
#pragma once

#include "widgets/qcp.h"

namespace lwb::widgets {

// "10⁻³", "10⁰", "10¹²": a power of ten with its exponent in superscript digits.
QString powerOfTenLabel(int exponent);

class AdaptiveLogTicker : public QCPAxisTicker {
 public:
  void generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision, QVector<double>& ticks,
                QVector<double>* subTicks, QVector<QString>* tickLabels) override;
};

}  // namespace lwb::widgets
