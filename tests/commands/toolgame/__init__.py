"""A test game with its own command-line tools: the race of ``tests/sync/race_game.py`` under another name."""
