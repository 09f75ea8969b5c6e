"""An army that fights takes no orders early, whatever door they come by (ruling "The players' deadline, then the
judge"; ``Window.early_out``).

The class, as a property walked through the real commands at a fake clock: no line typed during the judge's window for
an army that fights in one of its open battles is ever carried out in the next turn, whatever door it came by (its
army's row in the Orders tab, a row of the Forum tab, one line of a whole post pasted in one Forum cell, a mail to the
judge); each is refused in words where its sender reads it, and kept in her Archive; the other lines of the same
pasted cell stand."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from openpyxl import load_workbook

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.rulesets.coalition.sheet.adapter import CoalitionSheet
from sheets_gm.running.poll_words import describe_report
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.struck import spans_of, struck
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.read import read_match
from tests.rulesets.coalition.helpers import army, board, looking, state
from tests.rulesets.coalition.test_one_deadline import ARMIES, CLS, NOW, PLAYERS, Table, walked

#: Four battles in turn 1, each with a winner who stays on its square (the loser is bumped): Rabid Cat's at 4C, Jeff
#: the Owl's at 6C, Serra Host's at 11A, Dark Pack's at 11H. Benalish Host and Blight Hound fight in none.
WAR = [*ARMIES,
       ["Jeff the Owl", "phyrexia", 1, "Dominaria 6C", "2000/1000/600/600", "", "", "Di", "di@example.org"],
       ["Grim Legion", "phyrexia", 1, "Dominaria 11A", "2000/1000/600/600", "", "", "Di", "di@example.org"],
       ["Dark Pack", "phyrexia", 1, "Dominaria 11H", "2000/1000/600/600", "", "", "Di", "di@example.org"],
       ["Benalish Host", "coalition", 1, "Dominaria 7E", "2000/1000/600/600", "white", "white", "Ann",
        "ann@example.org"],
       ["Serra Host", "coalition", 1, "Dominaria 10A", "2000/1000/600/600", "white", "white", "Eve",
        "eve@example.org"],
       ["Llanowar Elves", "coalition", 1, "Dominaria 10H", "2000/1000/600/600", "white", "white", "Eve",
        "eve@example.org"]]
ENGAGED = {"Rabid Cat": "3C > 4C - engage Various Puppies", "Urza's Vanguard": "5C > 6C - engage Jeff the Owl",
           "Serra Host": "10A > 11A - engage Grim Legion", "Llanowar Elves": "10H > 11H - engage Dark Pack"}
WINNERS = {"Dominaria 4C": "Rabid Cat", "Dominaria 6C": "Jeff the Owl", "Dominaria 11A": "Serra Host",
           "Dominaria 11H": "Dark Pack"}
POST = "Turn 2 moves:\nJeff the Owl: Dominaria; 6C > 6D\nBlight Hound: Dominaria; 7A > 7B"
pytestmark = pytest.mark.xdist_group("coalition-early-doors")  # one worker runs these: it walks _doors once a run
OPEN_BATTLE = "is in an open battle of turn 1 · battle results (it fights), and cannot take orders for turn 2"


def _ordered(folder: Path, turn: int) -> set[str]:
    """The armies whose order the Log says ``turn`` carried out."""
    log = load_workbook(folder / "board.xlsx")["Log"]
    return {str(what).split(":")[0] for when, kind, what, *_ in log.iter_rows(min_row=2, values_only=True)
            if when == turn and kind == "order"}


def _rows(table: Table) -> dict[tuple[str, str, str], TypedRow]:
    """Every seat's rows as read now (one read), by seat, table and subject."""
    found = read_match(looking(table.config), CLS).seats
    return {(seat, r.table, r.subject): r for seat, read in found.items() for r in read.rows}


def _type(table: Table, *cells: tuple[str, str, str, str, str]) -> None:
    """Each of ``cells`` (seat, table, subject, column, value) typed, as in LibreOffice: one write a workbook."""
    sheets = looking(table.config)
    found = read_match(sheets, CLS).seats
    writes: dict[str, list[RangeWrite]] = {}
    for seat, name, subject, column, value in cells:
        (row,) = [r for r in found[seat].rows if r.table == name and r.subject == subject]
        placed = found[seat].tab.table(name)
        writes.setdefault(seat, []).append(RangeWrite(placed.at(placed.cell(row.row - placed.first_row, column)),
                                                      [[value]]))
    for seat, put in writes.items():
        (sheets.judge_sheet() if seat == JUDGE else sheets.of(seat)).write(put)


def _archived(folder: Path, seat: str) -> str:
    """Every cell of ``seat``'s Archive tab, one text."""
    archive = load_workbook(folder / f"orders-{seat}.xlsx")[f"Archive {seat}"]
    return "\n".join(str(c) for r in archive.iter_rows(values_only=True) for c in r if c)


def _doors(folder: Path) -> Table:
    """Turn 1's four battles, then each door, during the judge's window and before her players' deadline, for a winner
    of its battle (who stays where the line starts): Rabid Cat's line alone in a Forum row; Jeff the Owl's line in a
    whole post pasted in one Forum cell, beside Blight Hound's; Serra Host's line in Eve's mail; Dark Pack's own row.
    Each is refused where it was sent; Benalish Host's Forum row is not."""
    table = Table(folder, WAR)
    for name, order in ENGAGED.items():
        player = next(row[-1] for row in WAR if row[0] == name)
        table.mail(str(player), "moves", f"{name}: Dominaria; {order}", at=NOW)
    assert table.sync(NOW, force=True).resolved
    assert {b.at for b in table.state().battles} == set(WINNERS)
    later = NOW + dt.timedelta(hours=1)
    _type(table, ("coalition", "post", "coalition line 1", "line", "Rabid Cat: Dominaria; 4C > 4D"),
          ("coalition", "post", "coalition line 2", "line", "Benalish Host: Dominaria; 7E > 7F"),
          ("phyrexia", "post", "phyrexia line 1", "line", POST),
          ("phyrexia", "armies", "Dark Pack", "line", "Dark Pack: Dominaria; 11H > 12H"))
    table.mail("eve@example.org", "turn 2", "Serra Host: Dominaria; 11A > 11B", at=later)
    assert not table.sync(later).resolved
    assert "Serra Host fights in the battle at Dominaria 11A this turn" in table.receipt("eve@example.org")
    rows = _rows(table)
    assert rows["phyrexia", "armies", "Dark Pack"].feedback.startswith(f"✘ Not read: Dark Pack {OPEN_BATTLE}")
    assert rows["coalition", "post", "coalition line 1"].feedback.startswith(f"✘ Not read: Rabid Cat {OPEN_BATTLE}")
    said = rows["phyrexia", "post", "phyrexia line 1"].feedback
    assert f"Jeff the Owl {OPEN_BATTLE}" in said and "Jeff the Owl: Dominaria; 6C > 6D" in said, said
    assert "the rest of this cell stands" in said, said
    assert OPEN_BATTLE not in rows["coalition", "post", "coalition line 2"].feedback
    _type(table, *((JUDGE, "results", where, "winner", winner) for where, winner in WINNERS.items()))
    return table


def _judged(table: Table, folder: Path) -> None:
    """Turn 2 resolved: none of the lines for an army that fought carried out, each in its side's Archive; Benalish
    Host's Forum row and Blight Hound's line beside Jeff the Owl's carried out."""
    assert _ordered(folder, 2) == {"Benalish Host", "Blight Hound"}
    coalition, phyrexia = _archived(folder, "coalition"), _archived(folder, "phyrexia")
    assert "Rabid Cat: Dominaria; 4C > 4D" in coalition, coalition
    assert "Dark Pack: Dominaria; 11H > 12H" in phyrexia and "Jeff the Owl: Dominaria; 6C > 6D" in phyrexia, phyrexia


def test_no_line_typed_in_the_judges_window_for_an_army_that_fights_is_carried_out_next_turn(tmp_path: Path) -> None:
    """``_doors``, then the players' deadline; the judge's results close her window, and turn 2 resolves in the same
    sync from what the deadline took (``_judged``)."""
    table = walked(tmp_path, _doors)
    assert not table.sync(PLAYERS + dt.timedelta(seconds=6)).resolved
    assert table.feedback("coalition", "coalition line 1", "post").startswith(f"✘ Not read: Rabid Cat {OPEN_BATTLE}")
    table.type(JUDGE, "judge", JUDGE, "ready", True)
    report = table.sync(PLAYERS + dt.timedelta(hours=1))
    assert report.resolved and "then turn 2 · orders resolved" in describe_report(report), describe_report(report)
    _judged(table, tmp_path)


def test_a_judges_window_forced_before_the_players_deadline_leaves_no_line_for_an_army_that_fought(
        tmp_path: Path) -> None:
    """``_doors``, then the GM forces the judge's window before the players' deadline: turn 2 opens, its deadline
    ahead, its rows without the lines for an army that fought (no longer in battle: its line would be read now);
    turn 2 resolves at the deadline (``_judged``)."""
    table = walked(tmp_path, _doors)
    report = table.sync(NOW + dt.timedelta(hours=2), force=True)
    assert report.resolved and table.state().phase.value == "orders", describe_report(report)
    assert not table.state().battles
    rows = _rows(table)
    assert not rows["coalition", "post", "coalition line 1"].typed
    assert rows["phyrexia", "post", "phyrexia line 1"].text("line") == "Turn 2 moves:\nBlight Hound: Dominaria; 7A > 7B"
    assert table.sync(PLAYERS + dt.timedelta(seconds=6)).resolved
    _judged(table, tmp_path)


def test_what_of_a_pasted_post_orders_an_army_that_fights_is_its_lines_for_it_alone() -> None:
    """``row_out`` of a Forum cell: the lines ordering a fighting army (or withdrawing its order) are out, a quoted or
    struck-out line naming it is no order and stays, the other lines stay with their struck words; an army's row is
    out whole when the army fights, and a whole post pasted in an army's row (its own or another's) loses the
    fighting army's line alone."""
    sheet = CoalitionSheet(board())
    s = state(army("Frank", "coalition", "3A"), army("Frank Host", "coalition", "5C"), army("Ann", "coalition", "4C"))
    spec, armies = (next(t for t in sheet.spec.inputs if t.name == name) for name in ("post", "armies"))
    text = "Our moves:\n> Frank: 3A > 2A\nFrank: 3A > 3B\n~~Frank: 3A > 4A~~\nFrank Host: 5C > 5D\nAnn: withdrawn"
    post = struck(text, [(text.index("5D"), text.index("5D") + 2)])
    why = sheet.row_out(s, "coalition", spec, TypedRow("post", "coalition line 1", 5, "4", {"line": post}, ""),
                        ("Frank", "Ann"))
    assert why is not None and why.left is not None
    assert why.lines == {"Frank": "Frank: 3A > 3B", "Ann": "Ann: withdrawn"}
    assert why.out.values["line"] == "Frank: 3A > 3B\nAnn: withdrawn"
    left = why.left.values["line"]
    assert left == "Our moves:\n> Frank: 3A > 2A\n~~Frank: 3A > 4A~~\nFrank Host: 5C > 5D", left
    assert spans_of(left) == ((left.index("5D"), left.index("5D") + 2),)  # struck in its cell: struck still
    alone = sheet.row_out(s, "coalition", spec, TypedRow("post", "coalition line 2", 6, "4", {"line": "Frank: 3A > 3B"},
                                                         ""), ("Frank",))
    assert alone is not None and alone.left is None and alone.lines == {"Frank": "Frank: 3A > 3B"}
    assert sheet.row_out(s, "coalition", armies, TypedRow("armies", "Frank Host", 7, "4", {"to": "5D"}, ""),
                         ("Frank",)) is None
    own = sheet.row_out(s, "coalition", armies, TypedRow("armies", "Frank", 8, "4", {"to": "3B"}, ""), ("Frank",))
    assert own is not None and own.left is None and own.lines == {"Frank": ""}
    pasted = sheet.row_out(s, "coalition", armies, TypedRow("armies", "Ann", 9, "4", {
        "line": "Ann: 4C > 4D\nFrank: 3A > 3B"}, ""), ("Frank",))
    assert pasted is not None and pasted.left is not None and pasted.left.values["line"] == "Ann: 4C > 4D"
    in_its_own = sheet.row_out(s, "coalition", armies, TypedRow("armies", "Frank", 9, "4", {
        "line": "Ann: 4C > 4D\nFrank: 3A > 3B"}, ""), ("Frank",))  # a post pasted in a fighting army's row
    assert in_its_own is not None and in_its_own.left is not None and in_its_own.left.values["line"] == "Ann: 4C > 4D"
