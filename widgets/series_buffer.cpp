#include "widgets/series_buffer.h"

#include <algorithm>
#include <cmath>

namespace lwb::widgets {

namespace {

void widen(ValueRange& r, double v) {
  if (!std::isfinite(v)) return;
  if (!r.valid) {
    r = {v, v, true};
    return;
  }
  r.lower = std::min(r.lower, v);
  r.upper = std::max(r.upper, v);
}

bool isExtreme(const ValueRange& r, double v) { return r.valid && (v == r.lower || v == r.upper); }

}  // namespace

SeriesBuffer::SeriesBuffer(std::size_t capacity) : capacity_(std::max<std::size_t>(1, capacity)) {}

void SeriesBuffer::append(double x, double y) {
  if (xs_.size() < capacity_) {
    // Grow lazily: a buffer of capacity 10^6 that holds 100 points costs 100 points.
    xs_.push_back(x);
    ys_.push_back(y);
    ++size_;
  } else {
    const double oldX = xs_[head_], oldY = ys_[head_];
    // Dropping an extreme makes the cached range too wide; rescan lazily, once.
    if (isExtreme(x_, oldX) || isExtreme(y_, oldY) || isExtreme(yPos_, oldY)) stale_ = true;
    xs_[head_] = x;
    ys_[head_] = y;
    head_ = (head_ + 1) % capacity_;
  }
  if (!stale_) {
    widen(x_, x);
    widen(y_, y);
    if (y > 0) widen(yPos_, y);
  }
}

void SeriesBuffer::clear() {
  xs_.clear();
  ys_.clear();
  head_ = size_ = 0;
  x_ = y_ = yPos_ = ValueRange{};
  stale_ = false;
}

void SeriesBuffer::setCapacity(std::size_t capacity) {
  capacity = std::max<std::size_t>(1, capacity);
  if (capacity == capacity_) return;
  std::vector<double> xs, ys;
  copyTo(xs, ys);
  const std::size_t drop = xs.size() > capacity ? xs.size() - capacity : 0;
  xs.erase(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(drop));
  ys.erase(ys.begin(), ys.begin() + static_cast<std::ptrdiff_t>(drop));
  xs_ = std::move(xs);
  ys_ = std::move(ys);
  capacity_ = capacity;
  head_ = 0;
  size_ = xs_.size();
  stale_ = true;
}

double SeriesBuffer::x(std::size_t i) const { return xs_[physical(i)]; }
double SeriesBuffer::y(std::size_t i) const { return ys_[physical(i)]; }

void SeriesBuffer::copyTo(std::vector<double>& xs, std::vector<double>& ys) const {
  // Two contiguous pieces of the ring: [head, end) then [0, head). assign/insert, not
  // resize + copy: no zero fill of memory about to be overwritten.
  const auto head = static_cast<std::ptrdiff_t>(head_);
  // Grow geometrically: a series re-copied after every append must not reallocate (and
  // page-fault in) a fresh 10^6-point block each time, which assign() alone would do.
  for (std::vector<double>* v : {&xs, &ys})
    if (v->capacity() < size_) v->reserve(std::max(size_, v->capacity() + v->capacity() / 2));
  xs.assign(xs_.begin() + head, xs_.end());
  xs.insert(xs.end(), xs_.begin(), xs_.begin() + head);
  ys.assign(ys_.begin() + head, ys_.end());
  ys.insert(ys.end(), ys_.begin(), ys_.begin() + head);
}

void SeriesBuffer::refreshRanges() const {
  if (!stale_) return;
  x_ = y_ = yPos_ = ValueRange{};
  for (std::size_t i = 0; i < xs_.size(); ++i) {
    widen(x_, xs_[i]);
    widen(y_, ys_[i]);
    if (ys_[i] > 0) widen(yPos_, ys_[i]);
  }
  stale_ = false;
}

ValueRange SeriesBuffer::xRange() const {
  refreshRanges();
  return x_;
}

ValueRange SeriesBuffer::yRange() const {
  refreshRanges();
  return y_;
}

ValueRange SeriesBuffer::positiveYRange() const {
  refreshRanges();
  return yPos_;
}

}  // namespace lwb::widgets
