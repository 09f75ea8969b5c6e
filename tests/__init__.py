"""The sheets-gm test suite."""
