// "Generate text" for character-level workbench checkpoints (issue 29 §4): prompt, number of
// characters, temperature (presets 0.2 / 0.5 / 1.0, or any value ≥ 0), Generate and Cancel,
// a progress bar; the sampling runs on a worker (LatestWins), never on the GUI thread.
#pragma once

#include <QGroupBox>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace lwb::app::pages {

class LatestWins;

class TextSamplePanel : public QGroupBox {
  Q_OBJECT

 public:
  explicit TextSamplePanel(QWidget* parent = nullptr);

  // The checkpoint (or run directory) to sample; empty disables the panel.
  void setCheckpoint(const QString& path);
  void generate();
  void cancel();
  bool isBusy() const;

  QLineEdit* promptEdit() const { return prompt_; }
  QSpinBox* tokensBox() const { return tokens_; }
  QComboBox* temperatureBox() const { return temperature_; }
  QPlainTextEdit* output() const { return output_; }
  QLabel* message() const { return message_; }
  // The temperature typed or picked; nullopt-like NaN with `error` set when it is not a number ≥ 0.
  double temperature(QString* error) const;

 Q_SIGNALS:
  void finished();  // a sample (complete or cancelled) or an error is shown

 private:
  QString checkpoint_;
  QLineEdit* prompt_ = nullptr;
  QSpinBox* tokens_ = nullptr;
  QComboBox* temperature_ = nullptr;
  QPushButton* generate_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QPlainTextEdit* output_ = nullptr;
  QLabel* message_ = nullptr;
  LatestWins* runner_ = nullptr;
};

}  // namespace lwb::app::pages
