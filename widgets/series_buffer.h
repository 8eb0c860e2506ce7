// A bounded (x, y) series for live plots: appends are O(1), the oldest points are dropped
// beyond a capacity, and the x/y ranges are cached (PlotJuggler timeseries.h) so auto-range
// never scans the data unless a dropped point was an extreme.
#pragma once

#include <cstddef>
#include <vector>

namespace lwb::widgets {

struct ValueRange {
  double lower = 0, upper = 0;
  bool valid = false;  // false while the series holds no finite value
};

class SeriesBuffer {
 public:
  // capacity >= 1; 0 is treated as 1.
  explicit SeriesBuffer(std::size_t capacity = 200000);

  void append(double x, double y);
  void clear();
  // Shrinking drops the oldest points.
  void setCapacity(std::size_t capacity);

  std::size_t capacity() const { return capacity_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // i-th point, 0 = oldest kept; i < size().
  double x(std::size_t i) const;
  double y(std::size_t i) const;
  // All kept points, oldest first (replaces the vectors' contents).
  void copyTo(std::vector<double>& xs, std::vector<double>& ys) const;

  // Ranges over finite values only (NaN/inf, e.g. a diverged loss, are kept but ignored).
  ValueRange xRange() const;
  ValueRange yRange() const;
  // Smallest y > 0: what a log axis can show.
  ValueRange positiveYRange() const;

 private:
  void refreshRanges() const;
  std::size_t physical(std::size_t i) const { return (head_ + i) % capacity_; }

  std::size_t capacity_;
  std::size_t head_ = 0, size_ = 0;
  std::vector<double> xs_, ys_;
  mutable ValueRange x_, y_, yPos_;
  mutable bool stale_ = false;  // a dropped point was an extreme: rescan on next query
};

}  // namespace lwb::widgets
