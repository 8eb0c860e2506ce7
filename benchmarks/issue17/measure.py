#!/usr/bin/env python3
"""Issue 17 measurement driver: every table docs/BENCHMARKS.md's section "Issue 17" needs,
printed as Markdown, medians of alternating repetitions. Run it on a quiet machine:

    benchmarks/issue17/measure.sh [--build build] [--reps 3] [--out issue17.md]
    benchmarks/issue17/measure.sh --quick      # a dry run of every part, ~3 minutes

Parts (each prints its own table): machine and OpenBLAS; OpenMP wait policy; threads under
contention for the CLI (every CPU-sized preset); the app with the dashboard open; C++ vs the
PyTorch-eager peer; the spectral ops against their FLOP bound (lwb-bench-spectral --quick);
peak RSS per preset; last, the GPU-sized presets once per cell (indicative; skipped when
less than 6 minutes of --budget-min remain). Contention: `quiet`
(nothing else), `busy core` (`yes > /dev/null`), `other run` (a 2-thread LibTorch process
with libgomp's default spinning: lipschitz-cli --threads 2 with LWB_NO_REEXEC=1).
The whole run takes ~40 minutes on 2 cores without the GPU-sized part (the elapsed time is
printed at the end); --reps, --seconds and --long-seconds trade time for noise.
"""
import argparse
import ctypes
import datetime
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PRESETS = os.path.join(REPO, "resources", "presets")
# Presets whose steps take seconds here (d = 256 transformers, batch 64-256): measured once per
# cell with one or two steps, indicative only (docs/BENCHMARKS.md: GPU-sized).
GPU_SIZED = ["icl_adamw", "icl_manifold_muon", "icl_muon", "shakespeare_adamw_wd", "shakespeare_normalize",
             "shakespeare_softcap"]
CIFAR = ["cifar10_mlp_adamw_wd", "cifar10_mlp_muon_softcap"]
# CPU presets whose steps take 100-190 ms: their cells run --long-seconds, so a cell holds ~60
# steps (a 2000-step run's first 3 %) rather than the 6-10 that would be mostly warm-up and probe.
LONG_STEP = ["icl_adamw_cpu", "icl_manifold_muon_cpu", "icl_muon_cpu"]
CONDITIONS = ["quiet", "busy core", "other run"]
out_lines = []


def emit(text=""):
    print(text, flush=True)
    out_lines.append(text)


def log(text):
    print(f"[measure {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def med(v):
    return statistics.median(v) if v else float("nan")


def clean_env(extra=None):
    env = dict(os.environ)
    for k in ("LWB_THREADS", "OMP_NUM_THREADS", "OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "LWB_NO_REEXEC",
              "LWB_OMP_POLICY_APPLIED", "OPENBLAS_NUM_THREADS"):
        env.pop(k, None)
    env.update(extra or {})
    return env


def run_child(cmd, env, timeout):
    """Runs cmd; returns (stdout, seconds, peak RSS MiB, timed_out)."""
    with tempfile.TemporaryFile() as out:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, env=env, cwd=REPO, start_new_session=True)
        deadline = t0 + timeout
        timed_out = False
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                os.killpg(p.pid, signal.SIGKILL)
                pid, status, ru = os.wait4(p.pid, 0)
                timed_out = True
                break
            time.sleep(0.02)
        p.returncode = os.waitstatus_to_exitcode(status)
        secs = time.monotonic() - t0
        err = p.stderr.read().decode(errors="replace")
        out.seek(0)
        text = out.read().decode(errors="replace")
    if p.returncode != 0 and not timed_out:
        log(f"exit {p.returncode}: {' '.join(cmd)}\n{err.strip()[-400:]}")
    return text, secs, ru.ru_maxrss / 1024.0, timed_out


def json_lines(text):
    rows = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                rows.append(json.loads(line))
            except ValueError:
                pass
    return rows


class Load:
    """The contention condition around a block of measurements."""

    def __init__(self, kind, cli):
        self.kind, self.cli, self.procs = kind, cli, []

    def __enter__(self):
        if self.kind == "busy core":
            self.procs.append(subprocess.Popen(["yes"], stdout=subprocess.DEVNULL, start_new_session=True))
        elif self.kind == "other run":
            cmd = [self.cli, "--threads", "2", "bench", "--steps", "100000", os.path.join(PRESETS, "chars_small_cpu.json")]
            self.procs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO,
                                               env=clean_env({"LWB_NO_REEXEC": "1"}), start_new_session=True))
        if self.procs:
            time.sleep(1.5)  # the load is running (and the other run past its start-up)
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def rotate(seq, k):
    k %= len(seq)
    return seq[k:] + seq[:k]


# ---------------------------------------------------------------------------- parts
def part_machine(a):
    emit(f"Measured {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC by `benchmarks/issue17/measure.sh"
         f"{' --quick' if a.quick else ''}` (reps {a.reps}).")
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    load = os.getloadavg()
    emit(f"Machine: {cpu}, {os.cpu_count()} cores, {mem:.0f} GiB, {platform.platform()}; "
         f"load average at start {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f}.")
    try:
        ob = ctypes.CDLL("libopenblas.so.0")
        ob.openblas_get_corename.restype = ctypes.c_char_p
        ob.openblas_get_config.restype = ctypes.c_char_p
        par = {0: "sequential", 1: "pthreads", 2: "OpenMP"}.get(ob.openblas_get_parallel(), "?")
        emit(f"OpenBLAS: core {ob.openblas_get_corename().decode()}, config `{ob.openblas_get_config().decode()}`, "
             f"threading {par}.")
    except (OSError, AttributeError) as e:
        emit(f"OpenBLAS: not found ({e}).")
    # One pool: a 2-thread run should own one OpenMP worker besides its main thread, no
    # OpenBLAS pthreads pool (docs/DESIGN.md, "Thread policy").
    cmd = [a.cli, "--threads", "2", "bench", "--steps", "100000", os.path.join(PRESETS, "mnist_muon_softcap.json")]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO, env=clean_env(),
                         start_new_session=True)
    time.sleep(3)
    names = []
    try:
        for t in sorted(os.listdir(f"/proc/{p.pid}/task")):
            comm = open(f"/proc/{p.pid}/task/{t}/comm").read().strip()
            fields = open(f"/proc/{p.pid}/task/{t}/stat").read().rsplit(")", 1)[1].split()
            names.append(f"{comm} {int(fields[11]) + int(fields[12])} ticks")
    except (OSError, IndexError, ValueError):
        pass
    try:
        env = open(f"/proc/{p.pid}/environ", "rb").read().split(b"\0")
        spin = [e.decode() for e in env if e.startswith((b"GOMP_SPINCOUNT=", b"OMP_WAIT_POLICY="))]
    except OSError:
        spin = []
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    emit(f"Threads of `lipschitz-cli --threads 2 bench` after 3 s of training (CPU time each): {len(names)} "
         f"({', '.join(names)}); OpenMP "
         f"environment after its re-exec: {', '.join(spin) or 'none set'}.")
    emit()


def bench_cells(a, configs, seconds, reps, label):
    """steps/s per (config, condition, threads cell), alternating conditions and cells."""
    cells = ["default", "1", "all"]
    res = {}  # (cfg, cond, cell) -> [steps/s], plus threads chosen for default
    chosen = {}
    for r in range(reps):
        for cond in rotate(CONDITIONS, r):
            with Load(cond, a.cli):
                for cell in rotate(cells, r):
                    if time.monotonic() - a.start > a.budget_min * 60:
                        log(f"{label}: budget of {a.budget_min} min spent, cell {cond}/{cell} skipped")
                        continue
                    cmd = [a.cli] + ([] if cell == "default" else ["--threads", "1" if cell == "1" else str(os.cpu_count())])
                    cmd += ["bench", "--json", "--steps", "100000", "--max-seconds", str(seconds)] + configs
                    text, secs, _, to = run_child(cmd, clean_env(), timeout=60 + 3 * seconds * len(configs))
                    for row in json_lines(text):
                        res.setdefault((row["config"], cond, cell), []).append(row["steps_per_s"])
                        if cell == "default":
                            chosen.setdefault((row["config"], cond), []).append(row.get("threads", 0))
                    log(f"{label} rep {r + 1} {cond} {cell}: {secs:.1f} s{' TIMEOUT' if to else ''}")
    return res, chosen


def table_cells(names, res, chosen, note):
    emit("| preset | condition | default (threads kept) | 1 thread | all threads | default ÷ best | target |")
    emit("|---|---|---:|---:|---:|---:|---|")
    for name in names:
        for cond in CONDITIONS:
            d, one, al = (med(res.get((name, cond, c), [])) for c in ("default", "1", "all"))
            best = max(one, al)
            ratio = d / best if best == best and best > 0 else float("nan")
            target = 0.95 if cond == "quiet" else 0.9
            kept = sorted(set(chosen.get((name, cond), [])))
            verdict = "met" if ratio >= target else ("MISSED" if ratio == ratio else "n/a")
            emit(f"| {name} | {cond} | {d:.2f} ({'/'.join(map(str, kept))}) | {one:.2f} | {al:.2f} | {ratio:.2f} | "
                 f"≥ {target} {verdict} |")
    emit(note)
    emit()


def part_wait_policy(a):
    emit("### OpenMP wait policy (2 threads pinned, steps/s, medians)")
    emit()
    envs = [("libgomp default (spin 300000)", {"LWB_NO_REEXEC": "1"}), ("GOMP_SPINCOUNT=10000", {"GOMP_SPINCOUNT": "10000"}),
            ("OMP_WAIT_POLICY=PASSIVE", {"OMP_WAIT_POLICY": "PASSIVE"}), ("ours: GOMP_SPINCOUNT=1000", {})]
    configs = [os.path.join(PRESETS, c + ".json") for c in ("mnist_adamw_wd", "chars_small_cpu")]
    res = {}
    for r in range(a.reps):
        for cond in rotate(CONDITIONS[:2], r):
            with Load(cond, a.cli):
                for name, extra in rotate(envs, r):
                    cmd = [a.cli, "--threads", "2", "bench", "--json", "--steps", "100000", "--max-seconds",
                           str(a.seconds)] + configs
                    text, secs, _, _ = run_child(cmd, clean_env(extra), timeout=120)
                    for row in json_lines(text):
                        res.setdefault((row["config"], cond, name), []).append(row["steps_per_s"])
                    log(f"wait policy rep {r + 1} {cond} {name}: {secs:.1f} s")
    emit("| preset | condition | " + " | ".join(n for n, _ in envs) + " |")
    emit("|---|---|" + "---:|" * len(envs))
    for c in ("mnist_adamw_wd", "chars_small_cpu"):
        for cond in CONDITIONS[:2]:
            emit(f"| {c} | {cond} | " + " | ".join(f"{med(res.get((c, cond, n), [])):.2f}" for n, _ in envs) + " |")
    emit()


def part_contention(a):
    emit("### Threads under contention: `lipschitz-cli bench` (steps/s, medians)")
    emit()
    names = sorted(os.path.splitext(f)[0] for f in os.listdir(PRESETS) if f.endswith(".json"))
    cpu = [n for n in names if n not in GPU_SIZED and n not in CIFAR]
    if a.quick:
        cpu = ["mnist_adamw_wd", "chars_small_cpu"]
    configs = [os.path.join(PRESETS, n + ".json") for n in cpu]
    tmp = tempfile.mkdtemp(prefix="lwb-issue17-")
    if a.cifar10:
        for n in CIFAR:
            cfg = json.load(open(os.path.join(PRESETS, n + ".json")))
            cfg["data_path"] = os.path.abspath(a.cifar10)
            path = os.path.join(tmp, n + ".json")
            json.dump(cfg, open(path, "w"))
            configs.append(path)
            cpu.append(n)
    short = [c for c, n in zip(configs, cpu) if n not in LONG_STEP]
    long_ = [c for c, n in zip(configs, cpu) if n in LONG_STEP]
    res, chosen = bench_cells(a, short, a.seconds, a.reps, "contention")
    if long_:
        r2, c2 = bench_cells(a, long_, a.long_seconds, a.reps, "contention (long steps)")
        res.update(r2)
        chosen.update(c2)
    table_cells(cpu, res, chosen,
                f"Each cell: {a.seconds} s of training per preset (`bench --max-seconds {a.seconds}`; "
                f"{', '.join(n for n in cpu if n in LONG_STEP) or 'none'}: {a.long_seconds} s, ~{a.long_seconds / 0.14:.0f} of their 100-190-ms "
                f"steps), medians of "
                f"{a.reps} alternating repetitions; default = no --threads (the per-run tuner, threads it kept in "
                f"brackets); all = {os.cpu_count()}." + ("" if a.cifar10 else " CIFAR-10 presets: data not bundled "
                                                         "(`--cifar10 DIR` adds them)."))


def part_gpu_sized(a):
    """Last: the presets whose single step takes seconds, once per cell, within the budget."""
    section("Threads under contention: GPU-sized presets (one repetition, 1–2 steps per cell, indicative)", a)
    left = a.budget_min * 60 - (time.monotonic() - a.start)
    if a.quick or left < 360:
        emit(f"(skipped: {'--quick' if a.quick else f'{left / 60:.1f} min left of the {a.budget_min}-min budget'})")
        emit()
        return
    res, chosen = bench_cells(a, [os.path.join(PRESETS, n + ".json") for n in GPU_SIZED], 0.5, 1, "gpu-sized")
    table_cells(GPU_SIZED, res, chosen, "One repetition; a cell stops after the first step past 0.5 s; cells past "
                                        "the budget read nan.")


def section(title, a, exe_name=None):
    """Prints a part's heading; returns its benchmark executable's path, or None (skipped)."""
    emit(f"### {title}")
    emit()
    if exe_name is None:
        return ""
    exe = os.path.join(a.build, "benchmarks", exe_name)
    if os.path.exists(exe):
        return exe
    emit(f"(skipped: {exe} not built)")
    emit()
    return None


def part_app(a):
    app = section("Threads under contention: the app with the dashboard open (`lwb-bench-app`, chars_small_cpu)", a,
                  "lwb-bench-app")
    if not app:
        return
    steps = 10 if a.quick else 50
    cells = ["default", "1", "all"]
    res = {}
    for r in range(a.app_reps):
        for cond in rotate(CONDITIONS, r):
            with Load(cond, a.cli):
                for cell in rotate(cells, r):
                    cmd = [app, "--json", "--reps", "1", "--set", f"steps={steps}"]
                    if cell != "default":
                        cmd += ["--threads", "1" if cell == "1" else str(os.cpu_count())]
                    text, secs, _, to = run_child(cmd, clean_env({"QT_QPA_PLATFORM": "offscreen"}), timeout=90)
                    for row in json_lines(text):
                        res.setdefault((cond, cell), []).append(row)
                    log(f"app rep {r + 1} {cond} {cell}: {secs:.1f} s{' TIMEOUT' if to else ''}")
    emit("| condition | threads | headless steps/s | dashboard steps/s | dashboard ÷ best dashboard cell | event-loop p99 ms |")
    emit("|---|---|---:|---:|---:|---:|")
    for cond in CONDITIONS:
        dash = {c: med([x["dashboard_steps_per_s"] for x in res.get((cond, c), [])]) for c in cells}
        best = max((v for v in dash.values() if v == v), default=float("nan"))
        for c in cells:
            rows = res.get((cond, c), [])
            thr = rows[0]["threads"] if rows else "?"
            emit(f"| {cond} | {c} ({thr}) | {med([x['headless_steps_per_s'] for x in rows]):.2f} | {dash[c]:.2f} | "
                 f"{dash[c] / best if best == best and best > 0 else float('nan'):.2f} | "
                 f"{med([x['latency_p99_ms'] for x in rows]):.2f} |")
    emit(f"Each cell: `lwb-bench-app --reps 1 --set steps={steps}` (offscreen), medians of {a.app_reps} alternating "
         f"repetitions; default = the app's policy (all cores but the GUI's, tuned per run).")
    emit()


def part_peer(a):
    emit("### C++ engine vs the PyTorch-eager peer (`benchmarks/peer/peer_train.py`)")
    emit()
    py = "/usr/bin/python3"
    probe = subprocess.run([py, "-c", "import torch"], capture_output=True)
    if probe.returncode != 0:
        emit("(skipped: Debian python3-torch is not installed; `packaging/setup.sh --with-peer`)")
        emit()
        return
    cases = [("mnist_muon_softcap", 1, 200), ("mnist_muon_softcap", 2, 200), ("mnist_adamw_wd", 1, 800),
             ("mnist_adamw_wd", 2, 800), ("chars_small_cpu", 1, 60), ("chars_small_cpu", 2, 60)]
    if a.quick:
        cases = [(c, t, max(5, s // 20)) for c, t, s in cases[::2]]
    # Both sides with the same OpenMP settings (set explicitly, so the CLI does not re-exec) and
    # the same OpenBLAS kernels: the engine's front asks for the CPU's widest core where OpenBLAS
    # would fall back to Prescott on this VM (3x slower GEMMs), so the peer is given that core too
    # (what the engine reports as blas_core); both sides' cores are checked per run.
    env = clean_env({"GOMP_SPINCOUNT": "1000"})
    probe_text, _, _, _ = run_child([a.cli, "--threads", "1", "bench", "--json", "--steps", "2",
                                     os.path.join(PRESETS, cases[0][0] + ".json")], env, timeout=120)
    engine_core = next((r.get("blas_core", "") for r in json_lines(probe_text)), "")
    peer_env = dict(env, OPENBLAS_CORETYPE=engine_core) if engine_core else env
    cores = {}
    res = {}
    for r in range(a.peer_reps):
        for cfg, thr, steps in rotate(cases, r):
            path = os.path.join(PRESETS, cfg + ".json")
            sides = [("cpp", [a.cli, "--threads", str(thr), "bench", "--json", "--steps", str(steps), path]),
                     ("peer", [py, os.path.join(REPO, "benchmarks", "peer", "peer_train.py"), "--config", path,
                               "--steps", str(steps), "--threads", str(thr)])]
            for side, cmd in (sides if r % 2 == 0 else sides[::-1]):
                text, secs, _, _ = run_child(cmd, peer_env if side == "peer" else env, timeout=300)
                for row in json_lines(text):
                    res.setdefault((cfg, thr, side), []).append(row["steps_per_s"])
                    cores.setdefault(side, set()).add(row.get("blas_core", "?"))
                log(f"peer rep {r + 1} {cfg}@{thr} {side}: {secs:.1f} s")
    emit("| preset | threads | C++ steps/s | peer steps/s | C++ ÷ peer (target ≥ 1.3) |")
    emit("|---|---:|---:|---:|---:|")
    for cfg, thr, steps in cases:
        c, p = med(res.get((cfg, thr, "cpp"), [])), med(res.get((cfg, thr, "peer"), []))
        ratio = c / p if p > 0 else float("nan")
        emit(f"| {cfg} | {thr} | {c:.2f} | {p:.2f} | {ratio:.2f} {'met' if ratio >= 1.3 else 'MISSED'} |")
    same = cores.get("cpp") == cores.get("peer")
    emit(f"Medians of {a.peer_reps} alternating runs (order swapped every repetition), steps per run: "
         + ", ".join(f"{c}@{t} {s}" for c, t, s in cases) + "; GOMP_SPINCOUNT=1000 on both sides (the engine's own setting); "
         + f"OpenBLAS core: C++ {', '.join(sorted(cores.get('cpp', {'?'})))}, peer {', '.join(sorted(cores.get('peer', {'?'})))}"
         + ("" if same else " — NOT THE SAME, the ratios compare different GEMM kernels") + ".")
    emit()


def part_spectral(a):
    exe = section("Spectral ops against their FLOP bound (`lwb-bench-spectral --quick`)", a, "lwb-bench-spectral")
    if not exe:
        return
    cmd = [exe, "--quick"] + (["--benchmark_filter=256x256"] if a.quick else [])
    text, secs, _, _ = run_child(cmd, clean_env(), timeout=900)
    log(f"spectral: {secs:.1f} s")
    started = False
    for line in text.splitlines():
        if line.startswith("OpenBLAS core:"):
            started = True
        if started:
            emit(line)
    emit()


def part_rss(a):
    emit("### Peak memory (RSS) per preset")
    emit()
    names = sorted(os.path.splitext(f)[0] for f in os.listdir(PRESETS) if f.endswith(".json"))
    names = [n for n in names if n not in CIFAR]
    if a.quick:
        names = ["mnist_adamw_wd", "chars_small_cpu"]
    emit("| preset | peak RSS MiB | steps run |")
    emit("|---|---:|---:|")
    for n in names:
        cmd = [a.cli, "bench", "--json", "--steps", "100000", "--max-seconds", "1", os.path.join(PRESETS, n + ".json")]
        text, secs, rss, _ = run_child(cmd, clean_env(), timeout=120)
        rows = json_lines(text)
        emit(f"| {n} | {rss:.0f} | {rows[0]['steps'] if rows else '?'} |")
    emit("One process per preset (`bench --max-seconds 1`, default threads): model, optimizer state, data and "
         "LibTorch; maximum resident set size from wait4(2).")
    emit()


def main():
    ap = argparse.ArgumentParser(description="issue 17 measurement driver")
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--peer-reps", type=int, default=5)
    ap.add_argument("--app-reps", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=3.0, help="training seconds per preset and cell")
    ap.add_argument("--long-seconds", type=float, default=8.0, help="the same for the long-step presets (ICL on CPU)")
    ap.add_argument("--cifar10", default="", help="CIFAR-10 folder: adds the cifar10 presets")
    ap.add_argument("--quick", action="store_true", help="dry run: one repetition, two presets, short runs")
    ap.add_argument("--only", default="", help="comma-separated parts: machine,wait,contention,app,peer,spectral,rss,gpu")
    ap.add_argument("--budget-min", type=float, default=45, help="skip the GPU-sized part if it would not fit")
    ap.add_argument("--out", default="", help="also write the Markdown here")
    a = ap.parse_args()
    if a.quick:
        a.reps, a.peer_reps, a.app_reps, a.seconds, a.long_seconds = 1, 1, 1, 0.3, 0.3
    a.build = os.path.abspath(a.build)
    a.cli = os.path.join(a.build, "engine", "cli", "lipschitz-cli")
    if not os.path.exists(a.cli):
        sys.exit(f"measure: {a.cli} not found (--build: the build folder)")
    if not shutil.which("yes"):
        sys.exit("measure: `yes` not found (coreutils)")
    start = a.start = time.monotonic()
    parts = [("machine", part_machine), ("wait", part_wait_policy), ("contention", part_contention),
             ("app", part_app), ("peer", part_peer), ("spectral", part_spectral), ("rss", part_rss),
             ("gpu", part_gpu_sized)]
    only = set(filter(None, a.only.split(",")))
    for name, fn in parts:
        if not only or name in only:
            fn(a)
    emit(f"Driver elapsed: {(time.monotonic() - start) / 60:.1f} min.")
    if a.out:
        with open(a.out, "w") as f:
            f.write("\n".join(out_lines) + "\n")


if __name__ == "__main__":
    main()
