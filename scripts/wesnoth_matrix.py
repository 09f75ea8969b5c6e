"""Print the faction-against-faction matrix of a Wesnoth simulation from its simulate.json.

Each cell is the share of the row faction's seats that won against the column faction, with the
number of such seats; the diagonal is a faction against itself (50% by symmetry, less draws).
``simulate wesnoth`` prints the same grid; this script reads it back from a saved simulate.json.

    .venv/bin/sheets-gm simulate wesnoth --matches 360 --out wesnoth-sim
    .venv/bin/python scripts/wesnoth_matrix.py wesnoth-sim/simulate.json
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path


def matrix(data: dict[str, object], variant: int = 0) -> str:
    """The matrix of one variant of a simulate.json, as text."""
    variants = data.get("variants")
    if not isinstance(variants, list) or not variants:
        raise ValueError("no variants: is this a simulate.json of sheets-gm simulate wesnoth?")
    rates = variants[variant].get("win_rate_by", {})
    # "faction against faction" holds both directions; files written before it have them under "matchup"
    cells = rates.get("faction against faction") or rates.get("matchup", {})
    if not cells:
        raise ValueError("no win rate by matchup: is this a simulate.json of sheets-gm simulate wesnoth?")
    pairs = {tuple(key.split(" vs ", 1)): value for key, value in cells.items() if " vs " in key}
    factions = sorted({f for pair in pairs for f in pair})
    short = {f: f.split()[0][:9] for f in factions}
    lines = ["row beats column".ljust(12) + "".join(short[f].rjust(12) for f in factions)]
    for row in factions:
        out = short[row].ljust(12)
        for col in factions:
            cell = pairs.get((row, col))
            out += (f"{100 * cell['rate']:.0f}% ({cell['total']})" if cell else "-").rjust(12)
        lines.append(out)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print(__doc__)
        return 2
    try:
        print(matrix(json.loads(Path(args[0]).read_text(encoding="utf-8"))))
    except (OSError, ValueError, KeyError) as exc:
        print(f"error: {args[0]}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
