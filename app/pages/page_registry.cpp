#include "app/pages/page_registry.h"

#include "app/pages/attention/attention_page.h"
#include "app/pages/cliplab/cliplab_page.h"
#include "app/pages/compare/compare_page.h"
#include "app/pages/inspector/inspector_page.h"
#include "app/pages/robustness/robustness_page.h"
#include "app/pages/sweeps/sweeps_page.h"
#include "app/pages/train/train_page.h"

#include <array>
#include <memory>

namespace lwb::app::pages {
namespace {

using O = PageOption;

constexpr std::array kTrainOptions{
    O{"preset", "ID", "Load preset ID (resources/presets/ID.json) into the run panel.", &AppOptions::preset},
    O{"set", "key=value", "Override a config key of the preset, e.g. --set steps=200 (repeatable).", &AppOptions::overrides},
    O{"start", "", "Start the preset at once (needs --preset).", &AppOptions::start},
    O{"processes", "N", "Train --start's run in N local processes (lipschitz-cli train --nproc N; default 1: inside the app).",
      &AppOptions::processes, OptionCheck::None, false, 1, 1024, "a process count"},
};
constexpr std::array kClipLabOptions{
    O{"lab-preset", "ID", "Open the Clip Lab on this lecture preset (e.g. stiefel_retraction).", &AppOptions::labPreset,
      OptionCheck::None, true},
};
constexpr std::array kInspectorOptions{
    O{"inspect", "FILE|DIR",
      "Open a .safetensors, .npz, .npy or .pt file, a model folder or a run directory (its checkpoints as a history) in the "
      "Checkpoint Inspector.",
      &AppOptions::inspectFile, OptionCheck::FileOrFolder, true},
};
constexpr std::array kCompareOptions{
    O{"compare", "RUN_DIR", "Compare run directories (or folders of them); more may follow as arguments.", &AppOptions::compareDirs,
      OptionCheck::Folder, true, 0, 0, "", true},
};
constexpr std::array kRobustnessOptions{
    O{"robustness", "RUN_DIR", "Attack and certify a run directory or checkpoint on the Robustness page (repeatable).",
      &AppOptions::robustnessTargets, OptionCheck::Readable, true},
};
constexpr std::array kSweepsOptions{
    O{"sweep", "SWEEP_DIR", "Show a sweep folder's points in the Sweeps page.", &AppOptions::sweepDir, OptionCheck::Folder, true},
};
constexpr std::array kAttentionOptions{
    O{"attention-preset", "ID", "Open the Attention Lab on this lecture preset (e.g. table1).", &AppOptions::attentionPreset,
      OptionCheck::None, true},
};

// The pages, in View-menu order. When options of two pages are given without --page, the
// first page here that one of them implies is shown.
constexpr std::array<PageRow, 7> kPages{{
    {"train",
     [](const PageServices& s, QWidget* p) -> Page* { return new TrainPage(s, p); }, kTrainOptions, 1},
    {"cliplab",
     [](const PageServices&, QWidget* p) -> Page* { return new ClipLabPage(p); }, kClipLabOptions, 2},
    {"inspector",
     [](const PageServices&, QWidget* p) -> Page* { return new InspectorPage(p); }, kInspectorOptions, 3},
    {"compare",
     [](const PageServices& s, QWidget* p) -> Page* { return new ComparePage(s.runs, p); }, kCompareOptions, 4},
    {"robustness",
     [](const PageServices& s, QWidget* p) -> Page* { return new RobustnessPage(s.runs, p); }, kRobustnessOptions, 5},
    {"sweeps",
     [](const PageServices& s, QWidget* p) -> Page* { return new SweepsPage(s, p); }, kSweepsOptions, 6},
    {"attention",
     [](const PageServices&, QWidget* p) -> Page* { return new AttentionPage(p); }, kAttentionOptions, 7},
}};

template <class P>
P* find(const QList<Page*>& pages) {
  for (Page* page : pages)
    if (auto* p = dynamic_cast<P*>(page)) return p;
  return nullptr;
}

// The Inspector's "Open in Clip Lab".
void wire(const QList<Page*>& pages, const PageServices& services) {
  auto* inspector = find<InspectorPage>(pages);
  auto* lab = find<ClipLabPage>(pages);
  QObject::connect(inspector, &InspectorPage::openInClipLab, lab,
                   [lab, show = services.showPage](std::shared_ptr<const io::TensorFile> file, const QString& name) {
                     lab->useTensor(std::move(file), name);
                     show(lab->id());
                   });
}

}  // namespace

std::span<const PageRow> pageTable() { return kPages; }

QList<Page*> createPages(const PageServices& services, QWidget* parent) {
  QList<Page*> pages;
  for (const PageRow& row : kPages) {
    Page* page = row.create(services, parent);
    page->setRow(&row);
    pages << page;
  }
  wire(pages, services);
  return pages;
}

QStringList pageIds() {
  QStringList ids;
  for (const PageRow& row : kPages) ids << QString::fromLatin1(row.id);
  return ids;
}

const PageRow* pageRow(const QString& id) {
  for (const PageRow& row : kPages)
    if (id == QLatin1String(row.id)) return &row;
  return nullptr;
}

ParsedOptions parseOptions(const QStringList& args) { return parseAppOptions(args, kPages); }

}  // namespace lwb::app::pages
