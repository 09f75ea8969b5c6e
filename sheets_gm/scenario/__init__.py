"""Rules tests as data files: scenarios (the format: docs/scenarios.md)."""
