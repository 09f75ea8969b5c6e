"""Running a configured match: its spreadsheets opened, its polls under the match lock and behind the gate, its idle
poll, the ``--watch`` loop, its cron line, what a poll says, the match page after a poll and the bots beside the
config's."""
