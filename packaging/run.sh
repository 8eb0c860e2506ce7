#!/usr/bin/env bash
# The README's main-job command: set up (Debian packages), build, and run lipschitz-cli.
# With no arguments it runs the spectral-clipping demonstration; otherwise the arguments are
# a lipschitz-cli command line, e.g.
#   ./packaging/run.sh train --config resources/presets/chars_small_cpu.json --out runs/chars
set -euo pipefail
cd "$(dirname "$0")/.."
./packaging/setup.sh
./packaging/build.sh
if [ $# -eq 0 ]; then set -- demo; fi
exec ./build/engine/cli/lipschitz-cli "$@"
