"""The small core shared by every ruleset: grid geometry, keyed dice, settings, events."""
