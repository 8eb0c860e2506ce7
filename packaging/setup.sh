#!/usr/bin/env bash
# Installs every Debian 12 package Lipschitz Workbench needs to build, test and run.
# Idempotent, non-interactive; works as root or through sudo. `apt-get update` runs once,
# and only when something is missing.
#   --with-peer (or LWB_WITH_PEER=1): also python3-torch, for the optional PyTorch-eager peer
#   benchmark (benchmarks/peer/); never needed to build, test or run the workbench.
set -euo pipefail

with_peer=${LWB_WITH_PEER:-0}
for arg in "$@"; do
  case "$arg" in
    --with-peer) with_peer=1 ;;
    *) echo "setup.sh: unknown option '$arg' (known: --with-peer)" >&2; exit 2 ;;
  esac
done

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  libtorch-dev            # LibTorch 1.13 (CPU)
  libgloo-dev             # the gloo headers c10d's ProcessGroupGloo.hpp includes (engine/dist)
  libopenblas0-openmp     # optimized BLAS: reference BLAS is ~25x slower for fp32 GEMM
  libeigen3-dev nlohmann-json3-dev zlib1g-dev libcli11-dev
  libzip-dev              # .npz and PyTorch .pt archives (engine/io)
  libbenchmark-dev libgtest-dev
  qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libqcustomplot-dev
  qt6-translations-l10n   # Qt's own German strings (dialog buttons) for the German UI
  xvfb xauth
  # the Debian package (packaging/package.sh, tst_package): CPack's DEB generator needs
  # dpkg-dev (dpkg-shlibdeps) and file; man pages, icons, and the checks of the package
  dpkg-dev file help2man gzip librsvg2-bin lintian appstream desktop-file-utils
  # sweeps (issue 18): the run index (SQLite C API), and a real single-node Slurm that the
  # sweep tests start on localhost (tests/sweep/slurm_fixture.sh)
  libsqlite3-dev slurm-wlm munge
)

if [ "$with_peer" = 1 ]; then PACKAGES+=(python3-torch); fi

if [ "$(id -u)" -eq 0 ]; then SUDO=(); else SUDO=(sudo -n); fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages already installed"
else
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -q
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Debian's LibTorch links libblas.so.3; make sure the alternative points at OpenBLAS (openmp).
if command -v update-alternatives >/dev/null; then
  arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
  for lib in libblas.so.3 liblapack.so.3; do
    cand=$(update-alternatives --list "${lib}-${arch}" 2>/dev/null | grep openblas-openmp | head -n1 || true)
    if [ -n "$cand" ]; then "${SUDO[@]}" update-alternatives --set "${lib}-${arch}" "$cand" >/dev/null; fi
  done
fi
