#include "widgets/flow_layout.h"

#include <QStyle>
#include <QWidget>

#include <algorithm>

namespace lwb::widgets {

FlowLayout::FlowLayout(QWidget* parent, int spacing) : QLayout(parent), spacing_(spacing) {
  setContentsMargins(0, 0, 0, 0);
}

FlowLayout::~FlowLayout() {
  while (QLayoutItem* item = takeAt(0)) delete item;
}

void FlowLayout::addItem(QLayoutItem* item) { items_.append(item); }
int FlowLayout::count() const { return static_cast<int>(items_.size()); }
QLayoutItem* FlowLayout::itemAt(int index) const { return index >= 0 && index < items_.size() ? items_.at(index) : nullptr; }
QLayoutItem* FlowLayout::takeAt(int index) { return index >= 0 && index < items_.size() ? items_.takeAt(index) : nullptr; }
Qt::Orientations FlowLayout::expandingDirections() const { return {}; }
bool FlowLayout::hasHeightForWidth() const { return true; }
int FlowLayout::heightForWidth(int width) const { return doLayout(QRect(0, 0, width, 0), true); }

QSize FlowLayout::minimumSize() const {
  // The widest single item: everything else can move to another line.
  QSize size;
  for (const QLayoutItem* item : items_) size = size.expandedTo(item->minimumSize());
  const QMargins m = contentsMargins();
  return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const {
  // One line: what the bar asks for when there is room.
  int width = 0, height = 0;
  for (QLayoutItem* item : items_) {
    if (item->isEmpty()) continue;
    width += item->sizeHint().width() + (width > 0 ? gap(item, Qt::Horizontal) : 0);
    height = std::max(height, item->sizeHint().height());
  }
  const QMargins m = contentsMargins();
  return {width + m.left() + m.right(), height + m.top() + m.bottom()};
}

void FlowLayout::setGeometry(const QRect& rect) {
  QLayout::setGeometry(rect);
  doLayout(rect, false);
}

int FlowLayout::gap(QLayoutItem* item, Qt::Orientation o) const {
  if (spacing_ >= 0) return spacing_;
  // The style's spacing between two push buttons, as a QHBoxLayout would use.
  const QWidget* w = item->widget();
  const QStyle* style = w ? w->style() : (parentWidget() ? parentWidget()->style() : nullptr);
  if (!style) return 6;
  const int s = style->layoutSpacing(QSizePolicy::PushButton, QSizePolicy::PushButton, o);
  return s >= 0 ? s : 6;
}

int FlowLayout::doLayout(const QRect& rect, bool testOnly) const {
  const QMargins m = contentsMargins();
  const QRect area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom());
  int x = area.x(), y = area.y(), lineHeight = 0;
  for (QLayoutItem* item : items_) {
    if (item->isEmpty()) continue;  // hidden widgets take no room
    const QSize hint = item->sizeHint();
    const int dx = gap(item, Qt::Horizontal), dy = gap(item, Qt::Vertical);
    if (x > area.x() && x + hint.width() > area.right() + 1) {  // the next line
      x = area.x();
      y += lineHeight + dy;
      lineHeight = 0;
    }
    if (!testOnly) item->setGeometry(QRect(QPoint(x, y), QSize(std::min(hint.width(), area.width()), hint.height())));
    x += hint.width() + dx;
    lineHeight = std::max(lineHeight, hint.height());
  }
  return y + lineHeight - rect.y() + m.bottom();
}

}  // namespace lwb::widgets
