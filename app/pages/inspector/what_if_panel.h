// The Inspector's "what if": any constraint method on the selected tensor, previewed as its
// spectrum after the method next to the spectrum now. Computed on a worker (latest wins);
// "Open in Clip Lab" hands the tensor to the Clip Lab for the full treatment.
#pragma once

#include "io/raw_tensor.h"
#include "lab/lab.h"

#include <QGroupBox>

#include <memory>
#include <vector>

class QCheckBox;
class QLabel;
class QPushButton;

namespace lwb::app::pages {

class LatestWins;
class MethodForm;

class WhatIfPanel : public QGroupBox {
  Q_OBJECT

 public:
  explicit WhatIfPanel(QWidget* parent = nullptr);

  void setTensor(std::shared_ptr<const io::TensorFile> file, const QString& name);
  void clearTensor();
  void setEnabledPreview(bool on);

  MethodForm* form() const { return form_; }
  LatestWins* runner() const { return runner_; }

 Q_SIGNALS:
  void previewReady(const std::vector<double>& before, const std::vector<double>& after, double sigmaMax);
  void previewCleared();
  void openInClipLab(std::shared_ptr<const io::TensorFile> file, const QString& name);

 private:
  void preview();

  MethodForm* form_ = nullptr;
  QCheckBox* enabled_ = nullptr;
  QPushButton* clipLab_ = nullptr;
  QLabel* info_ = nullptr;
  LatestWins* runner_ = nullptr;
  std::shared_ptr<const io::TensorFile> file_;
  QString name_;
  lab::LabMatrixPtr matrix_;  // the selected tensor, built on first preview
};

}  // namespace lwb::app::pages
