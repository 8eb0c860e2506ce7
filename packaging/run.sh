#!/usr/bin/env bash
# The README's main-job command: set up (Debian packages), build, and run the headless
# demonstration of spectral clipping. Extra arguments go to `lipschitz-cli demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
./packaging/setup.sh
./packaging/build.sh
exec ./build/engine/cli/lipschitz-cli demo "$@"
