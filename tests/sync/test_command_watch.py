"""A GM's command watching its writes to a Google spreadsheet (``poll_gate.command_record.CommandWatch``, the
backend's ``WriteWatch``): once the command read there, each write answers with what that read asked as it stands
after the write, in the same request, and Drive's version is asked right after; a write before any read, or a
layout, answers with nothing (the spreadsheet is read again)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sheets_gm.poll_gate.command_record import CommandWatch
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.layout import WorkbookLayout
from tests.fakes.google_api import BATCH_UPDATE, READ, WRITE, GoogleApiFake, fake_client

KEY = "1EngineCommandWatch_abcdefghijklmnopqrstu"


@pytest.fixture
def fake() -> Iterator[GoogleApiFake]:
    with GoogleApiFake() as f:
        f.create_spreadsheet(KEY, "engine", {"Tab": (5, 5)})
        f.set_values(KEY, "Tab!A1", [["state 1", "kept"]])
        f.reset_counters()
        yield f
    assert not f.violations, f.violations


def watched(fake: GoogleApiFake) -> tuple[GoogleSheetBackend, CommandWatch, list[int]]:
    backend = GoogleSheetBackend(fake_client(), KEY)
    asked: list[int] = []

    def ask() -> int:
        asked.append(1)
        return 7

    watch = CommandWatch(ask)
    backend.watch = watch
    return backend, watch, asked


def test_a_write_after_the_commands_read_answers_with_it_as_the_write_left_it(fake: GoogleApiFake) -> None:
    backend, watch, asked = watched(fake)
    backend.read(["Tab!A1:B2"])
    backend.write([RangeWrite("Tab!A1", [["state 2"]])])
    assert watch.answer() is not None
    snapshot, version = watch.answer() or (None, 0)
    assert snapshot is not None and snapshot.ranges == ("Tab!A1:B2",) and snapshot.grids == ([["state 2", "kept"]],)
    assert version == 7 and asked == [1]  # Drive's version, asked right after the write
    assert (fake.calls(READ), fake.calls(BATCH_UPDATE), fake.calls(WRITE)) == (1, 1, 0)  # no read after the write


def test_a_write_before_any_read_or_a_layout_leaves_the_spreadsheet_to_read_again(fake: GoogleApiFake) -> None:
    backend, watch, asked = watched(fake)
    backend.write([RangeWrite("Tab!A1", [["state 2"]])])
    assert watch.answer() is None and asked == []
    backend.read(["Tab!A1:B2"])
    backend.write([RangeWrite("Tab!A1", [["state 3"]])])
    assert watch.answer() is not None
    backend.apply_layout(WorkbookLayout("engine", (), partial=True))
    assert watch.answer() is None
