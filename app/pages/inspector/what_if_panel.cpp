#include "app/pages/inspector/what_if_panel.h"
#include "widgets/number_format.h"

#include "app/pages/common/latest_wins.h"
#include "app/pages/common/method_form.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace lwb::app::pages {
namespace {
// The preview keeps only singular values (no SVD vectors), so it can afford embeddings.
constexpr int64_t kMaxPreviewEntries = int64_t{64} << 20;
}  // namespace

WhatIfPanel::WhatIfPanel(QWidget* parent) : QGroupBox(tr("What if"), parent) {
  runner_ = new LatestWins(this);
  enabled_ = new QCheckBox(tr("Preview the method on the selected tensor"), this);
  enabled_->setObjectName(QStringLiteral("whatIfEnabled"));
  clipLab_ = new QPushButton(tr("Open in Clip &Lab"), this);
  clipLab_->setEnabled(false);
  form_ = new MethodForm(this);
  info_ = new QLabel(tr("Select a matrix in the table."), this);
  info_->setWordWrap(true);
  auto* top = new QHBoxLayout;
  top->addWidget(enabled_, 1);
  top->addWidget(clipLab_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(form_);
  layout->addWidget(info_);

  connect(enabled_, &QCheckBox::toggled, this, [this](bool on) {
    if (on) preview();
    else {
      runner_->cancel();
      Q_EMIT previewCleared();
    }
  });
  connect(form_, &MethodForm::changed, this, &WhatIfPanel::preview);
  connect(clipLab_, &QPushButton::clicked, this, [this] {
    if (file_) Q_EMIT openInClipLab(file_, name_);
  });
  connect(runner_, &LatestWins::errorOccurred, this, [this](const QString& m) {
    info_->setText(tr("Cannot preview: %1").arg(m));
    Q_EMIT previewCleared();
  });
}

void WhatIfPanel::setTensor(std::shared_ptr<const io::TensorFile> file, const QString& name) {
  file_ = std::move(file);
  name_ = name;
  matrix_.reset();
  clipLab_->setEnabled(file_ != nullptr);
  info_->setText(enabled_->isChecked() ? tr("Computing…") : tr("Tick the box to preview %1.").arg(name));
  preview();
}

void WhatIfPanel::clearTensor() {
  file_.reset();
  name_.clear();
  matrix_.reset();
  clipLab_->setEnabled(false);
  runner_->cancel();
  info_->setText(tr("Select a matrix in the table."));
}

void WhatIfPanel::setEnabledPreview(bool on) { enabled_->setChecked(on); }

void WhatIfPanel::preview() {
  if (!enabled_->isChecked() || !file_) return;
  if (const QString err = form_->validationError(); !err.isEmpty()) {
    info_->setText(tr("Cannot preview: %1").arg(err));
    return;
  }
  const lab::ConstraintRequest req = form_->request();
  const auto file = file_;
  const std::string name = name_.toStdString();
  lab::LabMatrixPtr cached = matrix_;
  runner_->submit([this, req, file, name, cached](const CancelFlag& cancel) -> LatestWins::Continuation {
    lab::LabMatrixPtr m = cached;
    if (!m)
      for (const auto& t : file->tensors)
        if (t.name == name) m = lab::matrixFromRaw(t, /*singularVectors=*/false, kMaxPreviewEntries, &cancel);
    if (!m) throw std::runtime_error("tensor '" + name + "' is not in the file");
    lab::ConstraintOutcome o = lab::applyToMatrix(*m, req, &cancel);
    return [this, m, file, req, o = std::move(o)] {
      if (file != file_ || m->name() != name_.toStdString()) return;  // the selection moved on
      matrix_ = m;
      QString text = tr("%1: σ₁ %L2 → %L3 (exact %L4), largest σ error %L5, %L6 ms")
                         .arg(MethodForm::methodTitle(req.method))
                         .arg(widgets::displayNumber(o.before.empty() ? 0.0 : o.before.front(), 'g', 4))
                         .arg(widgets::displayNumber(o.sigma1After, 'g', 5))
                         .arg(widgets::displayNumber(o.sigma1Exact, 'g', 5))
                         .arg(widgets::displayNumber(o.maxSpectrumError, 'g', 3))
                         .arg(widgets::displayNumber(o.methodSeconds * 1e3, 'f', 1));
      if (std::isfinite(o.alpha)) text += tr(", α = %L1").arg(widgets::displayNumber(o.alpha, 'g', 4));
      info_->setText(text + tr(". Thresholds are raw σ."));
      Q_EMIT previewReady(o.before, o.after, req.sigmaMax);
    };
  });
}

}  // namespace lwb::app::pages
