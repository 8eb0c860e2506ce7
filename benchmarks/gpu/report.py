#!/usr/bin/env python3
"""Markdown tables of issue 31's device checks from the run directories device_checks.sh wrote.

    report.py OUT_DIR correctness|paper|lipschitz2|scaled|icl|table1|perf

Reads summary.json, config.json and metrics.jsonl of each run (ARCHITECTURE.md's run
directory) and the lwb-bench-device tables; prints what docs/RESULTS.md and BENCHMARKS.md quote.
Every check prints its measured figure beside its limit, and PASS/FAIL/MISSING.
"""
import json
import math
import os
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        return {"_error": f"{path}: {e}"}


def metrics(run):
    rows = []
    try:
        with open(os.path.join(run, "metrics.jsonl")) as f:
            for line in f:
                try:
                    rows.append(json.loads(line))
                except ValueError:
                    pass
    except OSError:
        pass
    return rows


def verdict(ok):
    return "PASS" if ok else "FAIL"


def fmt(x, spec=".4g"):
    return "-" if x is None else format(x, spec)


def correctness(out):
    print(open(os.path.join(out, "spectral_check.md")).read() if os.path.exists(os.path.join(out, "spectral_check.md")) else "spectral_check.md: MISSING")
    print("\n### Training checks on the device\n")
    print("| check | measured | limit | verdict |\n|---|---|---|---|")
    # MNIST soft cap: every final RMS→RMS norm within σmax.
    run = os.path.join(out, "mnist_softcap")
    s, c, m = load(os.path.join(run, "summary.json")), load(os.path.join(run, "config.json")), metrics(run)
    if m and "_error" not in s:
        smax = c["constraint"]["sigma_max"]
        norms = {x["name"]: x["rms_norm"] for x in m[-1].get("matrices", [])}
        worst = max(norms.values()) if norms else float("nan")
        print(f"| MNIST soft cap, {s.get('steps')} steps: max final RMS→RMS norm | {worst:.5f} (val acc {fmt(s.get('val_acc'), '.3f')}, {fmt(s.get('steps_per_s'), '.1f')} steps/s) | ≤ σmax {smax} | {verdict(worst <= smax * (1 + 1e-4))} |")
        b = load(os.path.join(out, "mnist_softcap.bound.json"))
        if "_error" not in b and s.get("lipschitz_bound"):
            rel = abs(b["lipschitz_bound"] - s["lipschitz_bound"]) / s["lipschitz_bound"]
            print(f"| `bound` of the CUDA checkpoint on the CPU (float64 SVD) vs the run's own | {b['lipschitz_bound']:.6g} vs {s['lipschitz_bound']:.6g} (rel. {rel:.1e}) | ≤ 1e-4 | {verdict(rel <= 1e-4)} |")
        else:
            print(f"| `bound` on the CPU | {b.get('_error', 'no bound in summary')} | | FAIL |")
    else:
        print(f"| MNIST soft cap | {s.get('_error', 'no metrics')} | | MISSING |")
    # Manifold Muon: every hidden matrix stays on the Stiefel manifold.
    run = os.path.join(out, "icl_manifold_muon")
    s, m = load(os.path.join(run, "summary.json")), metrics(run)
    dev = [max(abs(x["sigma_max"] - 1), abs(x["sigma_min"] - 1)) for r in m for x in r.get("stiefel", [])]
    if dev and "_error" not in s:
        worst = max(dev)
        loss = s.get("val_loss")
        ok = worst <= 1e-3 and loss is not None and math.isfinite(loss)
        print(f"| manifold_muon ICL, {s.get('steps')} steps: max over logged steps and matrices of abs(σ − 1) | {worst:.2e} (val loss {fmt(loss)}, {fmt(s.get('steps_per_s'), '.1f')} steps/s) | ≤ 1e-3, loss finite | {verdict(ok)} |")
    else:
        print(f"| manifold_muon ICL | {s.get('_error', 'no stiefel metrics')} | | MISSING |")
    # AttLip: the evaluation forward's prox converges; PGD on it stays ≤ 1.
    run = os.path.join(out, "attlip")
    s, m = load(os.path.join(run, "summary.json")), metrics(run)
    if "_error" not in s:
        pgd = s.get("attention_pgd_estimate")
        res = s.get("attlip_eval_residual")
        cert = s.get("attention_certificate")
        train_ratio = m[-1].get("attlip_residual_ratio") if m else None
        ok = cert in ("converged", "certified_step") and pgd is not None and pgd <= 1 + 1e-6
        print(f"| AttLip, {s.get('steps')} steps: certificate, eval prox residual, PGD estimate | {cert}, {fmt(res, '.2e')} ({s.get('attlip_eval_steps')} steps), {fmt(pgd, '.6f')}; train residual ratio {fmt(train_ratio, '.3g')}; val loss {fmt(s.get('val_loss'))} | converged/certified, PGD ≤ 1 + 1e-6 | {verdict(ok)} |")
    else:
        print(f"| AttLip | {s['_error']} | | MISSING |")


def names_for(out, fixed):
    """The paper phase's two presets, or every run the scaled phase wrote."""
    if any(os.path.isdir(os.path.join(out, n)) for n in fixed) and not os.path.isdir(os.path.join(out, "paper_size_lipschitz2")):
        return list(fixed)
    return sorted(n for n in os.listdir(out) if os.path.isdir(os.path.join(out, n))
                  and (n.startswith("paper_size") or n.startswith("shakespeare")))


def paper(out):
    print("| run | constraint, σmax, lr | steps | seconds | steps/s | val loss (full split) | val loss (paper window) | sound bound | ≤ 60 s | paper window ≤ 1.35 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|---|")
    names = names_for(out, ("shakespeare_normalize", "shakespeare_softcap"))
    for name in names:
        s = load(os.path.join(out, name, "summary.json"))
        if "_error" in s:
            print(f"| {name} | {s['_error']} | | | | | | | MISSING | MISSING |")
            continue
        secs, vp = s.get("seconds"), s.get("val_loss_paper")
        c = load(os.path.join(out, name, "config.json"))
        recipe = "-" if "_error" in c else f"{c['constraint']['method']}, {c['constraint'].get('sigma_max')}, {c['optimizer']['lr']} ({c['optimizer'].get('lr_units', 'plain')})"
        print(f"| {name} | {recipe} | {s.get('steps')} | {fmt(secs, '.1f')} | {fmt(s.get('steps_per_s'), '.1f')} | {fmt(s.get('val_loss_full'))} | {fmt(vp)} | {fmt(s.get('lipschitz_bound'))} | {verdict(secs is not None and secs <= 60)} | {verdict(vp is not None and vp <= 1.35)} |")
        if s.get("message"):
            print(f"|  ↳ message | {s['message']} | | | | | | | | |")


def icl(out):
    # Seed 002's loss is the mean of the last 50 training losses (train_loss_last50); a run cut
    # short by the command's limit still shows how far it got from its metrics.
    print("| preset | steps | seconds | steps/s | last-50 train loss | val loss | status |\n|---|---:|---:|---:|---:|---:|---|")
    for opt in ("adamw", "muon", "manifold_muon"):
        run = os.path.join(out, f"icl_{opt}")
        s = load(os.path.join(run, "summary.json"))
        if "_error" in s:
            m = [r for r in metrics(run) if "train_loss" in r or "loss" in r]
            if m:
                last = m[-50:]
                tl = sum(r.get("train_loss", r.get("loss", 0.0)) for r in last) / len(last)
                print(f"| icl_{opt} | {m[-1].get('step')} (no summary) | | | {tl:.4g} | | cut short (mean of the last 50 logged train losses) |")
            else:
                print(f"| icl_{opt} | {s['_error']} | | | | | MISSING |")
            continue
        print(f"| icl_{opt} | {s.get('steps')} | {fmt(s.get('seconds'), '.1f')} | {fmt(s.get('steps_per_s'), '.1f')} | {fmt(s.get('train_loss_last50'))} | {fmt(s.get('val_loss'))} | {s.get('status')} {s.get('message', '')} |")


def table1(out):
    print("| kind | N | PGD estimate | bound | prox residual | seconds |\n|---|---:|---:|---:|---:|---:|")
    for kind in ("attlip", "l2", "standard"):
        path = os.path.join(out, f"table1_{kind}.jsonl")
        rows = []
        try:
            rows = [json.loads(l) for l in open(path) if l.strip()]
        except (OSError, ValueError) as e:
            print(f"| {kind} | {e} | | | | |")
        for r in rows:
            print(f"| {kind} | {r['tokens']} | {r['pgd_estimate']:.4f} | {fmt(r.get('bound'))} | {fmt(r.get('residual'), '.1e')} | {r['seconds']:.1f} |")


def main():
    out, phase = sys.argv[1], sys.argv[2]
    dev = os.path.join(out, "device.txt")
    print(f"Device: {open(dev).read().strip() if os.path.exists(dev) else 'no nvidia-smi (CPU run)'}\n")
    if phase == "correctness":
        correctness(out)
    elif phase in ("paper", "lipschitz2", "scaled"):
        paper(out)
    elif phase == "icl":
        icl(out)
    elif phase == "table1":
        table1(out)
    elif phase in ("perf", "nccl"):
        for name in (("spectral_perf.md",) if phase == "perf" else ("dist_check.md", "nccl_two_ranks.log")):
            p = os.path.join(out, name)
            print(open(p).read() if os.path.exists(p) else f"{name}: MISSING")
    else:
        sys.exit(f"report.py: unknown phase '{phase}'")


if __name__ == "__main__":
    main()
