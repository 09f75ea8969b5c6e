"""The poll gate: whether a poll of a match reads at all, and what it keeps for the next one (``gate.run``)."""
