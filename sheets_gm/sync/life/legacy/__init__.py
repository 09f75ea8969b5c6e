"""A match or replay that an earlier version of a game wrote, in one place: recognised and moved onto today's layout.

- what a game's record declares (``Game.legacy``, a ``LegacyUpgrades`` of ``rulesets.parts.legacy``): pure
  converters from the old engine record, orders tabs and replays to today's terms;
- recognising a match on an old layout from cells a command has read anyway, so every command but ``repair``
  refuses it in one line, is the reading's (``sync/old_layout.py``), below this package;
- ``upgrade``: what ``repair`` does to such a match, and how ``verify`` reads an old replay.

Only GvG has an old layout today (``rulesets/gvg/legacy.py``).
"""
