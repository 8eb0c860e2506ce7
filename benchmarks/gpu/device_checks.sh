#!/usr/bin/env bash
# Issue 31's device checks, in phases that each fit one device command (docs/BENCHMARKS.md
# "GPU"). Run from the repository root after ./packaging/gpu_build.sh:
#   benchmarks/gpu/device_checks.sh OUT_DIR correctness|nccl|paper|lipschitz2|scaled|icl|table1|perf [DEVICE]
# correctness: spectral ops vs float64 SVD (every method, f32/bf16), a 200-step MNIST soft-cap
#   run (final RMS→RMS norms ≤ σmax), a manifold_muon ICL run (every σ stays 1), an AttLip run
#   (prox residual, certificate), `lipschitz-cli bound` of the CUDA checkpoint read on the CPU.
# paper: the paper-size Shakespeare presets (2,000 steps each) timed on the device.
# lipschitz2: shakespeare_lipschitz2 (issue 25's sound <= 2 recipe at paper size) alone, then at <= 10.
# scaled: the ≤ 2 / ≤ 10 CPU recipes at paper size and the paper presets with the sum residual.
# icl: seed 002's three ICL presets at paper size, side by side. table1: seed 004's Table 1 at
#   d 512, H 8 (lipschitz-cli attention --device cuda; LWB_TABLE1_ARGS adds options, e.g.
#   "--restarts 1 --pgd-iters 10": AttLip's full search at N 16 did not finish in 480 s on an H200).
# nccl: issue 28's NCCL backend, one rank (lwb-bench-dist), and --nproc 2 on one GPU refused.
# perf: lwb-bench-device --perf at 1024² and 4096².
# Writes run directories and logs under OUT_DIR, and OUT_DIR/<phase>.md (report.py's tables).
set -uo pipefail
out=${1:?OUT_DIR}; phase=${2:?phase}; dev=${3:-cuda}
cd "$(dirname "$0")/../.."
bin=${LWB_BUILD_DIR:-build-gpu}
[ -f "$bin/env.sh" ] && source "$bin/env.sh"
cli="$bin/engine/cli/lipschitz-cli"
mkdir -p "$out"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >"$out/device.txt"
train() {  # name preset steps [extra args...]
  local name=$1 preset=$2 steps=$3; shift 3
  rm -rf "$out/$name"
  local t0=$SECONDS
  "$cli" train --config "resources/presets/$preset.json" --steps "$steps" --device "$dev" \
    --out "$out/$name" "$@" >"$out/$name.log" 2>&1
  echo "$name: exit $?, $((SECONDS - t0)) s wall"
}
case "$phase" in
  correctness)
    "$bin/benchmarks/lwb-bench-device" --device "$dev" --check >"$out/spectral_check.md" 2>&1
    echo "spectral check: exit $?"
    train mnist_softcap mnist_muon_softcap "${LWB_MNIST_STEPS:-200}"
    train icl_manifold_muon icl_manifold_muon_cpu "${LWB_ICL_STEPS:-200}"
    train attlip masked_chars_attlip_cpu "${LWB_ATTLIP_STEPS:-200}"
    # The CUDA-trained checkpoint read back on the CPU (the CLI's default device).
    "$cli" bound "$out/mnist_softcap" >"$out/mnist_softcap.bound.json" 2>"$out/mnist_softcap.bound.err"
    echo "bound on cpu: exit $?"
    ;;
  paper)
    train shakespeare_normalize shakespeare_normalize "${LWB_PAPER_STEPS:-2000}"
    train shakespeare_softcap shakespeare_softcap "${LWB_PAPER_STEPS:-2000}"
    ;;
  lipschitz2)
    # Issue 25's sound <= 2 recipe (position scores, soft cap sigma_max 1, logit scale 2) at the
    # paper's size, each run alone so its time is its own; then the same with logit scale 10
    # (sound bound <= 10).
    train shakespeare_lipschitz2 shakespeare_lipschitz2 "${LWB_PAPER_STEPS:-2000}"
    train shakespeare_lipschitz10 shakespeare_lipschitz2 "${LWB_PAPER_STEPS:-2000}" --set model.final_logit_scale=10
    ;;
  scaled)
    # The CPU presets' recipes (sound bound ≤ 2 and ≤ 10) at the paper's size, and the paper
    # presets with the sum residual: four runs side by side on one GPU (each is launch-bound,
    # so they share it well; their steps/s are not the presets' own — `paper` times those).
    paper=(--set model.d_model=256 --set model.blocks=3 --set model.heads=4 --set model.seq_len=256
           --set batch_size=64 --set eval_every=100 --set eval_batches=20)
    steps=${LWB_PAPER_STEPS:-2000}
    train paper_size_lipschitz2 chars_lipschitz2_cpu "$steps" "${paper[@]}" &
    train paper_size_lipschitz10 chars_lipschitz10_cpu "$steps" "${paper[@]}" &
    # The paper's recipe with the sum residual (model.residual = sum, RESULTS §5.6): the forward
    # LT's code ran in May 2025, with its sound bound.
    train shakespeare_normalize_sum shakespeare_normalize "$steps" --set model.residual=sum &
    train shakespeare_softcap_sum shakespeare_softcap "$steps" --set model.residual=sum &
    wait
    ;;
  icl)
    # Seed 002's Table 2 at the paper's size (the presets without _cpu), side by side;
    # LWB_ICL_PRESETS picks some (e.g. "muon": one preset alone runs 2-3x faster than three);
    # LWB_ICL_ARGS adds train options (e.g. "--set eval_every=500").
    for opt in ${LWB_ICL_PRESETS:-adamw muon manifold_muon}; do
      train "icl_$opt" "icl_$opt" "${LWB_ICL_PAPER_STEPS:-3000}" ${LWB_ICL_ARGS:-} &
    done
    wait
    ;;
  table1)
    # Seed 004's Table 1 at the paper's size (d 512, H 8); AttLip last, it is the slowest.
    for kind in l2 standard attlip; do
      "$cli" attention --kind "$kind" --tokens "${LWB_TABLE1_TOKENS:-16,32,64,128}" --dim 512 --heads 8 \
        --device "$dev" ${LWB_TABLE1_ARGS:-} --json >"$out/table1_$kind.jsonl" 2>"$out/table1_$kind.err"
      echo "table1 $kind: exit $?"
    done
    ;;
  nccl)
    # Issue 28 on the GPU: one rank of engine/dist over NCCL (collectives, gradient averaging,
    # all-reduce times), and two ranks on a one-GPU machine refused before they start.
    NCCL_DEBUG=WARN timeout 90 "$bin/benchmarks/lwb-bench-dist" --device "$dev" >"$out/dist_check.md" 2>&1
    echo "dist check: exit $?"
    "$cli" train --config resources/presets/mnist_muon_softcap.json --steps 20 --device "$dev" --nproc 2 \
      --out "$out/nccl_two_ranks" >"$out/nccl_two_ranks.log" 2>&1
    echo "train --nproc 2 on one GPU: exit $? ($(head -c 300 "$out/nccl_two_ranks.log"))"
    ;;
  perf)
    "$bin/benchmarks/lwb-bench-device" --device "$dev" --perf --sizes "${LWB_PERF_SIZES:-1024,4096}" \
      --peak-tflops "${LWB_PEAK_TFLOPS:-989}" >"$out/spectral_perf.md" 2>&1
    echo "spectral perf: exit $?"
    ;;
  *) echo "device_checks.sh: unknown phase '$phase' (correctness | nccl | paper | lipschitz2 | scaled | icl | table1 | perf)" >&2; exit 2 ;;
esac
python3 benchmarks/gpu/report.py "$out" "$phase" >"$out/$phase.md" 2>&1
cat "$out/$phase.md"
