// lipschitz-cli: exit 0 on success, 2 with one line on stderr for bad input, 1 for an
// unexpected failure. Never a stack trace.
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/launcher.h"
#include "cli/validators.h"
#include "common/float_env.h"
#include "common/malloc_policy.h"
#include "common/threads.h"
#include "common/version.h"
#include "io/input_error.h"
#include "io/json_fields.h"

#include <CLI/CLI.hpp>
#include <c10/util/Exception.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace {

// One line, whatever the exception text looked like (c10 errors carry backtraces).
std::string firstLine(const std::string& s) {
  const auto nl = s.find('\n');
  return nl == std::string::npos ? s : s.substr(0, nl);
}

// "unknown option --confg for train (did you mean --config?)" for the first --word that
// neither the chosen command nor the program defines; empty when every one is known.
std::string unknownOptionMessage(CLI::App& app, int argc, char** argv) {
  CLI::App* command = nullptr;
  for (CLI::App* sub : app.get_subcommands({}))
    if (sub->parsed()) command = sub;
  std::vector<std::string> names;
  for (CLI::App* scope : {&app, command})
    if (scope)
      for (const CLI::Option* o : scope->get_options())
        for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0 || arg == "--") continue;
    arg = arg.substr(0, arg.find('='));
    if (std::find(names.begin(), names.end(), arg) != names.end()) continue;
    std::string best;
    size_t bestDistance = 3;  // two edits at most, else no suggestion
    for (const std::string& n : names)
      if (const size_t d = lwb::fields::editDistance(arg, n); d < bestDistance) {
        bestDistance = d;
        best = n;
      }
    std::string msg = "unknown option " + arg;
    if (command) msg += " for " + command->get_name();
    if (!best.empty()) msg += " (did you mean " + best + "?)";
    return msg;
  }
  return {};
}

}  // namespace

namespace {
int runCli(int argc, char** argv);
}  // namespace

// The command's own objects (files, databases, process groups, threads) are closed when
// runCli returns. What is left are static destructors: LibTorch deregistering its thousands of
// operators, ~10 % of a short command's time (perf, `softcap-alpha --help`). They write
// nothing of ours, so the process ends without them once the output is flushed.
int main(int argc, char** argv) {
  const int code = runCli(argc, argv);
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(code);
}

namespace {

int runCli(int argc, char** argv) {
  // Before anything else: a short OpenMP spin, set before a second start of this binary
  // since libgomp reads it when LibTorch loads (common/threads.h). Returns when set already.
  lwb::reexecWithOpenMpWaitPolicy(argv);
  lwb::configureAllocator();  // tensor buffers reused, not re-faulted each step (common/malloc_policy.h)
  lwb::configureFloatingPoint();  // denormals flushed: common/float_env.h
  lwb::cli::setCommandLine(argc, argv);  // train --nproc starts ranks with the same arguments
  CLI::App app{"Lipschitz Workbench headless tools: spectral constraints of weight matrices",
               "lipschitz-cli"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "lipschitz-cli " + std::string(lwb::version()));
  int threads = 0;
  bool noMemoryCheck = false;
  app.add_flag("--no-memory-check", noMemoryCheck,
               "build models and batches even where the memory estimate exceeds what is available (sets LWB_MEMORY_CHECK=off, inherited by sweep points)");
  app.add_option("--threads", threads, "intra-op CPU threads (default: LWB_THREADS, else chosen per run between 1 and all hardware threads)")
      ->transform(lwb::cli::integerIn(0, 4096));

  const lwb::cli::Command commands[] = {
      lwb::cli::addSpectralCommand(app),
      lwb::cli::addSoftCapAlphaCommand(app),
      lwb::cli::addDemoCommand(app),
      lwb::cli::addTrainCommand(app),
      lwb::cli::addBenchCommand(app),
      lwb::cli::addInspectCommand(app),
      lwb::cli::addBoundCommand(app),
      lwb::cli::addRobustnessCommand(app),
      lwb::cli::addSweepCommand(app),
      lwb::cli::addIndexCommand(app),
      lwb::cli::addAttentionCommand(app),
      lwb::cli::addSampleCommand(app),
  };
  // CLI11 reports an unknown command word as "A subcommand is required"; name it instead.
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--threads") { ++i; continue; }
    if (arg == "--no-memory-check") continue;
    if (arg.rfind("--", 0) == 0) {
      // Before the command only the program's own options: "--thread 2 demo" read "2" as a command.
      if (const std::string unknown = unknownOptionMessage(app, i + 1, argv); !unknown.empty()) {
        std::cerr << "lipschitz-cli: " << unknown << " (see --help)\n";
        return lwb::cli::kExitBadInput;
      }
      continue;
    }
    if (arg.empty() || arg[0] == '-') continue;
    bool known = false;
    for (const auto& c : commands) known = known || c.sub->check_name(arg);
    if (!known) {
      std::string names;  // from the command table, so a new command is listed without editing this line
      for (const auto& c : commands) names += (names.empty() ? "" : ", ") + c.sub->get_name();
      std::cerr << "lipschitz-cli: unknown command '" << arg << "' (one of: " << names << ")\n";
      return lwb::cli::kExitBadInput;
    }
    break;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    // CLI11 lists the extras in an order of its own and blames the misspelt flag's value too
    // ("not expected: run.json --confg"); a flag nobody defines is named, with the nearest.
    if (const std::string unknown = unknownOptionMessage(app, argc, argv); !unknown.empty()) {
      std::cerr << "lipschitz-cli: " << unknown << " (see --help)\n";
      return lwb::cli::kExitBadInput;
    }
    std::cerr << "lipschitz-cli: " << firstLine(e.what()) << " (see --help)\n";
    return lwb::cli::kExitBadInput;
  } catch (const CLI::RequiredError& e) {
    // A misspelt required flag ("--sigma-mx 1") reads as the flag missing: name the misspelling.
    if (const std::string unknown = unknownOptionMessage(app, argc, argv); !unknown.empty()) {
      std::cerr << "lipschitz-cli: " << unknown << " (see --help)\n";
      return lwb::cli::kExitBadInput;
    }
    // "target is required" names CLI11's variable; say what it is.
    std::string what = firstLine(e.what());
    for (CLI::App* sub : app.get_subcommands({}))
      if (sub->parsed())
        for (const CLI::Option* o : sub->get_options())
          if (o->get_required() && o->count() == 0 && !o->get_description().empty()) {
            what = sub->get_name() + ": missing " + o->get_name() + " (" + o->get_description() + ")";
            break;
          }
    std::cerr << "lipschitz-cli: " << what << " (see --help)\n";
    return lwb::cli::kExitBadInput;
  } catch (const CLI::ParseError& e) {
    std::cerr << "lipschitz-cli: " << firstLine(e.what()) << " (see --help)\n";
    return lwb::cli::kExitBadInput;
  }
  try {
    lwb::setIntraOpThreads(threads);
    if (noMemoryCheck) ::setenv("LWB_MEMORY_CHECK", "off", 1);  // run/memory_estimate.h
    for (const auto& c : commands)
      if (c.sub->parsed()) return c.run();
    return lwb::cli::kExitBadInput;
  } catch (const lwb::InputError& e) {
    std::cerr << "lipschitz-cli: " << firstLine(e.what()) << "\n";
    return lwb::cli::kExitBadInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "lipschitz-cli: " << firstLine(e.what()) << "\n";
    return lwb::cli::kExitBadInput;
  } catch (const c10::Error& e) {
    std::cerr << "lipschitz-cli: LibTorch error: " << firstLine(e.what_without_backtrace()) << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "lipschitz-cli: " << firstLine(e.what()) << "\n";
    return 1;
  }
}

}  // namespace
