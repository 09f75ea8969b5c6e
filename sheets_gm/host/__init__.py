"""Where matches are polled from: cron's one path from a config to its poll, and ``sheets-gm serve``, one
long-running process that runs every match under the folders it is given.

- ``polls``: cron's and ``sync --watch``'s poll behind the gate, a GM's ``resolve``, and the notices after each
  (a command cut short completed first: so it is above ``init`` and ``upkeep``);
- ``look``: one look of ``serve`` at a match, that same path, in plain data;
- ``discovery``: which files under the folders are match configs (found again every minute: matches come and go);
- ``accounts``: one watcher per Google account, whose one change-log request an interval serves every match whose
  spreadsheets that account holds, and the change log each of those matches' polls is answered from;
- ``quiet``: whether a match needs a poll now, decided from the files the last poll kept (no spreadsheet read);
- ``visit``: one match's poll as a worker runs it: the same one-match poll as cron's (``host.polls``), under the
  match's own lock, never waiting for one another command holds; ``shared_log``: its account's change log there;
- ``outcome``: that poll named as the host hands it over, and how it ended (the host's process imports none of
  the poll's path: ``visit``, ``look``, ``polls``, ``shared_log`` run in the poll's process alone);
- ``processes``: each poll in a process of its own, stopped at its deadline;
- ``file_events``: the system's file events, which say which local matches to look at;
- ``scheduler``: the host: who is due and in which order, the polls under way and their deadlines, each account's
  Drive question on a thread of its own, growing waits for a match that fails;
- ``systemd``: the watchdog of systemd's unit (sd_notify);
- ``status``: the status file the host keeps and ``serve --status`` prints.
"""
