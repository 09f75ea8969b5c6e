"""What the server ``serve``'s polls are forked from (``host.processes``) holds before its first fork, so that no
poll's process builds it again: imported by that server last, after the poll's path (``commands.serve.poll_preload``).

Every poll of a game would otherwise import its sheet adapter where the game imports it only when asked (GvG's),
read its shipped layout (``layout.yaml``, 10-20 ms), parse its default board and, for Wesnoth, its unit tables
(30 ms): each is read once per process and keyed by what it is read from (the game, the file, the board's text),
so a poll of any match finds the same value its own read would make, and none of them holds a match's data. Then
the objects alive are moved out of the cycle collector's walks (``gc.freeze``): a poll's process would otherwise
walk the server's 100,000 objects at its first full collection, and write to each one's page of memory the fork
shares with the server. Nothing here may stop the server: a game that fails to warm is left for its polls to
build (and to report, as they would have).
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import sys

from sheets_gm.rulesets.registry import GAMES, create_ruleset, sheet_of, sheet_spec

#: Modules a local poll imports on its way that nothing imports at the top: the zip's names (cp437), the text
#: codecs a roster or a workbook's parts are read with, the properties a workbook's save writes, the local gate,
#: the reads the last poll kept; imported where the server imported the local workbooks' backend (``poll_preload``:
#: a host whose last run served a local match), whose library they need.
LAZY_MODULES = ("encodings.cp437", "encodings.utf_16_le", "encodings.utf_8_sig", "openpyxl.packaging.extended",
                "sheets_gm.poll_gate.local", "sheets_gm.poll_gate.local_reads")
LOCAL_BACKEND = "sheets_gm.sheets.local.backend"


def warm() -> list[str]:
    """Import and read once what every poll would (see the module notes), for each game the server imported
    before this module; the games that failed to warm."""
    failed = []
    for module in LAZY_MODULES if LOCAL_BACKEND in sys.modules else ():
        with contextlib.suppress(ImportError):
            importlib.import_module(module)
    for name in sorted(GAMES):
        if GAMES[name].partition(":")[0] not in sys.modules:  # a game the server did not import (``poll_preload``:
            continue  # no match of the host's last run plays it): its polls build their own
        try:
            sheet_of(create_ruleset(name))  # its sheet adapter imported, its default board (and tables) read
            sheet_spec(name)
        except Exception:  # a game broken here fails in its own polls, which say so to its GM
            failed.append(name)
    gc.collect()
    gc.freeze()
    return failed


#: The games that failed to warm when the server imported this module (none, normally).
NOT_WARMED = warm()
