#!/usr/bin/env bash
# Test one game: scripts/test_game.sh NAME
# Installs what the tests need through scripts/install.sh (which does nothing when .venv holds an install of this
# pyproject.toml with the test extras already: its stamp), then runs every test that runs for the game NAME (its
# conformance tests, its own tests under tests/rulesets/NAME/, its scenarios: `pytest --game NAME`, tests/conftest.py
# says which), its scenarios through the command a GM uses, and ruff and mypy on its package.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-}
if [ -z "$name" ] || [ ! -d "sheets_gm/rulesets/$name" ]; then
  echo "usage: scripts/test_game.sh NAME, a game of sheets_gm/rulesets/ (e.g. gvg)${name:+; there is no sheets_gm/rulesets/$name}" >&2
  exit 2
fi
source scripts/install.sh
.venv/bin/python -m pytest "${parallel[@]}" --game "$name"
if [ -d "tests/scenarios/$name" ]; then
  .venv/bin/sheets-gm scenario "tests/scenarios/$name"
fi
.venv/bin/ruff check "sheets_gm/rulesets/$name"
.venv/bin/mypy "sheets_gm/rulesets/$name"
echo "$name: every test of the game passed"
