#!/usr/bin/env bash
# Issue 17 measurement driver (threads under contention, PyTorch peer, spectral FLOP bound,
# memory): prints every table as Markdown for docs/BENCHMARKS.md. See measure.py's header.
#   benchmarks/issue17/measure.sh [--quick] [--build build] [--reps 3] [--out FILE]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
py=python3
command -v "$py" >/dev/null || py=/usr/bin/python3
exec "$py" "$here/measure.py" "$@"
