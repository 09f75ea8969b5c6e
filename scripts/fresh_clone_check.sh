#!/usr/bin/env bash
# The README's two commands, run as written in a fresh clone (new virtual environment), with
# ../shared beside it as CI has it. Prints how long each took; exits 1 if either fails.
#   bash scripts/fresh_clone_check.sh [COMMIT]        (default: HEAD)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
git clone --quiet "$REPO" "$WORK/sheets-gm"
git -C "$WORK/sheets-gm" checkout --quiet "${1:-HEAD}"
[ -d "$REPO/../shared" ] && ln -s "$(cd "$REPO/../shared" && pwd)" "$WORK/shared"
cd "$WORK/sheets-gm"
for cmd in "bash scripts/demo.sh" "bash scripts/test.sh"; do
    start=$(date +%s)
    if $cmd > "$WORK/out.txt" 2>&1; then
        echo "ok   $cmd ($(( $(date +%s) - start )) s): $(grep -E 'Result|passed|failed' "$WORK/out.txt" | head -1)"
    else
        echo "FAIL $cmd ($(( $(date +%s) - start )) s); its last lines:"
        tail -20 "$WORK/out.txt"
        exit 1
    fi
done
