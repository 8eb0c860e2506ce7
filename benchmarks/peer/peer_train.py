#!/usr/bin/python3
"""PyTorch-eager peer of `lipschitz-cli bench` for one preset (issue 17, goal 2).

The same model, data, batch, optimizer math and thread count as the C++ engine, written the
way a PyTorch user would write it in eager mode (Debian python3-torch, the same LibTorch
1.13 and OpenBLAS). Like `lipschitz-cli bench`, it times `--steps` training steps with
evaluation, spectra and logging only on the last step, and prints one JSON line.

Supported: task mnist (model mlp) and chars (model lipschitz_gpt, content or position
scores, optionally model.input_conv and model.logit_bias); optimizers muon and adamw; constraint none or spectral_soft_cap (alpha auto or a number). Anything else exits 2.

    /usr/bin/python3 benchmarks/peer/peer_train.py --config resources/presets/mnist_adamw_wd.json \\
        --steps 200 --threads 1
Optional, never a test dependency: install python3-torch (packaging/setup.sh --with-peer).
"""
import argparse
import gzip
import json
import math
import os
import struct
import sys
import time

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    sys.exit("peer_train.py: no torch module: run it with Debian's /usr/bin/python3 after installing python3-torch (packaging/setup.sh --with-peer)")

GELU_MAX_SLOPE = 1.1289
POSITION_BIAS_LIMIT = 16.0
JORDAN5 = (3.4445, -4.7750, 2.0315)


def blas_core():
    """The OpenBLAS core this process runs (the engine reports its own as blas_core): on a VM
    that hides its CPU model OpenBLAS falls back to Prescott kernels unless OPENBLAS_CORETYPE
    names a core, and the engine's front sets it, so the two sides are compared on one core."""
    import ctypes
    for lib in ("libblas.so.3", "libopenblas.so.0"):
        try:
            fn = ctypes.CDLL(lib).openblas_get_corename
        except (OSError, AttributeError):
            continue
        fn.restype = ctypes.c_char_p
        return fn().decode()
    return ""


def fail(msg):
    print(f"peer_train.py: {msg}", file=sys.stderr)
    sys.exit(2)


def resolve_data(path, repo):
    return os.path.join(repo, "resources", "data", path[len("@data/"):]) if path.startswith("@data/") else path


# ---- data (engine/data: mnist.cpp, array_dataset.cpp, chars_dataset.cpp)
def read_idx(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        raw = f.read()
    ndim = raw[3]
    dims = struct.unpack(">" + "I" * ndim, raw[4:4 + 4 * ndim])
    t = torch.frombuffer(bytearray(raw[4 + 4 * ndim:]), dtype=torch.uint8)
    return t.reshape(dims[0], -1) if ndim > 1 else t


class Mnist:
    def __init__(self, folder, train_count):
        def find(stem):
            for name in (stem, stem + ".gz"):
                p = os.path.join(folder, name)
                if os.path.exists(p):
                    return p
            return None
        prefix = "train" if find("train-images-idx3-ubyte") else "t10k"
        images = read_idx(find(f"{prefix}-images-idx3-ubyte"))
        labels = read_idx(find(f"{prefix}-labels-idx1-ubyte")).long()
        self.x, self.y = images[:train_count], labels[:train_count]
        self.vx, self.vy = images[train_count:], labels[train_count:]
        self.input_dim, self.classes = images.shape[1], 10

    def sample(self, batch, gen):
        idx = torch.randint(0, self.y.numel(), (batch,), generator=gen)
        return self.x.index_select(0, idx).float().div_(255.0), self.y.index_select(0, idx)

    def val_batch(self, batch):
        return self.vx[:batch].float().div_(255.0), self.vy[:batch]


class Chars:
    def __init__(self, path, seq_len, val_fraction=0.1):
        with open(path, "rb") as f:
            data = f.read()
        vocab = sorted(set(data))
        table = bytes(bytearray(vocab.index(b) if b in vocab else 0 for b in range(256)))
        ids = torch.frombuffer(bytearray(data.translate(table)), dtype=torch.uint8)
        n_train = int(len(data) * (1.0 - val_fraction))
        self.train, self.val = ids[:n_train], ids[n_train:]
        self.seq_len, self.classes = seq_len, len(vocab)

    def sample(self, batch, gen):
        starts = torch.randint(0, self.train.numel() - self.seq_len, (batch,), generator=gen)
        windows = torch.stack([self.train[s:s + self.seq_len + 1] for s in starts.tolist()]).long()
        return windows[:, :-1], windows[:, 1:]

    def val_batch(self, batch):
        n = batch * self.seq_len
        w = self.val[:n + 1].long()
        return w[:n].view(batch, -1), w[1:n + 1].view(batch, -1)


# ---- models (engine/models: init.cpp, mlp.cpp, lipschitz_gpt.cpp)
def orthogonal_rms_unit(d_out, d_in, gen):
    g = torch.randn(max(d_out, d_in), min(d_out, d_in), generator=gen)
    q, r = torch.linalg.qr(g, mode="reduced")
    signs = torch.sign(torch.diagonal(r))
    q = q * (signs + (signs == 0).float()).unsqueeze(0)
    w = q if d_out >= d_in else q.T
    return (w * math.sqrt(d_out / d_in)).contiguous()


def param(t):
    return t.detach().clone().requires_grad_(True)


class Mlp:
    def __init__(self, input_dim, widths, classes, gen):
        self.params, d = [], input_dim
        for i, wd in enumerate(widths):
            self.params.append(dict(name=f"layers.{i}", role="hidden", block=i, t=param(orthogonal_rms_unit(wd, d, gen))))
            d = wd
        self.params.append(dict(name="head", role="head", block=len(widths), t=param(torch.zeros(classes, d))))

    def forward(self, x):
        for p in self.params[:-1]:
            x = F.relu(F.linear(x, p["t"]))
        return F.linear(x, self.params[-1]["t"])

    def after_step(self):
        pass


class LipschitzGpt:
    def __init__(self, m, vocab, gen):
        d, dm = m["d_model"], m.get("mlp_ratio", 4) * m["d_model"]
        self.heads, self.blocks, self.d = m["heads"], m["blocks"], d
        self.scale = m.get("final_logit_scale", 1.0)
        if m.get("standard", False):
            fail("model.standard: only the Lipschitz (standard = false) GPT is in the peer")
        if m.get("residual", "convex") != "convex" or m.get("score_scale", 1.0) != 1.0:
            fail("model.residual / model.score_scale: only the convex residual at score scale 1 is in the peer")
        self.scores = m.get("attention_scores", "content")
        if self.scores not in ("content", "position"):
            fail(f"model.attention_scores: '{self.scores}' is not in the peer (content, position)")
        zero = m.get("zero_init", "outputs")
        if zero not in ("outputs", "outputs_and_head"):
            fail(f"model.zero_init: '{zero}' is not in the peer (outputs, outputs_and_head)")
        self.alpha = m.get("residual_alpha", 0.0) or 1.0 / (2 * m["blocks"])
        # model.mlp_activation: GeLU / 1.1289, or MaxMin over the pairs (h_i, h_{i + m/2}).
        self.maxmin = m.get("mlp_activation", "gelu") == "maxmin"
        if m.get("mlp_activation", "gelu") not in ("gelu", "maxmin"):
            fail(f"model.mlp_activation: '{m['mlp_activation']}' is not in the peer (gelu, maxmin)")
        rows = torch.randn(vocab, d, generator=gen)
        rows /= rows.square().mean(-1, keepdim=True).sqrt().clamp_min(1e-30)
        self.params = [dict(name="embed", role="embed", block=-1, t=param(rows))]
        # model.input_conv = k: z_t = W [x_t; x_{t-1}; ...; x_{t-k+1}], W (d, k d) orthogonal.
        self.conv = m.get("input_conv", 0)
        if self.conv > 0:
            self.params.append(dict(name="input_conv", role="input_conv", block=-1,
                                    t=param(orthogonal_rms_unit(d, self.conv * d, gen))))
        for b in range(self.blocks):
            # The C++ model's parameter order (the same generator draws): q, k only for content
            # scores; position scores add a [heads, seq_len] bias per block, zero at the start.
            roles = (("q", (d, d)), ("k", (d, d))) if self.scores == "content" else ()
            roles += (("v", (d, d)), ("o", None)) + ((("pos", None),) if self.scores == "position" else ())
            for role, shape in roles + (("mlp_in", (dm, d)), ("mlp_out", None)):
                if shape:
                    t = orthogonal_rms_unit(*shape, gen)
                else:
                    t = torch.zeros({"o": (d, d), "pos": (self.heads, m["seq_len"]), "mlp_out": (d, dm)}[role])
                self.params.append(dict(name=f"blocks.{b}.{role}", role=role, block=b, t=param(t)))
        head = torch.zeros(vocab, d) if zero == "outputs_and_head" else orthogonal_rms_unit(vocab, d, gen)
        self.params.append(dict(name="head", role="head", block=self.blocks, t=param(head)))
        # model.logit_bias: a [vocab] vector after the logit scale, zero at the start (Adam, as pos).
        self.logit_bias = m.get("logit_bias", False)
        if self.logit_bias:
            self.params.append(dict(name="head.bias", role="bias", block=self.blocks, t=param(torch.zeros(vocab))))
        half = d // self.heads // 2
        inv = torch.pow(10000.0, torch.arange(half, dtype=torch.float32) * (-1.0 / half))
        angles = torch.outer(torch.arange(m["seq_len"], dtype=torch.float32), inv)
        self.cos, self.sin = torch.cos(angles), torch.sin(angles)
        self.mask = torch.triu(torch.ones(m["seq_len"], m["seq_len"], dtype=torch.bool), 1)
        pos = torch.arange(m["seq_len"])
        self.offset = (pos[:, None] - pos[None, :]).clamp_min(0)
        self.w = {(p["block"], p["role"]): p["t"] for p in self.params}

    def rotary(self, x):
        t, half = x.shape[-2], x.shape[-1] // 2
        c, s = self.cos[:t], self.sin[:t]
        x1, x2 = x[..., :half], x[..., half:]
        return torch.cat([x1 * c - x2 * s, x1 * s + x2 * c], -1)

    def attention(self, x, blk):
        b, t = x.shape[0], x.shape[1]
        h, dh = self.heads, self.d // self.heads
        split = lambda y: y.view(b, t, h, dh).transpose(1, 2)
        v = split(F.linear(x, self.w[blk, "v"]))
        if self.scores == "position":
            # bias[h, i - j] for j <= i: one attention matrix for the batch, no 1/3 (only v reads x)
            bias = self.w[blk, "pos"][:, self.offset[:t, :t]].masked_fill(self.mask[:t, :t], float("-inf"))
            out = torch.softmax(bias, -1).matmul(v).transpose(1, 2).reshape(b, t, self.d)
            return F.linear(out, self.w[blk, "o"])
        q = self.rotary(split(F.linear(x, self.w[blk, "q"])))
        k = self.rotary(split(F.linear(x, self.w[blk, "k"])))
        scores = q.matmul(k.transpose(-2, -1)) * (1.0 / dh)
        scores = scores.masked_fill(self.mask[:t, :t], float("-inf"))
        out = torch.softmax(scores, -1).matmul(v).transpose(1, 2).reshape(b, t, self.d)
        return F.linear(out, self.w[blk, "o"]) * (1.0 / 3.0)

    def forward(self, tokens):
        a = self.alpha
        x = F.embedding(tokens, self.params[0]["t"])
        if self.conv > 0:
            t = x.shape[1]
            taps = [x] + [F.pad(x[:, : t - o], (0, 0, o, 0)) if o < t else torch.zeros_like(x) for o in range(1, self.conv)]
            x = F.linear(torch.cat(taps, -1), self.w[-1, "input_conv"])
        for blk in range(self.blocks):
            x = x * (1.0 - a) + self.attention(x, blk) * a
            pre = F.linear(x, self.w[blk, "mlp_in"])
            if self.maxmin:
                lo, hi = pre.chunk(2, -1)
                hdn = torch.cat((torch.maximum(lo, hi), torch.minimum(lo, hi)), -1)
            else:
                hdn = F.gelu(pre) * (1.0 / GELU_MAX_SLOPE)
            x = x * (1.0 - a) + F.linear(hdn, self.w[blk, "mlp_out"]) * a
        logits = F.linear(x, self.w[self.blocks, "head"]) * self.scale
        return logits + self.w[self.blocks, "bias"] if self.logit_bias else logits

    def after_step(self):
        with torch.no_grad():
            e = self.params[0]["t"]
            e.div_(e.square().mean(-1, keepdim=True).sqrt().clamp_min(1e-30))
            for p in self.params:
                if p["role"] == "pos":
                    p["t"].clamp_(-POSITION_BIAS_LIMIT, POSITION_BIAS_LIMIT)


# ---- optimizer math (engine/optim, engine/spectral)
def msign(u, steps=5):
    tall = u.shape[0] > u.shape[1]
    x = u.T if tall else u
    x = (x / (x.square().sum().sqrt() + 1e-30)).contiguous()
    a, b, c = JORDAN5
    for _ in range(steps):
        gram = x @ x.T
        poly = torch.addmm(gram, gram, gram, beta=b, alpha=c)
        x = torch.addmm(x, poly, x, beta=a)
    return x.T.contiguous() if tall else x


def ns_max_inflation(steps=5):
    a, b, c = JORDAN5
    worst = 0.0
    for i in range(20001):
        x = 10.0 ** (-8.0 + 8.0 * i / 20000)
        for _ in range(steps):
            x2 = x * x
            x = x * (a + x2 * (b + c * x2))
        worst = max(worst, abs(x))
    return worst


def soft_cap_alpha(sigma_max, lr, wd, update_norm):
    k = sigma_max * (1.0 - wd * lr) + update_norm
    if k <= sigma_max:
        return 0.0
    target = sigma_max / k
    f = lambda t: (1.0 - t) * (1.0 + t * (1.0 - t) ** 2)
    lo, hi = 0.0, 1.0
    for _ in range(200):
        if hi - lo <= 1e-17:
            break
        mid = 0.5 * (lo + hi)
        if f(mid) > target:
            lo = mid
        else:
            hi = mid
    t = 0.5 * (lo + hi)
    for _ in range(3):
        df = -t * (4.0 * t * t - 9.0 * t + 6.0)
        if df == 0.0:
            break
        nxt = t - (f(t) - target) / df
        if 0.0 < nxt < 1.0:
            t = nxt
    return t / (k * k)


def soft_cap(w, alpha):
    tall = w.shape[0] > w.shape[1]
    x = w.T if tall else w
    for sign in (-1.0, 1.0):
        gram = x @ x.T
        x = torch.addmm(x, gram, x, alpha=sign * alpha)
    return x.T.contiguous() if tall else x


class Trainer:
    def __init__(self, cfg, model):
        self.cfg, self.model, self.opt = cfg, model, cfg["optimizer"]
        o = self.opt
        self.kind = o["kind"]
        if o.get("lr_units", "plain") != "plain":
            fail("optimizer.lr_units: only plain is in the peer")
        if self.kind not in ("muon", "adamw"):
            fail(f"optimizer.kind: '{self.kind}' is not in the peer (muon, adamw)")
        if self.kind == "muon" and (o.get("ns_coeffs", "jordan5") != "jordan5"):
            fail("optimizer.ns_coeffs: only jordan5 is in the peer")
        self.ns_steps = o.get("ns_steps", 5)
        self.kappa = ns_max_inflation(self.ns_steps)
        self.beta1, self.beta2, self.eps = o.get("beta1", 0.9), o.get("beta2", 0.95), o.get("eps", 1e-8)
        self.bias_correction = o.get("bias_correction", True)
        self.wd = o.get("weight_decay", 0.0)
        self.state = {}
        blocks = cfg["model"].get("blocks", 0) if cfg["model"]["kind"] == "lipschitz_gpt" else 0
        layers, dd = 2 * blocks, o.get("depth_decay", 1.0)
        for p in model.params:
            m = o.get("embed_lr", 1.0) if p["role"] == "embed" else o.get("head_lr", 1.0) if p["role"] == "head" else o.get("hidden_lr", 1.0)
            if dd < 1.0 and layers > 0 and p["block"] >= 0 and p["role"] not in ("head", "embed"):
                layer = 2 * p["block"] + (1 if p["role"] in ("mlp_in", "mlp_out") else 0)
                m *= dd ** (layers - 1 - layer)
            p["mult"] = m
        c = cfg.get("constraint", {"method": "none"})
        self.constraint = c.get("method", "none")
        if self.constraint not in ("none", "spectral_soft_cap"):
            fail(f"constraint.method: '{self.constraint}' is not in the peer (none, spectral_soft_cap)")
        self.sigma_max, self.alpha = c.get("sigma_max", 1.0), c.get("alpha", "auto")
        self.rms = c.get("norm", "rms") == "rms"
        self.update_norm_factor = c.get("update_norm_factor", 1.0)
        self.steps = cfg["steps"]

    def scale_for(self, d_out, d_in):
        r = d_out / d_in
        return math.sqrt(max(1.0, r)) if self.opt.get("muon_scale", "paper") == "jordan" else math.sqrt(r)

    def adam_apply(self, p, g, eta):
        # As torch.optim.AdamW's single-tensor loop (1.13) writes it: one denominator, one addcdiv_.
        s = self.state.setdefault(p["name"] + ".adam", {"t": 0})
        if "m" not in s:
            s["m"], s["v"] = torch.zeros_like(g), torch.zeros_like(g)
        s["t"] += 1
        s["m"].mul_(self.beta1).add_(g, alpha=1.0 - self.beta1)
        s["v"].mul_(self.beta2).addcmul_(g, g, value=1.0 - self.beta2)
        c1 = 1.0 - self.beta1 ** s["t"] if self.bias_correction else 1.0
        c2 = 1.0 - self.beta2 ** s["t"] if self.bias_correction else 1.0
        denom = (s["v"].sqrt() / math.sqrt(c2)).add_(self.eps)
        p["t"].addcdiv_(s["m"], denom, value=-eta / c1)

    def update_bound(self, p, lr):
        w, eta = p["t"], lr * p["mult"]
        if self.kind != "muon" or w.dim() != 2 or p["role"] in ("pos", "bias"):
            return -1.0
        if p["role"] == "embed":
            return -1.0 if self.opt.get("embed_update", "column_normalize") == "adamw" else eta
        return eta * self.scale_for(w.shape[0], w.shape[1]) * self.kappa * math.sqrt(w.shape[1] / w.shape[0])

    @torch.no_grad()
    def optimizer_step(self, lr):
        beta, nesterov = self.opt.get("momentum", 0.95), self.opt.get("nesterov", True)
        for p in self.model.params:
            w, g = p["t"], p["t"].grad
            if g is None:
                continue
            eta = lr * p["mult"]
            if self.wd > 0 and p["role"] not in ("pos", "bias"):
                w.mul_(1.0 - eta * self.wd)
            if self.kind == "adamw" or w.dim() != 2 or p["role"] in ("pos", "bias") or (p["role"] == "embed" and self.opt.get("embed_update") == "adamw"):
                self.adam_apply(p, g, eta)
                continue
            buf = self.state.get(p["name"])
            if buf is None:
                buf = self.state[p["name"]] = torch.zeros_like(g)
            buf.mul_(beta).add_(g, alpha=1.0 - beta)
            u = g * (1.0 - beta) + buf * beta if nesterov else buf
            if p["role"] == "embed":
                rms = u.square().mean(-1, keepdim=True).sqrt()
                factor = torch.clamp_max(1.0 / torch.clamp_min(rms, 1e-30), self.opt.get("embed_max_inflation", 16))
                w.sub_(u * factor, alpha=eta)
            else:
                w.sub_(msign(u, self.ns_steps), alpha=eta * self.scale_for(w.shape[0], w.shape[1]))

    @torch.no_grad()
    def constraint_step(self, lr):
        if self.constraint == "none":
            return
        for p in self.model.params:
            w = p["t"]
            if w.dim() != 2 or p["role"] in ("embed", "pos", "bias"):
                continue
            if self.alpha == "auto":
                bound = self.update_bound(p, lr)
                eta = lr * p["mult"]
                alpha = soft_cap_alpha(self.sigma_max, eta, self.wd, (bound if bound >= 0 else eta) * self.update_norm_factor)
            else:
                alpha = float(self.alpha)
            s = math.sqrt(w.shape[1] / w.shape[0]) if self.rms else 1.0
            w.copy_(soft_cap(w * s, alpha) / s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", required=True)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--threads", type=int, default=0, help="intra-op threads (default: all)")
    ap.add_argument("--repo", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    a = ap.parse_args()
    if a.steps < 2:
        fail("--steps: expected an integer >= 2")
    try:
        with open(a.config) as f:
            cfg = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"--config: {e}")
    torch.set_num_threads(a.threads if a.threads > 0 else os.cpu_count())
    # The engine flushes float32 denormals (engine/common/float_env.h): the same here, so the
    # comparison is of the two implementations, not of denormal handling.
    torch.set_flush_denormal(True)
    seed = cfg.get("seed", 0)
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    data_gen = torch.Generator().manual_seed((seed + 0x9E3779B97F4A7C15) % (1 << 63))
    task, m = cfg.get("task"), cfg["model"]
    if task == "mnist" and m["kind"] == "mlp":
        data = Mnist(resolve_data(cfg["data_path"], a.repo), cfg.get("mnist_train_count", 8000))
        model = Mlp(data.input_dim, m["widths"], data.classes, gen)
    elif task == "chars" and m["kind"] == "lipschitz_gpt":
        data = Chars(resolve_data(cfg["data_path"], a.repo), m["seq_len"])
        model = LipschitzGpt(m, data.classes, gen)
    else:
        fail(f"task/model: '{task}'/'{m['kind']}' is not in the peer (mnist/mlp, chars/lipschitz_gpt)")
    cfg["steps"] = a.steps
    tr = Trainer(cfg, model)
    batch, lr0 = cfg.get("batch_size", 128), cfg["optimizer"]["lr"]
    schedule = cfg["optimizer"].get("schedule", "linear")
    start = time.perf_counter()
    for step in range(a.steps):
        lr = lr0 * (1.0 - step / a.steps if schedule == "linear" else 1.0)
        x, y = data.sample(batch, data_gen)
        logits = model.forward(x)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        for p in model.params:
            p["t"].grad = None
        loss.backward()
        tr.optimizer_step(lr)
        tr.constraint_step(lr)
        model.after_step()
    # The last step's log row, as the C++ bench: loss read-back, singular values, one val batch.
    last_loss = loss.item()
    with torch.no_grad():
        for p in model.params:
            if p["t"].dim() == 2:
                torch.linalg.svdvals(p["t"])
        vx, vy = data.val_batch(batch)
        vl = model.forward(vx)
        val_loss = F.cross_entropy(vl.reshape(-1, vl.shape[-1]), vy.reshape(-1)).item()
    seconds = time.perf_counter() - start
    print(json.dumps({"config": os.path.splitext(os.path.basename(a.config))[0], "steps": a.steps,
                      "threads": torch.get_num_threads(), "steps_per_s": a.steps / seconds,
                      "train_loss": last_loss, "val_loss": val_loss, "blas_core": blas_core()}))


if __name__ == "__main__":
    main()
