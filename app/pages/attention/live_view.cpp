#include "app/pages/attention/live_view.h"

namespace lwb::app::pages {

void LiveView::fieldsChanged() {
  dirty_ = true;
  if (isVisible()) recompute();
}

void LiveView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (dirty_) recompute();
}

}  // namespace lwb::app::pages
