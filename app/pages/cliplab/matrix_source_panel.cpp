#include "app/pages/cliplab/matrix_source_panel.h"

#include "app/pages/common/slider_field.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <limits>

namespace lwb::app::pages {
namespace {

// Index of the checkpoint entry in the kind box (after the four random kinds).
constexpr int kCheckpointKind = 4;

const std::pair<int, int> kSizes[] = {{64, 128}, {128, 256}, {256, 512}, {512, 512}, {512, 1024}, {1024, 1024}, {1024, 4096}};

}  // namespace

MatrixSourcePanel::MatrixSourcePanel(QWidget* parent) : QGroupBox(tr("Matrix"), parent) {
  form_ = new QFormLayout(this);
  form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form_->setRowWrapPolicy(QFormLayout::WrapLongRows);  // as in MethodForm: narrow windows
  createKindAndSize();
  QPushButton* reseed = createSpectrumFields();
  createFileFields();
  addRows();
  connectFields(reseed);
  updateRows();
}

void MatrixSourcePanel::createKindAndSize() {
  kind_ = new QComboBox(this);
  kind_->setObjectName(QStringLiteral("sourceBox"));
  kind_->addItem(tr("Gaussian"), static_cast<int>(lab::SourceKind::Gaussian));
  kind_->addItem(tr("Low rank + noise"), static_cast<int>(lab::SourceKind::LowRankNoise));
  kind_->addItem(tr("Heavy-tailed spectrum"), static_cast<int>(lab::SourceKind::HeavyTailed));
  kind_->addItem(tr("Prescribed spectrum"), static_cast<int>(lab::SourceKind::Prescribed));
  kind_->addItem(tr("Layer from a checkpoint"), -1);

  size_ = new QComboBox(this);
  for (const auto& [m, n] : kSizes) size_->addItem(QStringLiteral("%1×%2").arg(m).arg(n), QSize(n, m));
  size_->addItem(tr("custom"), QSize());
  rows_ = new QSpinBox(this);
  cols_ = new QSpinBox(this);
  for (auto* s : {rows_, cols_}) s->setRange(2, 4096);
  rows_->setValue(256);
  cols_->setValue(512);
  size_->setCurrentIndex(2);
  sizeRow_ = new QWidget(this);
  auto* sizeLayout = new QHBoxLayout(sizeRow_);
  sizeLayout->setContentsMargins(0, 0, 0, 0);
  sizeLayout->addWidget(size_, 1);
  sizeLayout->addWidget(rows_);
  sizeLayout->addWidget(new QLabel(QStringLiteral("×"), sizeRow_));
  sizeLayout->addWidget(cols_);
}

// σ₁, rank, noise, tail, smallest σ, explicit values and the seed; returns "New seed".
QPushButton* MatrixSourcePanel::createSpectrumFields() {
  sigma1_ = new SliderField(0.01, 1000, 3, 3, true, this);
  sigma1_->setObjectName(QStringLiteral("sigma1Field"));
  rank_ = new QSpinBox(this);
  rank_->setRange(1, 4096);
  rank_->setValue(8);
  noise_ = new SliderField(0, 1, 0.05, 3, false, this);
  tail_ = new SliderField(0.3, 5, 1.5, 2, true, this);
  sigmaLow_ = new SliderField(1e-4, 10, 0.01, 4, true, this);
  values_ = new QLineEdit(this);
  values_->setPlaceholderText(tr("optional: 10, 5, 2, 1, 0.5 …"));
  values_->setToolTip(tr("Explicit singular values, comma separated (missing ones are zero). Empty: log-spaced from σ₁ to the smallest σ."));
  seed_ = new QSpinBox(this);
  seed_->setRange(1, 1000000);
  auto* reseed = new QPushButton(tr("New &seed"), this);
  seedRow_ = new QWidget(this);
  auto* seedLayout = new QHBoxLayout(seedRow_);
  seedLayout->setContentsMargins(0, 0, 0, 0);
  seedLayout->addWidget(seed_, 1);
  seedLayout->addWidget(reseed);
  return reseed;
}

void MatrixSourcePanel::createFileFields() {
  openButton_ = new QPushButton(tr("&Open file…"), this);
  fileLabel_ = new QLabel(tr("no file"), this);
  fileLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  fileRow_ = new QWidget(this);
  auto* fileLayout = new QHBoxLayout(fileRow_);
  fileLayout->setContentsMargins(0, 0, 0, 0);
  fileLayout->addWidget(openButton_);
  fileLayout->addWidget(fileLabel_, 1);
  layer_ = new QComboBox(this);
  layer_->setObjectName(QStringLiteral("layerBox"));
  status_ = new QLabel(this);
  status_->setWordWrap(true);
}

void MatrixSourcePanel::addRows() {
  form_->addRow(tr("Source"), kind_);
  form_->addRow(tr("Size"), sizeRow_);
  form_->addRow(tr("σ₁"), sigma1_);
  form_->addRow(tr("Rank"), rank_);
  form_->addRow(tr("Noise"), noise_);
  form_->addRow(tr("Tail exponent"), tail_);
  form_->addRow(tr("Smallest σ"), sigmaLow_);
  form_->addRow(tr("Values"), values_);
  form_->addRow(tr("Seed"), seedRow_);
  form_->addRow(tr("File"), fileRow_);
  form_->addRow(tr("Layer"), layer_);
  form_->addRow(status_);
}

void MatrixSourcePanel::connectFields(QPushButton* reseed) {
  const auto changed = [this] {
    if (!applying_) Q_EMIT sourceChanged();
  };
  connect(kind_, &QComboBox::currentIndexChanged, this, [this, changed] {
    updateRows();
    changed();
  });
  connect(size_, &QComboBox::currentIndexChanged, this, [this, changed] {
    const QSize s = size_->currentData().toSize();
    if (s.isValid()) {
      applying_ = true;
      rows_->setValue(s.height());
      cols_->setValue(s.width());
      applying_ = false;
    }
    updateRows();
    changed();
  });
  for (auto* s : {rows_, cols_, rank_, seed_}) connect(s, &QSpinBox::valueChanged, this, changed);
  for (auto* f : {sigma1_, noise_, tail_, sigmaLow_}) connect(f, &SliderField::valueChanged, this, changed);
  connect(values_, &QLineEdit::editingFinished, this, changed);
  connect(reseed, &QPushButton::clicked, this, [this] { seed_->setValue(seed_->value() % 1000000 + 1); });
  connect(openButton_, &QPushButton::clicked, this, &MatrixSourcePanel::chooseFile);
  connect(layer_, &QComboBox::currentIndexChanged, this, changed);
}

bool MatrixSourcePanel::isCheckpointSource() const { return kind_->currentIndex() == kCheckpointKind; }

lab::MatrixSpec MatrixSourcePanel::spec() const {
  lab::MatrixSpec s;
  const int kind = kind_->currentData().toInt();
  s.kind = kind >= 0 ? static_cast<lab::SourceKind>(kind) : lab::SourceKind::Gaussian;
  s.rows = rows_->value();
  s.cols = cols_->value();
  s.seed = static_cast<uint64_t>(seed_->value());
  s.sigma1 = sigma1_->value();
  s.rank = rank_->value();
  s.noise = noise_->value();
  s.tailExponent = tail_->value();
  s.sigmaLow = sigmaLow_->value();
  if (s.kind == lab::SourceKind::Prescribed)
    for (const QString& part : values_->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
      bool ok = false;
      const double v = part.trimmed().toDouble(&ok);
      // A value that does not parse is passed on as NaN so validateSpec names the field.
      s.values.push_back(ok ? v : std::numeric_limits<double>::quiet_NaN());
    }
  return s;
}

void MatrixSourcePanel::setSpec(const lab::MatrixSpec& s) {
  applying_ = true;
  kind_->setCurrentIndex(kind_->findData(static_cast<int>(s.kind)));
  int sizeIndex = size_->count() - 1;
  for (int i = 0; i < size_->count(); ++i)
    if (size_->itemData(i).toSize() == QSize(static_cast<int>(s.cols), static_cast<int>(s.rows))) sizeIndex = i;
  size_->setCurrentIndex(sizeIndex);
  rows_->setValue(static_cast<int>(s.rows));
  cols_->setValue(static_cast<int>(s.cols));
  seed_->setValue(static_cast<int>(s.seed));
  sigma1_->setValue(s.sigma1);
  rank_->setValue(static_cast<int>(s.rank));
  noise_->setValue(s.noise);
  tail_->setValue(s.tailExponent);
  sigmaLow_->setValue(s.sigmaLow);
  QStringList parts;
  for (double v : s.values) parts << QString::number(v, 'g', 6);
  values_->setText(parts.join(QStringLiteral(", ")));
  updateRows();
  applying_ = false;
  Q_EMIT sourceChanged();
}

bool MatrixSourcePanel::onlySigma1Differs(const lab::MatrixSpec& a, const lab::MatrixSpec& b) const {
  return a.kind == b.kind && a.rows == b.rows && a.cols == b.cols && a.seed == b.seed && a.rank == b.rank && a.noise == b.noise &&
         a.tailExponent == b.tailExponent && a.values == b.values &&
         // a log-spaced prescribed spectrum runs from σ₁ to sigmaLow: its shape depends on σ₁
         (a.kind != lab::SourceKind::Prescribed || !a.values.empty()) && a.sigmaLow == b.sigmaLow;
}

void MatrixSourcePanel::setCheckpointLayers(const QString& path, const std::vector<std::pair<QString, QString>>& layers) {
  applying_ = true;
  checkpointPath_ = path;
  fileLabel_->setText(QFileInfo(path).fileName());
  fileLabel_->setToolTip(path);
  layer_->clear();
  for (const auto& [name, shape] : layers) layer_->addItem(QStringLiteral("%1  (%2)").arg(name, shape), name);
  kind_->setCurrentIndex(kCheckpointKind);
  updateRows();
  applying_ = false;
  Q_EMIT sourceChanged();
}

QString MatrixSourcePanel::checkpointLayer() const { return layer_->currentData().toString(); }

void MatrixSourcePanel::selectCheckpointLayer(const QString& name) {
  const int i = layer_->findData(name);
  if (i >= 0) layer_->setCurrentIndex(i);
}

void MatrixSourcePanel::setStatus(const QString& text, bool error) {
  status_->setText(text);
  status_->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
}

void MatrixSourcePanel::updateRows() {
  const bool checkpoint = isCheckpointSource();
  const int kind = kind_->currentData().toInt();
  const bool custom = !size_->currentData().toSize().isValid();
  rows_->setVisible(custom);
  cols_->setVisible(custom);
  form_->setRowVisible(sizeRow_, !checkpoint);
  form_->setRowVisible(sigma1_, !checkpoint);
  form_->setRowVisible(rank_, kind == static_cast<int>(lab::SourceKind::LowRankNoise));
  form_->setRowVisible(noise_, kind == static_cast<int>(lab::SourceKind::LowRankNoise));
  form_->setRowVisible(tail_, kind == static_cast<int>(lab::SourceKind::HeavyTailed));
  form_->setRowVisible(sigmaLow_, kind == static_cast<int>(lab::SourceKind::Prescribed));
  form_->setRowVisible(values_, kind == static_cast<int>(lab::SourceKind::Prescribed));
  form_->setRowVisible(seedRow_, !checkpoint);
  form_->setRowVisible(fileRow_, checkpoint);
  form_->setRowVisible(layer_, checkpoint);
}

void MatrixSourcePanel::chooseFile() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open a checkpoint"), checkpointPath_,
                                                    tr("Tensor files (*.safetensors *.npz *.npy *.pt *.pth);;All files (*)"));
  if (!path.isEmpty()) Q_EMIT openFileRequested(path);
}

}  // namespace lwb::app::pages
