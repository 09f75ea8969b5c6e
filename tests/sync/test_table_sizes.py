"""Every table is sized from the match and grows when a resolution needs more rows: no army, battle, unit,
recruit or action is ever left without a row for want of room (issue 20, finding 8)."""

from __future__ import annotations

import csv
import datetime as dt
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from sheets_gm.cli import main
from sheets_gm.engine.ruleset import JUDGE, Member, Roster
from sheets_gm.engine.settings import parse_settings
from sheets_gm.init.start import init_match
from sheets_gm.match.config import MatchConfig, load_config
from sheets_gm.rulesets.registry import TEMPLATES, bots_of, create_ruleset, default_board_text, get_ruleset, sheet_of
from sheets_gm.rulesets.wesnoth.engine import WesnothRuleset
from sheets_gm.rulesets.wesnoth.terrain import Feature, Terrain
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.run import sync_once
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.layout import a1
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.match_record import MatchRecord, engine_write
from sheets_gm.sync.match_tabs import GROWTH_SPARE_ROWS, MatchTabs
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import read_match
from sheets_gm.sync.rows.pending_row import pending_block_range, pending_line
from sheets_gm.sync.sheets import MatchSheets, WriteBatch
from sheets_gm.sync.writes import drawn_writes
from tests.fakes.memory import InjectedFault, MemoryBackend
from tests.made import made_into
from tests.rulesets.coalition.helpers import local_match

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)


def _squares(cols: range) -> list[str]:
    """The Dominaria squares of these columns that are not ocean, in reading order."""
    plane = yaml.safe_load((TEMPLATES / "coalition" / "map.yaml").read_text(encoding="utf-8"))["planes"]["Dominaria"]
    return [f"Dominaria {c}{chr(ord('A') + r)}" for r, line in enumerate(plane["rows"])
            for c, terrain in enumerate(line.split(), start=1) if c in cols and terrain != "o"]


def coalition_war(tmp_path: Path, per_side: int) -> Path:
    """A Coalition match folder: the starter config with a roster of ``per_side`` armies a side."""
    with (tmp_path / "armies.csv").open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["name", "side", "rank", "at", "units", "factions", "primary"])
        for side, cols in (("coalition", range(1, 13)), ("phyrexia", range(13, 25))):
            for n, at in zip(range(1, per_side + 1), _squares(cols), strict=False):
                factions = ("white blue", "white") if side == "coalition" else ("", "")
                out.writerow([f"{side[:4].title()} {n:02d}", side, 1 + n % 6, at, "500/250/150/100", *factions])
    text = (TEMPLATES / "coalition" / "match.toml").read_text(encoding="utf-8")
    (tmp_path / "match.toml").write_text(text.replace('# roster = "armies.csv"', 'roster = "armies.csv"', 1),
                                         encoding="utf-8")
    return tmp_path / "match.toml"


#: The war the tests that change a started war's armies start from: 21 armies a side (62 Forum lines).
WAR = (21, b"spare lines")


def _war_started(tmp_path: Path) -> tuple[Path, MatchConfig, MatchSheets, MatchRecord]:
    """``coalition_war`` of ``WAR`` created as ``init`` creates it (once a test run, copied: ``tests.made``): its
    config's path, the config, its sheets and record."""
    per_side, seed = WAR

    def make(into: Path) -> None:
        init_match(load_config(coalition_war(into, per_side)), now=NOW, seed=seed)

    made_into(tmp_path, ("table sizes: a war started", per_side, seed), make, shared=True)
    path = tmp_path / "match.toml"
    config = load_config(path)
    sheets = open_match_sheets(config)
    return path, config, sheets, read_match(sheets, get_ruleset("coalition")).record


def test_a_coalition_war_of_70_armies_a_side_gives_every_army_an_order_row(tmp_path: Path) -> None:
    config = load_config(coalition_war(tmp_path, 70))
    init_match(config, now=NOW, seed=b"seventy")
    sheets = open_match_sheets(config)
    cls = get_ruleset("coalition")
    read = read_match(sheets, cls)
    for side in ("coalition", "phyrexia"):
        armies = [r.subject for r in read.seats[side].rows if r.table == "armies"]
        assert len(armies) == 70 and len(set(armies)) == 70, side
    bots = {seat: bots_of(read.record.ruleset)["commander"].make(seat) for seat in ("coalition", "phyrexia")}
    typed = type_bot_orders(sheets, cls, bots)  # refuses an army with no row (UntypableOrdersError)
    last = {}
    for side in ("coalition", "phyrexia"):  # the last row's army holds: typed by hand where the bot left it
        tab = read.seats[side].tab
        placed = tab.table("armies")
        last[side] = placed.rows - 1, [r.subject for r in read.seats[side].rows if r.table == "armies"][-1]
        if last[side][1] not in typed[side].orders[side]:
            sheets.of(side).write([RangeWrite(a1(tab.name, placed.cell(last[side][0], "order")), [["none"]])])
    report = sync_once(config, sheets, now=NOW)
    assert report.resolved and not report.rejected, report.rejected[:3]
    for side, (_, army) in last.items():
        pending_range = pending_block_range(MatchTabs(read.adapter.spec, sheets.seats, True).copies(side))
        pending = pending_line(sheets.of(side).read([pending_range])[0])[0]
        archived = json.loads(str(pending[1]))  # the rows the resolution read, beside its window key
        assert army in {r["subject"] for r in archived["rows"]}, side


def _pairs(count: int) -> list[tuple[str, str]]:
    """``count`` pairs of side-by-side Dominaria squares (neither ocean): a Coalition army's and its foe's."""
    plane = yaml.safe_load((TEMPLATES / "coalition" / "map.yaml").read_text(encoding="utf-8"))["planes"]["Dominaria"]
    out = []
    for r, line in enumerate(plane["rows"]):
        terrain = line.split()
        for c in range(0, len(terrain) - 1, 2):
            if "o" not in (terrain[c], terrain[c + 1]):
                out.append((f"{c + 1}{chr(ord('A') + r)}", f"{c + 2}{chr(ord('A') + r)}"))
    return out[:count]


def test_forty_battles_each_get_a_result_row_and_every_one_is_judged(tmp_path: Path) -> None:
    pairs = _pairs(40)
    roster = [row for n, (ours, theirs) in enumerate(pairs, start=1)
              for row in ([f"Coal {n:02d}", "coalition", 3, f"Dominaria {ours}", "5000/2500/1500/1000", "white blue",
                           "white"],
                          [f"Phyr {n:02d}", "phyrexia", 1, f"Dominaria {theirs}", "500/250/150/100", "", ""])]
    config, sheets = local_match(tmp_path, roster, b"forty", NOW)
    cls = get_ruleset("coalition")
    read = read_match(sheets, cls)
    tab = read.seats["coalition"].tab
    armies = tab.table("armies")
    writes = []
    for row in read.seats["coalition"].rows:
        if row.table == "armies":
            n = int(row.subject.split()[1])
            index = row.row - armies.first_row
            writes += [RangeWrite(a1(tab.name, armies.cell(index, "to")), [[pairs[n - 1][1]]]),
                       RangeWrite(a1(tab.name, armies.cell(index, "order")), [["engage"]]),
                       RangeWrite(a1(tab.name, armies.cell(index, "target")), [[f"Phyr {n:02d}"]])]
    sheets.of("coalition").write([*writes, RangeWrite(a1(tab.name, tab.table("side").cell(0, "ready")), [[True]])])
    phyrexia = read.seats["phyrexia"].tab
    sheets.of("phyrexia").write([RangeWrite(a1(phyrexia.name, phyrexia.table("side").cell(0, "ready")), [[True]])])
    assert sync_once(config, sheets, now=NOW).resolved
    judged = read_match(sheets, cls)
    assert sum(1 for b in judged.record.state.battles if b.announced) == 40
    rows = judged.seats[JUDGE].rows
    assert len([r for r in rows if r.table == "results"]) == 40  # a row for every battle announced
    assert len([r for r in rows if r.table == "losses"]) == 80  # and for every army in one
    view = [str(c) for line in sheets.judge_sheet().read(["'View judge'!A4:H43"])[0] for c in line if c]
    squares = {b.at for b in judged.record.state.battles}
    shown = {c for c in view if c in squares}
    left_out = next(c for c in view if c.startswith("… "))  # the panel's rows run out: it says where the rest are
    assert all(sq in shown or sq in left_out for sq in squares) and "Judge tab" in left_out
    assert "Board" not in " ".join(view)  # no tab that does not exist
    type_bot_orders(sheets, cls, {JUDGE: bots_of(judged.record.ruleset)["commander"].make("judge")})
    report = sync_once(config, sheets, now=NOW)
    assert report.resolved and not report.rejected, report.rejected[:3]
    assert not [b for b in read_match(sheets, cls).record.state.battles if b.announced]  # none waits a turn


@pytest.mark.parametrize(("cut", "stray"), [(False, False), (True, False), (False, True)],
                         ids=["whole", "cut after the layout", "a row typed under the table"])
def test_a_wesnoth_army_recruiting_past_its_unit_rows_grows_its_table(cut: bool, stray: bool) -> None:
    rules = create_ruleset("wesnoth")
    assert isinstance(rules, WesnothRuleset)
    roster = rules.sample_roster()
    board_, engine = MemoryBackend("board"), MemoryBackend("engine")
    seats = {seat: MemoryBackend(seat) for seat in roster.seats}
    sheets = MatchSheets(roster.seats, board_, engine, tuple(seats.values()))
    record = create_match(sheets, rules, roster, seed=b"grow")
    state = record.state
    first = state.players[0].name
    placed = MatchTabs(sheet_of(rules).spec, roster.seats, False).orders(first).table("units")
    assert placed.rows == 24  # the layout's floor: a leader alone needs one
    # The GM's test army: her leader and 23 more on free hexes, and gold enough to recruit a full castle.
    board = rules.rules.board
    leader = next(u for u in state.units if u.owner == first and u.leader)
    taken = {u.at for u in state.units}
    free = [h for h in board.grid.cells() if h not in taken and board.cell(h).feature is Feature.NONE
            and board.terrain(h) in (Terrain.PLAIN, Terrain.FOREST)]
    army = [replace(leader, id=f"{first}-{n}", at=free[n], leader=False) for n in range(23)]
    state = replace(state, units=(*state.units, *army),
                    players=tuple(replace(p, gold=500) if p.name == first else p for p in state.players))
    record = replace(record, state=state)
    batch = WriteBatch()  # the match drawn as it stands now: 24 units in her 24 rows
    drawn_writes(batch, sheets, MatchTabs(sheet_of(rules).spec, roster.seats, False), record, sheet_of(rules),
                 rules.dice(record.seed, state))
    batch.put(engine, *engine_write("Engine", record))
    batch.run(sheets.write_order())
    cls = get_ruleset("wesnoth")
    type_bot_orders(sheets, cls, {first: bots_of(rules)["skirmisher"].make("grow")})
    tab = MatchTabs(sheet_of(rules).spec, roster.seats, False).orders(first)
    under = tab.table("units").last_row + 1  # a blank row the grown table will need
    if stray:
        seats[first].write([RangeWrite(a1(tab.name, f"A{under}:B{under}"), [["Ann-99", "move to 5,5"]])])
    if cut:  # the resolution stops after laying her tab out larger, before its write: the next poll completes it
        seats[first].fail_on_call = len(seats[first].calls) + 3  # its read, its layout, then the write
        with pytest.raises(InjectedFault):
            poll(sheets, cls, now=NOW, force=True)
        seats[first].fail_on_call = None
    report = poll(sheets, cls, now=NOW, force=True)
    assert report.resolved and report.tables_grown == [first], report.rejected
    after = read_match(sheets, cls)
    mine = [u.id for u in after.record.state.units if u.owner == first]
    assert len(mine) > 24  # the bot recruited
    rows = [r.subject for r in after.seats[first].rows if r.table == "units"]
    assert rows == mine  # every unit has its row, the recruits too
    assert after.seats[first].tab.table("units").rows == len(mine) + GROWTH_SPARE_ROWS
    if stray:  # what she typed under the old table is kept, moved to a blank row of the new layout, and says so
        kept = [s for s in after.seats[first].strays if s.cells[:2] == ("Ann-99", "move to 5,5")]
        assert len(kept) == 1 and not kept[0].table and kept[0].row != under, after.seats[first].strays
        assert f"Moved here from row {under}, which the table needed." in kept[0].feedback
    left = [f"row {s.row}: {s.cells[:3]}" for s in after.seats[first].strays]
    assert len(left) == stray, left  # nothing drawn before the tables grew is left in a row that is blank now


def test_a_match_laid_out_with_too_few_rows_is_warned_by_sync_status_and_doctor_and_repair_fits_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _config, sheets, record = _war_started(tmp_path)
    cls = get_ruleset("coalition")
    # As a match laid out by an earlier sheets-gm stands: its tables hold 60 armies a side (the layout's least, laid
    # out for 21), and it has 66.
    more = [replace(a, name=f"{a.name} {copy}") for side in ("coalition", "phyrexia")
            for copy, a in [(copy, a) for copy in ("bis", "ter", "quater")
                            for a in record.state.armies if a.side.value == side][:45]]
    record = replace(record, state=replace(record.state, armies=(*record.state.armies, *more)))
    sheets.engine.write([RangeWrite(*engine_write("Engine", record))])
    capsys.readouterr()
    assert main(["status", "-c", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Warning: the armies table of tab 'Orders coalition' has 60 rows for 66: the last 6 have no row" in out
    assert "the armies table of tab 'Orders phyrexia' has 60 rows for 66" in out
    assert "the post table of tab 'Forum phyrexia' has 62 rows for 152" in out  # two post lines per army, and spare
    assert "Run sheets-gm repair" in out
    main(["doctor", "-c", str(path)])
    assert "tab 'Orders phyrexia' has 60 rows for 66" in capsys.readouterr().out
    assert main(["repair", "-c", str(path)]) == 0
    capsys.readouterr()
    after = read_match(sheets, cls)
    assert len([r for r in after.seats["coalition"].rows if r.table == "armies"]) == 66
    assert main(["status", "-c", str(path)]) == 0 and "Warning" not in capsys.readouterr().out


def _memory_match(name: str, roster: Roster | None = None, board: str | None = None,
                  **settings: object) -> tuple[MatchSheets, Any]:
    """A match of ``name`` created on in-memory spreadsheets (its sample roster unless given)."""
    cls = get_ruleset(name)
    rules = create_ruleset(name, parse_settings(cls.traits.settings_type, settings), board)
    roster = roster or rules.sample_roster()
    judge = MemoryBackend("judge") if cls.traits.judge else None
    sheets = MatchSheets(roster.seats, MemoryBackend("board"), MemoryBackend("engine"),
                         tuple(MemoryBackend(s) for s in roster.seats), judge)
    create_match(sheets, rules, roster, seed=b"sizes")
    return sheets, rules


def test_a_gvg_team_of_fifteen_players_gets_fifteen_rows() -> None:
    roles = ("dps", "tank", "healer")
    roster = Roster(("red", "blue"), tuple(Member(f"{team}{n}", team, {"role": roles[n % 3]})
                                           for team in ("red", "blue") for n in range(1, 16)))
    sheets, _ = _memory_match("gvg", roster)
    read = read_match(sheets, get_ruleset("gvg"))
    assert [r.subject for r in read.seats["red"].rows if r.table == "players"] == [f"red{n}" for n in range(1, 16)]


def test_win_or_die_has_an_action_row_and_a_reaction_row_per_command_token() -> None:
    sheets, _ = _memory_match("winordie", tokens=20)
    tab = read_match(sheets, get_ruleset("winordie")).seats["Ann"].tab
    assert tab.table("actions").rows == 20 and tab.table("reactions").rows == 20  # 20 tokens, 20 actions a turn



def test_a_wesnoth_castle_of_nine_hexes_gives_nine_recruit_rows() -> None:
    lines = default_board_text("wesnoth").splitlines()
    lines[2] = lines[2].replace(".        ", "castle1  ", 3)  # three more castle hexes for the first player
    sheets, rules = _memory_match("wesnoth", board="\n".join(lines))
    assert len(rules.rules.board.castle_of(1)) == 9
    read = read_match(sheets, get_ruleset("wesnoth"))
    first = read.record.state.players[0].name
    recruits = [r.subject for r in read.seats[first].rows if r.table == "recruit"]
    assert len(recruits) == 9  # she may recruit nine units in one step: a row each


def test_a_forum_table_grown_with_rows_to_spare_names_them_all_and_keeps_them_when_armies_fall(
        tmp_path: Path) -> None:
    """A side of 21 armies has 62 lines; given 5 armies more, the resolution grows its Forum table to the 72 lines
    they need and 5 to spare, and each of the 77 rows is a line: one pasted in the last is read. When armies fall,
    the table keeps its rows (tables never shrink), each still a line (issue 38: the spare rows had no Line)."""
    _path, config, sheets, record = _war_started(tmp_path)
    cls = get_ruleset("coalition")
    mine = [a for a in record.state.armies if a.side.value == "coalition"]
    more = [replace(a, name=f"{a.name} bis") for a in mine[:5]]
    record = replace(record, state=replace(record.state, armies=(*record.state.armies, *more)))
    sheets.engine.write([RangeWrite(*engine_write("Engine", record))])
    assert sync_once(config, sheets, now=NOW, force=True).resolved
    post = read_match(sheets, cls).seats["coalition"].tab.table("post")
    assert post.rows == 2 * 26 + 20 + GROWTH_SPARE_ROWS
    (names,) = sheets.of("coalition").read([post.at(post.column_cells("number"))])
    assert [line[0] for line in names] == [f"coalition line {n}" for n in range(1, post.rows + 1)]
    at = read_match(sheets, cls).record.state.army(mine[0].name)
    assert at is not None
    line = f"{at.name}: {at.at.replace(' ', '; ', 1)} - none"
    sheets.of("coalition").write([RangeWrite(post.at(post.cell(post.rows - 1, "line")), [[line]])])
    sync_once(config, sheets, now=NOW)
    (row,) = sheets.of("coalition").read([post.at(post.cell(post.rows - 1, "feedback"))])
    assert str(row[0][0]).startswith(f"✔ read as {at.name}'s order"), row
    record = read_match(sheets, cls).record  # ten of the side's armies fall: its table keeps every line
    fallen = {a.name for a in mine[:10]}
    record = replace(record, state=replace(record.state, armies=tuple(a for a in record.state.armies
                                                                        if a.name not in fallen)))
    sheets.engine.write([RangeWrite(*engine_write("Engine", record))])
    assert sync_once(config, sheets, now=NOW, force=True).resolved
    after = read_match(sheets, cls).seats["coalition"]
    assert after.tab.table("post").rows == post.rows and not after.strays
    assert {r.subject for r in after.rows if r.table == "post"} == {f"coalition line {n}"
                                                                    for n in range(1, post.rows + 1)}
