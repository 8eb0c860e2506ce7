// A layout that places its items left to right and wraps onto the next line when the width
// runs out, like words in a paragraph (Qt documents the pattern as its "Flow Layout" example;
// Qt itself ships none). Button bars use it so that a page's minimum width is its widest
// button, not the sum of all of them: a row of nine German buttons made the Compare page
// 1,477 px wide, past a 1280×720 projector's edge.
#pragma once

#include <QLayout>
#include <QList>

namespace lwb::widgets {

class FlowLayout : public QLayout {
 public:
  explicit FlowLayout(QWidget* parent = nullptr, int spacing = -1);
  ~FlowLayout() override;

  void addItem(QLayoutItem* item) override;
  int count() const override;
  QLayoutItem* itemAt(int index) const override;
  QLayoutItem* takeAt(int index) override;
  Qt::Orientations expandingDirections() const override;
  bool hasHeightForWidth() const override;
  int heightForWidth(int width) const override;
  QSize minimumSize() const override;
  QSize sizeHint() const override;
  void setGeometry(const QRect& rect) override;

 private:
  int doLayout(const QRect& rect, bool testOnly) const;
  int gap(QLayoutItem* item, Qt::Orientation o) const;

  QList<QLayoutItem*> items_;
  int spacing_;
};

}  // namespace lwb::widgets
