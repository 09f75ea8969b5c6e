"""sheets-gm: a game-master companion that runs turn-based games through a spreadsheet."""

__version__ = "0.1.0"
