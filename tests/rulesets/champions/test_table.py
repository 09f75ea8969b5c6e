"""Champions through the real sync, as a table of sixteen plays it (issue 26): what the board, a player's
orders tab and her View say once a player is out."""

from __future__ import annotations

import datetime as dt
import pickle
from functools import cache

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets.champions.engine import ChampionsRuleset
from sheets_gm.rulesets.champions.enums import CLASSES, Phase
from sheets_gm.rulesets.champions.gm import events_from_options
from sheets_gm.rulesets.champions.sheet.adapter import ChampionsSheet
from sheets_gm.rulesets.champions.state import Adjustment, ChampionsState, Player
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset, sheet_of, sheet_spec
from sheets_gm.sheets.layout import cells
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.adjust_undo import adjust_match
from sheets_gm.sync.life.create import create_match, match_layouts
from sheets_gm.sync.life.repair import repair_match
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.memory import MemoryBackend

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)


def texts(backend: MemoryBackend, tab: str) -> list[str]:
    """Every non-empty value of a tab, as text."""
    return [str(v) for v in backend.tabs[tab].values() if v not in ("", None)]


@cache
def first_out() -> tuple[MatchSheets, ChampionsState]:
    """The sample roster of sixteen played by bots through the sync until a player is out."""
    rules = create_ruleset("champions")
    roster = rules.sample_roster()
    sheets = MatchSheets(roster.seats, MemoryBackend("board"), MemoryBackend("engine"),
                         tuple(MemoryBackend(s) for s in roster.seats))
    create_match(sheets, rules, roster, seed=b"out")
    cls = get_ruleset("champions")
    bots = {s: bots_of(rules)["affinity"].make(s) for s in roster.seats}
    for _ in range(40):
        state = read_match(sheets, cls).record.state
        assert isinstance(state, ChampionsState)
        if any(p.out for p in state.players):
            return sheets, state
        type_bot_orders(sheets, cls, bots)
        poll(sheets, cls, now=NOW)
    raise AssertionError("nobody out in forty windows")


def test_the_boards_line_names_who_is_out_once_a_player_is() -> None:
    sheets, state = first_out()
    board = sheets.board
    assert isinstance(board, MemoryBackend)
    out = [p for p in state.players if p.out]
    lines = [t for t in texts(board, "Board") if t.startswith("Out:")]
    assert lines == ["Out: " + ", ".join(f"{p.name} (round {p.out_round})" for p in out)]


def test_an_out_players_tabs_say_she_is_out() -> None:
    sheets, state = first_out()
    name = next(p.name for p in state.players if p.out)
    backend = sheets.of(name)
    assert isinstance(backend, MemoryBackend)
    orders = texts(backend, f"Orders {name}")
    assert not any(t.startswith("Nothing to write now") for t in orders)
    assert any(t.startswith(f"{name} is out: all four champions died in round") for t in orders)
    assert any(t.startswith(f"{name} is out") for t in texts(backend, f"View {name}"))


def _fight_window(seed: bytes) -> MatchSheets:
    """The sixteen of the sample roster, past the first move window (the bots moved), at round 1's fight: played once
    a test process for each seed, each caller given a copy of its own."""
    sheets: MatchSheets = pickle.loads(_fight_window_made(seed))
    return sheets


@cache
def _fight_window_made(seed: bytes) -> bytes:
    """``_fight_window``'s match, played here and pickled."""
    rules = create_ruleset("champions")
    roster = rules.sample_roster()
    sheets = MatchSheets(roster.seats, MemoryBackend("board"), MemoryBackend("engine"),
                         tuple(MemoryBackend(s) for s in roster.seats))
    create_match(sheets, rules, roster, seed=seed)
    cls = get_ruleset("champions")
    type_bot_orders(sheets, cls, {s: bots_of(rules)["affinity"].make(s) for s in roster.seats})
    poll(sheets, cls, now=NOW)
    return pickle.dumps(sheets)


def _feedback(sheets: MatchSheets, seat: str) -> dict[tuple[str, str], str]:
    read = read_match(sheets, get_ruleset("champions"))
    return {(r.table, r.subject): r.feedback for r in read.seats[seat].rows}


def _type(sheets: MatchSheets, seat: str, table: str, subject: str, key: str, value: str) -> None:
    read = read_match(sheets, get_ruleset("champions"))
    seat_read = read.seats[seat]
    placed = seat_read.tab.table(table)
    row = next(r.row for r in seat_read.rows if r.table == table and r.subject == subject)
    backend = sheets.of(seat)
    assert isinstance(backend, MemoryBackend)
    backend.type(seat_read.tab.name, placed.cell(row - placed.first_row, key), value)


def test_a_champions_equip_verdict_shows_in_its_equip_row_only() -> None:
    sheets = _fight_window(b"words")
    _type(sheets, "Ann", "equip", "Ann.mage", "item1", "wand of nothing")
    poll(sheets, get_ruleset("champions"), now=NOW)
    feedback = _feedback(sheets, "Ann")
    assert "wand of nothing" in feedback[("equip", "Ann.mage")]
    assert "wand of nothing" not in feedback[("sets", "Ann.mage")]
    equip = feedback[("equip", "Ann.mage")]
    assert " she " not in equip and "no item 'wand of nothing' in the loot table" in equip and "bag holds" in equip


def test_a_move_that_is_not_a_tile_is_told_a_tile_of_this_board() -> None:
    sheets = _fight_window(b"words")
    state = read_match(sheets, get_ruleset("champions")).record.state
    assert isinstance(state, ChampionsState)
    poll(sheets, get_ruleset("champions"), now=NOW, force=True)  # past the fight: round 2's move window
    _type(sheets, "Ann", "move_loot", "Ann", "move", "north")
    poll(sheets, get_ruleset("champions"), now=NOW)
    text = _feedback(sheets, "Ann")[("move_loot", "Ann")]
    size = state.size
    assert "like F7" not in text and f"like {chr(ord('A') + size - 1)}{size}" in text


def test_a_players_view_lists_each_item_of_her_bag_with_its_type_tier_and_dice() -> None:
    sheets = _fight_window(b"words")
    read = read_match(sheets, get_ruleset("champions"))
    state = read.record.state
    assert isinstance(state, ChampionsState)
    sheet = sheet_of(read.record.ruleset)
    assert isinstance(sheet, ChampionsSheet)
    p = next(q for q in state.players if q.bag)
    view = [str(row[0]) for row in sheet.panel(state, p.name)]
    table = sheet.rules.table
    for name in set(p.bag):
        item = table.get(name)
        assert item is not None and any(line.endswith(item.describe()) for line in view), (name, view)


def test_the_logs_turn_column_counts_rounds() -> None:
    sheets = _fight_window(b"words")
    poll(sheets, get_ruleset("champions"), now=NOW, force=True)  # round 1's fight
    board = sheets.board
    assert isinstance(board, MemoryBackend)
    turns = {v for (_, col), v in board.tabs["Log"].items() if col == 0}
    assert "round 1, move" in turns and not {1, 2} & turns


def test_a_gm_adjust_that_kills_a_players_last_champion_shows_her_out_at_once() -> None:
    sheets = _fight_window(b"adjusted")
    cls = get_ruleset("champions")
    state = read_match(sheets, cls).record.state
    assert isinstance(state, ChampionsState)
    ann = state.player("Ann")
    assert ann is not None and not ann.out
    rules = create_ruleset("champions")
    kills = events_from_options(rules.seats(state), {"health": [f"Ann.{c.value}=0" for c in CLASSES]}, "a lost duel")
    adjust_match(sheets, cls, kills)
    after = read_match(sheets, cls).record.state
    assert isinstance(after, ChampionsState)
    gone = after.player("Ann")
    assert gone is not None and gone.out and gone.out_round == state.round
    board = sheets.board
    assert isinstance(board, MemoryBackend)
    assert f"Out: Ann (round {state.round})" in texts(board, "Board")
    assert not any("Ann" in t.split("\n") for t in texts(board, "Board") if not t.startswith(("Out:", "Ann ")))
    backend = sheets.of("Ann")
    assert isinstance(backend, MemoryBackend)
    assert any(t.startswith(f"Ann is out: all four champions died in round {state.round}")
               for t in texts(backend, "Orders Ann"))
    assert rules.window(after) is not None  # fifteen still play


def test_a_gm_adjust_that_puts_the_second_last_player_out_ends_the_match() -> None:
    rules = create_ruleset("champions")
    state = ChampionsState(3, Phase.MOVE, 2, (Player("Ann", Coord.parse("A1")), Player("Bo", Coord.parse("B2"))), {})
    for c in CLASSES:
        state = rules.apply_gm_event(state, Adjustment("a lost duel", health=("Ann", c.value, 0))).state
    assert state.finished and state.winners == ("Bo",)


def _shrunk_to_three() -> tuple[MatchSheets, ChampionsState]:
    """The sixteen at round 1's fight; the GM puts seven out, and the fight resolved shrinks the grid to 3×3: played
    once a test process, each caller given a copy of its own."""
    made: tuple[MatchSheets, ChampionsState] = pickle.loads(_shrunk_to_three_made())
    return made


@cache
def _shrunk_to_three_made() -> bytes:
    """``_shrunk_to_three``'s match, played here and pickled with its state."""
    sheets = _fight_window(b"shrinks")
    cls = get_ruleset("champions")
    rules = create_ruleset("champions")
    state = read_match(sheets, cls).record.state
    gone = [p.name for p in state.players][-7:]
    adjust_match(sheets, cls, events_from_options(
        rules.seats(state), {"health": [f"{name}.{c.value}=0" for name in gone for c in CLASSES]}, "left the table"))
    poll(sheets, cls, now=NOW, force=True)
    after = read_match(sheets, cls).record.state
    assert isinstance(after, ChampionsState) and after.size == 3
    return pickle.dumps((sheets, after))


def test_a_board_that_shrinks_is_drawn_again_whole() -> None:
    sheets, state = _shrunk_to_three()
    board = sheets.board
    assert isinstance(board, MemoryBackend)
    cell = board.tabs["Board"]
    assert [cell.get((0, c)) for c in range(5)] == ["", "A", "B", "C", ""]  # D is gone with its column
    assert [cell.get((r, 0)) for r in range(5)] == ["", 1, 2, 3, ""]
    assert all(cell.get((4, c)) in ("", None) for c in range(6)) and all(cell.get((r, 4)) in ("", None)
                                                                       for r in range(6))
    tiles = [str(cell.get((r, c))).split("\n") for r in range(1, 4) for c in range(1, 4)]
    assert [t[0] for t in tiles] == [f"{col}{row}" for row in (1, 2, 3) for col in "ABC"]
    standing = sorted(name for t in tiles for name in t[1:])
    assert standing == sorted(p.name for p in state.alive())  # each once; nobody out on it
    assert str(cell.get((1, 7))).endswith("grid 3×3")  # the status line where the title's column is laid out
    assert cell.get((1, 5)) in ("", None) and cell.get((1, 6)) in ("", None)
    assert not any("grid 4×4" in str(v) for v in cell.values())


def test_the_shrink_is_logged_under_the_round_it_opens() -> None:
    """Issue 54: the rules shrink the map at the start of a round; round 1's fight shrinks it for round 2."""
    sheets, state = _shrunk_to_three()
    assert state.round == 2
    board = sheets.board
    assert isinstance(board, MemoryBackend)
    log = board.tabs["Log"]
    rows = {r: [log.get((r, c)) for c in range(3)] for r in range(1, 200) if log.get((r, 2))}
    shrink = [row for row in rows.values() if "the map shrinks to 3×3" in str(row[2])]
    pools = [row for row in rows.values() if "fresh loot pool" in str(row[2])]
    assert [row[0] for row in shrink + pools] == ["round 2, move", "round 2, move"], rows


def test_repair_draws_a_board_drawn_over_whole() -> None:
    sheets, _state = _shrunk_to_three()
    board = sheets.board
    assert isinstance(board, MemoryBackend)
    for where in ("E1", "E5", "A5", "F2"):  # what an older sync left past the grid when it shrank
        board.type("Board", where, "Ann\nBo")
    repair_match(sheets, get_ruleset("champions"))
    cell = board.tabs["Board"]
    assert all(cell.get(k) in ("", None) for k in ((0, 4), (4, 4), (4, 0), (1, 5)))


def test_a_tiles_shading_follows_its_name_so_a_tile_cut_off_loses_it() -> None:
    rules = create_ruleset("champions")
    state = rules.new_match(rules.sample_roster(), b"shade")
    sheet = sheet_of(rules)
    assert isinstance(sheet, ChampionsSheet) and isinstance(state, ChampionsState)
    drawing = sheet.board(state)
    shades = {f.range.split(":")[0]: f.prefix for f in drawing.conditional_fills}
    assert len(shades) == 16 and shades["B2"] == "A1" and shades["E5"] == "D4"
    assert not any(f.border or f.colour != "#FFFFFF" for f in drawing.fills)  # no grey a shrink would leave


def test_a_formula_typed_in_a_cell_is_quoted_back_whole() -> None:
    sheets = _fight_window(b"words")
    for table, subject, key in (("fight", "Ann", "battle1"), ("sets", "Ann.mage", "action1"),
                                ("equip", "Ann.rogue", "item1")):
        _type(sheets, "Ann", table, subject, key, "=SUM(1,2)")
    poll(sheets, get_ruleset("champions"), now=NOW)
    feedback = _feedback(sheets, "Ann")
    for row in (("fight", "Ann"), ("sets", "Ann.mage"), ("equip", "Ann.rogue")):
        assert "'=SUM(1,2)'" in feedback[row] and "'=SUM(1'" not in feedback[row]


def test_the_equip_cells_list_her_bag_described_and_a_pick_from_the_list_equips_it() -> None:
    sheets = _fight_window(b"words")
    cls = get_ruleset("champions")
    read = read_match(sheets, cls)
    state = read.record.state
    assert isinstance(state, ChampionsState)
    ann = state.player("Ann")
    assert ann is not None and ann.bag
    backend = sheets.of("Ann")
    assert isinstance(backend, MemoryBackend)
    listed = [str(backend.tabs["View Ann"].get((r, 7)) or "") for r in range(3, 31)]  # H4:H31: the panel's last
    rules = create_ruleset("champions")
    assert isinstance(rules, ChampionsRuleset)
    described = [i.describe() for i in (rules.rules.table.get(n) for n in dict.fromkeys(ann.bag)) if i is not None]
    assert [x for x in listed if x] == ["none", *described]
    assert backend.tabs["View Ann"].get((3, 6)) == "For the Item lists:"
    tabs = MatchTabs(sheet_spec("champions"), read.record.seats, False)
    layouts = match_layouts(sheets, tabs, rules, sheet_of(rules), state, {})
    orders = next(t for b, t in layouts if b is backend and t.name == "Orders Ann")
    equip = tabs.orders("Ann").table("equip")
    sources = {d.range: d.source for d in orders.dropdowns if d.source}
    assert sources == {cells(equip.col(k), equip.first_row, equip.col(k), equip.last_row): "'View Ann'!H4:H31"
                       for k in ("item1", "item2", "item3")}
    item = rules.rules.table.get(ann.bag[0])
    assert item is not None
    _type(sheets, "Ann", "equip", "Ann.mage", "item1", item.describe())
    poll(sheets, cls, now=NOW)
    said = _feedback(sheets, "Ann")[("equip", "Ann.mage")]
    assert said.startswith("✔") or "carries" in said, said
    assert "no item" not in said


def test_a_players_view_log_starts_on_its_first_screen() -> None:
    sheets = _fight_window(b"words")
    backend = sheets.of("Ann")
    assert isinstance(backend, MemoryBackend)
    view = backend.tabs["View Ann"]
    header = next(r for (r, c), v in sorted(view.items()) if c == 0 and v == "Turn")
    assert header + 1 == 33  # row 33 (1-based): under a 28-row panel, not row 45
    assert view.get((header + 1, 0)) == "round 1, move" and "Ann" in str(view.get((header + 1, 2)))
