// The frame the tool pages share: a row of controls on top, an optional message line, and
// the content (two panes in a splitter) taking the rest.
#pragma once

#include <Qt>

#include <initializer_list>

class QBoxLayout;
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

// One unit of a wrapping control row (widgets::FlowLayout): the widgets side by side in a
// container, so a label never ends a line with its field on the next. Parented to `parent`.
QWidget* group(std::initializer_list<QWidget*> items, QWidget* parent);

// The same around a box layout that a helper fills (NsStepsField::addTo).
QWidget* group(QBoxLayout* row, QWidget* parent);

}  // namespace lwb::app::pages
