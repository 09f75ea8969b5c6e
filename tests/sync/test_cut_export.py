"""An export is all-or-nothing (issue 52): its files are staged in a private folder inside the export folder, then
moved into place. Cut while staging (a file's write fails, as a kill -9 or a full disk there would), the next command
rolls it back: the export folder is as it was, the GM is told to run it again. Cut while moving, the next command
completes it: every file in place, as the export run whole would leave them."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import openpyxl
import pytest

import sheets_gm.sync.command_journal as command_journal
import sheets_gm.sync.life.export as export
from sheets_gm.sync.command_journal import command_path
from sheets_gm.sync.life.export import export_match
from tests.fakes.memory import InjectedFault
from tests.matchfiles import GVG, sync
from tests.sync.test_cut_commands import _fresh

MINE = b"the GM's own notes, kept in the export folder"


def folder_files(folder: Path) -> dict[str, Any]:
    """Every file under ``folder`` by its path there, an .xlsx by its cells' values (its bytes carry the time)."""
    out: dict[str, Any] = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if path.suffix == ".xlsx":
            book = openpyxl.load_workbook(io.BytesIO(data))
            out[str(path.relative_to(folder))] = {s.title: [[c.value for c in r] for r in s.iter_rows()] for s in book}
        else:
            out[str(path.relative_to(folder))] = data
    return out


class CutAt:
    """The ``n``-th call (from 1) of ``module.name`` fails, and no call after it happens; ``calls`` counts them."""

    def __init__(self, patch: pytest.MonkeyPatch, module: Any, name: str, n: int | None) -> None:
        real = getattr(module, name)
        self.calls = 0

        def cut(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            if n is not None and self.calls >= n:
                raise InjectedFault(f"cut at {name} #{self.calls}")
            return real(*args, **kwargs)
        patch.setattr(module, name, cut)


def _counts(tmp_path: Path) -> tuple[int, int]:
    """How many files an export stages, and how many it moves into place."""
    sheets, _ = _fresh(tmp_path / "count" / "journal.json")
    with pytest.MonkeyPatch.context() as patch:
        staged = CutAt(patch, export, "write_private", None)
        moved = CutAt(patch, command_journal, "put_in_place", None)
        export_match(sheets, GVG, tmp_path / "count" / "out")
    return staged.calls, moved.calls


def check_export_cut(tmp_path: Path, where: str, n: int, *, folder_there: bool) -> None:
    """An export cut at the ``n``-th staged file (``where`` 'staging') or the ``n``-th file moved into place
    ('moving'), then a sync: the export folder as before it, or as the export run whole leaves it."""
    whole, _ = _fresh(tmp_path / "whole" / "journal.json")
    cut, _ = _fresh(tmp_path / "cut" / "journal.json")
    folders = {name: tmp_path / name / "out" for name in ("whole", "cut")}
    if folder_there:
        for folder in folders.values():
            folder.mkdir(parents=True)
            (folder / "notes.txt").write_bytes(MINE)
    before = folder_files(folders["cut"]) if folder_there else None
    export_match(whole, GVG, folders["whole"])
    with pytest.MonkeyPatch.context() as patch, pytest.raises(InjectedFault):
        if where == "staging":
            CutAt(patch, export, "write_private", n)
        else:
            CutAt(patch, command_journal, "put_in_place", n)
        export_match(cut, GVG, folders["cut"])
    journal = command_path(cut.journal)
    assert journal is not None and journal.exists()
    said = sync(cut).completed
    assert not journal.exists()
    if where == "staging":
        assert f"the export into {folders['cut']} was cut short before its files were in place" in said
        if before is None:
            assert not folders["cut"].exists()
        else:
            assert folder_files(folders["cut"]) == before
    else:
        assert "was cut short while its files were put in place: the rest of them are in place now" in said
        assert folder_files(folders["cut"]) == folder_files(folders["whole"])
    assert not sync(cut).completed  # said once


@pytest.mark.parametrize(("where", "n", "folder_there"), [
    ("staging", 3, True),  # two files staged, the GM's own notes beside them
    ("moving", 2, False),  # one file in place, the rest staged
])
def test_an_export_cut_short_is_rolled_back_or_completed_by_the_next_sync(tmp_path: Path, where: str, n: int,
                                                                          folder_there: bool) -> None:
    check_export_cut(tmp_path, where, n, folder_there=folder_there)


@pytest.mark.soak
@pytest.mark.parametrize("folder_there", [False, True])
def test_an_export_cut_at_every_file_is_rolled_back_or_completed(tmp_path: Path, folder_there: bool) -> None:
    staged, moved = _counts(tmp_path)
    assert staged == moved > 3
    for where, count in (("staging", staged), ("moving", moved)):
        for n in range(1, count + 1):
            check_export_cut(tmp_path / f"{where}-{n}", where, n, folder_there=folder_there)


def test_an_export_cut_short_is_completed_by_the_next_export_and_said(tmp_path: Path) -> None:
    """The next command may be an export itself: it settles the cut one first and says so."""
    sheets, _ = _fresh(tmp_path / "journal.json")
    with pytest.MonkeyPatch.context() as patch, pytest.raises(InjectedFault):
        CutAt(patch, command_journal, "put_in_place", 2)
        export_match(sheets, GVG, tmp_path / "first")
    told: list[str] = []
    export_match(sheets, GVG, tmp_path / "second", told)
    assert told and "the export into" in told[0] and "the rest of them are in place now" in told[0]
    assert folder_files(tmp_path / "first") == folder_files(tmp_path / "second")


def test_cron_settles_an_export_cut_short_though_no_workbook_changed(tmp_path: Path) -> None:
    """An export changes no workbook the poll gate watches: cron's idle local poll reads while a command journal is
    there, and its poll settles the cut export first (under the match lock, before its gate decides) and says so;
    the poll after it may be idle again."""
    from datetime import UTC, datetime

    from sheets_gm.host.polls import FullPoll, poll_behind_gate
    from sheets_gm.match.config import load_config
    from sheets_gm.poll_gate.idle import idle_local_poll
    from sheets_gm.running.connect import open_match_sheets
    from sheets_gm.sheets.marks import file_mark
    from tests.matchfiles import local_match

    config = load_config(local_match(tmp_path / "match", private=True)[0])

    def cron() -> Any:
        return poll_behind_gate(config, file_mark(config.path), open_match_sheets(config), quiet=True,
                                clock=lambda: datetime.now(UTC))  # the gate keeps real times

    cron()
    assert idle_local_poll(config.path, datetime.now(UTC)) is not None  # nothing to read
    with pytest.MonkeyPatch.context() as patch, pytest.raises(InjectedFault):
        CutAt(patch, export, "write_private", 2)
        export_match(open_match_sheets(config), GVG, tmp_path / "out")
    assert idle_local_poll(config.path, datetime.now(UTC)) is None  # the journal: cron's poll reads
    polled = cron()
    assert isinstance(polled, FullPoll) and "the export into" in polled.report.completed
    assert not (tmp_path / "out").exists()
    assert idle_local_poll(config.path, datetime.now(UTC)) is not None


def test_the_export_command_after_a_cut_export_says_so_and_exports_whole(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """As the GM runs it: `export` cut while staging, then `export` again into the same folder: the cut one is
    rolled back first (not taken for other files in the folder) and said, then the export runs whole."""
    from sheets_gm.cli import main
    from tests.matchfiles import local_match

    config = local_match(tmp_path / "match", private=True)[0]
    out = tmp_path / "out"
    argv = ["export", "-c", str(config), "--reveal-early", "--out", str(out)]
    with pytest.MonkeyPatch.context() as patch:
        CutAt(patch, export, "write_private", 3)
        try:
            code = main(argv)
        except InjectedFault:
            code = -1
    assert code != 0 and (out / ".sheets-gm-export").exists()
    capsys.readouterr()
    assert main(argv) == 0
    said = capsys.readouterr().out
    assert f"Settled first: the export into {out} was cut short before its files were in place" in said, said
    assert "replay.json" in said and not (out / ".sheets-gm-export").exists() and (out / "replay.json").exists()
