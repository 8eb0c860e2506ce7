#!/usr/bin/env python3
"""Seeds for the project's own file kinds (issue 33): tests/fixtures/fuzz/{json,spectra_index,index}/.

Each seed is a small hostile or valid example of a file the workbench reads: configs, sweep
specs and checkpoint __metadata__ configs (json), a run folder's spectra.json (spectra_index)
and the SQLite run index (index). Run from the repository root; rewrites only its own seeds
(seed-*), never the minimized corpus files next to them.
"""
import json
import os
import sqlite3
import struct

ROOT = os.path.join("tests", "fixtures", "fuzz")
APP_ID = 0x4C574249

# The run index schema as engine/sweep/run_index.cpp's kMigrations write it.
V1 = ("CREATE TABLE runs (path TEXT PRIMARY KEY NOT NULL, id TEXT NOT NULL, status TEXT NOT NULL, message TEXT,"
      " task TEXT, model TEXT, optimizer TEXT, method TEXT, sigma_max REAL, lr REAL, weight_decay REAL,"
      " seed INTEGER, steps INTEGER, step_done INTEGER, val_loss REAL, val_acc REAL, lipschitz_bound REAL,"
      " max_act_entry REAL, steps_per_s REAL, seconds REAL, config TEXT, sweep TEXT, point INTEGER,"
      " signature TEXT);"
      "CREATE INDEX runs_status ON runs(status);"
      "CREATE INDEX runs_optimizer_method ON runs(optimizer, method);")
V2 = ("ALTER TABLE runs ADD COLUMN slurm_job TEXT;"
      "ALTER TABLE runs ADD COLUMN scheduler_state TEXT;"
      "CREATE INDEX runs_sweep ON runs(sweep, point);")


def write(kind, name, data):
    os.makedirs(os.path.join(ROOT, kind), exist_ok=True)
    with open(os.path.join(ROOT, kind, "seed-" + name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def nested(depth, inner=""):
    return "[" * depth + inner + "]" * depth


def json_seeds():
    config = {"task": "modular_addition", "modulus": 23, "steps": 4, "batch_size": 8,
              "model": {"kind": "modular_mlp", "embed_dim": 8, "width": 16},
              "optimizer": {"kind": "muon", "lr": 0.1}, "constraint": {"method": "spectral_soft_cap", "sigma_max": 2}}
    write("json", "config", json.dumps(config, indent=2))
    write("json", "sweep-spec", json.dumps({"base": "mnist_muon_softcap", "grid": {"optimizer.lr": {"from": 0.01, "to": 0.1, "count": 3, "scale": "log"}}, "seeds": [0, 1]}))
    huge = dict(config, model={"kind": "mlp", "widths": [65536] * 256})
    write("json", "checkpoint-metadata-huge-model", json.dumps(huge))
    write("json", "depth-64", nested(64))
    write("json", "depth-65", nested(65))
    write("json", "depth-20000-spec-name", '{"base":"x","seeds":[0,1],"name":' + nested(20000) + "}")
    write("json", "deep-objects", '{"a":' * 70 + "1" + "}" * 70)
    write("json", "number-overflow", '{"steps": 1e999}')
    write("json", "invalid-utf8", b'{"name": "\xff\xfe"}')
    write("json", "duplicate-keys", '{"steps": 1, "steps": 2}')
    write("json", "truncated", '{"model": {"kind": "mlp", "widths": [256, ')
    write("json", "bom", b'\xef\xbb\xbf{"steps": 3}')
    write("json", "wide-deep-spec", '{"name":' + nested(60, ",".join(["0"] * 2000)) + "}")
    write("json", "status-summary", json.dumps({"status": "finished", "steps": 9, "val_loss": None, "message": "x" * 300}))


def spectra_seeds():
    good = [{"step": 0, "name": "layers.0", "offset": 0, "count": 16}, {"step": 10, "name": "layers.0", "offset": 16, "count": 16}]
    write("spectra_index", "valid", json.dumps(good))
    write("spectra_index", "count-2-30", json.dumps([{"step": 1, "name": "a", "offset": 0, "count": 1 << 30}]))
    write("spectra_index", "offset-overflow", json.dumps([{"step": 1, "name": "a", "offset": 2**64 - 1, "count": 2}]))
    write("spectra_index", "many-2-20", json.dumps([{"step": i, "name": "a", "offset": 0, "count": 1 << 20} for i in range(70)]))
    write("spectra_index", "past-the-end", json.dumps([{"step": 1, "name": "a", "offset": 60, "count": 8}]))
    write("spectra_index", "negative-step", json.dumps([{"step": -5, "name": "a", "offset": 0, "count": 1}]))
    write("spectra_index", "string-count", json.dumps([{"step": 1, "name": "a", "offset": 0, "count": "64"}]))
    write("spectra_index", "not-an-array", json.dumps({"step": 1}))
    write("spectra_index", "deep", nested(100))
    write("spectra_index", "step-too-big", '[{"step": 18446744073709551615, "name": "a", "offset": 0, "count": 1}]')
    write("spectra_index", "duplicate-steps", json.dumps(good + good))


def index_seed(name, statements, app_id=APP_ID, version=2):
    path = os.path.join(ROOT, "index", "seed-" + name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript(statements)
    db.execute("PRAGMA application_id=%d" % app_id)
    db.execute("PRAGMA user_version=%d" % version)
    db.commit()
    db.close()


def index_seeds():
    row = "INSERT INTO runs (path, id, status, config) VALUES ('/r/a', 'a', 'finished', '{\"steps\": 3}');"
    index_seed("valid-v2", V1 + V2 + row)
    index_seed("valid-v1", V1 + row, version=1)
    index_seed("recursive-view", "CREATE VIEW runs AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"
               " SELECT x AS path, x AS id, x AS status FROM c;")
    index_seed("trigger", V1 + V2 + "CREATE TRIGGER t AFTER INSERT ON runs BEGIN"
               " INSERT INTO runs (path, id, status) SELECT path || 'x', id, status FROM runs; END;")
    index_seed("extra-column", V1 + V2 + "ALTER TABLE runs ADD COLUMN b BLOB DEFAULT (zeroblob(100000000));")
    index_seed("expression-index", V1 + V2 + "CREATE INDEX heavy ON runs(length(zeroblob(100000000)));")
    index_seed("foreign", "CREATE TABLE photos (id INTEGER);", app_id=0, version=0)
    index_seed("newer", "CREATE TABLE runs (path TEXT);", version=99)
    index_seed("missing-table", "", version=2)
    with open(os.path.join(ROOT, "index", "seed-valid-v2"), "rb") as f:
        data = f.read()
    write("index", "truncated", data[: len(data) // 3])
    write("index", "header-only", data[:100])
    write("index", "not-sqlite", struct.pack("<16I", *range(16)))


if __name__ == "__main__":
    json_seeds()
    spectra_seeds()
    index_seeds()
