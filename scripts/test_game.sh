#!/usr/bin/env bash
# Test one game: scripts/test_game.sh NAME
# Installs what the tests need through scripts/install.sh (which does nothing when .venv holds an install of this
# pyproject.toml with the test extras already: its stamp), then runs every check of the game NAME, each whatever the
# one before it said: every test that runs for the game (its conformance tests, its own tests under
# tests/rulesets/NAME/, its scenarios: `pytest --game NAME`, tests/conftest.py says which), its scenarios through the
# command a GM uses, and ruff and mypy on its package. It ends with what each check said, and exits 1 if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
name=${1:-}
if [ -z "$name" ] || [ ! -d "sheets_gm/rulesets/$name" ]; then
  echo "usage: scripts/test_game.sh NAME, a game of sheets_gm/rulesets/ (e.g. gvg)${name:+; there is no sheets_gm/rulesets/$name}" >&2
  exit 2
fi
set -e
source scripts/install.sh
set +e
checks=()
failed=0
check() {  # check WHAT COMMAND...: run it, and keep what it said for the summary
  local what=$1
  shift
  echo "== $what: $*"
  if "$@"; then
    checks+=("passed  $what")
  else
    checks+=("FAILED  $what ($*)")
    failed=1
  fi
}
check "the shared tests and the game's own" .venv/bin/python -m pytest "${parallel[@]}" --game "$name"
if [ -d "tests/scenarios/$name" ]; then
  check "the scenarios, as a GM runs them" .venv/bin/sheets-gm scenario "tests/scenarios/$name"
fi
check "ruff" .venv/bin/ruff check "sheets_gm/rulesets/$name"
check "mypy" .venv/bin/mypy "sheets_gm/rulesets/$name"
echo
echo "$name:"
printf '  %s\n' "${checks[@]}"
if [ "$failed" -ne 0 ]; then
  echo "$name: a check failed (above, each check's own report)"
  exit 1
fi
echo "$name: every check of the game passed"
