#include "app/page.h"

#include "app/app_options.h"

namespace lwb::app {

QString Page::id() const { return row_ ? QString::fromLatin1(row_->id) : QString(); }

QKeySequence Page::shortcut() const {
  return row_ ? QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_0 + row_->ctrlDigit)) : QKeySequence();
}

}  // namespace lwb::app
