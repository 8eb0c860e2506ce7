#include "app/pages/attention/attention_common.h"
#include "app/pages/common/page_frame.h"

#include "app/pages/common/latest_wins.h"
#include "attention/attention_kinds.h"
#include "widgets/palette.h"

#include <QBoxLayout>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStringList>

#include <algorithm>

// Translations in context "AttentionLab" (spelled out at each call: a tr() helper in the
// namespace would be extracted under another context; see page_export.cpp).

namespace lwb::app::pages {

// The registry row of an engine id (attention/attention_kinds.h: title and colour live there).
const attention::AttentionKindInfo* kindRow(const std::string& kind) {
  for (const auto& k : attention::attentionKinds())
    if (k.id == kind) return &k;
  return nullptr;
}

QString attentionKindTitle(const std::string& kind) {
  const auto* k = kindRow(kind);
  return k ? QCoreApplication::translate("AttentionLab", std::string(k->shortTitle).c_str()) : QString::fromStdString(kind);
}

QColor attentionKindColor(const std::string& kind) {
  const auto* k = kindRow(kind);
  return widgets::runColor(k ? k->colorIndex : 2);
}

const std::vector<PaperTable1Row>& paperTable1() {
  static const std::vector<PaperTable1Row> rows = {
      {16, 0.991, 2.521, 28.7},   {32, 0.991, 2.480, 52.6},   {64, 0.990, 2.558, 90.9},    {128, 0.990, 2.551, 153.7},
      {256, 0.989, 2.513, 253.1}, {512, 0.987, 2.622, 407.7}, {1024, 0.987, 2.455, 662.5}, {2048, 0.987, 2.518, 1055.5}};
  return rows;
}

std::optional<PaperTable1Row> paperTable1At(int tokens) {
  for (const auto& r : paperTable1())
    if (r.tokens == tokens) return r;
  return std::nullopt;
}

std::optional<std::vector<int>> parseTokenList(const QString& text, int maxTokens, QString* error) {
  std::vector<int> out;
  for (QString part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    part = part.trimmed();
    bool ok = false;
    const int n = part.toInt(&ok);
    if (!ok || n < 1 || n > maxTokens) {
      if (error)
        *error = QCoreApplication::translate("AttentionLab", "N: '%1' is not a token count between 1 and %2").arg(part).arg(maxTokens);
      return std::nullopt;
    }
    if (!out.empty() && n <= out.back()) {
      if (error) *error = QCoreApplication::translate("AttentionLab", "N: the token counts must increase (%1 after %2)").arg(n).arg(out.back());
      return std::nullopt;
    }
    out.push_back(n);
  }
  if (out.empty()) {
    if (error) *error = QCoreApplication::translate("AttentionLab", "N: give at least one token count, e.g. 16, 32, 64");
    return std::nullopt;
  }
  return out;
}

QSpinBox* makeSpin(int lo, int hi, int value, const char* objectName, QWidget* parent) {
  auto* s = new QSpinBox(parent);
  s->setRange(lo, hi);
  s->setValue(value);
  s->setObjectName(QLatin1String(objectName));
  return s;
}

QDoubleSpinBox* makeRelaxationSpin(const char* objectName, QWidget* parent) {
  auto* s = new QDoubleSpinBox(parent);
  s->setRange(0.05, 4.0);
  s->setSingleStep(0.25);
  s->setDecimals(2);
  s->setValue(1.0);
  s->setObjectName(QLatin1String(objectName));
  s->setToolTip(QCoreApplication::translate("AttentionLab",
                                            "AttLip's block x + α(prox(x) − x) (a run's model.prox_relaxation); 1 is the paper's AttLip. The "
                                            "prox is firmly non-expansive, so the block is 1-Lipschitz up to α = 2; above 2 its bound is α − 1."));
  return s;
}

void addField(QLayout* row, const QString& label, QWidget* field) {
  auto* l = new QLabel(label, field->parentWidget());
  l->setBuddy(field);
  // One widget per label and field: a wrapping row (widgets::FlowLayout) keeps them together.
  row->addWidget(group({l, field}, field->parentWidget()));
}

void addExportButtons(QLayout* row, QWidget* owner, const QString& stem, bool severalPlots, FileWriter savePlots,
                      FileWriter exportCsv) {
  auto* save = new QPushButton(severalPlots ? QCoreApplication::translate("AttentionLab", "Save pl&ots…")
                                            : QCoreApplication::translate("AttentionLab", "Save pl&ot…"),
                               owner);
  auto* csv = new QPushButton(QCoreApplication::translate("AttentionLab", "E&xport CSV…"), owner);
  row->addWidget(save);
  row->addWidget(csv);
  QObject::connect(save, &QPushButton::clicked, owner, [owner, stem, savePlots] { savePlotsDialog(owner, stem + QStringLiteral(".png"), savePlots); });
  QObject::connect(csv, &QPushButton::clicked, owner, [owner, stem, exportCsv] { exportCsvDialog(owner, stem + QStringLiteral(".csv"), exportCsv); });
}

void followRunner(LatestWins* runner, QLabel* info, QPushButton* cancel, const bool* refused) {
  if (cancel) {
    cancel->setEnabled(runner->busy());
    QObject::connect(runner, &LatestWins::busyChanged, cancel, &QPushButton::setEnabled);
    QObject::connect(cancel, &QPushButton::clicked, runner, &LatestWins::cancel);
  }
  QObject::connect(runner, &LatestWins::errorOccurred, info, [info](const QString& m) {
    info->setText(QCoreApplication::translate("AttentionLab", "Cannot run: %1").arg(m.toHtmlEscaped()));
  });
  QObject::connect(runner, &LatestWins::cancelled, info, [info, refused] {
    if (!refused || !*refused) info->setText(QCoreApplication::translate("AttentionLab", "Cancelled."));
  });
}

bool readBlock(const QSpinBox* dim, const QSpinBox* heads, const QSpinBox* seed, const std::string& kind,
               lab::AttentionBlockSpec* out, QString* error) {
  lab::AttentionBlockSpec b;
  b.kind = kind;
  b.dim = dim->value();
  b.heads = heads->value();
  b.seed = static_cast<uint64_t>(seed->value());
  if (const QString e = headsError(b.dim, b.heads); !e.isEmpty()) {
    if (error) *error = e;
    return false;
  }
  *out = b;
  return true;
}

QString headsError(int dim, int heads) {
  if (heads >= 1 && dim % heads == 0) return {};
  return QCoreApplication::translate("AttentionLab", "H: %1 does not divide d = %2 (d_h = d / H)").arg(heads).arg(dim);
}

const std::string& attLipId() {
  static const std::string id(attention::toString(attention::AttentionKind::AttLip));
  return id;
}

const std::string& l2Id() {
  static const std::string id(attention::toString(attention::AttentionKind::L2));
  return id;
}

}  // namespace lwb::app::pages
