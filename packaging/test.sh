#!/usr/bin/env bash
# The README's test command: set up (Debian packages), build, run every test with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
./packaging/setup.sh
./packaging/build.sh
cd build
# One suite per core, longest first (their COST, tests/suite_times.cmake): 380 s serially on
# the 2-core VM, about 210 s this way (issue 30).
ctest --output-on-failure --timeout 900 -j "$(nproc)"
