"""The journal of a ``repair``, an ``export`` or an ``init`` under way: kept before its first write, dropped once it
is whole, so that the next command of any kind completes a cut one, or rolls it back, and tells the GM which.

It is a file of its own beside the resolution's and the change's journal (``sync/journal.py``), in the GM's private
``.sheets-gm`` folder: a repair may run while a resolution's journal waits for the next poll (repair writes its
pending row back), and an export may run over either.

- ``repair`` first puts the match's files in place (phase ``prepare``: swapped workbooks moved back, each move kept
  here before the first; the engine moved out of a file players open: ``upkeep/repair_prepare.py``), then draws every
  file again from the engine's record and the rows typed (it never writes the record): cut anywhere, it is completed
  by running it again whole, with what the journal kept of it (the editors' e-mails and the spreadsheets' title:
  ``life/settle.py``); a cut ``prepare`` is completed first by the next command's opening of the match.
- ``init --overwrite`` moves the match's local workbooks aside, creates new ones and lays the new match out: cut
  anywhere before it is whole, it is rolled back (the new workbooks removed, the old ones moved back), so the match
  that was there goes on as if it had never run; the GM runs it again to replace that match.
- a plain ``init`` (marked ``new``) keeps the workbooks it creates, then, before its first write into the match,
  what it creates the match from (``init_creating``): cut before that, it is rolled back as ``--overwrite`` is;
  after, the next command completes it (``init/settle.py``: it needs the config's rules).
- ``export`` writes its files into a private staging folder inside the export folder first (``staging``), then
  moves each into place (``moving``). Cut while staging, it is rolled back: the staging folder goes, and the export
  folder is as it was. Cut while moving, it is completed: the files still staged are moved into place. Both need
  no spreadsheet, so this module does both.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

from sheets_gm.sheets.private_files import write_private
from sheets_gm.sync.journal import JOURNAL_VERSION, JournalUnwritableError


def command_path(journal: Path | None) -> Path | None:
    """The command journal of the match whose resolution journal is ``journal`` (None when it keeps none)."""
    return None if journal is None else journal.with_name(f"{journal.name.removesuffix('.json')}.command.json")


def begin_command(path: Path | None, kind: str, what: str, **body: Any) -> None:
    """Keep, before the command's first write, that ``kind`` (``what``: in the GM's words) is under way, with
    ``body``; JournalUnwritableError (nothing written yet) when it cannot be kept. Nothing when the match keeps no
    journal (``path`` None)."""
    if path is None:
        return
    try:
        write_private(path, json.dumps({"version": JOURNAL_VERSION, "kind": kind, "what": what, **body},
                                       ensure_ascii=False))
    except OSError as exc:
        raise JournalUnwritableError(
            f"the journal that lets the next command complete {what} if it is cut short cannot be kept at {path} "
            f"({exc.strerror or exc}): nothing was written. Free the disk, or make the folder the GM's own and "
            "writable, then run the command again") from None


def load_command(path: Path | None) -> dict[str, Any] | None:
    """The command journal at ``path`` (None when there is none, or it cannot be read, or is of another version)."""
    if path is None:
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if not isinstance(raw, dict) or raw.get("version") != JOURNAL_VERSION or not isinstance(raw.get("kind"), str):
        return None
    return raw


def note_command(path: Path | None, **changes: Any) -> None:
    """Keep ``changes`` in the command journal under way at ``path`` (a step's progress, before the step's next
    write): JournalUnwritableError when it cannot be kept. Nothing when there is none."""
    journal = load_command(path)
    if journal is not None:
        begin_command(path, str(journal["kind"]), str(journal.get("what") or journal["kind"]),
                      **{k: v for k, v in {**journal, **changes}.items() if k not in ("version", "kind", "what")})


def end_command(path: Path | None) -> None:
    """Drop the command journal: the command is whole."""
    if path is not None:
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)


def export_staging(folder: Path) -> Path:
    """Where an export into ``folder`` stages its files (one per folder: a second export there completes or rolls
    back the first's before it starts)."""
    return folder / ".sheets-gm-export"


def export_moving(path: Path | None, folder: Path, names: list[str]) -> None:
    """Keep that the export into ``folder`` has staged every file (``names``, relative to the staging folder): from
    now on it is completed, not rolled back."""
    if path is not None:
        with contextlib.suppress(OSError):
            write_private(path, json.dumps({"version": JOURNAL_VERSION, "kind": "export", "phase": "moving",
                                            "what": f"the export into {folder}", "folder": str(folder),
                                            "files": names}, ensure_ascii=False))


def move_staged(folder: Path, names: list[str]) -> None:
    """Move each staged file into ``folder`` (one already moved is passed over), then remove the staging folder."""
    staging = export_staging(folder)
    for name in names:
        source = staging / name
        if source.exists():
            put_in_place(source, folder / name)
    shutil.rmtree(staging, ignore_errors=True)


def put_in_place(source: Path, target: Path) -> None:
    """One staged file moved into place (atomically: a reader sees the old file or the new one)."""
    os.replace(source, target)


def settle_export(path: Path | None, journal: dict[str, Any]) -> str:
    """Complete or roll back the cut export ``journal`` (see the module); what the GM is told."""
    folder = Path(str(journal.get("folder", "")))
    if not str(journal.get("folder", "")):
        end_command(path)
        return ""
    if journal.get("phase") == "moving":
        names = [str(n) for n in journal.get("files", [])]
        move_staged(folder, names)
        end_command(path)
        return (f"the export into {folder} was cut short while its files were put in place: the rest of them are in "
                "place now, as if it had run whole")
    shutil.rmtree(export_staging(folder), ignore_errors=True)
    if journal.get("created"):  # the export made the folder: it goes too, if nothing else came into it
        with contextlib.suppress(OSError):
            folder.rmdir()
    end_command(path)
    return (f"the export into {folder} was cut short before its files were in place: none of them was kept, the "
            "folder is as it was before it; run export again for them")


def begin_init(path: Path | None, moves: list[tuple[Path, Path]], created: list[Path], *, overwrite: bool) -> None:
    """Keep, before ``init`` writes anything, each workbook it moves aside with where to (``moves``: ``--overwrite``)
    and each it creates where none was (``created``): what the next command needs to roll it back. A plain init
    (``overwrite`` False) is marked ``new``: once it keeps what it creates the match from (``init_creating``), the
    next command completes it instead."""
    what = "the init --overwrite" if overwrite else "the init"
    begin_command(path, "init", what, moves=[[str(a), str(b)] for a, b in moves], created=[str(p) for p in created],
                  **({} if overwrite else {"new": True}))


def init_creating(path: Path | None, made_of: dict[str, Any]) -> None:
    """Keep, before a plain ``init``'s first write into the match's spreadsheets, what it creates the match from
    (``made_of``: the seed, the roster, the e-mails, the deadline… as ``init.settle`` reads them back): cut
    from now on, the next command completes it."""
    journal = load_command(path)
    if journal is None:  # on Google a plain init creates no workbook: this is its journal's first line
        begin_command(path, "init", "the init", moves=[], created=[], new=True, phase="create", made_of=made_of)
    elif journal["kind"] == "init" and journal.get("new"):
        note_command(path, phase="create", made_of=made_of)


def roll_back_init(path: Path | None, journal: dict[str, Any]) -> str:
    """Roll back the cut ``init`` ``journal`` (``--overwrite``, or a plain one cut before its first write into the
    match): each workbook it created removed, each it moved aside moved back; what the GM is told."""
    for created in journal.get("created", []):
        with contextlib.suppress(OSError):
            Path(str(created)).unlink(missing_ok=True)
    back: list[str] = []
    for pair in journal.get("moves", []):
        if not isinstance(pair, list) or len(pair) != 2:
            continue
        workbook, aside = Path(str(pair[0])), Path(str(pair[1]))
        if aside.exists():
            os.replace(aside, workbook)  # the new workbook there, if any, goes
            back.append(workbook.name)
    end_command(path)
    if journal.get("new"):
        gone = [Path(str(p)).name for p in journal.get("created", [])]
        removed = f" ({', '.join(gone)} removed)" if gone else ""
        return ("the init was cut short before its first write into the match: it is rolled back, the workbooks it "
                f"created{removed} are gone and no match was made; run init again to create it")
    moved = f" ({', '.join(back)} moved back)" if back else ""
    return ("the init --overwrite was cut short before the new match was whole: it is rolled back, the workbooks "
            f"are as they were before it{moved} and the match there goes on; run init --overwrite again to "
            "replace it")
