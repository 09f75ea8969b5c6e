"""Convert Wesnoth data for the Wesnoth board game: unit and faction tables, or maps.

    .venv/bin/python scripts/wesnoth_import.py units ../shared/wesnoth/wml
    .venv/bin/python scripts/wesnoth_import.py maps ../shared/wesnoth/maps/*.map
"""

from __future__ import annotations

from sheets_gm.rulesets.wesnoth.importer import main

if __name__ == "__main__":
    raise SystemExit(main())
