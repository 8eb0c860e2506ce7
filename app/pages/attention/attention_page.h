// Attention Lab (seed 004, issue 15): a teaching and research page about Lipschitz attention.
// Four views in tabs — the Lipschitz constant vs sequence length (004 Table 1), the inside of
// AttLip's proximal solver (Fig. 1), why Armijo with small K is not 1-Lipschitz (SEEDS §C.4),
// and tokens in the plane — with lecture presets on top. Every computation runs on a worker
// through engine/lab/attention_lab.h, which has no LibTorch.
#pragma once

#include "app/page.h"

#include <QLatin1String>
#include <QWidget>

class QComboBox;
class QLabel;
class QTabWidget;

namespace lwb::app::pages {

class FiniteKView;
class LecturePresetBar;
class LengthView;
class PlaneView;
class ProxView;

class AttentionPage : public QWidget, public Page {
  Q_OBJECT

 public:

  explicit AttentionPage(QWidget* parent = nullptr);

  QString title() const override { return tr("&Attention Lab"); }
  QWidget* widget() override { return this; }
  // --attention-preset ID: applies that lecture preset.
  bool applyOptions(const AppOptions& options, QString* error) override;
  void beforeScreenshot() override;

  // Lecture presets (attention_presets.h), by id; false for an unknown id.
  bool applyPreset(const QString& id);
  QStringList presetIds() const;
  QString cueText() const;

  QTabWidget* tabs() const { return tabs_; }
  LengthView* lengthView() const { return length_; }
  ProxView* proxView() const { return prox_; }
  FiniteKView* finiteKView() const { return finiteK_; }
  PlaneView* planeView() const { return plane_; }

 private:
  LecturePresetBar* presetBar_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  LengthView* length_ = nullptr;
  ProxView* prox_ = nullptr;
  FiniteKView* finiteK_ = nullptr;
  PlaneView* plane_ = nullptr;
};

}  // namespace lwb::app::pages
