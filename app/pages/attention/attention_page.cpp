#include "app/pages/attention/attention_page.h"

#include "app/app_options.h"
#include "app/pages/attention/attention_presets.h"
#include "app/pages/attention/finite_k_view.h"
#include "app/pages/attention/length_view.h"
#include "app/pages/attention/plane_view.h"
#include "app/pages/attention/prox_view.h"
#include "app/pages/common/lecture_preset_bar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace lwb::app::pages {

AttentionPage::AttentionPage(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("attentionPage"));
  QList<QPair<QString, QString>> presets;
  for (const auto& p : attentionPresets()) presets.append({p.title, p.id});
  presetBar_ = new LecturePresetBar(presets, QStringLiteral("attentionPresetBox"),
                                    tr("AttLip computes attention as the proximal step of a convex potential, so it is 1-Lipschitz "
                                       "at every sequence length. Pick a preset or a tab."),
                                    this);
  auto* top = new QHBoxLayout;
  top->addWidget(presetBar_);

  length_ = new LengthView(this);
  prox_ = new ProxView(this);
  finiteK_ = new FiniteKView(this);
  plane_ = new PlaneView(this);
  tabs_ = new QTabWidget(this);
  tabs_->setObjectName(QStringLiteral("attentionTabs"));
  tabs_->addTab(length_, tr("&Lipschitz vs sequence length"));
  tabs_->addTab(prox_, tr("&Inside the prox"));
  tabs_->addTab(finiteK_, tr("Why Armijo with small &K is not 1-Lipschitz"));
  tabs_->addTab(plane_, tr("&Tokens in the plane"));

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(tabs_, 1);

  connect(presetBar_, &LecturePresetBar::presetChosen, this, [this](const QString& id) { applyPreset(id); });
}

bool AttentionPage::applyOptions(const AppOptions& options, QString* error) {
  if (options.attentionPreset.isEmpty() || applyPreset(options.attentionPreset)) return true;
  *error = tr("--attention-preset: unknown Attention Lab preset '%1' (%2)")
               .arg(options.attentionPreset, presetIds().join(QStringLiteral(", ")));
  return false;
}

QStringList AttentionPage::presetIds() const {
  QStringList ids;
  for (const auto& p : attentionPresets()) ids << p.id;
  return ids;
}

QString AttentionPage::cueText() const { return presetBar_->cue(); }

bool AttentionPage::applyPreset(const QString& id) {
  const auto& all = attentionPresets();
  const auto it = std::find_if(all.begin(), all.end(), [&](const AttentionPreset& p) { return p.id == id; });
  if (it == all.end()) return false;
  presetBar_->select(id);
  if (it->length) {
    length_->setRequest(*it->length);
    length_->setPaperOverlay(it->paperOverlay);
  }
  if (it->prox) prox_->setRequest(*it->prox);
  if (it->finiteK) finiteK_->setRequest(*it->finiteK);
  if (it->plane) plane_->setRequest(*it->plane);
  tabs_->setCurrentIndex(static_cast<int>(it->tab));
  if (it->runNow) length_->run();
  if (it->tab == AttentionTab::Prox) prox_->setStep(0);
  presetBar_->setCue(it->cue);
  return true;
}

void AttentionPage::beforeScreenshot() {
  length_->replotNow();
  prox_->replotNow();
  finiteK_->replotNow();
  plane_->replotNow();
}

}  // namespace lwb::app::pages
