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
#
# The tests' files (pytest's tmp_path, the matches they make) go to the memory filesystem /dev/shm where there
# is one with 4 GB free and TMPDIR names no other folder: every workbook save is fsync'ed, and on a disk those waits and the
# journal's work were about a sixth of the CPU and wall of the tests that save workbooks (docs/benchmarks.md,
# "The test command"). There pytest keeps the folders of failed tests alone, so that the memory they take is given
# back when the tests pass.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install.sh
in_memory=()
# (only where it has room: a container's /dev/shm is often 64 MB, and a whole run writes some hundreds of MB)
shm_free_gb=$(df --output=avail -BG /dev/shm 2>/dev/null | tail -1 | tr -dc 0-9 || true)
if [[ -z ${TMPDIR:-} && -d /dev/shm && -w /dev/shm && ${shm_free_gb:-0} -ge 4 ]]; then
  export TMPDIR=/dev/shm
  in_memory=(-o tmp_path_retention_policy=failed)
fi
# Each run's files in a folder of its own, removed when the tests pass: what a test, a killed worker or a program the
# tests start (chromium, Dovecot) leaves behind never piles up in the machine's temporary folder. When a test fails,
# the folder stays for its files, and its path is said. (755: the accounts Dovecot runs as must enter it.)
run_folder=$(mktemp -d "${TMPDIR:-/tmp}/sgm-tests-XXXXXX")
chmod 755 "$run_folder"
export TMPDIR=$run_folder
status=0
.venv/bin/python -m pytest "${parallel[@]}" "${in_memory[@]}" || status=$?
if [[ $status -eq 0 ]]; then
  rm -rf "$run_folder"
else
  echo "The tests' files are kept in $run_folder" >&2
  exit "$status"
fi
.venv/bin/ruff check .
.venv/bin/mypy
