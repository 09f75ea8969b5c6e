"""An order is carried out in the window it was typed for and in no other, whatever a game's adapter forgets: proven
by difference on twin matches (``twin_orders``).

For every game and the toy game, a match is copied after a window every seat typed orders in (Ready ticked, the
window resolved): in the first copy every seat's rows stay as the sync left them; or (the quick run's case) every
seat typed, kept a copy of its workbook, cleared what it typed before the window resolved with nothing, and then
saves the copy over the live workbook (issue 60's Coalition forum line came back so). In its twin every typed cell
is emptied (but a standing table's). Then nobody types anything new: window after
window, each seat acting ticks its Ready alone, until every seat has acted once more. Each of those windows must
read the same orders in both matches (the engine's history) and come to the same state: a row typed for an earlier
window and still in its cell, or back in it, is never read again.

A few windows of each game in the quick run, more under ``-m soak``. The mistake planted below, a core that binds
no row to its window (``fates.bound_to`` giving nothing: a closing window then takes only the rows the adapter marks
as used, and the toy game's adapter marks none, as a new game's may forget to), carries a square typed in one turn
out again in the next and shows the property failing.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from sheets_gm.match.config import MatchConfig, load_config
from sheets_gm.rulesets.registry import get_ruleset
from sheets_gm.sheets.spec import ColumnKind
from sheets_gm.sync.match_record import history_rows, joined_cells
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import WriteBatch, seat_backend
from tests.conformance.noninterference import canonical, opened
from tests.conformance.twin_orders import GAMES, NOW, Typist, acting, copied_base, type_orders, warmed_up
from tests.toygame.registered import toy_registered


@pytest.fixture(scope="module", autouse=True)
def toy_game() -> Iterator[None]:
    """The toy game registered for the module's tests (only the tests know it)."""
    with toy_registered():
        yield


def empty_every_row(config: MatchConfig) -> int:
    """Every typed cell of every seat's rows emptied (a box unticked), as a player clearing her table would, but a
    standing table's (Win or Die's reactions stand, by the rules, until an order uses them); how many cells."""
    sheets = opened(config)
    read = read_match(sheets, get_ruleset(config.ruleset))
    batch, count = WriteBatch(), 0
    for seat, seat_read in read.seats.items():
        backend = seat_backend(sheets, read.tabs, seat)
        for row in seat_read.rows:
            placed = seat_read.tab.table(row.table)
            if placed.spec.standing:
                continue
            for key, value in row.values.items():
                if value not in (None, "", False) and placed.spec.column(key).kind is not ColumnKind.SUBJECT:
                    cell = placed.at(placed.cell(row.row - placed.first_row, key))
                    batch.put(backend, cell, [[False if isinstance(value, bool) else ""]])
                    count += 1
    batch.run(sheets.write_order())
    return count


def tick_only(config: MatchConfig) -> None:
    """Each seat acting now ticks its Ready box (on its table's first row) and types nothing."""
    sheets = opened(config)
    read = read_match(sheets, get_ruleset(config.ruleset))
    state, window = read.record.state, read.record.ruleset.window(read.record.state)
    batch = WriteBatch()
    for seat in window.seats if window is not None else ():
        seat_read = read.seats.get(seat)
        if seat_read is None or window is None:
            continue
        rows = {(r.table, r.subject): r.row for r in seat_read.rows}
        for placed in seat_read.tab.tables:
            box = placed.spec.of_kind(ColumnKind.READY)
            subjects = read.adapter.rows(state, seat, placed.spec) if box and placed.spec.open_in(window.phase) else []
            if subjects and (placed.spec.name, subjects[0]) in rows:
                cell = placed.cell(rows[(placed.spec.name, subjects[0])] - placed.first_row, box[0].key)
                batch.put(seat_backend(sheets, read.tabs, seat), placed.at(cell), [[True]])
    batch.run(sheets.write_order())


def resolved(config: MatchConfig) -> tuple[str, str, str]:
    """The last resolution as the engine keeps it: the window it closed, the orders it read, the state it made."""
    read = read_match(opened(config), get_ruleset(config.ruleset))
    record = read.record
    if not record.resolved:
        return "", "", ""
    (grid,) = opened(config).engine.read([history_rows(read.tabs.spec.tabs.engine, record.resolved)])
    entry = json.loads(joined_cells(grid[record.resolved - 1], 1))
    return str(entry.get("window", "")), canonical(entry.get("orders")), canonical(
        record.ruleset.state_codec.to_json(record.state))


def older_copies(config: MatchConfig) -> dict[Path, bytes]:
    """Every seat's workbook as it is now, by path: to be saved back over the live one later (an older copy)."""
    return {path: path.read_bytes() for path in {config.local_path(p).resolve() for p in config.orders}}


def carried_again(base: Path, folder: Path, windows: int, stale: bool = False) -> list[str]:
    """The windows whose resolution differs between the match in ``base`` (after one more window every seat typed
    in) and its twin with every row emptied, nobody typing anything until every seat has acted once more, or for
    ``windows`` windows at most (see the module)."""
    shutil.copytree(base, folder / "a")
    first = load_config(folder / "a" / "match.toml")
    type_orders(first, {s: Typist("typed once") for s in acting(first)}, ready=not stale)
    copies: dict[Path, bytes] = {}
    if stale:  # typed, a copy of each file kept, then cleared before the window resolves (with nothing)
        copies = older_copies(first)  # saved back over the first match below
        empty_every_row(first)
        tick_only(first)
    poll(opened(first), get_ruleset(first.ruleset), now=NOW)
    # the twin: the same window typed and resolved, copied (both are made alike up to here, the same steps the same)
    shutil.copytree(folder / "a", folder / "b")
    configs = [first, load_config(folder / "b" / "match.toml")]
    for path, data in copies.items():  # every seat saves its file over the live one from its older copy
        path.write_bytes(data)
    empty_every_row(configs[1])
    found: list[str] = []
    waiting = {*configs[0].seats}
    for n in range(windows):
        now = acting(configs[0])  # read once: nothing changes the match before the seats tick
        if not now or not waiting:
            break
        waiting -= set(now)
        for config in configs:
            for _ in range(2):  # a file saved from an older copy is drawn again first: the next poll resolves
                tick_only(config)
                if poll(opened(config), get_ruleset(config.ruleset), now=NOW).resolved:
                    break
        mine, theirs = resolved(configs[0]), resolved(configs[1])
        found += [f"window {n + 1} after: {what}: {a} / {b}" for what, a, b in
                  zip(("the window resolved", "the orders read", "the state"), mine, theirs, strict=True) if a != b]
        if found:
            break
    return found


def carried_out_twice(found: list[str]) -> str:
    """What a contributor is told when a row typed for one window was carried out in another: what differs, and
    where to look."""
    return ("an order typed for one window was carried out in another: the match whose rows stayed in their cells "
            "read them again, its twin with the rows emptied did not. A window's key (the first field of kit.Window) "
            "must name that window alone (a new key each turn), and the adapter reads a row only for the window its "
            "rows were typed for. Where the twins part: " + " | ".join(found))


@pytest.mark.xdist_group("conformance-base")  # one worker makes the base fixture's matches, once a run
def test_nothing_typed_for_one_window_is_carried_out_in_another(base: Path, tmp_path: Path) -> None:
    found = carried_again(base, tmp_path, 6)
    assert found == [], carried_out_twice(found)


@pytest.mark.xdist_group("conformance-base")  # one worker makes the base fixture's matches, once a run
def test_nothing_cleared_and_brought_back_by_an_older_copy_is_carried_out(base: Path, tmp_path: Path) -> None:
    found = carried_again(base, tmp_path, 6, stale=True)
    assert found == [], carried_out_twice(found)


@pytest.mark.soak
@pytest.mark.parametrize("stale", [False, True], ids=["rows as left", "older copies saved over"])
@pytest.mark.parametrize("windows", [2, 4])
@pytest.mark.parametrize("game", GAMES)
def test_soak_nothing_typed_for_one_window_is_carried_out_in_another(game: str, windows: int, stale: bool,
                                                                     tmp_path: Path) -> None:
    base = copied_base(tmp_path, game, windows)
    found = carried_again(base, tmp_path / "twins", 12, stale=stale)
    assert found == [], carried_out_twice(found)


@pytest.fixture
def rows_never_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mistake planted: a core that binds no order to its window. A closing window takes none of the rows typed
    for it (``fates.bound_to`` gives nothing), and the toy game's adapter marks no row as used (as a new game's
    adapter may forget to: the toy game, the example a new game copies, marks none), so a row typed for one window
    stays in its cells and the next window reads it again."""
    from sheets_gm.sync.rows import fates

    monkeypatch.setattr(fates, "bound_to", lambda *args, **kwargs: frozenset())


def test_an_order_carried_out_in_a_window_it_was_not_typed_for_is_found(rows_never_used: None,
                                                                        tmp_path: Path) -> None:
    with toy_registered():  # warmed up with the mistake, not copied: the copies are made without it
        base = tmp_path / "base"
        warmed_up(base, "tictactoe", 1)
        found = carried_again(base, tmp_path / "twins", 3)
    assert any("the orders read" in d for d in found), found
