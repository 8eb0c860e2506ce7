#include "app/pages/attention/plane_view.h"

#include "app/pages/attention/attention_common.h"
#include "widgets/token_plane_plot.h"
#include "app/pages/common/latest_wins.h"
#include "app/pages/common/page_export.h"
#include "widgets/csv_table.h"
#include "widgets/number_format.h"
#include "widgets/palette.h"

#include <QDoubleSpinBox>
#include <QGridLayout>
#include "widgets/flow_layout.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace lwb::app::pages {
namespace {

std::vector<QPointF> points(const std::vector<lab::PlanePoint>& v) {
  std::vector<QPointF> out;
  out.reserve(v.size());
  for (const auto& p : v) out.emplace_back(p.x, p.y);
  return out;
}

// Grows [x0, x1] × [y0, y1] over the points (QRectF::united ignores zero-size rects).
void extend(double* box, const std::vector<lab::PlanePoint>& v) {
  for (const auto& p : v) {
    box[0] = std::min(box[0], p.x);
    box[1] = std::max(box[1], p.x);
    box[2] = std::min(box[2], p.y);
    box[3] = std::max(box[3], p.y);
  }
}

}  // namespace

PlaneView::PlaneView(QWidget* parent) : LiveView(parent) {
  runner_ = new LatestWins(this);
  tokens_ = makeSpin(2, 64, 6, "planeTokens", this);
  heads_ = makeSpin(1, 2, 1, "planeHeads", this);
  heads_->setToolTip(tr("d = 2: one head of width 2 or two heads of width 1"));
  seed_ = makeSpin(0, 1000000, 0, "planeSeed", this);
  perturbation_ = new QDoubleSpinBox(this);
  perturbation_->setObjectName(QStringLiteral("planePerturbation"));
  perturbation_->setDecimals(3);
  perturbation_->setRange(0.001, 10);
  perturbation_->setSingleStep(0.1);
  perturbation_->setValue(0.5);
  perturbation_->setToolTip(tr("‖X − X′‖_F: how far the perturbed copy is from the input"));
  info_ = new QLabel(this);
  info_->setWordWrap(true);
  info_->setTextFormat(Qt::RichText);

  auto* controls = new widgets::FlowLayout;  // wraps in a narrow window (1024 × 768)
  addField(controls, tr("to&kens"), tokens_);
  addField(controls, tr("heads"), heads_);
  addField(controls, tr("seed"), seed_);
  addField(controls, tr("&perturbation ‖X − X′‖"), perturbation_);
  addExportButtons(controls, this, QStringLiteral("attention_plane"), true,
                   [this](const QString& path, QString* error) { return savePlots(path, error); },
                   [this](const QString& path, QString* error) { return this->exportCsv(path, error); });
  auto* panels = new QHBoxLayout;
  for (const std::string& kind : lab::attentionKindIds()) {
    auto* panel = new widgets::TokenPlanePlot(this);
    panel->setObjectName(QStringLiteral("plane_%1").arg(QString::fromStdString(kind)));
    panel->setTitle(attentionKindTitle(kind));
    panels_.push_back(panel);
    panels->addWidget(panel, 1);
  }
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->addLayout(controls, 0, 0);
  grid->addWidget(info_, 1, 0);
  grid->addLayout(panels, 2, 0);
  grid->setRowStretch(2, 1);

  fields_.bind(tokens_, [](auto& r) -> auto& { return r.tokens; });
  fields_.bind(heads_, [](auto& r) -> auto& { return r.heads; });
  fields_.bind(seed_, [](auto& r) -> auto& { return r.seed; });
  fields_.bind(perturbation_, [](auto& r) -> auto& { return r.perturbation; });
  fields_.onChange(this, [this] { fieldsChanged(); });
  followRunner(runner_, info_, nullptr, nullptr);
}

PlaneRequest PlaneView::request() const {
  PlaneRequest r;
  fields_.read(r);
  return r;
}

void PlaneView::setRequest(const PlaneRequest& r) {
  fields_.write(r);
  fieldsChanged();
}

void PlaneView::recompute() {
  dirty_ = false;
  const PlaneRequest r = request();
  runner_->submit([this, r](const CancelFlag& cancel) -> LatestWins::Continuation {
    auto picture = lab::planePicture(r.tokens, r.heads, r.seed, r.perturbation);
    throwIfCancelled(&cancel);
    return [this, picture = std::move(picture)]() mutable {
      picture_ = std::move(picture);
      hasResult_ = true;
      showPicture();
      Q_EMIT pictureReady();
    };
  });
}

QString PlaneView::infoText() const { return info_->text(); }

void PlaneView::showPicture() {
  // One square of the plane shared by all panels: inputs and every kind's images.
  double box[4] = {HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL};
  extend(box, picture_.input);
  extend(box, picture_.perturbed);
  for (const auto& k : picture_.kinds) {
    extend(box, k.image);
    extend(box, k.perturbedImage);
  }
  const QRectF range = box[1] >= box[0] ? QRectF(QPointF(box[0], box[2]), QPointF(box[1], box[3])) : QRectF();
  const QColor input = widgets::referenceColor();
  const QColor arrow = widgets::withAlpha(widgets::referenceColor(), 90);
  QStringList ratios;
  for (size_t i = 0; i < panels_.size() && i < picture_.kinds.size(); ++i) {
    const auto& k = picture_.kinds[i];
    const QColor color = attentionKindColor(k.kind);
    const QString title = attentionKindTitle(k.kind);
    panels_[i]->setTitle(tr("%1 · ratio %L2").arg(title).arg(widgets::displayNumber(k.ratio, 'f', 3)));
    panels_[i]->setPicture({{tr("X"), points(picture_.input), input, false, false},
                            {tr("X′"), points(picture_.perturbed), input, true, false},
                            {tr("f(X)"), points(k.image), color, false, true},
                            {tr("f(X′)"), points(k.perturbedImage), color, true, true}},
                           {{points(picture_.input), points(k.image), arrow}, {points(picture_.perturbed), points(k.perturbedImage), arrow}});
    panels_[i]->setSharedRange(range);
    panels_[i]->requestReplot();
    ratios << tr("%1 %L2").arg(title).arg(widgets::displayNumber(k.ratio, 'f', 3));
  }
  info_->setText(tr("Filled: the tokens X and their images f(X); hollow: a copy X′ moved by %L1 in total and its images. "
                    "Arrows join a token to its image. Ratio ‖f(X) − f(X′)‖ / ‖X − X′‖: %2. A 1-Lipschitz map never "
                    "exceeds 1.")
                     .arg(perturbation_->value())
                     .arg(ratios.join(QStringLiteral(" · "))));
}

bool PlaneView::exportCsv(const QString& path, QString* error) const {
  widgets::CsvTable t;
  t.header = {QStringLiteral("kind"), QStringLiteral("series"), QStringLiteral("token"), QStringLiteral("x1"), QStringLiteral("x2"),
              QStringLiteral("ratio")};
  const auto add = [&t](const QString& kind, const QString& series, const std::vector<lab::PlanePoint>& v, const QString& ratio) {
    for (size_t i = 0; i < v.size(); ++i)
      t.rows << QStringList{kind, series, QString::number(i), widgets::csvNumber(v[i].x), widgets::csvNumber(v[i].y), ratio};
  };
  add(QString(), QStringLiteral("X"), picture_.input, QString());
  add(QString(), QStringLiteral("X'"), picture_.perturbed, QString());
  for (const auto& k : picture_.kinds) {
    const QString kind = QString::fromStdString(k.kind), ratio = widgets::csvNumber(k.ratio);
    add(kind, QStringLiteral("f(X)"), k.image, ratio);
    add(kind, QStringLiteral("f(X')"), k.perturbedImage, ratio);
  }
  return writeCsvFile(path, t, error);
}

bool PlaneView::savePlots(const QString& path, QString* error) {
  QList<QPair<widgets::PlotView*, QString>> plots;
  const auto kinds = lab::attentionKindIds();
  for (size_t i = 0; i < panels_.size() && i < kinds.size(); ++i) plots.append({panels_[i], QString::fromStdString(kinds[i])});
  return savePlotSet(path, plots, error);
}

void PlaneView::replotNow() {
  for (widgets::TokenPlanePlot* p : panels_) p->replotNow();
}

}  // namespace lwb::app::pages
