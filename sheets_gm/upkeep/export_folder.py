"""What an export folder already holds, so an export never replaces another match's files unannounced.

A folder is recognised by its ``replay.json``: the seed hash in it names the match (it is
published when the match is created and never changes).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from sheets_gm.sync.life.replay import stopped_at

REPLAY_NAME = "replay.json"


@dataclass(frozen=True, slots=True)
class FolderContents:
    """The files in an export folder before an export, and the match its replay belongs to."""

    folder: Path
    files: tuple[Path, ...]
    seed_hash: str | None  # None: no readable replay.json
    stopped: str | None  # where the earlier export's match stopped, as ``status`` says it (``replay.stopped_at``)

    @property
    def empty(self) -> bool:
        """True when there is nothing to replace."""
        return not self.files

    def holds_match(self, seed_hash: str) -> bool:
        """True when the folder holds an earlier export of the match with ``seed_hash``."""
        return self.seed_hash == seed_hash

    def describe(self) -> str:
        """What is there, for a message: another match's export, or files of unknown origin."""
        if self.seed_hash is not None:
            at = f", stopped at {self.stopped}" if self.stopped is not None else ""
            return f"the export of another match (seed hash {self.seed_hash[:12]}…{at})"
        names = ", ".join(p.name for p in self.files[:5]) + (", …" if len(self.files) > 5 else "")
        many = len(self.files) > 1
        return f"{len(self.files)} {'files that are' if many else 'file that is'} not a sheets-gm export ({names})"

    def left_over(self, written: list[Path]) -> list[Path]:
        """Files that were there before and that the export did not rewrite."""
        kept = {p.resolve() for p in written}
        return [p for p in self.files if p.resolve() not in kept]


def folder_contents(folder: Path) -> FolderContents:
    """The files directly in ``folder`` (none if it does not exist) and the match of its replay, if any."""
    if not folder.is_dir():
        return FolderContents(folder, (), None, None)
    files = tuple(sorted(p for p in folder.iterdir() if p.is_file()))
    seed_hash: str | None = None
    stopped: str | None = None
    try:
        doc = json.loads((folder / REPLAY_NAME).read_text(encoding="utf-8"))
        if isinstance(doc, dict) and isinstance(doc.get("seed_hash"), str):
            seed_hash = doc["seed_hash"]
            stopped = stopped_at(doc)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        pass  # no readable replay: the folder's files are of unknown origin
    return FolderContents(folder, files, seed_hash, stopped)
