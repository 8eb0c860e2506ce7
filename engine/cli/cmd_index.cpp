// lipschitz-cli index RUNS_DIR… --db index.sqlite: adds or refreshes every run directory
// found under the folders (runs synced back from a cluster included); --rebuild starts the
// file afresh (a corrupted or foreign file is moved aside, never overwritten in place).
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "sweep/run_index.h"
#include "sweep/sweep_directory.h"

#include <CLI/CLI.hpp>

#include <chrono>
#include <iostream>
#include <memory>

namespace lwb::cli {
namespace {

struct IndexArgs {
  std::vector<std::string> roots;
  std::string db;
  bool rebuild = false;
};

int runIndex(const IndexArgs& a) {
  const auto t0 = std::chrono::steady_clock::now();
  nlohmann::json out;
  // Before the index file is created: a mistyped folder left an empty index behind.
  for (const std::string& root : a.roots) sweep::RunIndex::checkScanRoot(root);
  if (a.rebuild) {
    const std::string aside = sweep::RunIndex::discard(a.db);
    if (!aside.empty()) out["moved_aside"] = aside;
  }
  sweep::RunIndex index(a.db);
  index.setOnWaiting([&a] {
    std::cerr << "lipschitz-cli index: " << a.db << " is locked by another process (a sweep writing to it?); waiting up to "
              << sweep::RunIndex::kBusyTimeoutMs / 1000 << " s\n";
  });
  std::vector<std::filesystem::path> roots(a.roots.begin(), a.roots.end());
  auto report = index.scan(roots);
  // A sweep's rows name their sweep and point, as the sweep itself writes them.
  for (const std::string& s : report.sweeps) {
    try {
      const sweep::SweepDirectory dir(s);
      dir.syncIndex(index, sweep::SweepDirectory::readPoints(s));
    } catch (const std::exception& e) {
      report.problems.push_back(s + ": " + e.what());
    }
  }
  out["db"] = a.db;
  out["added"] = report.added;
  out["updated"] = report.updated;
  out["unchanged"] = report.unchanged;
  out["removed"] = report.removed;
  out["runs"] = index.count();
  out["problems"] = report.problems;
  out["warnings"] = report.warnings;
  out["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  printJson(out);
  for (const std::string& p : report.problems) std::cerr << "lipschitz-cli index: skipped " << p << "\n";
  for (const std::string& w : report.warnings) std::cerr << "lipschitz-cli index: " << w << "\n";
  return 0;
}

}  // namespace

Command addIndexCommand(CLI::App& app) {
  auto args = std::make_shared<IndexArgs>();
  auto* sub = app.add_subcommand("index", "add or refresh every run directory under the folders in a SQLite run index");
  sub->add_option("roots", args->roots, "folders holding run directories (searched recursively)")->required();
  sub->add_option("--db", args->db, "the run index file (created if absent)")->required()->check(nonEmpty());
  sub->add_flag("--rebuild", args->rebuild,
                "start the index afresh from the run directories (an unreadable or foreign file is moved to FILE.bak)");
  return {sub, [args] { return runIndex(*args); }};
}

}  // namespace lwb::cli
