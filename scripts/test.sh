#!/usr/bin/env bash
# Set up a virtual environment with the test extras, then run the whole check:
# pytest (rules scenarios, property tests), ruff and mypy. pip runs only when
# pyproject.toml changed since the last install (a stamp in .venv); a fresh clone always installs.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
stamp=.venv/.sheets-gm-install
want="$(sha256sum pyproject.toml | cut -d' ' -f1) test"
if ! grep -qxF "$want" "$stamp" 2>/dev/null; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[test]'
  echo "$want" > "$stamp"
fi
.venv/bin/python -m pytest
.venv/bin/ruff check .
.venv/bin/mypy
