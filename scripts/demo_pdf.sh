#!/usr/bin/env bash
# Open the demo's board workbook in LibreOffice (headless) and print it to PDF, then render the board page as
# a PNG to look at. Plays the demo first if there is no demo board yet.
#   bash scripts/demo_pdf.sh [DEMO_FOLDER]          (default: demo-out in the folder you run it from)
# The folder is yours, not the repository's: run it where you ran `sheets-gm demo`.
# Needs LibreOffice (Debian: apt install libreoffice-calc); the PNG needs pdftoppm (apt install
# poppler-utils); emoji show only with an emoji font installed (apt install fonts-noto-color-emoji).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-demo-out}
SOFFICE=$(command -v soffice || command -v libreoffice || true)
if [ -z "$SOFFICE" ]; then
    echo "LibreOffice is not installed (soffice not found): apt install libreoffice-calc" >&2
    exit 1
fi
if [ ! -f "$OUT/board.xlsx" ]; then
    SHEETS_GM=$(command -v sheets-gm || echo "$REPO/.venv/bin/sheets-gm")
    echo "No demo board in $OUT yet: playing the demo there first ($SHEETS_GM demo --out $OUT)"
    "$SHEETS_GM" demo --out "$OUT"
fi
# A private profile folder: works beside a running LibreOffice and leaves the user's profile alone.
PROFILE=$(mktemp -d)
trap 'rm -rf "$PROFILE"' EXIT
"$SOFFICE" -env:UserInstallation="file://$PROFILE" --headless --convert-to pdf --outdir "$OUT/pdf" \
    "$OUT/board.xlsx" >/dev/null
PDF="$OUT/pdf/board.pdf"
PAGES=$(python3 -c "import re,sys; print(len(re.findall(rb'/Type\s*/Page[^s]', open(sys.argv[1],'rb').read())))" "$PDF")
echo "LibreOffice opened the workbook and printed it: $PDF ($PAGES pages; the board's map comes first, on as"
echo "many pages as hold it at 8 pt or more, then its Log and Settings tabs)"
if command -v pdftoppm >/dev/null; then
    pdftoppm -png -r 110 -f 1 -l 1 -singlefile "$PDF" "$OUT/pdf/board"
    echo "The first page of the map as a picture: $OUT/pdf/board.png (every page of each tab, one tab at a time:"
    echo "  $REPO/.venv/bin/python $REPO/scripts/render_tabs.py $OUT/board.xlsx --tabs Board)"
fi
