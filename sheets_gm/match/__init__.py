"""A match as the GM configures it: the TOML config, the roster file, the deadline schedule, the sheets."""
