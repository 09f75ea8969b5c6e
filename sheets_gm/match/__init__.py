"""A match as the GM configures it: the TOML config and its keys (``[notify]`` and the environment files its secrets
are read from too), the files it names, the roster and its teams, the deadline schedule. Running it (its spreadsheets
opened, its polls, its cron line) is ``running``'s job."""
