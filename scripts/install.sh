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
# The tests that drive real programs use Debian's packages, never a download of their own: chromium and chromedriver
# (the match page in a browser), LibreOffice with python3-uno (typing and saving as a player does) and poppler
# (printing), Dovecot (the judge's IMAP mailbox) and spamassassin (how a notice's mail scores). As root, the missing
# ones are installed here, so that none of those tests skips on a fresh machine, unless SHEETS_GM_NO_APT is set;
# elsewhere (or so) they skip, naming what to install. Each entry: a check that the tool is there, and the Debian
# packages that bring it.
missing=()
have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }
have chromedriver && { have chromium || have chromium-browser; } || missing+=(chromium chromium-driver)
have soffice && [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import uno' 2>/dev/null \
  || missing+=(libreoffice-calc python3-uno)
have pdftoppm || missing+=(poppler-utils)
have dovecot || missing+=(dovecot-imapd)
have spamassassin || missing+=(spamassassin)
if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && [ -z "${SHEETS_GM_NO_APT:-}" ] \
    && command -v apt-get >/dev/null 2>&1; then
  echo "installing ${missing[*]} with apt-get for the tests that drive them (SHEETS_GM_NO_APT=1 skips this)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "${missing[@]}" >/dev/null 2>&1; } \
    || echo "could not install ${missing[*]}: the tests that need them will skip" >&2
  # Dovecot's package starts a system-wide server on ports 143 and 993; the tests start their own on free ports.
  if [[ " ${missing[*]} " == *" dovecot-imapd "* ]] && command -v systemctl >/dev/null 2>&1; then
    systemctl disable --now dovecot >/dev/null 2>&1 || true
  fi
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
