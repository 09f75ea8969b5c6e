"""What a poll read of one version of a local workbook, kept for the next poll (``poll_gate.local_reads``), so that a
workbook nobody saved since is answered without loading it: a poll that answers a player's save loads her
workbook, not the board and the engine it read last time (each load is most of a poll's CPU).

A read is a function of the file's bytes alone (the ranges asked, the tabs, its links to other files), so a kept
read answers for the very version it was taken from: the file's fingerprint (``sheets.marks``: its size and
modification time, or, where its time moved, its content) must still be the kept one, as the poll gate trusts it
for a whole idle poll. A range it does not hold, a workbook written, or any doubt: the file is loaded as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sheets_gm.sheets.layout import Grid
from sheets_gm.sheets.local.disk import Stamp
from sheets_gm.sheets.marks import FileMark, unchanged


@dataclass(frozen=True)
class KeptBook:
    """One version of a workbook (``mark``) as a poll read it: its tabs, and each range it read (as asked) with its
    values, as ``LocalWorkbookBackend.read`` gave them. Only a version with no link to another file is kept (the
    poll's tidying removes those, loading it)."""

    mark: FileMark
    tabs: tuple[str, ...]
    grids: dict[str, Grid]

    def holds(self, path: Path, stamp: Stamp) -> bool:
        """Whether the file at ``path``, now of ``stamp``, is still the version kept."""
        if stamp.size != self.mark.size:
            return False
        return stamp.mtime_ns == self.mark.mtime_ns or unchanged(path, self.mark)

    def answers(self, ranges: Sequence[str]) -> list[Grid] | None:
        """The kept values of every range of ``ranges`` (each its own copy), or None when one was not read."""
        if not all(full in self.grids for full in ranges):
            return None
        return [[list(row) for row in self.grids[full]] for full in ranges]
