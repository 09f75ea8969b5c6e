"""Refresh the Wesnoth data the project ships from the shared Wesnoth folder: the unit and faction tables
(templates/wesnoth/units.csv, factions.csv) and the nine maps (templates/wesnoth/maps/*.txt).

    .venv/bin/python scripts/wesnoth_import.py                    # from the nearest shared/wesnoth
    .venv/bin/python scripts/wesnoth_import.py --shared PATH      # another copy of it

A GM converting another era, add-on or map uses the command instead: ``sheets-gm wesnoth import-units``
and ``sheets-gm wesnoth import-map`` (this script runs them, replacing the shipped files).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sheets_gm.cli import main as cli
from sheets_gm.rulesets.wesnoth.tables import TEMPLATE_DIR

#: The nearest ``shared/wesnoth`` beside the clone or one of its parents (a worktree sits one level deeper).
DEFAULT_SHARED = next((p / "shared" / "wesnoth" for p in TEMPLATE_DIR.parents if (p / "shared" / "wesnoth").is_dir()),
                      TEMPLATE_DIR.parents[2] / "shared" / "wesnoth")


def main() -> int:
    """Run the two import tools over the shared data into templates/wesnoth; the first failing exit code."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED, help="the shared Wesnoth folder")
    args = parser.parse_args()
    code = cli(["wesnoth", "import-units", str(args.shared / "wml"), "--out", str(TEMPLATE_DIR), "--force"])
    for map_file in sorted((args.shared / "maps").glob("*.map")):
        code = code or cli(["wesnoth", "import-map", str(map_file), "--out", str(TEMPLATE_DIR / "maps"), "--force"])
    return code


if __name__ == "__main__":
    sys.exit(main())
