#!/usr/bin/env bash
# Packs the Debian-built dependencies that a GPU machine's image lacks (it has PyTorch 2.x,
# CMake, ninja and nvcc, but no network and no Debian -dev packages) into .device/deps, an
# ignored folder that the device tool carries. Run here, on the Debian 12 build machine, after
# ./packaging/setup.sh; then ./packaging/gpu_build.sh there builds against it.
#
# Header-only: nlohmann/json, CLI11. Compiled C libraries (ABI-stable across glibc versions
# upwards): libzip (+ libbz2, libcrypto), SQLite, zlib. Google Benchmark's C++ library is
# built with the C++11 ABI, as PyTorch >= 2.7 wheels are.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.device/deps/usr
rm -rf .device/deps
mkdir -p "$out/include" "$out/lib/x86_64-linux-gnu/cmake" "$out/lib/x86_64-linux-gnu/extra" "$out/share/cmake"
lib=/usr/lib/x86_64-linux-gnu
cp -a /usr/include/nlohmann /usr/include/CLI /usr/include/benchmark "$out/include/"
cp -a /usr/include/zip.h /usr/include/zipconf.h /usr/include/sqlite3.h /usr/include/sqlite3ext.h \
      /usr/include/zlib.h /usr/include/zconf.h "$out/include/"
cp -a /usr/share/cmake/nlohmann_json "$out/share/cmake/"
cp -a "$lib/cmake/benchmark" "$out/lib/x86_64-linux-gnu/cmake/"
cp -a "$lib"/libzip.so* "$lib"/libsqlite3.so* "$lib"/libbenchmark.so* "$lib"/libbenchmark_main.a "$out/lib/x86_64-linux-gnu/"
cp -L /lib/x86_64-linux-gnu/libz.so.1 "$out/lib/x86_64-linux-gnu/libz.so.1"
ln -sf libz.so.1 "$out/lib/x86_64-linux-gnu/libz.so"
# libzip's own needs: used there only when the image lacks them (gpu_build.sh checks).
cp -L /lib/x86_64-linux-gnu/libbz2.so.1.0 /lib/x86_64-linux-gnu/libcrypto.so.3 "$out/lib/x86_64-linux-gnu/extra/"
du -sh .device/deps
