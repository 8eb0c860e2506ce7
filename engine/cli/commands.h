// Subcommands of lipschitz-cli. Each registers its options on the app and returns the
// action to run once parsing succeeded. Actions return the process exit code.
#pragma once

#include <functional>

namespace CLI {
class App;
}

namespace lwb::cli {

struct Command {
  CLI::App* sub = nullptr;
  std::function<int()> run;
};

Command addSpectralCommand(CLI::App& app);
Command addSoftCapAlphaCommand(CLI::App& app);
Command addDemoCommand(CLI::App& app);
Command addTrainCommand(CLI::App& app);
Command addBenchCommand(CLI::App& app);
Command addInspectCommand(CLI::App& app);
Command addBoundCommand(CLI::App& app);
// issue 18: sweeps and the run index
Command addSweepCommand(CLI::App& app);
Command addIndexCommand(CLI::App& app);
// issue 13: robustness
Command addRobustnessCommand(CLI::App& app);
// issue 15: attention blocks of seed 004
Command addAttentionCommand(CLI::App& app);
// issue 29: text from a character-level run
Command addSampleCommand(CLI::App& app);

}  // namespace lwb::cli
