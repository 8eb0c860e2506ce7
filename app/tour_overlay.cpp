#include "app/tour_overlay.h"

#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace lwb::app {

TourOverlay::TourOverlay(const QList<TourStop>& stops, QWidget* covered)
    : QWidget(covered->parentWidget()), covered_(covered) {
  setObjectName(QStringLiteral("tourOverlay"));
  setAttribute(Qt::WA_DeleteOnClose);
  setFocusPolicy(Qt::StrongFocus);

  auto* card = new QFrame(this);
  card->setObjectName(QStringLiteral("tourCard"));
  card->setFrameShape(QFrame::StyledPanel);
  card->setAutoFillBackground(true);  // opaque on the dimmed backdrop, in the palette's colours
  card->setMaximumWidth(760);
  card_ = card;

  auto* heading = new QLabel(tr("<h2>What am I looking at?</h2>"), card);
  auto* intro = new QLabel(tr("Pick a preset on the left (or change any field) and press <b>Start run</b> (F5). "
                              "While it trains, each panel shows one part of the story:"),
                           card);
  intro->setWordWrap(true);
  QString rows;
  for (const TourStop& s : stops)
    rows += QStringLiteral("<tr><td style='padding:3px 12px 3px 0'><b>%1</b></td><td style='padding:3px 0'>%2</td></tr>")
                .arg(s.title.toHtmlEscaped(), s.text.toHtmlEscaped());
  auto* list = new QLabel(QStringLiteral("<table>%1</table>").arg(rows), card);
  list->setObjectName(QStringLiteral("tourStops"));
  list->setWordWrap(true);
  auto* outro = new QLabel(tr("Panels can be moved, tabbed, floated or closed; View → Reset layout brings the "
                              "default back. Help → Tour shows this again."),
                           card);
  outro->setWordWrap(true);
  dismiss_ = new QPushButton(tr("Got it"), card);
  dismiss_->setObjectName(QStringLiteral("tourDismiss"));
  dismiss_->setDefault(true);
  connect(dismiss_, &QPushButton::clicked, this, &TourOverlay::dismiss);

  auto* buttons = new QHBoxLayout;
  buttons->addStretch(1);
  buttons->addWidget(dismiss_);
  auto* layout = new QVBoxLayout(card);
  layout->setContentsMargins(20, 12, 20, 16);
  for (QWidget* w : {static_cast<QWidget*>(heading), static_cast<QWidget*>(intro), static_cast<QWidget*>(list),
                     static_cast<QWidget*>(outro)})
    layout->addWidget(w);
  layout->addLayout(buttons);

  covered_->installEventFilter(this);
  setGeometry(covered_->geometry());
  raise();
  show();
  dismiss_->setFocus();
}

void TourOverlay::dismiss() {
  if (!isVisible()) return;
  hide();
  Q_EMIT dismissed();
  close();  // WA_DeleteOnClose
}

bool TourOverlay::eventFilter(QObject* watched, QEvent* event) {
  // Keep covering the page stack as the window is resized or its tool bars move.
  if (watched == covered_ && (event->type() == QEvent::Resize || event->type() == QEvent::Move))
    setGeometry(covered_->geometry());
  return QWidget::eventFilter(watched, event);
}

void TourOverlay::resizeEvent(QResizeEvent*) {
  // Centred; word-wrapped labels need their height for the width they get.
  const int w = std::min(card_->maximumWidth(), width() - 40);
  const int h = card_->hasHeightForWidth() ? card_->heightForWidth(w) : card_->sizeHint().height();
  const int ch = std::min(h, height() - 40);
  card_->setGeometry((width() - w) / 2, (height() - ch) / 2, w, ch);
}

void TourOverlay::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), QColor(0, 0, 0, 110));
}

void TourOverlay::mousePressEvent(QMouseEvent* event) {
  if (!card_->geometry().contains(event->position().toPoint())) dismiss();
}

void TourOverlay::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_Escape) dismiss();
  else QWidget::keyPressEvent(event);
}

}  // namespace lwb::app
