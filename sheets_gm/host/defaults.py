"""The settings of ``serve`` its command line offers, with their defaults: read by the command line without the host
(``scheduler``), whose imports a poll's process server makes beside ``serve``'s own (``processes``)."""

from __future__ import annotations

from datetime import timedelta

#: Seconds between two looks at a match: a save no file event tells of is answered within this and the poll's own
#: time; a Google account's watcher asks Drive ``scheduler.ASK_SHARE`` of it apart.
DEFAULT_INTERVAL = 10.0
#: Seconds between two searches of the folders for matches added or removed.
DEFAULT_RESCAN = 60.0
#: With the file events of every folder served, a new match is found by its files' events (only the folder they
#: fell in is searched; a removed one fails its next look and leaves), and the whole search, which costs a
#: second of CPU at 10,000 matches (every folder listed, every config's path resolved), is a safety net this often.
SEARCH_WITH_EVENTS = timedelta(minutes=10)
#: Workers polling matches side by side.
DEFAULT_WORKERS = 4
#: Seconds a poll may take before it is stopped (its process killed) and its match tried again later.
DEFAULT_POLL_DEADLINE = 300.0
