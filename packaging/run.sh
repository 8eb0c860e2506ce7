#!/usr/bin/env bash
# The README's main-job command: set up (Debian packages), build, and launch the desktop
# app lipschitz-workbench. Arguments go to the app, e.g.
#   ./packaging/run.sh --preset chars_small_cpu --start
# `cli` passes a lipschitz-cli command line through instead (headless; no display needed):
#   ./packaging/run.sh cli demo
#   ./packaging/run.sh cli train --config resources/presets/chars_small_cpu.json --out runs/chars
# (A bare lipschitz-cli subcommand, e.g. `./packaging/run.sh train ...`, still goes to the CLI.)
set -euo pipefail
cd "$(dirname "$0")/.."

cli_commands=" spectral softcap-alpha demo train bench inspect bound "
mode=app
if [ $# -gt 0 ] && [ "$1" = cli ]; then
  mode=cli
  shift
elif [ $# -gt 0 ] && [[ "$cli_commands" == *" $1 "* ]]; then
  mode=cli
fi

# Without a display the app cannot open a window: say so before spending minutes on a build.
if [ "$mode" = app ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
  cat >&2 <<'MSG'
run.sh: no display (DISPLAY and WAYLAND_DISPLAY are unset), so the desktop app cannot start.
  Headless, use lipschitz-cli through this script, for example:
    ./packaging/run.sh cli demo
    ./packaging/run.sh cli train --config resources/presets/chars_small_cpu.json --out runs/chars
  or run the app under a virtual display:  xvfb-run -a ./packaging/run.sh
MSG
  exit 2
fi

./packaging/setup.sh
./packaging/build.sh
if [ "$mode" = cli ]; then
  if [ $# -eq 0 ]; then set -- demo; fi
  exec ./build/engine/cli/lipschitz-cli "$@"
fi
if [ ! -x ./build/app/lipschitz-workbench ]; then
  echo "run.sh: this build has no desktop app (configured with LWB_BUILD_GUI=OFF); use ./packaging/run.sh cli ..." >&2
  exit 2
fi
exec ./build/app/lipschitz-workbench "$@"
