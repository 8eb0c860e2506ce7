#include "app/pages/inspector/text_sample_panel.h"

#include "app/pages/common/latest_wins.h"
#include "app/pages/inspector/text_sample_job.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>

#include <cmath>
#include <limits>

namespace lwb::app::pages {

TextSamplePanel::TextSamplePanel(QWidget* parent) : QGroupBox(tr("Generate text (character-level runs)"), parent) {
  setObjectName(QStringLiteral("textSamplePanel"));
  runner_ = new LatestWins(this);
  prompt_ = new QLineEdit(this);
  prompt_->setPlaceholderText(tr("Prompt (empty: a new line)"));
  tokens_ = new QSpinBox(this);
  tokens_->setRange(1, 100000);
  tokens_->setValue(300);
  tokens_->setSuffix(tr(" characters"));
  temperature_ = new QComboBox(this);
  temperature_->setEditable(true);
  for (double t : sampleTemperaturePresets()) temperature_->addItem(QLocale().toString(t, 'g', 3), t);
  temperature_->setCurrentIndex(1);  // 0.5
  temperature_->setToolTip(tr("Softmax temperature: low values repeat the likeliest text, 1.0 samples the model as trained; 0 is greedy"));
  generate_ = new QPushButton(tr("&Generate"), this);
  cancel_ = new QPushButton(tr("C&ancel"), this);
  cancel_->setEnabled(false);
  progress_ = new QProgressBar(this);
  progress_->setVisible(false);
  output_ = new QPlainTextEdit(this);
  output_->setReadOnly(true);
  output_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  output_->setMinimumHeight(80);
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setStyleSheet(QStringLiteral("color: #b00020;"));
  message_->setVisible(false);

  auto* grid = new QGridLayout(this);
  grid->addWidget(prompt_, 0, 0, 1, 4);
  grid->addWidget(new QLabel(tr("Length"), this), 1, 0);
  grid->addWidget(tokens_, 1, 1);
  grid->addWidget(new QLabel(tr("Temperature"), this), 1, 2);
  grid->addWidget(temperature_, 1, 3);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(generate_);
  buttons->addWidget(cancel_);
  buttons->addWidget(progress_, 1);
  grid->addLayout(buttons, 2, 0, 1, 4);
  grid->addWidget(message_, 3, 0, 1, 4);
  grid->addWidget(output_, 4, 0, 1, 4);

  connect(generate_, &QPushButton::clicked, this, &TextSamplePanel::generate);
  connect(prompt_, &QLineEdit::returnPressed, this, &TextSamplePanel::generate);
  connect(cancel_, &QPushButton::clicked, this, &TextSamplePanel::cancel);
  connect(runner_, &LatestWins::busyChanged, this, [this](bool busy) {
    cancel_->setEnabled(busy);
    generate_->setEnabled(!busy && !checkpoint_.isEmpty());
    progress_->setVisible(busy);
  });
  connect(runner_, &LatestWins::errorOccurred, this, [this](const QString& e) {
    message_->setText(e);
    message_->setVisible(true);
    Q_EMIT finished();
  });
  connect(runner_, &LatestWins::cancelled, this, [this] { Q_EMIT finished(); });
  setCheckpoint({});
}

void TextSamplePanel::setCheckpoint(const QString& path) {
  checkpoint_ = path;
  generate_->setEnabled(!path.isEmpty() && !runner_->busy());
  output_->clear();
  message_->setVisible(false);
}

bool TextSamplePanel::isBusy() const { return runner_->busy(); }

double TextSamplePanel::temperature(QString* error) const {
  // A preset keeps its exact value; typed text is read in the user's locale, then in C.
  const QString text = temperature_->currentText().trimmed();
  const int preset = temperature_->findText(text);
  if (preset >= 0) return temperature_->itemData(preset).toDouble();
  bool ok = false;
  double t = QLocale().toDouble(text, &ok);
  if (!ok) t = text.toDouble(&ok);
  if (!ok || !std::isfinite(t) || t < 0) {
    if (error) *error = tr("Temperature \"%1\" is not a number ≥ 0 (presets 0.2, 0.5, 1.0; 0 is greedy).").arg(text);
    return std::numeric_limits<double>::quiet_NaN();
  }
  return t;
}

void TextSamplePanel::generate() {
  if (checkpoint_.isEmpty()) return;
  QString error;
  TextSampleRequest r;
  r.temperature = temperature(&error);
  if (!error.isEmpty()) {
    message_->setText(error);
    message_->setVisible(true);
    return;
  }
  message_->setVisible(false);
  r.checkpoint = checkpoint_;
  r.prompt = prompt_->text();
  r.tokens = tokens_->value();
  output_->setPlainText(tr("Generating…"));
  progress_->setRange(0, r.tokens);
  progress_->setValue(0);
  QPointer<QProgressBar> bar = progress_;
  runner_->submit([this, r, bar](const CancelFlag& cancel) -> LatestWins::Continuation {
    const auto report = [bar](int done, int) {
      QMetaObject::invokeMethod(bar, [bar, done] { if (bar) bar->setValue(done); }, Qt::QueuedConnection);
    };
    QString text = sampleTextFrom(r, report, &cancel);
    const QString prompt = r.prompt.isEmpty() ? QStringLiteral("\n") : r.prompt;
    return [this, text = prompt + text] {
      output_->setPlainText(text);
      Q_EMIT finished();
    };
  });
}

void TextSamplePanel::cancel() { runner_->cancel(); }

}  // namespace lwb::app::pages
