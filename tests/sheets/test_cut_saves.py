"""A save cut short (a kill at the write) leaves a temporary file only the GM's account reads, and the next command
that opens the match removes it and says so (issue 52, item 4)."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from sheets_gm.cli import main
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.local import disk
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from tests.matchfiles import local_match


class Killed(BaseException):
    """The process killed at the write: nothing after it runs (no ``finally`` cleans up)."""


def temp_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name.endswith(disk.TEMP_SUFFIX))


def kill_at_the_write(monkeypatch: pytest.MonkeyPatch, seen: dict[str, Any]) -> None:
    """At the save's fsync (the temporary file whole, not yet moved), note its mode and size, then stop as a kill
    would: the temporary file stays where it is."""
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        real_fsync(fd)
        info = os.fstat(fd)
        seen["mode"], seen["size"] = stat.S_IMODE(info.st_mode), info.st_size
        monkeypatch.setattr(os, "unlink", lambda *a, **k: None)  # a killed process removes nothing
        raise Killed

    monkeypatch.setattr(os, "fsync", fsync)


@pytest.mark.parametrize("mode", [0o644, 0o600])
def test_a_save_cut_at_the_write_leaves_a_file_only_the_gm_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: int) -> None:
    book = tmp_path / "engine.xlsx"
    openpyxl.Workbook().save(book)
    book.chmod(mode)
    seen: dict[str, Any] = {}
    kill_at_the_write(monkeypatch, seen)
    with pytest.raises(Killed):
        LocalWorkbookBackend(book).write([RangeWrite("A1", [["the seed"]])])
    monkeypatch.undo()
    (left,) = temp_files(tmp_path)
    assert seen["size"] > 0 and seen["mode"] == 0o600  # whole, and private while it was written
    assert stat.S_IMODE(left.stat().st_mode) == 0o600
    assert stat.S_IMODE(book.stat().st_mode) == mode


def test_a_whole_save_keeps_the_workbooks_mode_and_a_new_one_gets_the_usual_mode(tmp_path: Path) -> None:
    book = tmp_path / "board.xlsx"
    openpyxl.Workbook().save(book)
    book.chmod(0o640)
    LocalWorkbookBackend(book).write([RangeWrite("A1", [["turn 2"]])])
    assert stat.S_IMODE(book.stat().st_mode) == 0o640 and temp_files(tmp_path) == []
    fresh = tmp_path / "new.xlsx"
    disk.save_atomically(fresh, b"data", None, must_not_exist=True)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~disk._umask()


def test_the_sweep_removes_only_the_workbooks_own_cut_saves_and_never_while_a_save_holds_the_lock(
        tmp_path: Path) -> None:
    book = tmp_path / "red.xlsx"
    openpyxl.Workbook().save(book)
    cut = tmp_path / f".red.xlsx.{'0a' * 6}{disk.TEMP_SUFFIX}"
    others = [tmp_path / f".blue.xlsx.{'0b' * 6}{disk.TEMP_SUFFIX}", tmp_path / ".red.xlsx.notours.tmp",
              tmp_path / f"red.xlsx.{'0c' * 6}{disk.TEMP_SUFFIX}"]
    for path in (cut, *others):
        path.write_bytes(b"x")
    holder = LocalWorkbookBackend(book)
    with holder.hold_lock():  # another sync saving now: its file may be one of these
        assert LocalWorkbookBackend(book).sweep_cut_saves() == []
        assert holder.sweep_cut_saves() == [cut]  # the holder itself sweeps what no save of its own is writing
    cut.write_bytes(b"x")
    assert LocalWorkbookBackend(book).sweep_cut_saves() == [cut]
    assert not cut.exists() and all(p.exists() for p in others)


def test_the_next_command_removes_a_cut_save_and_tells_the_gm(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    config, sheets = local_match(tmp_path, private=True)
    engine = tmp_path / "gm" / "engine.xlsx"
    seen: dict[str, Any] = {}
    kill_at_the_write(monkeypatch, seen)
    with pytest.raises(Killed):
        sheets.engine.write([RangeWrite("GM!Z99", [["cut"]])])
    monkeypatch.undo()
    (left,) = temp_files(engine.parent)
    assert stat.S_IMODE(left.stat().st_mode) == 0o600
    code = main(["doctor", "-c", str(config)])
    out, _ = capsys.readouterr()
    assert left.name in out and left.exists()  # doctor names it and leaves it
    code = main(["status", "-c", str(config)])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert temp_files(engine.parent) == []
    assert f"removed 1 temporary file that a save of {engine} cut short left beside it ({left.name})" in err


def test_a_workbook_narrower_than_0600_is_never_written_wider(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = tmp_path / "engine.xlsx"
    openpyxl.Workbook().save(book)
    book.chmod(0o400)
    seen: dict[str, Any] = {}
    kill_at_the_write(monkeypatch, seen)
    with pytest.raises(Killed):
        LocalWorkbookBackend(book).write([RangeWrite("A1", [["x"]])])
    monkeypatch.undo()
    assert seen["mode"] == 0o400
