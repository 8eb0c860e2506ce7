#!/usr/bin/env bash
# Issue 31 in one device command: build, then the check phases in order of importance, each
# cut to the time left so that a report always comes back.
#   benchmarks/gpu/run_all.sh OUT_DIR BUDGET_SECONDS [phase ...]   (default: correctness paper perf)
# OUT_DIR gets build.log, one <phase>.md each and runs.tar.gz (logs, configs, summaries and
# metrics of every run; no checkpoints) — few files, as a device command's results must be.
set -uo pipefail
out=${1:?OUT_DIR}; budget=${2:?BUDGET_SECONDS}; shift 2
phases=("$@"); [ ${#phases[@]} -gt 0 ] || phases=(correctness paper perf)
cd "$(dirname "$0")/../.."
mkdir -p "$out"
t0=$SECONDS
./packaging/gpu_build.sh >"$out/build.log" 2>&1
status=$?
echo "build: exit $status, $((SECONDS - t0)) s"
grep -E "error|FAILED" "$out/build.log" | head -40
[ $status -eq 0 ] || exit $status
runs=/tmp/lwb-gpu-runs
for phase in "${phases[@]}"; do
  left=$((budget - (SECONDS - t0) - 15))
  [ $left -gt 20 ] || { echo "$phase: skipped, ${left} s left"; continue; }
  echo "== $phase (${left} s left)"
  timeout --signal=TERM --kill-after=10 $left benchmarks/gpu/device_checks.sh "$runs" "$phase" cuda
  echo "$phase: exit $?"
  # Again here: a phase cut short by its timeout never reached its own report.
  python3 benchmarks/gpu/report.py "$runs" "$phase" >"$out/$phase.md" 2>&1
done
(cd "$runs" && tar czf "$out/runs.tar.gz" --exclude=checkpoints --exclude='*.bin' .) 2>/dev/null
echo "total $((SECONDS - t0)) s"
