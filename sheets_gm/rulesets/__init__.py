"""One package per game: its engine (state, orders, checks, resolution, bots, scenario codec,
simulation figures) and its sheet adapter. Registered in ``sheets_gm/engine/registry.py``."""
