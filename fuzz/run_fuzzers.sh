#!/usr/bin/env bash
# Builds the libFuzzer targets with clang, fuzzes each parser for a bounded time starting from
# the fixtures and the kept corpus, and merges a minimized corpus back into
# tests/fixtures/fuzz/<parser>/ (replayed by ctest: tst_fuzz_corpus).
#   fuzz/run_fuzzers.sh [SECONDS_PER_TARGET] [TARGET...]      (default 240 s, every target)
# Environment: LWB_FUZZ_BUILD (build folder, default build-fuzz), LWB_FUZZ_WORK (scratch,
# default /tmp/lwb-fuzz). Crashes are written to $LWB_FUZZ_WORK/<parser>/artifacts/; copy
# reproducers into tests/fixtures/fuzz/<parser>/crash-<what> once fixed.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
secs="${1:-240}"; shift || true
build="${LWB_FUZZ_BUILD:-$here/build-fuzz}"
work="${LWB_FUZZ_WORK:-/tmp/lwb-fuzz}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(safetensors npy zip npz pytorch pickle pytorch_pickle tfevents)

cmake -S "$here" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DLWB_BUILD_GUI=OFF -DLWB_BUILD_TESTS=OFF -DLWB_BUILD_BENCHMARKS=OFF -DLWB_BUILD_FUZZERS=ON >/dev/null
ninja -C "$build" $(printf 'fuzz_%s ' "${targets[@]}")

# Hostile zip seeds (traversal, bombs, ZIP64, ...), when python3 is there to make them.
/usr/bin/python3 "$here/fuzz/make_zip_seeds.py" "$work/zip-seeds" >/dev/null 2>&1 || true
seeds_for() {  # fixtures of the parser's format, plus the hostile zips for the zip parsers
  case "$1" in
    safetensors) ls "$here"/tests/fixtures/*.safetensors ;;
    npy) ls "$here"/tests/fixtures/*.npy ;;
    npz|zip|pytorch) ls "$here"/tests/fixtures/*.pt "$here"/tests/fixtures/*.npz 2>/dev/null
                     find "$work"/zip-seeds -maxdepth 1 -type f ;;
    pickle|pytorch_pickle) find "$work"/zip-seeds/pickle -type f ;;
  esac
}

for t in "${targets[@]}"; do
  kept="$here/tests/fixtures/fuzz/$t"
  mkdir -p "$kept" "$work/$t/corpus" "$work/$t/artifacts"
  cp -n $(seeds_for "$t") "$work/$t/corpus/" 2>/dev/null || true
  cp -n "$kept"/* "$work/$t/corpus/" 2>/dev/null || true
  dictname="$t"; [ "$t" = pytorch_pickle ] && dictname=pickle
  dict=(); [ -f "$here/fuzz/$dictname.dict" ] && dict=(-dict="$here/fuzz/$dictname.dict")
  echo "== fuzz_$t for ${secs}s"
  "$build/fuzz/fuzz_$t" "$work/$t/corpus" -max_total_time="$secs" \
    -max_len=8192 -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$work/$t/artifacts/" "${dict[@]}" 2>&1 | tee "$work/$t/log.txt" | grep -E "^#|stat::|ERROR|crash" | tail -8 || true
  # Minimize into the kept folder: the smallest inputs that keep every covered edge (hit
  # counts ignored, which keeps the corpus ~5x smaller); crash-* reproducers and hand-made
  # regress-* inputs stay.
  mkdir -p "$work/$t/min"; rm -f "$work/$t/min"/*
  "$build/fuzz/fuzz_$t" -merge=1 -use_counters=0 "$work/$t/min" "$work/$t/corpus" >/dev/null 2>&1
  find "$kept" -maxdepth 1 -type f ! -name 'crash-*' ! -name 'regress-*' -delete
  cp "$work/$t/min"/* "$kept/"
  echo "   kept $(ls "$kept" | wc -l) files, $(cat "$kept"/* | wc -c) bytes in $kept;" \
       "findings: $(ls "$work/$t/artifacts" | wc -l) (in $work/$t/artifacts)"
done
