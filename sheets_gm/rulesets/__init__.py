"""The games: one package per game (its engine class, sheet adapter, scenario codec, bots, simulation figures,
GM options), each exporting a ``GAME`` record (``game.py``) that ``registry.py`` maps its name to."""
