#!/usr/bin/env bash
# Configure (once) and build everything into ./build. LWB_CMAKE_ARGS adds configure flags,
# e.g. LWB_CMAKE_ARGS="-DLWB_BUILD_GUI=OFF" on a headless GPU machine.
set -euo pipefail
cd "$(dirname "$0")/.."
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f build/CMakeCache.txt ]; then
  # shellcheck disable=SC2086
  cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release ${LWB_CMAKE_ARGS:-}
fi
cmake --build build --parallel "$(nproc)"
