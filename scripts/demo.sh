#!/usr/bin/env bash
# Set up a virtual environment and play the demo: a whole GvG match on a local workbook.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e .
.venv/bin/sheets-gm demo "$@"
