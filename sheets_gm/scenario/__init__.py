"""Rules tests as data files: scenarios (see ../shared/scenario-format.md)."""
