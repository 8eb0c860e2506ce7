#include "app/pages/page_registry.h"

#include "app/pages/attention/attention_page.h"
#include "app/pages/cliplab/cliplab_page.h"
#include "app/pages/compare/compare_page.h"
#include "app/pages/inspector/inspector_page.h"
#include "app/pages/robustness/robustness_page.h"
#include "app/pages/sweeps/sweeps_page.h"
#include "app/train_page.h"

namespace lwb::app::pages {

QList<Page*> createPages(const PageServices& services, QWidget* parent) {
  auto* train = new TrainPage(services, parent);
  auto* lab = new ClipLabPage(parent);
  auto* inspector = new InspectorPage(parent);
  auto* compare = new ComparePage(services.runs, parent);
  QObject::connect(inspector, &InspectorPage::openInClipLab, lab,
                   [lab, show = services.showPage](std::shared_ptr<const io::TensorFile> file, const QString& name) {
                     lab->useTensor(std::move(file), name);
                     show(ClipLabPage::kId);
                   });
  auto* robustness = new RobustnessPage(services.runs, parent);
  auto* sweeps = new SweepsPage(services, parent);
  auto* attention = new AttentionPage(parent);
  return {train, lab, inspector, compare, robustness, sweeps, attention};
}

QStringList pageIds() {
  return {TrainPage::kId, ClipLabPage::kId, InspectorPage::kId, ComparePage::kId, RobustnessPage::kId,
          SweepsPage::kId, AttentionPage::kId};
}

}  // namespace lwb::app::pages
