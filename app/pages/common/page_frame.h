// The frame the tool pages share: a row of controls on top, an optional message line, and
// the content (two panes in a splitter) taking the rest.
#pragma once

#include <Qt>

class QLayout;
class QSplitter;
class QWidget;

namespace lwb::app::pages {

// `first` and `second` side by side (Qt::Horizontal) or one over the other, in a splitter
// parented to `parent`.
QSplitter* twoPanes(Qt::Orientation orientation, QWidget* first, QWidget* second, QWidget* parent);

// Lays `page` out: `top`, then `message` (may be nullptr), then `content` with all the
// height left.
void setPageLayout(QWidget* page, QLayout* top, QWidget* message, QWidget* content);

}  // namespace lwb::app::pages
