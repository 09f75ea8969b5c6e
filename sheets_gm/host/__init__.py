"""``sheets-gm serve``: one long-running process that runs every match under the folders it is given.

- ``discovery``: which files under the folders are match configs (found again every minute: matches come and go);
- ``accounts``: one watcher per Google account, whose one change-log request an interval serves every match whose
  spreadsheets that account holds, and the change log each of those matches' polls is answered from;
- ``quiet``: whether a match needs a poll now, decided from the files the last poll kept (no spreadsheet read);
- ``visit``: one match's poll as a worker runs it: the same one-match poll as cron's (``match.polls``), under the
  match's own lock, never waiting for one another command holds;
- ``scheduler``: the host: who is due, a bounded pool of workers, growing waits for a match that fails;
- ``status``: the status file the host keeps and ``serve --status`` prints.
"""
