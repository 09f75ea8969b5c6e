#!/usr/bin/env bash
# Set up a virtual environment with the test extras, then run the whole check:
# pytest (rules scenarios, property tests), ruff and mypy. pip runs only when
# pyproject.toml changed since the last install (a stamp in .venv); a fresh clone always installs.
#
# pytest runs its tests in parallel processes (pytest-xdist): one per core this shell may use, at
# most 4 (CI has 2), or SHEETS_GM_TEST_WORKERS of them when that is set (1: no worker processes, the
# tests in this process as a plain `pytest` runs them). `--dist loadgroup` spreads the tests over the
# workers as they free up, except those marked with the same `xdist_group` (they share a costly
# module fixture), which all go to one worker.
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
workers=${SHEETS_GM_TEST_WORKERS:-$(.venv/bin/python -c 'import os; print(min(4, len(os.sched_getaffinity(0))))')}
case $workers in
  ''|*[!0-9]*|0) echo "SHEETS_GM_TEST_WORKERS must be a whole number of 1 or more, not '$workers'" >&2; exit 2 ;;
  1) .venv/bin/python -m pytest -n 0 ;;
  *) .venv/bin/python -m pytest -n "$workers" --dist loadgroup ;;
esac
.venv/bin/ruff check .
.venv/bin/mypy
