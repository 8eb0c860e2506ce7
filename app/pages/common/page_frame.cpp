#include "app/pages/common/page_frame.h"

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

}  // namespace lwb::app::pages
