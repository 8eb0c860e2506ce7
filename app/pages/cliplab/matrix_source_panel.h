// Clip Lab: where the matrix comes from. A random matrix of a chosen kind (Gaussian, low
// rank + noise, heavy-tailed spectrum, prescribed spectrum) with its size, σ₁ and seed, or a
// layer of a loaded checkpoint. The panel only describes the choice; the page builds the
// matrix on a worker.
#pragma once

#include "lab/matrix_source.h"

#include <QGroupBox>
#include <QStringList>

#include <optional>
#include <utility>
#include <vector>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace lwb::app::pages {

class SliderField;

class MatrixSourcePanel : public QGroupBox {
  Q_OBJECT

 public:
  explicit MatrixSourcePanel(QWidget* parent = nullptr);

  bool isCheckpointSource() const;
  // The random matrix described by the controls (meaningless for the checkpoint source).
  lab::MatrixSpec spec() const;
  void setSpec(const lab::MatrixSpec& spec);  // selects the random source it names
  // Whether only σ₁ differs from `other` (the page then rescales instead of rebuilding).
  bool onlySigma1Differs(const lab::MatrixSpec& a, const lab::MatrixSpec& b) const;

  // Checkpoint source: the file's 2-D floating-point tensors (name, shape text).
  void setCheckpointLayers(const QString& path, const std::vector<std::pair<QString, QString>>& layers);
  QString checkpointLayer() const;
  void selectCheckpointLayer(const QString& name);

  // Text under the controls: the matrix built, or why not.
  void setStatus(const QString& text, bool error = false);

 Q_SIGNALS:
  void sourceChanged();                       // anything that changes the matrix
  void openFileRequested(const QString& path);  // the user picked a checkpoint file

 private:
  void createKindAndSize();
  QPushButton* createSpectrumFields();
  void createFileFields();
  void addRows();
  void connectFields(QPushButton* reseed);
  void updateRows();
  void chooseFile();

  QFormLayout* form_ = nullptr;
  QComboBox* kind_ = nullptr;
  QComboBox* size_ = nullptr;
  QSpinBox* rows_ = nullptr;
  QSpinBox* cols_ = nullptr;
  QWidget* sizeRow_ = nullptr;
  SliderField* sigma1_ = nullptr;
  QSpinBox* rank_ = nullptr;
  SliderField* noise_ = nullptr;
  SliderField* tail_ = nullptr;
  SliderField* sigmaLow_ = nullptr;
  QLineEdit* values_ = nullptr;
  QSpinBox* seed_ = nullptr;
  QWidget* seedRow_ = nullptr;
  QWidget* fileRow_ = nullptr;
  QPushButton* openButton_ = nullptr;
  QLabel* fileLabel_ = nullptr;
  QComboBox* layer_ = nullptr;
  QLabel* status_ = nullptr;
  QString checkpointPath_;
  bool applying_ = false;
};

}  // namespace lwb::app::pages
