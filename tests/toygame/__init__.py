"""Noughts and crosses: the smallest complete game, registered only in the tests (``docs/adding-a-ruleset.md``)."""
