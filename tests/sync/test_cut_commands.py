"""Every command that writes a match is all-or-nothing: cut at any write, the next command of any kind completes it
(or it never ran), and says so; and a match knows its history: files put back from older copies are refused by name.

A GvG match in four memory spreadsheets (red's, blue's, the board, the engine: written in that order, the engine
last), its journal in the GM's folder. A command is cut at each write position (the write to that spreadsheet fails,
as a kill -9 or a lost connection there would); the next command then runs, and every cell of every spreadsheet must
be what the command run whole, then that next command, leaves. The long walk (more positions, every pair of command
and next command, local workbooks and the Google fake) is under ``-m soak``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from sheets_gm.rulesets.gvg.state import Adjustment
from sheets_gm.rulesets.registry import create_ruleset
from sheets_gm.sheets.layout import Grid
from sheets_gm.sync.history import HistoryError
from sheets_gm.sync.life.adjust_undo import BetweenWindowsError, adjust_match, hand_seats, undo_window
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.life.repair import repair_match
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.memory import InjectedFault, MemoryBackend
from tests.matchfiles import GVG, SEED, local_match, played_match, record_of, roster, state_of, sync, type_orders

ORDER = ("red", "blue", "board", "engine")  # the write order: the seats, the board, the engine last (the commit)

Command = Callable[[MatchSheets], Any]
COMMANDS: dict[str, Command] = {
    "undo": lambda s: undo_window(s, GVG, "wrong orders"),
    "adjust": lambda s: adjust_match(s, GVG, [Adjustment("refund", coins=(1, 8))]),
    "bots": lambda s: hand_seats(s, GVG, {"red": "objective"}, "red is away"),
    "repair": lambda s: repair_match(s, GVG, title="the cut test"),
}
#: Where a command is cut: its write to a spreadsheet, and (repair: it lays every tab out again first) its layout.
POSITIONS = [("write", v) for v in ORDER] + [("apply_layout", v) for v in ORDER]


def positions(op: str) -> list[tuple[str, str]]:
    """Every position ``op`` writes at."""
    return POSITIONS if op == "repair" else [p for p in POSITIONS if p[0] == "write"]


def journal_of(op: str, journal: Path) -> Path:
    """The journal ``op`` keeps while under way: a change's, or the command journal of a repair."""
    from sheets_gm.sync.command_journal import command_path

    found = command_path(journal) if op == "repair" else journal
    assert found is not None
    return found
NEXT: dict[str, Command] = {
    "sync": sync,
    "status": lambda s: sync_dry(s),
    "undo": COMMANDS["undo"],
    "adjust": COMMANDS["adjust"],
}


def sync_dry(sheets: MatchSheets) -> Any:
    from sheets_gm.sync.poll import poll
    from tests.matchfiles import NOW

    return poll(sheets, GVG, now=NOW, dry_run=True)


_BUILT: dict[str, tuple[dict[str, MemoryBackend]]] = {}


def _fresh(journal: Path) -> tuple[MatchSheets, dict[str, MemoryBackend]]:
    """The match two turns in (built once, copied for each test), its journal at ``journal``."""
    if "match" not in _BUILT:
        backends = {n: MemoryBackend(n) for n in ORDER}
        sheets = MatchSheets(("red", "blue"), backends["board"], backends["engine"],
                             (backends["red"], backends["blue"]))
        create_match(sheets, create_ruleset("gvg"), roster(3), seed=SEED)
        for _ in range(2):
            type_orders(sheets)
            assert sync(sheets).resolved
        type_orders(sheets, ready=False)  # turn 3's orders typed, not ready: an undo sets them aside
        _BUILT["match"] = (backends,)
    backends = copy.deepcopy(_BUILT["match"][0])
    sheets = MatchSheets(("red", "blue"), backends["board"], backends["engine"], (backends["red"], backends["blue"]),
                         journal=journal)
    return sheets, backends


def cells(backends: dict[str, MemoryBackend]) -> dict[str, Any]:
    """Every value and note of every spreadsheet."""
    return copy.deepcopy({n: (b.tabs, b.notes) for n, b in backends.items()})


class Cut:
    """A command cut at its write to ``victim`` (``method``: ``write``, or ``apply_layout`` for a layout laid out
    again): that write and every later one never happen."""

    def __init__(self, backends: dict[str, Any], victim: str, method: str = "write") -> None:
        self.backends = backends
        self.victim = victim
        self.method = method

    def __enter__(self) -> None:
        backend = self.backends[self.victim]
        original = getattr(backend, self.method)

        def fail(*args: Any, **kwargs: Any) -> list[Grid]:
            setattr(backend, self.method, original)
            raise InjectedFault(f"cut at {self.victim}")
        setattr(backend, self.method, fail)

    def __exit__(self, *exc: object) -> None:
        self.backends[self.victim].__dict__.pop(self.method, None)


def _run(command: Command, sheets: MatchSheets) -> str:
    """Run ``command``; '' when it went through, else what it refused with."""
    try:
        command(sheets)
    except (BetweenWindowsError, HistoryError) as exc:
        return str(exc)
    return ""


def check_cut(tmp_path: Path, op: str, victim: str, after: str, method: str = "write") -> None:
    """``op`` cut at its write to ``victim``, then ``after``: every cell as ``op`` run whole, then ``after``."""
    whole, whole_backends = _fresh(tmp_path / "whole" / "journal.json")
    COMMANDS[op](whole)
    cut, cut_backends = _fresh(tmp_path / "cut" / "journal.json")
    with Cut(cut_backends, victim, method), pytest.raises(InjectedFault):
        COMMANDS[op](cut)
    assert journal_of(op, tmp_path / "cut" / "journal.json").exists()
    said = ""
    if after == "status":  # reads only: it says what the next sync does, and writes nothing
        written = cells(cut_backends)
        with pytest.raises(HistoryError, match=r"was cut short before its last write .* the next sync"):
            NEXT[after](cut)
        assert cells(cut_backends) == written
        after = "sync"
    if after == "sync":
        report = NEXT[after](cut)
        said = report.completed
        expected = NEXT[after](whole)
        assert report.completed and not expected.completed
    else:
        said = _run(NEXT[after], cut)  # completes the cut command, tells the GM, and does nothing else
        assert "Your " in said and "was not done: run it again" in said
    assert "was cut short before its last write" in said and "it is now complete" in said
    assert cells(cut_backends) == cells(whole_backends)
    assert not (tmp_path / "cut" / "journal.json").exists()
    assert not journal_of(op, tmp_path / "cut" / "journal.json").exists()
    assert record_of(cut).values() == record_of(whole).values()


@pytest.mark.parametrize(("op", "victim", "after", "method"), [
    ("undo", "blue", "status", "write"),  # issue 52, item 1: red's file undone, the engine not
    ("undo", "engine", "sync", "write"),
    ("adjust", "red", "undo", "write"),
    ("bots", "board", "adjust", "write"),
    ("repair", "blue", "status", "apply_layout"),  # red's tabs laid out again, blue's not
    ("repair", "engine", "sync", "write"),
])
def test_a_command_cut_at_a_write_is_completed_by_the_next_command(tmp_path: Path, op: str, victim: str,
                                                                   after: str, method: str) -> None:
    check_cut(tmp_path, op, victim, after, method)


#: Every command at every write it makes: the cut positions the soak walks on each backend.
EVERY_CUT = [(op, *p) for op in sorted(COMMANDS) for p in positions(op)]


@pytest.mark.soak
@pytest.mark.parametrize("after", sorted(NEXT))
@pytest.mark.parametrize(("op", "method", "victim"), EVERY_CUT)
def test_every_command_cut_at_every_write_is_completed_by_every_next_command(tmp_path: Path, op: str, victim: str,
                                                                             after: str, method: str) -> None:
    check_cut(tmp_path, op, victim, after, method)


def test_a_cut_command_whose_journal_is_gone_is_refused_by_name_never_taken_for_a_players_copy(tmp_path: Path) -> None:
    """Issue 52, item 1: without its journal, an undo cut after the seats' files is never read as their files saved
    from an older copy (whose rows would go to the Archive for an undo the engine never recorded): every command
    refuses, naming the engine, the file and repair."""
    sheets, backends = _fresh(tmp_path / "journal.json")
    before = cells(backends)
    with Cut(backends, "board"), pytest.raises(InjectedFault):
        COMMANDS["undo"](sheets)
    (tmp_path / "journal.json").unlink()
    written = cells(backends)
    for after in NEXT.values():
        said = _run(after, sheets) if after is not sync else ""
        if not said:
            with pytest.raises(HistoryError) as refused:
                after(sheets)
            said = str(refused.value)
        assert "the engine is older than the files it wrote" in said and "repair" in said
        assert "older copy" in said and "typed over by hand" not in said
    assert cells(backends) == written != before  # nothing more written
    repair_match(sheets, GVG)  # the GM carries the match on from the engine as it is
    report = sync(sheets)
    assert not report.older_copies and not report.resolved and record_of(sheets).resolved == 2


# --------------------------------------------------------------------------- local workbooks


def _local(folder: Path) -> tuple[MatchSheets, dict[str, Any]]:
    """The same match in local workbooks (the board, gm/engine.xlsx, red.xlsx, blue.xlsx), its journal beside: two
    turns played (``played_match``: once a test process, copied), the third typed."""
    _config, sheets = played_match(folder, 2, private=True)
    assert state_of(sheets).turn == 3
    type_orders(sheets, ready=False)
    sheets = replace(sheets, journal=folder / ".sheets-gm" / "journal.json")
    return sheets, {"red": sheets.orders[0], "blue": sheets.orders[1], "board": sheets.board,
                    "engine": sheets.engine}


def workbook_values(folder: Path) -> dict[str, object]:
    """Every cell's value of every workbook of the match in ``folder``."""
    out: dict[str, object] = {}
    for name in ("match.xlsx", "gm/engine.xlsx", "red.xlsx", "blue.xlsx"):
        book = openpyxl.load_workbook(folder / name)
        out[name] = {sheet.title: [[c.value for c in row] for row in sheet.iter_rows()] for sheet in book}
    return out


def check_local_cut(tmp_path: Path, op: str, victim: str, after: str, method: str = "write") -> None:
    """``check_cut`` on local workbooks: each spreadsheet's write is one atomic save of its file."""
    whole, _ = _local(tmp_path / "whole")
    COMMANDS[op](whole)
    cut, backends = _local(tmp_path / "cut")
    with Cut(backends, victim, method), pytest.raises(InjectedFault):
        COMMANDS[op](cut)
    if after == "sync":
        said = NEXT[after](cut).completed
        NEXT[after](whole)
    else:
        said = _run(NEXT[after], cut)
    assert "was cut short before its last write" in said and "it is now complete" in said
    assert workbook_values(tmp_path / "cut") == workbook_values(tmp_path / "whole")


def test_an_undo_cut_in_local_workbooks_is_completed_by_the_next_sync(tmp_path: Path) -> None:
    """Issue 52, item 1, as it was found: an all-bot GvG match in local workbooks, an undo cut after the seats'
    files were saved and before the engine's: the next sync completes it, every cell as the undo run whole."""
    check_local_cut(tmp_path, "undo", "board", "sync")


def test_a_repair_cut_in_local_workbooks_is_run_again_whole_by_the_next_sync(tmp_path: Path) -> None:
    """A repair cut after red's and blue's workbooks were laid out again, before the board's: the next sync runs it
    again whole, every cell as the repair run whole."""
    check_local_cut(tmp_path, "repair", "board", "sync", "apply_layout")


@pytest.mark.soak
@pytest.mark.parametrize("after", ["sync", "undo"])
@pytest.mark.parametrize(("op", "method", "victim"), EVERY_CUT)
def test_every_command_cut_in_local_workbooks_is_completed(tmp_path: Path, op: str, victim: str, after: str,
                                                           method: str) -> None:
    check_local_cut(tmp_path, op, victim, after, method)


# --------------------------------------------------------------------------- the Google fake


def _google_run(tmp_path: Path, op: str, victim: str | None, after: str,
                method: str = "write") -> tuple[dict[str, Any], str]:
    """``op`` on a match in four spreadsheets of the Google fake, cut at ``victim`` (None: run whole), then
    ``after``: every tab's values of every spreadsheet, and what ``after`` said of a cut command."""
    from tests.commands.test_gm_ops import KEYS, google_match
    from tests.fakes.google_api import GoogleApiFake

    with GoogleApiFake() as fake:
        sheets = replace(google_match(fake), journal=tmp_path / ("cut" if victim else "whole") / "journal.json")
        type_orders(sheets, ready=False)
        backends = {"red": sheets.orders[0], "blue": sheets.orders[1], "board": sheets.board, "engine": sheets.engine}
        said = ""
        if victim is None:
            COMMANDS[op](sheets)
        else:
            with Cut(backends, victim, method), pytest.raises(InjectedFault):
                COMMANDS[op](sheets)
        if after == "sync":
            said = NEXT[after](sheets).completed
        elif victim is not None:
            said = _run(NEXT[after], sheets)
        values: dict[str, Any] = {role: {s.title: fake.values(key, s.title) for s in fake.spreadsheets[key].sheets}
                  for role, key in KEYS.items()}
        assert not fake.violations, fake.violations
    return values, said


def check_google_cut(tmp_path: Path, op: str, victim: str, after: str, method: str = "write") -> None:
    whole, _ = _google_run(tmp_path, op, None, after)
    cut, said = _google_run(tmp_path, op, victim, after, method)
    assert "was cut short before its last write" in said and "it is now complete" in said
    assert cut == whole


def test_an_adjustment_cut_on_google_is_completed_by_the_next_sync(tmp_path: Path) -> None:
    check_google_cut(tmp_path, "adjust", "blue", "sync")


def test_a_repair_cut_on_google_is_run_again_whole_by_the_next_undo(tmp_path: Path) -> None:
    check_google_cut(tmp_path, "repair", "red", "undo", "write")


@pytest.mark.soak
@pytest.mark.parametrize("after", ["sync", "undo"])
@pytest.mark.parametrize(("op", "method", "victim"), EVERY_CUT)
def test_every_command_cut_on_google_is_completed(tmp_path: Path, op: str, victim: str, after: str,
                                                  method: str) -> None:
    check_google_cut(tmp_path, op, victim, after, method)


def test_a_change_refused_for_a_workbook_left_open_leaves_no_journal_to_complete(tmp_path: Path) -> None:
    """An undo refused because blue's workbook is open in LibreOffice wrote nothing, so no later sync completes it
    behind the GM's back: she runs it again once the workbook is closed."""
    from sheets_gm.sheets.backend import WorkbookOpenError

    sheets, _ = _local(tmp_path)
    lock = tmp_path / ".~lock.blue.xlsx#"
    lock.write_text(",Bo,bo-laptop,22.11.2026 12:00,file:///home/bo;", encoding="utf-8")
    before = workbook_values(tmp_path)
    with pytest.raises(WorkbookOpenError):
        COMMANDS["undo"](sheets)
    assert workbook_values(tmp_path) == before and not sheets.journal.exists()  # type: ignore[union-attr]
    lock.unlink()
    assert not sync(sheets).completed and record_of(sheets).resolved == 2


def test_a_change_journal_left_after_its_commit_is_dropped_by_the_next_poll(tmp_path: Path) -> None:
    """Killed between the engine's write and dropping its journal, a change is whole: the next poll completes
    nothing, says nothing, and drops the journal (cron's polls do not read the match for it again)."""
    from sheets_gm.sync import journal

    sheets, _ = _fresh(tmp_path / "journal.json")
    kept = journal.drop_journal
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(journal, "drop_journal", lambda path: None)  # killed before the journal went
        COMMANDS["adjust"](sheets)
    assert (tmp_path / "journal.json").exists()
    assert kept is journal.drop_journal
    report = sync(sheets)
    assert not report.completed and not (tmp_path / "journal.json").exists()


def test_doctor_names_a_repair_cut_short_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """doctor writes nothing: a repair cut short is named (the next command runs it again), not taken for a layout
    players broke; then the next sync runs it again whole and doctor is content."""
    from sheets_gm.cli import main
    from sheets_gm.match.config import load_config
    from sheets_gm.running.connect import open_match_sheets

    config = local_match(tmp_path, private=True)[0]
    sheets = open_match_sheets(load_config(config))
    backends = {"red": sheets.orders[0], "blue": sheets.orders[1], "board": sheets.board, "engine": sheets.engine}
    with Cut(backends, "blue", "apply_layout"), pytest.raises(InjectedFault):
        COMMANDS["repair"](sheets)
    written = workbook_values(tmp_path)
    code = main(["doctor", "-c", str(config)])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "the repair was cut short before its last write" in out and "runs it again whole" in out, out
    assert workbook_values(tmp_path) == written
    assert "it is now complete, run again whole" in sync(open_match_sheets(load_config(config))).completed
    assert main(["doctor", "-c", str(config)]) == 0, capsys.readouterr().out


# --------------------------------------------------------------------------- repair's first steps, on local workbooks
#
# Before it lays the match out again, repair puts its files in place: swapped workbooks moved back, the engine moved
# out of a file players open (created first where the config names a new file). Each local write ends in one
# ``os.replace`` (a save's, or a file moved): the repair is cut at each of them in turn, then the next command opens
# the match as the command line does, and every workbook is what the repair run whole, then that command, leaves.

#: A match whose repair has files to move: red's and blue's workbooks swapped; the engine still in the board's
#: workbook while the config names gm/engine.xlsx.
MOVES = ("swapped", "engine")


@pytest.fixture(scope="module")
def before_repair(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, Path], Path]:
    """Copy the match of a kind of ``MOVES`` (built once) into a folder; its config."""
    import shutil

    built: dict[str, Path] = {}

    def build(kind: str) -> Path:
        folder = tmp_path_factory.mktemp(kind)
        path, sheets = played_match(folder, 2, private=kind == "swapped")  # the test process's, copied
        assert record_of(sheets).resolved == 2
        type_orders(sheets, ready=False)
        if kind == "swapped":
            import os

            os.replace(folder / "red.xlsx", folder / "aside.xlsx")
            os.replace(folder / "blue.xlsx", folder / "red.xlsx")
            os.replace(folder / "aside.xlsx", folder / "blue.xlsx")
        else:
            path.write_text(path.read_text(encoding="utf-8").replace(
                'board = "match.xlsx"', 'board = "match.xlsx"\nengine = "gm/engine.xlsx"'), encoding="utf-8")
        return path

    def copy_of(kind: str, folder: Path) -> Path:
        if kind not in built:
            built[kind] = build(kind)
        shutil.copytree(built[kind].parent, folder)
        return folder / built[kind].name
    return copy_of


class CutReplace:
    """Count the ``os.replace`` of the match's files (the journal's in ``.sheets-gm/`` left out), and fail the
    ``at``-th (from 0; None: none) as a kill -9 there would: it and every later write never happen."""

    def __init__(self, at: int | None = None) -> None:
        self.at = at
        self.count = 0

    def __enter__(self) -> CutReplace:
        import os

        self.patch = pytest.MonkeyPatch()
        real = os.replace

        def replace_file(source: Any, target: Any, *args: Any, **kwargs: Any) -> None:
            if ".sheets-gm" not in Path(target).parts:
                if self.count == self.at:
                    self.patch.undo()
                    raise InjectedFault(f"cut at write {self.at} ({target})")
                self.count += 1
            real(source, target, *args, **kwargs)
        self.patch.setattr(os, "replace", replace_file)
        return self

    def __exit__(self, *exc: object) -> None:
        self.patch.undo()


def match_files(folder: Path) -> dict[str, object]:
    """Every cell's value of every workbook in ``folder`` (the repairs' copies left out), and every other file's
    name there (a file a cut move left aside is one)."""
    out: dict[str, object] = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if path.is_dir() or name.startswith(("backups", ".sheets-gm")):
            continue
        if path.suffix == ".xlsx":
            book = openpyxl.load_workbook(path)
            out[name] = {sheet.title: [[c.value for c in row] for row in sheet.iter_rows()] for sheet in book}
        else:
            out[name] = None
    return out


def _repair_then(config: Path, after: str, cut: int | None) -> str:
    """``repair`` of ``config`` from the command line, cut at its ``cut``-th write (None: run whole); then ``after``
    on the match opened as the command line opens it. What ``after`` said of a cut repair."""
    from sheets_gm.cli import main
    from sheets_gm.commands.matchargs import open_match
    from sheets_gm.match.config import load_config

    with CutReplace(cut) as cutting:
        if cut is None:
            assert main(["repair", "-c", str(config)]) == 0
        else:
            with pytest.raises(InjectedFault):
                main(["repair", "-c", str(config)])
            assert cutting.count == cut
    sheets = open_match(load_config(config))
    if after == "sync":
        return sync(sheets).completed
    return _run(NEXT[after], sheets) if cut is not None else ""


def repair_writes(before_repair: Callable[[str, Path], Path], tmp_path: Path, kind: str) -> int:
    """How many writes the repair of ``kind`` makes, run whole."""
    config = before_repair(kind, tmp_path / "count")
    with CutReplace() as counting:
        from sheets_gm.cli import main

        assert main(["repair", "-c", str(config)]) == 0
    return counting.count


def check_cut_repair(before_repair: Callable[[str, Path], Path], tmp_path: Path, kind: str, cut: int,
                     after: str) -> str:
    """The repair of ``kind`` cut at its ``cut``-th write, then ``after``: every file as the repair run whole, then
    ``after``; the GM told. What she was told."""
    whole = before_repair(kind, tmp_path / "whole")
    _repair_then(whole, after, None)
    config = before_repair(kind, tmp_path / "cut")
    said = _repair_then(config, after, cut)
    assert "the repair was cut short before its last write" in said and "it is now complete" in said, said
    assert match_files(config.parent) == match_files(whole.parent)
    assert not list((config.parent / ".sheets-gm").glob("*.json"))  # no journal left
    return said


@pytest.mark.parametrize(("kind", "cut", "after", "told"), [
    ("swapped", 1, "sync", ""),  # one workbook moved aside, the other not yet
    ("swapped", 2, "undo", "red.xlsx held the tabs of blue (the workbooks were swapped): moved back"),  # both aside
    ("engine", 1, "sync", ""),  # gm/engine.xlsx created, nothing copied into it
    ("engine", 2, "undo", "moved the engine out of"),  # the engine copied, not yet deleted from the board
])
def test_a_repair_cut_while_it_puts_the_files_in_place_is_completed_by_the_next_command(
        before_repair: Callable[[str, Path], Path], tmp_path: Path, kind: str, cut: int, after: str,
        told: str) -> None:
    said = check_cut_repair(before_repair, tmp_path, kind, cut, after)
    assert told in said


@pytest.mark.soak
@pytest.mark.parametrize("after", ["sync", "undo"])
@pytest.mark.parametrize("kind", MOVES)
def test_a_repair_cut_at_every_write_of_every_step_is_completed(before_repair: Callable[[str, Path], Path],
                                                                tmp_path: Path, kind: str, after: str) -> None:
    for cut in range(repair_writes(before_repair, tmp_path, kind)):
        check_cut_repair(before_repair, tmp_path / str(cut), kind, cut, after)


def test_a_repair_cut_while_it_keeps_its_copies_left_the_match_as_it_was(
        before_repair: Callable[[str, Path], Path], tmp_path: Path) -> None:
    """The copies come before the journal: they are no write to the match, and cut there the repair never ran."""
    import shutil

    from sheets_gm.cli import main

    config = before_repair("engine", tmp_path / "cut")
    before = match_files(config.parent)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(shutil, "copy2", lambda *a, **k: (_ for _ in ()).throw(InjectedFault("cut in the copies")))
        with pytest.raises(InjectedFault):
            main(["repair", "-c", str(config)])
    assert match_files(config.parent) == before
    assert not list((config.parent / ".sheets-gm").glob("*.json"))


# --------------------------------------------------------------------------- the engine's move, on the Google fake


class CutGoogle:
    """Count the layouts and writes sent to Google, and fail the ``at``-th (from 0; None: none), as a lost
    connection or a kill -9 there would: it and every later one never happen."""

    def __init__(self, at: int | None = None) -> None:
        self.at = at
        self.count = 0

    def __enter__(self) -> CutGoogle:
        from sheets_gm.sheets.google.backend import GoogleSheetBackend

        self.patch = pytest.MonkeyPatch()
        for method in ("apply_layout", "write"):
            real = getattr(GoogleSheetBackend, method)

            def sent(backend: Any, *args: Any, _real: Any = real, **kwargs: Any) -> Any:
                if self.count == self.at:
                    self.patch.undo()
                    raise InjectedFault(f"cut at Google write {self.at}")
                self.count += 1
                return _real(backend, *args, **kwargs)
            self.patch.setattr(GoogleSheetBackend, method, sent)
        return self

    def __exit__(self, *exc: object) -> None:
        self.patch.undo()


def google_folder(tmp_path: Path, label: str) -> dict[str, str]:
    """The keys of a match's four spreadsheets on the Google fake (board, engine, red, blue), and ``tmp_path`` made
    with the key file of the service account (``sa.json``) that opens them."""
    from tests.fakes.google_api import write_service_account_key

    tmp_path.mkdir(parents=True)
    write_service_account_key(tmp_path / "sa.json", "gm-bot@sheets-gm-test.iam.gserviceaccount.com")
    return {role: f"1{role.title()}Key_{label}_".ljust(44, "0") for role in ("board", "engine", "red", "blue")}


def _google_engine_move(tmp_path: Path, cut: int | None) -> tuple[dict[str, Any], str, int]:
    """A Google match whose engine sat in the board's spreadsheet, the config now naming a spreadsheet of its own;
    repair cut at its ``cut``-th write (None: whole), then the next sync. Every tab's values, what the sync said,
    and how many writes the repair sent."""
    from sheets_gm.cli import main
    from sheets_gm.commands.matchargs import open_match
    from sheets_gm.match.config import load_config
    from tests.fakes.google_api import signed_in_fake

    keys = google_folder(tmp_path, "cut_test")
    members = roster(3).members
    (tmp_path / "roster.csv").write_text("name,team,role\n" + "".join(
        f"{m.name},{m.seat},{m.fields['role']}\n" for m in members), encoding="utf-8")
    path = tmp_path / "match.toml"
    sheets_lines = (f'[sheets]\nbackend = "google"\nboard = "{keys["board"]}"\n'
                    f'orders = {{ red = "{keys["red"]}", blue = "{keys["blue"]}" }}\n')
    path.write_text('ruleset = "gvg"\ntitle = "Cut match"\nteams = ["red", "blue"]\nroster = "roster.csv"\n'
                    + sheets_lines + '[google]\nservice_account = "sa.json"\n', encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch, \
            signed_in_fake(patch, {key: f"cut test · {role}" for role, key in keys.items()}) as fake:
        with pytest.MonkeyPatch.context() as old:  # created when the engine could share the board's spreadsheet
            old.setattr("sheets_gm.init.start.refuse_exposures", lambda config: None)
            old.setattr("sheets_gm.init.start.new_seed", lambda: SEED)  # the same match, run whole and cut
            assert main(["init", "gvg", "-c", str(path), "--no-share"]) == 0
        sheets = open_match(load_config(path))
        for _ in range(2):
            type_orders(sheets)
            assert sync(sheets).resolved
        type_orders(sheets, ready=False)
        path.write_text(path.read_text(encoding="utf-8").replace(
            f'board = "{keys["board"]}"', f'board = "{keys["board"]}"\nengine = "{keys["engine"]}"'), encoding="utf-8")
        with CutGoogle(cut) as cutting:
            if cut is None:
                assert main(["repair", "-c", str(path)]) == 0
            else:
                with pytest.raises(InjectedFault):
                    main(["repair", "-c", str(path)])
        said = sync(open_match(load_config(path))).completed
        values = {role: {s.title: fake.values(key, s.title) for s in fake.spreadsheets[key].sheets}
                  for role, key in keys.items()}
    return values, said, cutting.count


def check_google_engine_move(tmp_path: Path, cut: int) -> None:
    whole, _, _ = _google_engine_move(tmp_path / "whole", None)
    values, said, _ = _google_engine_move(tmp_path / "cut", cut)
    assert "the repair was cut short before its last write" in said and "it is now complete" in said, said
    assert values == whole


@pytest.mark.soak
def test_an_engine_move_cut_on_google_at_every_write_is_completed_by_the_next_sync(tmp_path: Path) -> None:
    """The engine moved out of the board's spreadsheet into its own (on Google it is the one step of those before
    the layout that applies: swapped spreadsheets are refused, and no spreadsheet is created), then the layout:
    cut at each write, the next sync completes it."""
    _, _, writes = _google_engine_move(tmp_path / "count", None)
    for cut in range(writes):
        check_google_engine_move(tmp_path / str(cut), cut)
