"""``sheets-gm doctor``: the checks of a configured match (its config, credentials, spreadsheets, layout, sharing,
teams, notices), each a ``Check`` with what is wrong and how to fix it."""
