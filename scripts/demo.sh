#!/usr/bin/env bash
# Set up a virtual environment and play the demo: a whole GvG match on local workbooks.
# pip runs only when pyproject.toml changed since the last install (a stamp in .venv), so a
# second demo starts at once. The demo runs in the folder you started this script from: its
# --out folder and every path it prints are yours, wherever the repository is.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=$root/.venv
PY=${PYTHON:-python3}
[ -x "$venv/bin/python" ] || "$PY" -m venv "$venv"
stamp=$venv/.sheets-gm-install
sum=$(sha256sum "$root/pyproject.toml" | cut -d' ' -f1)
if ! grep -qE "^$sum (base|test)$" "$stamp" 2>/dev/null; then  # the test install includes the base one
  echo "installing sheets-gm into $venv (once, about a minute)…" >&2
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  "$venv/bin/python" -m pip install --quiet -e "$root"
  echo "$sum base" > "$stamp"
fi
exec "$venv/bin/sheets-gm" demo "$@"
