#include "app/pages/common/page_frame.h"

#include <QHBoxLayout>
#include <QSplitter>
#include <QVBoxLayout>

namespace lwb::app::pages {

QSplitter* twoPanes(Qt::Orientation orientation, QWidget* first, QWidget* second, QWidget* parent) {
  auto* split = new QSplitter(orientation, parent);
  split->addWidget(first);
  split->addWidget(second);
  return split;
}

void setPageLayout(QWidget* page, QLayout* top, QWidget* message, QWidget* content) {
  auto* layout = new QVBoxLayout(page);
  layout->addLayout(top);
  if (message) layout->addWidget(message);
  layout->addWidget(content, 1);
}

QWidget* group(std::initializer_list<QWidget*> items, QWidget* parent) {
  auto* row = new QHBoxLayout;
  for (QWidget* w : items) row->addWidget(w);
  return group(row, parent);
}

QWidget* group(QBoxLayout* row, QWidget* parent) {
  auto* box = new QWidget(parent);
  row->setContentsMargins(0, 0, 0, 0);
  box->setLayout(row);
  return box;
}

}  // namespace lwb::app::pages
