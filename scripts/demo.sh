#!/usr/bin/env bash
# Set up a virtual environment and play the demo: a whole GvG match on a local workbook.
# pip runs only when pyproject.toml changed since the last install (a stamp in .venv), so a
# second demo starts at once.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
stamp=.venv/.sheets-gm-install
sum=$(sha256sum pyproject.toml | cut -d' ' -f1)
if ! grep -qE "^$sum (base|test)$" "$stamp" 2>/dev/null; then  # the test install includes the base one
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e .
  echo "$sum base" > "$stamp"
fi
.venv/bin/sheets-gm demo "$@"
