// Per-pixel-column min/max decimation (LabPlot XYCurve): a line through 10^6 points drawn
// in 800 pixel columns looks identical when each column keeps only its lowest and highest
// point, because every vertical stroke inside a column is covered by min..max.
#pragma once

#include <cstddef>
#include <vector>

namespace lwb::widgets {

struct XYData {
  std::vector<double> xs, ys;
};

// Input: xs ascending (as steps are), ys the same length. The visible x interval
// [xLower, xUpper] is split into `columns` equal-width columns (equal in log10 x when
// logX; points with x <= 0 are then skipped). Each column keeps its min-y and max-y point,
// in x order (one point when they coincide); non-finite y values are never an extreme.
// The last point before xLower and the first after xUpper are kept so lines enter and
// leave the view correctly. Result size <= 2 * columns + 2.
// Returns the input unchanged when it has <= 2 * columns + 2 points, when columns == 0,
// when xLower >= xUpper, or when xs is not ascending.
XYData decimateMinMax(const std::vector<double>& xs, const std::vector<double>& ys, double xLower,
                      double xUpper, std::size_t columns, bool logX = false);

}  // namespace lwb::widgets
