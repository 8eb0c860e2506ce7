#!/usr/bin/env bash
# Builds engine, CLI and benchmarks on a headless GPU machine against the LibTorch inside its
# PyTorch 2.x wheel (CUDA), with LWB_BUILD_GUI=OFF, into ./build-gpu. Needs .device/deps from
# ./packaging/gpu_deps.sh (run on the Debian machine). One command:
#   ./packaging/gpu_build.sh            # then: source build-gpu/env.sh
# Writes build-gpu/env.sh, which puts the carried libraries on LD_LIBRARY_PATH for the
# programs built here (never for the image's own Python).
set -euo pipefail
cd "$(dirname "$0")/.."
deps=$PWD/.device/deps/usr
[ -d "$deps/include/nlohmann" ] || { echo "gpu_build.sh: $deps missing: run ./packaging/gpu_deps.sh on the build machine and carry .device" >&2; exit 2; }
py=${PYTHON:-python3}
torch_prefix=$("$py" -c 'import torch.utils; print(torch.utils.cmake_prefix_path)')
"$py" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "gpu", torch.cuda.is_available() and torch.cuda.get_device_name(0))'
libdir=$deps/lib/x86_64-linux-gnu
ldpath=$libdir
for so in libbz2.so.1.0 libcrypto.so.3; do
  ldconfig -p | grep -q "$so" || ldpath=$ldpath:$libdir/extra
done
export LD_LIBRARY_PATH=$ldpath${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The card's architecture only (sm_90 on H100/H200): Torch's CMake otherwise probes or builds
# for every architecture; nothing of ours is CUDA source, so this only quietens the probe.
arch=$("$py" -c 'import torch; c=torch.cuda.get_device_capability(0) if torch.cuda.is_available() else (9,0); print(f"{c[0]}.{c[1]}")')
export TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST:-$arch}
# engine/dist includes c10d's ProcessGroupGloo.hpp, which includes <gloo/...>; a wheel may ship
# no gloo headers, and then the engine builds without data-parallel training (LWB_WITH_GLOO).
torch_inc=$("$py" -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "include"))')
gloo=ON
[ -f "$torch_inc/gloo/algorithm.h" ] || { gloo=OFF; echo "gpu_build.sh: $torch_inc has no gloo headers: building with LWB_WITH_GLOO=OFF (no train --nproc)"; }
# NCCL (issue 28's CUDA backend): the wheel ships ProcessGroupNCCL.hpp; nccl.h and libnccl.so.2
# come with its nvidia-nccl package, somewhere under site-packages/nvidia.
nccl=OFF nccl_inc= nccl_lib=
if [ -f "$torch_inc/torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp" ]; then
  read -r nccl_inc nccl_lib < <("$py" - <<'PY'
import glob, os, site, torch
roots = site.getsitepackages() + [os.path.dirname(os.path.dirname(torch.__file__))]
heads = [h for r in roots for h in glob.glob(os.path.join(r, "nvidia", "**", "nccl.h"), recursive=True)]
libs = [l for r in roots for l in glob.glob(os.path.join(r, "nvidia", "**", "libnccl.so*"), recursive=True)]
print(os.path.dirname(heads[0]) if heads else "-", libs[0] if libs else "-")
PY
  ) || true
  [ -n "$nccl_inc" ] && [ "$nccl_inc" != "-" ] && nccl=ON || echo "gpu_build.sh: ProcessGroupNCCL.hpp but no nccl.h under site-packages/nvidia: building without NCCL"
fi
[ "$nccl_lib" = "-" ] && nccl_lib=
echo "gpu_build.sh: gloo $gloo, nccl $nccl ${nccl_inc:+($nccl_inc, ${nccl_lib:-no libnccl})}"
configure() {  # $1: LWB_WITH_NCCL
  cmake -S . -B build-gpu -DLWB_WITH_GLOO=$gloo -DLWB_WITH_NCCL=$1 -DLWB_NCCL_INCLUDE_DIR="$nccl_inc" \
    -DLWB_NCCL_LIBRARY="$nccl_lib" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLWB_BUILD_GUI=OFF -DLWB_BUILD_TESTS=OFF \
    -DCMAKE_PREFIX_PATH="$torch_prefix;$deps" -DCMAKE_CUDA_ARCHITECTURES="${arch/./}" \
    -DCMAKE_BUILD_RPATH="$libdir" ${LWB_CMAKE_ARGS:-} >/dev/null
}
[ -f build-gpu/CMakeCache.txt ] || configure $nccl
# -k 0: one build shows every LibTorch 2.x incompatibility at once. A build that fails with NCCL
# on is built again without it (its errors stay above), so the rest of the checks still run.
if ! cmake --build build-gpu --parallel "$(nproc)" -- -k 0; then
  [ "$nccl" = ON ] || exit 1
  echo "gpu_build.sh: the build with NCCL failed (errors above): building again with LWB_WITH_NCCL=OFF"
  configure OFF
  cmake --build build-gpu --parallel "$(nproc)" -- -k 0
fi
printf 'export LD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\n' "$ldpath" > build-gpu/env.sh
echo "gpu_build.sh: built into build-gpu (source build-gpu/env.sh before running)"
