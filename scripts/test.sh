#!/usr/bin/env bash
# Set up a virtual environment with the test extras, then run the whole check:
# pytest (rules scenarios, property tests), ruff and mypy.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'
.venv/bin/python -m pytest
.venv/bin/ruff check .
.venv/bin/mypy
