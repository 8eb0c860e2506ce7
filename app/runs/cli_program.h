// Where the app finds lipschitz-cli, which it runs as a child process for work that needs its
// own processes (a sweep, a data-parallel run's ranks).
#pragma once

#include <QString>

namespace lwb::app {

// lipschitz-cli next to the running program (installed: both in bin/), the build tree's
// (a developer build), $LWB_CLI, or the one in PATH; empty when none is found.
QString findCliProgram();

}  // namespace lwb::app
