#!/usr/bin/env bash
# Builds the Debian package: configure (once) and build into ./build, then `cpack -G DEB`
# writes build/lipschitz-workbench_<version>_<arch>.deb. Install it with
#   sudo apt install ./build/lipschitz-workbench_*.deb
# The packaging tools (dpkg-dev, fakeroot, help2man, librsvg2-bin, lintian, ...) come from
# packaging/setup.sh; LWB_CMAKE_ARGS adds configure flags as for build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
./packaging/setup.sh
./packaging/build.sh
cd build
cpack -G DEB
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' CMakeCache.txt)
deb="lipschitz-workbench_${version}_$(dpkg --print-architecture).deb"
[ -f "$deb" ] || { echo "package.sh: cpack did not write build/$deb" >&2; exit 1; }
echo "package: build/$deb"
echo "install: sudo apt install ./build/$deb"
