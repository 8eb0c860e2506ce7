// Sweeps at scale (issue 18), two jobs in one program:
//
//   lwb-bench-sweep index [--runs N] [--reps R]
//     The run index with N synthetic runs (default 10,000): open + query through the engine
//     (RunIndex::rows with and without the config column), the Compare page's own read
//     (loadIndexRecords) and the Compare page from "open" to the table and frontier filled;
//     medians of R repetitions (default 5). Then `index` (scan) of 1,000 synthetic run
//     directories, first and unchanged.
//
//   lwb-bench-sweep frontier INDEX.sqlite OUT_STEM [--bins B]
//     Figure 2 from a sweep's index: the Compare page coloured by optimizer / method with the
//     frontier per group (best validation loss per bound bin) saved as OUT_STEM-frontier.png
//     and .csv, and each group's frontier printed as JSON.
//
// Run with QT_QPA_PLATFORM=offscreen (or xvfb-run -a). Results go in docs/BENCHMARKS.md and
// docs/RESULTS.md.
#include "app/pages/compare/compare_page.h"
#include "sweep/run_index.h"
#include "widgets/frontier_scatter_plot.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

using namespace lwb;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

json syntheticConfig(int i) {
  const char* methods[] = {"weight_decay", "spectral_normalize", "spectral_soft_cap", "spectral_hammer"};
  return {{"task", "mnist"}, {"steps", 300}, {"seed", i % 3}, {"model", {{"kind", "mlp"}, {"widths", {256}}}},
          {"optimizer", {{"kind", i % 2 ? "muon" : "adamw"}, {"lr", 0.001 * (1 + i % 7)}}},
          {"constraint", {{"method", methods[i % 4]}, {"sigma_max", 1 << (i % 5)}}}};
}

int benchIndex(int runs, int reps) {
  QTemporaryDir tmp;
  const fs::path db = fs::path(tmp.path().toStdString()) / "index.sqlite";
  {
    sweep::RunIndex index(db);
    std::vector<sweep::IndexRow> rows;
    for (int i = 0; i < runs; ++i) {
      sweep::IndexRow r;
      r.path = "/runs/sweep/" + std::to_string(i);
      r.id = std::to_string(i);
      r.status = "finished";
      sweep::setConfigColumns(r, syntheticConfig(i));
      r.valLoss = 0.1 + (i % 97) / 100.0;
      r.lipschitzBound = 1.0 + (i % 89) * 3.0;
      r.stepsPerSecond = 40;
      r.sweep = "/runs/sweep";
      r.point = i;
      rows.push_back(std::move(r));
    }
    QElapsedTimer t;
    t.start();
    index.upsert(rows);
    std::printf("{\"what\": \"insert %d rows, one transaction\", \"ms\": %.1f}\n", runs, t.nsecsElapsed() / 1e6);
  }
  std::vector<double> openQuery, openQueryNoConfig, records, page;
  for (int r = 0; r < reps; ++r) {
    QElapsedTimer t;
    t.start();
    {
      sweep::RunIndex index(db);
      if (index.rows().size() != static_cast<size_t>(runs)) return 1;
    }
    openQuery.push_back(t.nsecsElapsed() / 1e6);
    t.restart();
    {
      sweep::RunIndex index(db);
      if (index.rows({"", false}).size() != static_cast<size_t>(runs)) return 1;
    }
    openQueryNoConfig.push_back(t.nsecsElapsed() / 1e6);
    t.restart();
    if (app::pages::loadIndexRecords(QString::fromStdString(db.string())).size() != static_cast<size_t>(runs)) return 1;
    records.push_back(t.nsecsElapsed() / 1e6);
    // The page: worker read, merge, table model, frontier plot, until the table shows them.
    app::pages::ComparePage comparePage;
    t.restart();
    comparePage.addRunDirectories({QString::fromStdString(db.string())});
    while (comparePage.isLoading()) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    comparePage.replotNow();
    page.push_back(t.nsecsElapsed() / 1e6);
    if (comparePage.runs().size() != static_cast<size_t>(runs)) return 1;
  }
  std::printf("{\"runs\": %d, \"reps\": %d, \"open_query_ms\": %.1f, \"open_query_no_config_ms\": %.1f, "
              "\"compare_records_ms\": %.1f, \"compare_page_open_ms\": %.1f}\n",
              runs, reps, median(openQuery), median(openQueryNoConfig), median(records), median(page));

  // `index` over run directories (files written plainly here, no fsync: the scan is measured).
  const fs::path root = fs::path(tmp.path().toStdString()) / "dirs";
  const int dirs = 1000;
  for (int i = 0; i < dirs; ++i) {
    const fs::path d = root / std::to_string(i);
    fs::create_directories(d);
    std::ofstream(d / "config.json") << syntheticConfig(i).dump();
    std::ofstream(d / "metrics.jsonl") << "{\"step\": 300, \"train_loss\": 0.2}\n";
    std::ofstream(d / "summary.json") << json{{"status", "finished"}, {"steps", 300}, {"val_loss", 0.3}, {"lipschitz_bound", 8.0}}.dump();
    std::ofstream(d / "status") << "finished\n";
  }
  // Before the index: Compare reading every folder's JSON.
  QElapsedTimer t;
  t.start();
  {
    app::pages::ComparePage folders;
    folders.addRunDirectories({QString::fromStdString(root.string())});
    while (folders.isLoading()) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    folders.replotNow();
    std::printf("{\"what\": \"Compare reading %d run directories (no index)\", \"ms\": %.1f}\n", dirs,
                t.nsecsElapsed() / 1e6);
  }
  sweep::RunIndex index(fs::path(tmp.path().toStdString()) / "dirs-index.sqlite");
  t.restart();
  const auto first = index.scan({root});
  const double firstMs = t.nsecsElapsed() / 1e6;
  t.restart();
  const auto again = index.scan({root});
  std::printf("{\"what\": \"index scan of %d run directories\", \"added\": %d, \"first_ms\": %.1f, \"unchanged\": %d, "
              "\"again_ms\": %.1f}\n",
              dirs, first.added, firstMs, again.unchanged, t.nsecsElapsed() / 1e6);
  return 0;
}

int frontier(const QString& db, const QString& stem, int bins) {
  app::pages::ComparePage page;
  page.resize(1600, 1000);
  page.addRunDirectories({db});
  while (page.isLoading()) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  if (!page.errorText().isEmpty()) {
    std::fprintf(stderr, "%s\n", qPrintable(page.errorText()));
    return 2;
  }
  page.setColorBy(QStringLiteral("optimizer/method"));
  page.setFrontierPerGroup(true);
  auto* plot = page.scatterPlot();
  plot->setBinsPerDecade(bins);
  plot->resize(1100, 700);
  page.replotNow();
  QString error;
  if (!plot->savePng(stem + QStringLiteral("-frontier.png"), 1100, 700, &error)) {
    std::fprintf(stderr, "%s\n", qPrintable(error));
    return 1;
  }
  std::ofstream csv((stem + QStringLiteral("-frontier.csv")).toStdString());
  csv << "group,run,lipschitz_bound,val_loss,on_frontier\n";
  json out = json::object();
  std::map<QString, std::vector<size_t>> groups;
  const auto& pts = plot->points();
  for (size_t i = 0; i < pts.size(); ++i) groups[pts[i].group].push_back(i);
  for (const auto& [group, members] : groups) {
    const auto f = plot->frontierIndices(group);
    json line = json::array();
    for (size_t i : f) line.push_back({{"bound", pts[i].x}, {"val_loss", pts[i].y}, {"run", pts[i].label.toStdString()}});
    out[group.toStdString()] = {{"runs", members.size()}, {"frontier", line}};
    for (size_t i : members)
      csv << group.toStdString() << "," << pts[i].label.toStdString() << "," << pts[i].x << "," << pts[i].y << ","
          << (std::find(f.begin(), f.end(), i) != f.end()) << "\n";
  }
  std::printf("%s\n", out.dump(1).c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  const QStringList args = app.arguments();
  const auto value = [&](const QString& flag, int fallback) {
    const int i = args.indexOf(flag);
    return i >= 0 && i + 1 < args.size() ? args[i + 1].toInt() : fallback;
  };
  if (args.size() >= 2 && args[1] == QLatin1String("index")) return benchIndex(value("--runs", 10000), value("--reps", 5));
  if (args.size() >= 4 && args[1] == QLatin1String("frontier")) return frontier(args[2], args[3], value("--bins", 4));
  std::fprintf(stderr, "usage: lwb-bench-sweep index [--runs N] [--reps R] | frontier INDEX.sqlite OUT_STEM [--bins B]\n");
  return 2;
}
