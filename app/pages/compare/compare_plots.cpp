#include "app/pages/compare/compare_plots.h"
#include "widgets/number_format.h"

#include "app/pages/common/page_frame.h"
#include "app/pages/train/run_form_fields.h"
#include "run/config_schema.h"
#include "widgets/frontier_scatter_plot.h"
#include "widgets/metric_plot.h"
#include "widgets/palette.h"

#include <QLocale>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QSet>
#include <QSignalBlocker>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>

namespace lwb::app::pages {

namespace {

// A config key's label in the run form ("σmax" for constraint.sigma_max), else the key.
QString fieldLabel(const QString& key) {
  for (const FieldSpec& f : runFormFields())
    if (f.key == key) return f.label;
  return key;
}

// The number of a colour group "key = value" (σmax = 0.5), or none for a name or "—".
std::optional<double> groupNumber(const QString& group) {
  const qsizetype at = group.lastIndexOf(QStringLiteral(" = "));
  if (at < 0) return std::nullopt;
  const auto v = widgets::readDisplayNumber(group.mid(at + 3));  // colorKeyOf writes displayNumber's form
  return v && std::isfinite(*v) ? v : std::nullopt;
}

// Both plots' text while no run is loaded: empty axes from 0 to 5 read as data.
QString emptyText() { return ComparePlots::tr("No runs yet (Add run folder…)"); }
}  // namespace

ComparePlots::ComparePlots(const std::vector<RunRecord>* runs, const std::vector<QColor>* colors, QWidget* parent)
    : QWidget(parent), runs_(runs), colors_(colors) {
  QSplitter* plots = twoPanes(Qt::Horizontal, createMetricPane(), createScatterPane(), this);
  plots->setSizes({800, 800});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plots);
  connectOptions();
}

// A row of the plot's controls over the plot.
QWidget* ComparePlots::plotPane(QHBoxLayout* controls, QWidget* plot) {
  auto* pane = new QWidget(this);
  auto* layout = new QVBoxLayout(pane);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(controls);
  layout->addWidget(plot, 1);
  return pane;
}

QWidget* ComparePlots::createMetricPane() {
  metricBox_ = new QComboBox(this);
  metricBox_->setObjectName(QStringLiteral("metricBox"));
  metricBox_->setMinimumContentsLength(18);
  metric_ = new widgets::MetricPlot(this);
  metric_->setEmptyText(emptyText());
  metric_->setObjectName(QStringLiteral("compareMetricPlot"));
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel(tr("Metric"), this));
  row->addWidget(metricBox_, 1);
  return plotPane(row, metric_);
}

QWidget* ComparePlots::createScatterPane() {
  scatter_ = new widgets::FrontierScatterPlot(this);
  scatter_->setEmptyText(emptyText());
  scatter_->setObjectName(QStringLiteral("frontierPlot"));
  scatter_->setTitle(tr("Lipschitz bound vs validation loss (best loss per bound bin ringed)"));
  scatter_->setAxisLabels(tr("Lipschitz upper bound (RMS→RMS)"), tr("final validation loss"));
  scatter_->setLogX(true);
  colorBy_ = new QComboBox(this);
  colorBy_->setObjectName(QStringLiteral("colorBy"));
  // Default: whatever setting tells the shown runs apart (four masked-character runs share
  // the method "none" and differ in model.attention).
  colorBy_->addItem(tr("what differs (auto)"), QStringLiteral("auto"));
  colorBy_->addItem(tr("method"), QStringLiteral("method"));
  colorBy_->addItem(tr("optimizer / method"), QStringLiteral("optimizer/method"));
  colorBy_->addItem(tr("optimizer"), QStringLiteral("optimizer"));
  // The run form's words ("Constraint: σmax"), with the config key in the tooltip.
  for (const FieldSpec& f : runFormFields()) {
    colorBy_->addItem(f.group + QStringLiteral(": ") + f.label, f.key);
    colorBy_->setItemData(colorBy_->count() - 1, f.key, Qt::ToolTipRole);
  }
  groupSeeds_ = new QCheckBox(tr("Group seeds (mean ± std)"), this);
  groupSeeds_->setObjectName(QStringLiteral("groupSeeds"));
  perGroup_ = new QCheckBox(tr("Frontier per colour"), this);
  perGroup_->setObjectName(QStringLiteral("frontierPerGroup"));
  perGroup_->setChecked(true);
  scatter_->setFrontierPerGroup(true);
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel(tr("Colour by"), this));
  row->addWidget(colorBy_, 1);
  row->addWidget(groupSeeds_);
  row->addWidget(perGroup_);
  return plotPane(row, scatter_);
}

void ComparePlots::connectOptions() {
  connect(metricBox_, &QComboBox::currentIndexChanged, this, &ComparePlots::showMetric);
  connect(colorBy_, &QComboBox::currentIndexChanged, this, &ComparePlots::frontierOptionsChanged);
  connect(groupSeeds_, &QCheckBox::toggled, this, [this] {
    Q_EMIT frontierOptionsChanged();
    showMetric();
  });
  connect(perGroup_, &QCheckBox::toggled, this, [this](bool on) {
    scatter_->setFrontierPerGroup(on);
    scatter_->requestReplot();
  });
}

QString ComparePlots::currentMetric() const { return metricBox_->currentData().toString(); }

QString ComparePlots::metricTitle(const QString& key) {
  static const struct {
    const char* key;
    const char* title;
  } kTitles[] = {
      {"val_loss", QT_TR_NOOP("validation loss")},
      {"val_loss_paper", QT_TR_NOOP("validation loss (paper's window)")},
      {"val_loss_full", QT_TR_NOOP("validation loss (full split)")},
      {"train_loss", QT_TR_NOOP("train loss")},
      {"val_acc", QT_TR_NOOP("validation accuracy")},
      {"train_acc", QT_TR_NOOP("train accuracy")},
      {"lipschitz_bound", QT_TR_NOOP("Lipschitz bound")},
      {"max_act_entry", QT_TR_NOOP("largest activation entry")},
      {"max_act_rms", QT_TR_NOOP("largest activation RMS")},
      {"steps_per_s", QT_TR_NOOP("steps/s")},
      {"lr", QT_TR_NOOP("learning rate")},
      {"alpha", QT_TR_NOOP("soft-cap α")},
  };
  for (const auto& t : kTitles)
    if (key == QLatin1String(t.key)) return tr(t.title);
  if (key.startsWith(QLatin1String("rms_norms."))) return tr("RMS→RMS norm: %1").arg(key.mid(10));
  return key;
}

void ComparePlots::setMetric(const QString& name) {
  const int i = metricBox_->findData(name);
  if (i >= 0) metricBox_->setCurrentIndex(i);
}

void ComparePlots::setColorBy(const QString& key) {
  const int i = colorBy_->findData(key);
  if (i >= 0) colorBy_->setCurrentIndex(i);
}
void ComparePlots::setGroupSeeds(bool on) { groupSeeds_->setChecked(on); }
void ComparePlots::setFrontierPerGroup(bool on) { perGroup_->setChecked(on); }

void ComparePlots::replotNow() {
  metric_->replotNow();
  scatter_->replotNow();
}

void ComparePlots::setMetricNames(const QStringList& names) {
  const QString keep = currentMetric();
  {
    const QSignalBlocker block(metricBox_);
    metricBox_->clear();
    for (const QString& key : names) {
      metricBox_->addItem(metricTitle(key), key);
      metricBox_->setItemData(metricBox_->count() - 1, key, Qt::ToolTipRole);  // the metrics.jsonl key
    }
    const int i = metricBox_->findData(keep.isEmpty() ? QStringLiteral("val_loss") : keep);
    metricBox_->setCurrentIndex(i >= 0 ? i : 0);
  }
  showMetric();
}

// The legend's words: registry titles and the locale's numbers ("Lernrate η = 0,3").
QString ComparePlots::colorKeyOf(const RunRecord& r, const QString& key) const {
  if (key == QLatin1String("method")) return methodText(r);
  const QString optimizer = optimizerText(r).section(QStringLiteral(", "), 0, 0);  // its kind's title
  if (key == QLatin1String("optimizer")) return optimizer;
  if (key == QLatin1String("optimizer/method")) return optimizer + QStringLiteral(" / ") + methodText(r);
  const QString v = configValueText(r, key);
  return fieldLabel(key) + QStringLiteral(" = ") + (v.isEmpty() ? QStringLiteral("—") : v);
}

void ComparePlots::colorGroups(const std::vector<widgets::ScatterPoint>& points, const std::vector<QColor>& curveColor) {
  // Which curve colours each group holds, and the groups in legend order.
  QStringList groups;
  QHash<QString, QSet<QRgb>> colorsOf;
  for (size_t i = 0; i < points.size(); ++i) {
    if (!colorsOf.contains(points[i].group)) groups << points[i].group;
    colorsOf[points[i].group].insert(curveColor[i].rgba());
  }
  bool onePerGroup = true, numbers = true;
  for (const QString& g : groups) {
    onePerGroup = onePerGroup && colorsOf[g].size() == 1;
    numbers = numbers && groupNumber(g).has_value();
  }
  for (int i = 0; i < groups.size(); ++i) {
    QColor c;
    if (onePerGroup)  // each group is one run (or one seed group): its colour everywhere
      c = QColor::fromRgba(*colorsOf[groups[i]].begin());
    else if (numbers)  // values of one number, ascending: an ordered ramp, not run hues
      c = widgets::rampColor(groups.size() > 1 ? static_cast<double>(i) / (groups.size() - 1) : 0.0);
    else  // names (methods, optimizers): the palette; the legend says which is which
      c = widgets::runColor(i);
    scatter_->setGroupColor(groups[i], c);
  }
}

QString ComparePlots::autoColorKey(const std::vector<const RunRecord*>& runs) const {
  QStringList candidates{QStringLiteral("method"), QStringLiteral("optimizer")};
  for (const char* group : {"Constraint", "Optimizer", "Model", "Run"})
    for (const run::FormField& f : run::formFields())
      if (f.group == group && f.key != "seed" && f.key != "threads") candidates << QString::fromStdString(f.key);
  for (const QString& key : candidates) {
    QSet<QString> groups;
    for (const RunRecord* r : runs) groups.insert(colorKeyOf(*r, key));
    if (groups.size() > 1) return key;
  }
  return QStringLiteral("method");
}

// One point per run, or with "Group seeds" one per group of runs that differ only by seed
// (mean bound, mean loss ± std).
void ComparePlots::showFrontier(const std::vector<size_t>& shown) {
  std::vector<widgets::ScatterPoint> points;
  QHash<QString, int> groupAt;
  std::vector<std::vector<std::pair<double, double>>> members;
  const bool grouped = groupSeeds_->isChecked();
  std::vector<const RunRecord*> plotted;
  std::vector<size_t> plottedIndex;  // into runs_ (and colors_)
  for (size_t index : shown) {
    const RunRecord& r = (*runs_)[index];
    if (!r.lipschitzBound || !r.valLoss || *r.lipschitzBound <= 0) continue;
    plotted.push_back(&r);
    plottedIndex.push_back(index);
  }
  // Each point's run on the curves: its own, or for a seed group the first in the page's
  // order, whose colour the group's mean curve has (showMetric).
  std::vector<size_t> curveRun;
  QString key = colorBy_->currentData().toString();
  if (key == QLatin1String("auto")) {
    key = autoColorKey(plotted);
    colorBy_->setToolTip(tr("Colouring by %1: the first setting that differs among the shown runs, looked for in the "
                            "method, the optimizer, then the constraint's, optimizer's, model's and run's settings").arg(fieldLabel(key)));
  } else {
    colorBy_->setToolTip(QString());
  }
  for (size_t k = 0; k < plotted.size(); ++k) {
    const RunRecord& r = *plotted[k];
    if (!grouped) {
      points.push_back({colorKeyOf(r, key), r.name, *r.lipschitzBound, *r.valLoss, 0, r.task});
      curveRun.push_back(plottedIndex[k]);
      continue;
    }
    // (This name once shadowed the colour key, so with "Group seeds" every point was coloured
    // by "<its seed group> = —".)
    const QString seedGroup = seedGroupKey(r);
    auto it = groupAt.find(seedGroup);
    if (it == groupAt.end()) {
      it = groupAt.insert(seedGroup, static_cast<int>(points.size()));
      points.push_back({colorKeyOf(r, key), r.name, 0, 0, 0, r.task});
      curveRun.push_back(plottedIndex[k]);
      members.emplace_back();
    }
    curveRun[static_cast<size_t>(*it)] = std::min(curveRun[static_cast<size_t>(*it)], plottedIndex[k]);
    members[static_cast<size_t>(*it)].push_back({*r.lipschitzBound, *r.valLoss});
  }
  if (grouped)
    for (size_t i = 0; i < points.size(); ++i) {
      const auto& m = members[i];
      double mx = 0, my = 0, vy = 0;
      for (const auto& [x, y] : m) {
        mx += x / static_cast<double>(m.size());
        my += y / static_cast<double>(m.size());
      }
      for (const auto& [x, y] : m) vy += (y - my) * (y - my);
      points[i].x = mx;
      points[i].y = my;
      points[i].yStd = m.size() > 1 ? std::sqrt(vy / static_cast<double>(m.size() - 1)) : 0;
      points[i].label += tr(" (mean of %n seed(s))", nullptr, static_cast<int>(m.size()));
    }
  // Legend in the order of the groups' values when they are numbers (σmax = 0.5, 1, 2).
  std::vector<size_t> order(points.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&points](size_t a, size_t b) {
    const auto va = groupNumber(points[a].group), vb = groupNumber(points[b].group);
    return va && vb ? *va < *vb : va && !vb;  // numbers ascending, then names as they came
  });
  std::vector<widgets::ScatterPoint> sorted;
  std::vector<QColor> curveColor;
  for (size_t i : order) {
    sorted.push_back(std::move(points[i]));
    curveColor.push_back(curveRun[i] < colors_->size() ? (*colors_)[curveRun[i]] : QColor());
  }
  points = std::move(sorted);
  scatter_->setPoints(points);
  colorGroups(points, curveColor);
  scatter_->requestReplot();
}

void ComparePlots::showMetric() {
  const QString name = currentMetric();
  metric_->clearRuns();
  metric_->setAxisLabels(tr("step"), metricTitle(name));
  metric_->setTitle(metricTitle(name));
  // Runs read from an index have no curves until selected; with "Group seeds", runs that
  // differ only by seed become one mean curve with a ± std envelope (two faint lines).
  std::map<QString, std::vector<size_t>> groups;
  std::vector<QString> order;
  std::vector<size_t> shown;
  for (size_t i = 0; i < runs_->size(); ++i) {
    const RunRecord& r = (*runs_)[i];
    if (r.series.find(name) == r.series.end()) continue;
    const QString key = groupSeeds_->isChecked() ? seedGroupKey(r) : r.dir;
    if (!groups.count(key)) order.push_back(key);
    groups[key].push_back(i);
    shown.push_back(i);
  }
  for (const QString& key : order) {
    const std::vector<size_t>& members = groups[key];
    const RunRecord& first = (*runs_)[members.front()];
    if (members.size() > 1) {
      addMeanCurve(members, name);
      continue;
    }
    const MetricSeries& ms = first.series.at(name);
    metric_->setRun(first.dir, first.name, (*colors_)[members.front()]);
    metric_->setSeries(first.dir, ms.steps, ms.values);
  }
  // Runs listed but none with curves (a sweep folder's or an index's, read on demand): the
  // plot says what to do, not "No runs yet" above a table of runs (newcomer's trial).
  const bool listedNotRead = order.empty() && !runs_->empty();
  metric_->setEmptyText(listedNotRead ? tr("Select runs in the table to plot their curves (runs from a run index are read on demand)")
                                      : emptyText());
  openOnLogAxisIfBlownUp(shown, name);
  metric_->requestReplot();
}

// The mean of `members`' curves at the steps every one of them logged, with two faint lines
// at ± one (sample) standard deviation.
void ComparePlots::addMeanCurve(const std::vector<size_t>& members, const QString& name) {
  const RunRecord& first = (*runs_)[members.front()];
  const QColor color = (*colors_)[members.front()];
  std::map<double, std::vector<double>> byStep;
  for (size_t m : members) {
    const MetricSeries& ms = (*runs_)[m].series.at(name);
    for (size_t k = 0; k < ms.steps.size(); ++k) byStep[ms.steps[k]].push_back(ms.values[k]);
  }
  std::vector<double> steps, mean, lo, hi;
  for (const auto& [step, values] : byStep) {
    if (values.size() != members.size()) continue;
    double mu = 0, var = 0;
    for (double v : values) mu += v / static_cast<double>(values.size());
    for (double v : values) var += (v - mu) * (v - mu);
    const double sd = std::sqrt(var / static_cast<double>(values.size() - 1));
    steps.push_back(step);
    mean.push_back(mu);
    lo.push_back(mu - sd);
    hi.push_back(mu + sd);
  }
  const QString label = tr("%1 (mean of %n seed(s))", nullptr, static_cast<int>(members.size())).arg(first.name);
  metric_->setRun(first.dir, label, color);
  metric_->setSeries(first.dir, steps, mean);
  for (const auto& [suffix, values] : {std::pair{QStringLiteral("#lo"), &lo}, std::pair{QStringLiteral("#hi"), &hi}}) {
    metric_->setRun(first.dir + suffix, label + (suffix == QLatin1String("#lo") ? QStringLiteral(" − std") : QStringLiteral(" + std")),
                    widgets::withAlpha(color, 110));
    metric_->setSeries(first.dir + suffix, steps, *values);
  }
}

// A run that blew up (seed 002 Fig. 2's 10x runs: losses of 1e16 beside 3.7) flattens every
// other curve to a line at 0 on a linear axis. Such a metric opens on a log axis, once per
// metric name; after that the box is the user's.
void ComparePlots::openOnLogAxisIfBlownUp(const std::vector<size_t>& shown, const QString& name) {
  double lo = INFINITY, hi = 0;
  for (size_t m : shown)
    for (double v : (*runs_)[m].series.at(name).values)
      if (v > 0 && std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (hi > 1e4 * lo && !autoLogY_.contains(name)) {
    autoLogY_ << name;
    metric_->setLogY(true);
  }
}

}  // namespace lwb::app::pages
