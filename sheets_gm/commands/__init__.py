"""The subcommands of ``sheets-gm``: one module per job, each with a ``register(sub)`` function."""
