#!/usr/bin/env bash
# The README's test command: set up (Debian packages), build, run every test with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
./packaging/setup.sh
./packaging/build.sh
cd build
ctest --output-on-failure --timeout 900
