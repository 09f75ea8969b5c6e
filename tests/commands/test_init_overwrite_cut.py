"""``init --overwrite`` is all-or-nothing (issue 52): cut anywhere before the new match is whole (a workbook moved
aside, a new one laid out, a write of the new match), the next command of any kind rolls it back: the new workbooks
removed, the old ones moved back, every cell of the match there as before it, and the GM told; she runs it again to
replace that match.

A plain ``init`` too (issue 60, item 3): cut before its first write into the match (a workbook created, the next
not), the next command rolls it back; cut after (a layout, a write), the next command completes it, every cell as
the init run whole, on local workbooks and on the Google fake."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.init.start import init_match
from sheets_gm.match.config import load_config
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sync.command_journal import command_path
from sheets_gm.sync.journal import journal_path
from tests.fakes.memory import InjectedFault
from tests.made import made_into
from tests.matchfiles import record_of, sync, turn_two_typed, type_orders
from tests.sync.test_cut_commands import ORDER, Cut, workbook_values

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
SEATS = {"red": 0, "blue": 1}
ROSTER = "name,team,role,email\nAnn,red,dps,\nBen,red,healer,\nCat,blue,tank,\nDan,blue,dps,\n"


def _init(config: Any, **kwargs: Any) -> Any:
    """``init --overwrite`` of ``config`` with a roster of four (the new match)."""
    roster = config.folder / "new-roster.csv"
    roster.write_text(ROSTER, encoding="utf-8")
    return init_match(config, now=NOW, overwrite=True, share=False, roster_file=roster, **kwargs)


class MoveCut:
    """The ``n``-th workbook ``init --overwrite`` moves aside is never moved, nor anything after it."""

    def __init__(self, patch: pytest.MonkeyPatch, n: int) -> None:
        real = shutil.move
        self.calls = 0

        def move(*args: Any) -> Any:
            self.calls += 1
            if self.calls >= n:
                raise InjectedFault(f"cut at move #{self.calls}")
            return real(*args)
        patch.setattr(shutil, "move", move)  # prepare_local's (upkeep.backups): the one that moves workbooks aside


def _backends(config: Any) -> tuple[Any, dict[str, Any]]:
    sheets = open_match_sheets(config)
    return sheets, {"board": sheets.board, "engine": sheets.engine,
                    **{seat: sheets.orders[i] for seat, i in SEATS.items()}}


def cut_init(config: Any, where: tuple[str, Any], init: Callable[..., Any]) -> None:
    """``init`` of ``config`` cut at ``where``: its n-th move aside (("move", n)), its n-th workbook created
    (("create", n)), or (method, spreadsheet) of the new match's layout and writes."""
    with pytest.MonkeyPatch.context() as patch, pytest.raises(InjectedFault):
        if where[0] in ("move", "create"):
            (MoveCut if where[0] == "move" else CreateCut)(patch, where[1])
            init(config)
        else:
            sheets, backends = _backends(config)
            with Cut(backends, where[1], where[0]):
                init(config, sheets=sheets)


def check_init_cut(tmp_path: Path, where: tuple[str, Any], after: str) -> None:
    """``init --overwrite`` cut at ``where`` (("move", n), or (method, spreadsheet) of the new match's layout and
    writes), then ``after`` ('sync', 'init'): the match as it was before it (then, for 'init', replaced whole)."""
    config = load_config(turn_two_typed(tmp_path))
    before = workbook_values(tmp_path) if after == "sync" else None  # an init after replaces the match whole
    journal = command_path(journal_path(config.path))
    assert journal is not None
    cut_init(config, where, _init)
    assert journal.exists()
    if after == "sync":
        report = sync(open_match_sheets(config))
        assert "the init --overwrite was cut short before the new match was whole: it is rolled back" in (
            report.completed)
        assert not journal.exists() and not list(tmp_path.rglob("*.before-init-*"))
        sheets = open_match_sheets(config)  # the next commands' (cron's) sheets
        assert record_of(sheets).resolved == 1  # the match goes on
        type_orders(sheets)
        assert sync(sheets).resolved
    else:
        outcome = _init(config)
        assert "it is rolled back" in outcome.settled and outcome.replaced
        assert record_of(open_match_sheets(config)).resolved == 0 and not journal.exists()
        return
    assert workbook_values(tmp_path) != before  # (turn 2 resolved since)


@pytest.mark.parametrize(("where", "after"), [
    (("move", 3), "sync"),  # the board and the engine moved aside, red's not
    (("apply_layout", "blue"), "sync"),  # every workbook new, red's laid out, blue's not
    (("apply_layout", "engine"), "init"),  # the new match laid out and drawn but for its engine
])
def test_an_init_overwrite_cut_short_is_rolled_back_by_the_next_command(tmp_path: Path, where: tuple[str, Any],
                                                                        after: str) -> None:
    check_init_cut(tmp_path, where, after)


def test_the_match_after_a_rolled_back_init_is_the_match_before_it_cell_for_cell(tmp_path: Path) -> None:
    """Rolled back, every cell of every workbook is what it was before the init --overwrite: status reads it so
    (it writes nothing: it says the next command rolls it back), then the next sync rolls it back."""
    from sheets_gm.sync.history import HistoryError
    from sheets_gm.sync.poll import poll
    from tests.matchfiles import GVG

    config = load_config(turn_two_typed(tmp_path))
    before = workbook_values(tmp_path)
    sheets, backends = _backends(config)
    with Cut(backends, "board", "apply_layout"), pytest.raises(InjectedFault):
        _init(config, sheets=sheets)
    with pytest.raises(HistoryError, match="the next sync, or any command that writes the match, rolls it back"):
        poll(open_match_sheets(config), GVG, now=NOW, dry_run=True)
    from sheets_gm.sync.life.settle import settle_cut_command

    assert "rolled back" in settle_cut_command(open_match_sheets(config), GVG)
    assert workbook_values(tmp_path) == before


@pytest.mark.soak
@pytest.mark.parametrize("where", [("move", n) for n in range(1, 5)]
                         + [("apply_layout", v) for v in ORDER])
@pytest.mark.parametrize("after", ["sync", "init"])
def test_an_init_overwrite_cut_anywhere_is_rolled_back(tmp_path: Path, where: tuple[str, Any], after: str) -> None:
    check_init_cut(tmp_path, where, after)


# --------------------------------------------------------------------------- a plain init (issue 60, item 3)


class CreateCut:
    """The ``n``-th workbook a plain init makes (in memory: its file is made by its first save, laid out and drawn)
    is never made, nor anything after it."""

    def __init__(self, patch: pytest.MonkeyPatch, n: int) -> None:
        from sheets_gm.sheets.local.backend import LocalWorkbookBackend

        real = LocalWorkbookBackend.start_new
        self.calls = 0

        def start_new(backend: LocalWorkbookBackend, *args: Any, **kwargs: Any) -> None:
            self.calls += 1
            if self.calls >= n:
                raise InjectedFault(f"cut at workbook #{self.calls}")
            real(backend, *args, **kwargs)
        patch.setattr(LocalWorkbookBackend, "start_new", start_new)


def _fresh_config(folder: Path) -> Any:
    """A private GvG config (board match.xlsx, gm/engine.xlsx, red.xlsx, blue.xlsx) and its roster, no workbook."""
    from tests.matchfiles import PRIVATE_SHEETS, local_config

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "roster.csv").write_text(ROSTER, encoding="utf-8")
    return load_config(local_config(folder, PRIVATE_SHEETS, head='roster = "roster.csv"'))


def _plain_init(config: Any, **kwargs: Any) -> Any:
    from tests.matchfiles import SEED

    return init_match(config, now=NOW, share=False, seed=SEED, **kwargs)


def _next_sync(config: Any, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """The next command, as cron runs it: what it said and its exit code."""
    from sheets_gm.cli import main

    code = main(["sync", "-c", str(config.path)])
    out, err = capsys.readouterr()
    return code, out + err


def _init_whole(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A plain init run whole in ``folder``, then the next sync: what a plain init cut short must come to."""
    whole = _fresh_config(folder)
    _plain_init(whole)
    assert _next_sync(whole, capsys)[0] == 0


# each workbook is laid out and drawn in one call (``apply_layout`` with its writes): an init writes nothing else
PLAIN_CUTS = [("create", n) for n in range(1, 5)] + [("apply_layout", v) for v in ORDER]


def check_plain_init_cut(tmp_path: Path, where: tuple[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    """A plain init cut at ``where`` (("create", n): its n-th workbook; or (method, spreadsheet) of its layout and
    writes), then the next sync: cut before its first write into the match, rolled back (no workbook left, no
    match); after, completed: every cell of every workbook as the init run whole, then that sync."""
    made_into(tmp_path / "whole", "init_overwrite_cut/whole", lambda into: _init_whole(into, capsys))
    config = _fresh_config(tmp_path / "cut")
    journal = command_path(journal_path(config.path))
    cut_init(config, where, _plain_init)
    assert journal is not None and journal.exists()
    code, said = _next_sync(config, capsys)
    assert not journal.exists() and "Traceback" not in said
    if where[0] == "create":
        assert "the init was cut short before its first write into the match: it is rolled back" in said, said
        assert code == 1 and not list((tmp_path / "cut").rglob("*.xlsx"))
        return
    assert "the init was cut short before the new match was whole: it is now complete, as if it had run whole" in said
    assert code == 0, said
    assert workbook_values(tmp_path / "cut") == workbook_values(tmp_path / "whole")


@pytest.mark.parametrize("where", [("create", 3), ("apply_layout", "blue"), ("apply_layout", "engine")])
def test_a_plain_init_cut_short_is_rolled_back_or_completed_by_the_next_command(
        tmp_path: Path, where: tuple[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    check_plain_init_cut(tmp_path, where, capsys)


@pytest.mark.soak
@pytest.mark.parametrize("where", PLAIN_CUTS)
def test_a_plain_init_cut_anywhere_is_settled(tmp_path: Path, where: tuple[str, Any],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    check_plain_init_cut(tmp_path, where, capsys)


def _google_plain_init(tmp_path: Path, cut: int | None, capsys: pytest.CaptureFixture[str]) -> tuple[Any, str, int]:
    """A plain init of a private GvG match in four spreadsheets of the Google fake, cut at its ``cut``-th layout
    or write (None: run whole), then the next sync. Every tab's values, what the sync said, how many layouts and
    writes the init sent."""
    from sheets_gm.cli import main
    from tests.fakes.google_api import signed_in_fake
    from tests.matchfiles import SEED
    from tests.sync.test_cut_commands import CutGoogle, google_folder

    keys = google_folder(tmp_path, "init_cut")
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    path = tmp_path / "match.toml"
    path.write_text('ruleset = "gvg"\ntitle = "Cut init"\nteams = ["red", "blue"]\nroster = "roster.csv"\n'
                    f'[sheets]\nbackend = "google"\nboard = "{keys["board"]}"\nengine = "{keys["engine"]}"\n'
                    f'orders = {{ red = "{keys["red"]}", blue = "{keys["blue"]}" }}\n'
                    '[google]\nservice_account = "sa.json"\n', encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch, \
            signed_in_fake(patch, {key: f"cut init · {role}" for role, key in keys.items()}) as fake:
        patch.setattr("sheets_gm.init.start.new_seed", lambda: SEED)
        with CutGoogle(cut) as cutting:
            if cut is None:
                assert main(["init", "gvg", "-c", str(path), "--no-share"]) == 0
            else:
                with pytest.raises(InjectedFault):
                    main(["init", "gvg", "-c", str(path), "--no-share"])
        capsys.readouterr()
        code = main(["sync", "-c", str(path)])
        out, err = capsys.readouterr()
        assert code == 0, out + err
        values = {role: {s.title: fake.values(key, s.title) for s in fake.spreadsheets[key].sheets}
                  for role, key in keys.items()}
        assert not fake.violations, fake.violations
    return values, out + err, cutting.count


def check_google_plain_init_cut(tmp_path: Path, cut: int, capsys: pytest.CaptureFixture[str]) -> None:
    whole, _, _ = _google_plain_init(tmp_path / "whole", None, capsys)
    values, said, _ = _google_plain_init(tmp_path / "cut", cut, capsys)
    assert "the init was cut short before the new match was whole: it is now complete, as if it had run whole" in said
    assert "its spreadsheets are not shared yet" in said and "Traceback" not in said
    assert values == whole


@pytest.mark.parametrize("cut", [1, 5])
def test_a_plain_init_cut_on_google_is_completed_by_the_next_sync(tmp_path: Path, cut: int,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    check_google_plain_init_cut(tmp_path, cut, capsys)


@pytest.mark.soak
def test_a_plain_init_cut_on_google_at_every_write_is_completed(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    _, _, writes = _google_plain_init(tmp_path / "count", None, capsys)
    for cut in range(writes):
        check_google_plain_init_cut(tmp_path / str(cut), cut, capsys)
