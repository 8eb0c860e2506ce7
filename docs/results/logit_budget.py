#!/usr/bin/env python3
"""Best character-model loss when every logit vector is confined to a ball (RESULTS §5.5).

A network whose logits z are L-Lipschitz (RMS -> RMS) in unit-RMS token embeddings moves
z by at most L * sqrt(V) * ||dx||_RMS in l2 when one input token changes (||dx||_RMS <= 2), and
a bias-free model has z = 0 at x = 0. This script asks what that costs a model that knows the
statistics exactly: for every context it picks the centred logits with ||z||_2 <= R that
maximise the training-split likelihood of an interpolated bigram / trigram estimate, and
scores them on the validation split (Tiny Shakespeare, 90/10 split as the trainer's).

    python3 docs/results/logit_budget.py resources/data/tinyshakespeare/input.txt 8 12 16
"""
import math
import sys
from collections import defaultdict


def project(z, radius):
    mean = sum(z) / len(z)
    z = [v - mean for v in z]
    norm = math.sqrt(sum(v * v for v in z))
    return [v * radius / norm for v in z] if norm > radius else z


def log_softmax(z):
    top = max(z)
    lse = math.log(sum(math.exp(v - top) for v in z)) + top
    return [v - lse for v in z]


def best_logits(p, radius, steps=60):
    # Projected gradient ascent on sum p log softmax(z) over the ball (a concave problem).
    z = project([math.log(v) for v in p], radius)
    for _ in range(steps):
        q = [math.exp(v) for v in log_softmax(z)]
        z = project([zi + 3.0 * (pi - qi) for zi, pi, qi in zip(z, p, q)], radius)
    return log_softmax(z)


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    radii = [float(r) for r in sys.argv[2:]] or [8.0, 12.0, 16.0, 1e9]
    chars = sorted(set(text))
    index = {c: i for i, c in enumerate(chars)}
    V = len(chars)
    ids = [index[c] for c in text]
    cut = int(len(ids) * 0.9)
    train, val = ids[:cut], ids[cut:]
    bigram = [[0.01] * V for _ in range(V)]
    for x, y in zip(train[:-1], train[1:]):
        bigram[x][y] += 1
    trigram = defaultdict(lambda: [0.0] * V)
    for w, x, y in zip(train[:-2], train[1:-1], train[2:]):
        trigram[(w, x)][y] += 1
    val_bi = defaultdict(lambda: [0] * V)
    for x, y in zip(val[:-1], val[1:]):
        val_bi[x][y] += 1
    val_tri = defaultdict(lambda: [0] * V)
    for w, x, y in zip(val[:-2], val[1:-1], val[2:]):
        val_tri[(w, x)][y] += 1

    def bigram_p(x):
        total = sum(bigram[x])
        return [c / total for c in bigram[x]]

    def trigram_p(ctx):
        b = bigram_p(ctx[1])
        t = trigram.get(ctx)
        if not t:
            return b
        n = sum(t)
        lam = n / (n + 10.0)  # simple interpolation; the exact smoothing barely matters here
        return [lam * t[i] / n + (1 - lam) * b[i] for i in range(V)]

    print("radius  bigram  trigram   (nats/char, validation split)")
    for r in radii:
        scores = []
        for counts, prob in ((val_bi, bigram_p), (val_tri, trigram_p)):
            loss = total = 0.0
            for ctx, cnt in counts.items():
                lq = best_logits(prob(ctx), r)
                loss -= sum(c * v for c, v in zip(cnt, lq))
                total += sum(cnt)
            scores.append(loss / total)
        print(f"{r:6g}  {scores[0]:.3f}   {scores[1]:.3f}", flush=True)


if __name__ == "__main__":
    main()
