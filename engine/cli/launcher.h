// lipschitz-cli train --nproc N: starts N ranks of this same program on this machine (Gloo over
// 127.0.0.1, rendezvous on a free port) and waits for them (issue 28). No LibTorch.
#pragma once

#include <string>
#include <vector>

namespace lwb::cli {

// The program's own argument vector, kept by main() for the launcher.
void setCommandLine(int argc, char** argv);
const std::vector<std::string>& commandLine();

// Runs `nproc` ranks of commandLine() without its --nproc option; returns 0 when every rank
// exits 0, else the status of the rank that caused the failure (after stopping the others with
// SIGTERM and, past `graceSeconds`, SIGKILL). The cause is chosen among the failures of the
// first 300 ms: a rank killed by an outside signal before one that failed from losing it.
// SIGINT/SIGTERM to the launcher are passed to every rank. The cause is named on stderr and,
// where rank 0 left `runDir` saying "running", in its status file.
int launchLocalRanks(int nproc, double graceSeconds, const std::string& runDir = {});

}  // namespace lwb::cli
