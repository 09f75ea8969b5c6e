# Sourced by scripts/test.sh and scripts/test_game.sh (from the checkout's root): a virtual environment in .venv
# with the package and its test extras. pip runs only when pyproject.toml changed since the last install (a stamp in
# .venv); a fresh clone always installs.
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
stamp=.venv/.sheets-gm-install
want="$(sha256sum pyproject.toml | cut -d' ' -f1) test"
if ! grep -qxF "$want" "$stamp" 2>/dev/null; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[test]'
  echo "$want" > "$stamp"
fi
# The match page's browser tests drive Debian's chromium through Debian's chromedriver (no browser download): as
# root, install them when they are missing; elsewhere the tests skip, naming what to install.
if ! { command -v chromedriver && { command -v chromium || command -v chromium-browser; }; } >/dev/null 2>&1 \
   && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get install -y -q chromium chromium-driver >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium chromium-driver >/dev/null 2>&1; } \
    || echo "chromium and chromium-driver could not be installed: the match page's browser tests will skip" >&2
fi
# Python's compiled modules and pytest's rewritten test modules are kept (__pycache__, ignored by git) and used again
# by the next run, even where the environment asks Python not to write them: without them each worker compiles and
# rewrites every test module again (about 10 s of CPU each) and every command a test starts compiles the package.
unset PYTHONDONTWRITEBYTECODE
# pytest's parallel processes (pytest-xdist): one per core this shell may use, at most 4 (CI has 2), or
# SHEETS_GM_TEST_WORKERS of them when that is set (1: no worker processes).
workers=${SHEETS_GM_TEST_WORKERS:-$(.venv/bin/python -c 'import os; print(min(4, len(os.sched_getaffinity(0))))')}
case $workers in
  ''|*[!0-9]*|0) echo "SHEETS_GM_TEST_WORKERS must be a whole number of 1 or more, not '$workers'" >&2; exit 2 ;;
  1) parallel=(-n 0) ;;
  *) parallel=(-n "$workers" --dist loadgroup) ;;
esac
