"""Running a configured match: its spreadsheets opened, a poll under the match lock, its idle poll, the ``--watch``
loop, its cron line, what a poll says, the match page after a poll and the bots beside the config's. The path from a
config to its poll behind the gate completes a command cut short first: it is ``host.polls``, above ``init``."""
