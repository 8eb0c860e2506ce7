// The Attention Lab's self-updating views (inside the prox, Armijo with small K, tokens in
// the plane): a field change recomputes at once while the view is shown, otherwise when it is
// next shown, so a hidden tab does no work.
#pragma once

#include <QWidget>

namespace lwb::app::pages {

class LiveView : public QWidget {
  Q_OBJECT

 public:
  explicit LiveView(QWidget* parent = nullptr) : QWidget(parent) {}
  // Starts the computation for the current fields (clears dirty_).
  virtual void recompute() = 0;

 protected:
  // Connect every field's change signal here.
  void fieldsChanged();
  void showEvent(QShowEvent* event) override;

  bool dirty_ = true;     // the fields changed since the last recompute()
  bool invalid_ = false;  // the fields are refused: results still in flight are dropped
};

}  // namespace lwb::app::pages
