"""The write-ahead journal of a resolution: each seat's pending row, kept on the GM's computer before any seat's
spreadsheet is written.

A resolution writes each seat's spreadsheet first (the rows it read are cleared, and their copy goes to the seat's
hidden Copies tab, the pending row, in the same call), then the judge's, the board's, and the engine's last: the
commit. A resolution cut before the commit is completed by the next poll from each seat's pending row. That row
lives in the seat's own spreadsheet, so if her hidden Copies tab is deleted in between, the only copy of the rows
the resolution had cleared from her cells would go with it. The journal is a second copy, in the GM's private
``.sheets-gm`` folder beside the poll state and the kept reads (0600, the folder 0700: it holds what players typed
and the engine does not have yet): written before the seats' spreadsheets, dropped once the engine's write (the
commit) went through, and ignored whenever the engine's record shows its resolution committed (or taken back).
``repair``, laying a Copies tab out again, writes the journal's pending row back into it, so that the next poll
completes the cut resolution with the rows it read.

It costs no call to any spreadsheet: the API bars (one read and one write per spreadsheet for a resolution) hold.
A journal that cannot be written does not stop the resolution (the seats' pending rows still hold everything unless
a Copies tab is deleted), and one that cannot be read is as good as none.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from sheets_gm.sheets.backend import SheetBackend
from sheets_gm.sheets.layout import CellValue
from sheets_gm.sheets.private_files import write_private
from sheets_gm.sync.match_record import MatchRecord
from sheets_gm.sync.sheets import WriteBatch

#: Bumped when the file's meaning changes; a journal of another version is ignored.
JOURNAL_VERSION = 1


def journal_path(config_path: Path) -> Path:
    """The journal of the match configured by ``config_path`` (beside its poll state and kept reads)."""
    return config_path.parent / ".sheets-gm" / f"{config_path.stem}.journal.json"


@dataclass(frozen=True)
class Journal:
    """Resolution ``resolution`` of window ``window`` (at the match's ``deal``: its count of undos), under way: each
    seat's pending row as the resolution writes it (window key, rows read as JSON, the Archive's line count)."""

    seed_hash: str  # the match's: a journal left by another match in the same folder is not this one's
    resolution: int
    deal: int
    window: str
    pending: Mapping[str, tuple[CellValue, ...]]

    def under_way(self, record: MatchRecord) -> bool:
        """Whether this is the resolution ``record`` has not committed yet (the one a cut left)."""
        return (self.seed_hash == record.seed_hash and self.resolution == record.resolved + 1
                and self.deal == record.deal and self.window == record.window_key())


def write_journal(path: Path | None, journal: Journal) -> None:
    """Keep ``journal`` at ``path`` (nothing when the match keeps none: ``path`` None); a file that cannot be written
    costs only what the journal would have saved."""
    if path is None:
        return
    body = {"version": JOURNAL_VERSION, "seed_hash": journal.seed_hash, "resolution": journal.resolution,
            "deal": journal.deal, "window": journal.window,
            "pending": {seat: list(row) for seat, row in journal.pending.items()}}
    with contextlib.suppress(OSError):
        write_private(path, json.dumps(body, separators=(",", ":"), ensure_ascii=False))


def drop_journal(path: Path | None) -> None:
    """Remove the journal at ``path`` (the engine committed its resolution); nothing when there is none."""
    if path is not None:
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)


def load_journal(path: Path | None) -> Journal | None:
    """The journal kept at ``path`` (None when there is none, or it cannot be read, or is of another version)."""
    if path is None:
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if raw["version"] != JOURNAL_VERSION:
            return None
        pending = {str(seat): tuple(row) for seat, row in raw["pending"].items() if isinstance(row, list)}
        return Journal(str(raw["seed_hash"]), int(raw["resolution"]), int(raw["deal"]), str(raw["window"]), pending)
    except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError, AttributeError):
        return None


def journal_under_way(path: Path | None, record: MatchRecord) -> Journal | None:
    """The journal at ``path`` when it is of the resolution ``record`` has not committed (None otherwise)."""
    journal = load_journal(path)
    return journal if journal is not None and journal.under_way(record) else None


def journaled_run(batch: WriteBatch, order: list[SheetBackend], path: Path | None, journal: Journal) -> int:
    """Run a resolution's ``batch`` (one call per spreadsheet, in ``order``: the engine last), its ``journal`` kept at
    ``path`` first and dropped once the engine's write went through; returns the number of calls."""
    write_journal(path, journal)
    calls = batch.run(order)
    drop_journal(path)
    return calls
