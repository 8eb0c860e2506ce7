// Help → Tour: a dismissable overlay over the window's pages that names each panel of the
// Train page and says what it shows ("what am I looking at"). It covers the widget it is
// given (the page stack) with a dimmed backdrop and a card in the middle, follows that
// widget's size, and goes away on "Got it", Esc or a click on the backdrop, emitting
// dismissed() and deleting itself. Showing it once on a first launch is the window's job.
#pragma once

#include "app/page.h"

#include <QList>
#include <QWidget>

class QPushButton;

namespace lwb::app {

class TourOverlay : public QWidget {
  Q_OBJECT

 public:
  TourOverlay(const QList<TourStop>& stops, QWidget* covered);

  QPushButton* dismissButton() const { return dismiss_; }
  void dismiss();

 Q_SIGNALS:
  void dismissed();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;

 private:
  QWidget* covered_ = nullptr;
  QWidget* card_ = nullptr;
  QPushButton* dismiss_ = nullptr;
};

}  // namespace lwb::app
