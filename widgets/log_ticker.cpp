#include "widgets/log_ticker.h"

#include <QString>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace lwb::widgets {

namespace {

constexpr int kMinTicks = 3, kMinMantissaTicks = 4, kMaxTicks = 10;

QVector<double> ticksFrom(const QVector<double>& mantissas, const QCPRange& range) {
  QVector<double> out;
  const int k0 = static_cast<int>(std::floor(std::log10(range.lower))) - 1;
  const int k1 = static_cast<int>(std::ceil(std::log10(range.upper))) + 1;
  for (int k = k0; k <= k1; ++k)
    for (double m : mantissas) {
      const double v = m * std::pow(10.0, k);
      if (v >= range.lower * (1 - 1e-12) && v <= range.upper * (1 + 1e-12)) out << v;
    }
  return out;
}

// Significant digits that label every tick differently: enough for the smallest step
// between neighbours at the magnitude of the largest tick, at least 4, at most 15.
int distinctDigits(const QVector<double>& ticks) {
  double step = std::numeric_limits<double>::infinity(), top = 0;
  for (qsizetype i = 0; i < ticks.size(); ++i) {
    top = std::max(top, std::abs(ticks[i]));
    if (i > 0 && ticks[i] > ticks[i - 1]) step = std::min(step, ticks[i] - ticks[i - 1]);
  }
  if (!std::isfinite(step) || !(top > 0)) return 4;
  return std::clamp(static_cast<int>(std::ceil(std::log10(top / step))) + 1, 4, 15);
}

}  // namespace

QString powerOfTenLabel(int exponent) {
  // Written out, not left to QCustomPlot's "b" number format: that one looks for a lower-case
  // 'e' in the locale's text, and a German locale writes "1E+00" (issue 32).
  static const QString digits = QStringLiteral("⁰¹²³⁴⁵⁶⁷⁸⁹");
  QString out = QStringLiteral("10");
  if (exponent < 0) out += QStringLiteral("⁻");
  for (const QChar c : QString::number(std::abs(exponent))) out += digits.at(c.digitValue());
  return out;
}

void AdaptiveLogTicker::generate(const QCPRange& range, const QLocale& locale, QChar /*formatChar*/, int /*precision*/,
                                 QVector<double>& ticks, QVector<double>* subTicks, QVector<QString>* tickLabels) {
  ticks.clear();
  if (subTicks) subTicks->clear();
  if (tickLabels) tickLabels->clear();
  if (!(range.lower > 0) || !(range.upper > range.lower) || !std::isfinite(range.upper)) return;

  const double decades = std::log10(range.upper / range.lower);
  bool powers = false;
  if (decades >= kMinTicks - 1) {
    // Every k-th power of ten, k chosen so at most kMaxTicks labels appear.
    const int every = std::max(1, static_cast<int>(std::ceil((decades + 1) / kMaxTicks)));
    const int k0 = static_cast<int>(std::ceil(std::log10(range.lower) - 1e-9));
    const int k1 = static_cast<int>(std::floor(std::log10(range.upper) + 1e-9));
    // Counted down from the top decade: the largest values, usually the ones read, are
    // within a decade of a label (counted from 10⁰, a range 10⁻¹⁰ … 0.5 labelled every other
    // decade stopped at 10⁻², under a curve at 0.3; the Clip Lab's Stiefel tab).
    for (int k = k0; k <= k1; ++k)
      if ((k1 - k) % every == 0) ticks << std::pow(10.0, k);
    powers = ticks.size() >= kMinTicks;
    if (powers && subTicks && every == 1)
      for (double v : ticksFrom({2, 3, 4, 5, 6, 7, 8, 9}, range)) *subTicks << v;
  }
  if (!powers) {
    // A short axis asks for fewer ticks (PlotView sets tickCount() from the rect's height):
    // the coarsest set that gives that many, so labels never stand in each other's lines.
    const int wanted = std::clamp(tickCount(), 2, kMinMantissaTicks);
    // The 1…9 set crowds its ticks where the mantissa is large (25, 30, 40 within 10 px on a
    // 40-px axis): a short axis goes to the linear ticks below instead.
    const std::vector<QVector<double>> sets{QVector<double>{1, 2, 5}, QVector<double>{1, 1.5, 2, 3, 5, 7},
                                            QVector<double>{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9}};
    for (std::size_t i = 0; i < (wanted < kMinMantissaTicks ? 2 : sets.size()); ++i) {
      ticks = ticksFrom(sets[i], range);
      if (ticks.size() >= wanted) break;
    }
    // Still more than a short axis holds (5, 10, 20 on 38 px): every other one, ends kept.
    if (wanted < kMinMantissaTicks)
      while (ticks.size() > wanted) {
        QVector<double> thinned;
        for (qsizetype i = 0; i < ticks.size(); i += 2) thinned << ticks[i];
        if (ticks.size() % 2 == 0) thinned << ticks.back();
        ticks = thinned;
      }
    if (ticks.size() < wanted) {
      // A few percent of range: plain linear ticks read best, with as many digits as the
      // step needs to tell neighbours apart (issue 32: σ ∈ [1 − 2·10⁻⁷, 1] read "1" on every
      // tick at 4 significant digits).
      QCPAxisTicker::generate(range, locale, QLatin1Char('g'), 4, ticks, subTicks, nullptr);
      if (tickLabels)
        for (double t : ticks) *tickLabels << getTickLabel(t, locale, QLatin1Char('g'), distinctDigits(ticks));
      return;
    }
  }
  if (!tickLabels) return;
  for (double t : ticks)
    // Powers as 10ᵏ in every language; mantissa ticks as plain numbers in the locale's own
    // decimal separator.
    *tickLabels << (powers ? powerOfTenLabel(static_cast<int>(std::lround(std::log10(t))))
                           : getTickLabel(t, locale, QLatin1Char('g'), 4));
}

}  // namespace lwb::widgets
