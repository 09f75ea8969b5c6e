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

from openpyxl import load_workbook

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.running.poll_words import describe_report
from tests.rulesets.coalition.test_one_deadline import ARMIES, NOW, PLAYERS, Table

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
OPEN_BATTLE = "is in an open battle of turn 1 · battle results (it fights), and cannot take orders for turn 2"


def _ordered(folder: Path, turn: int) -> set[str]:
    """The armies whose order the Log says ``turn`` carried out."""
    log = load_workbook(folder / "board.xlsx")["Log"]
    return {str(what).split(":")[0] for when, kind, what, *_ in log.iter_rows(min_row=2, values_only=True)
            if when == turn and kind == "order"}


def _archived(folder: Path, seat: str) -> str:
    """Every cell of ``seat``'s Archive tab, one text."""
    archive = load_workbook(folder / f"orders-{seat}.xlsx")[f"Archive {seat}"]
    return "\n".join(str(c) for r in archive.iter_rows(values_only=True) for c in r if c)


def test_no_line_typed_in_the_judges_window_for_an_army_that_fights_is_carried_out_next_turn(tmp_path: Path) -> None:
    """Each door, during turn 1's judge's window and before her players' deadline, for a winner of its battle (who
    stays where the line starts): Rabid Cat's line alone in a Forum row; Jeff the Owl's line in a whole post pasted
    in one Forum cell, beside Blight Hound's; Serra Host's line in Eve's mail; Dark Pack's own row. None is carried
    out in turn 2, each is told where it was sent, and the rows go to the Archive; Benalish Host's Forum row and
    Blight Hound's line in the same cell are carried out."""
    table = Table(tmp_path, WAR)
    for army, order in ENGAGED.items():
        player = next(row[-1] for row in WAR if row[0] == army)
        table.mail(str(player), "moves", f"{army}: Dominaria; {order}", at=NOW)
    assert table.sync(NOW, force=True).resolved
    assert {b.at for b in table.state().battles} == set(WINNERS)
    later = NOW + dt.timedelta(hours=1)
    table.type("coalition", "post", "coalition line 1", "line", "Rabid Cat: Dominaria; 4C > 4D")
    table.type("coalition", "post", "coalition line 2", "line", "Benalish Host: Dominaria; 7E > 7F")
    table.type("phyrexia", "post", "phyrexia line 1", "line",
               "Turn 2 moves:\nJeff the Owl: Dominaria; 6C > 6D\nBlight Hound: Dominaria; 7A > 7B")
    table.mail("eve@example.org", "turn 2", "Serra Host: Dominaria; 11A > 11B", at=later)
    table.type("phyrexia", "armies", "Dark Pack", "line", "Dark Pack: Dominaria; 11H > 12H")
    assert not table.sync(later).resolved
    assert "Serra Host fights in the battle at Dominaria 11A this turn" in table.receipt("eve@example.org")
    assert table.feedback("phyrexia", "Dark Pack").startswith(f"✘ Not read: Dark Pack {OPEN_BATTLE}")
    assert table.feedback("coalition", "coalition line 1", "post").startswith(f"✘ Not read: Rabid Cat {OPEN_BATTLE}")
    said = table.feedback("phyrexia", "phyrexia line 1", "post")
    assert f"Jeff the Owl {OPEN_BATTLE}" in said and "Jeff the Owl: Dominaria; 6C > 6D" in said, said
    assert OPEN_BATTLE not in table.feedback("coalition", "coalition line 2", "post")
    # the players' deadline passes; the judge's results close her window, and turn 2 resolves in the same sync
    assert not table.sync(PLAYERS + dt.timedelta(seconds=6)).resolved
    assert table.feedback("coalition", "coalition line 1", "post").startswith(f"✘ Not read: Rabid Cat {OPEN_BATTLE}")
    for where, winner in WINNERS.items():
        table.type(JUDGE, "results", where, "winner", winner)
    table.type(JUDGE, "judge", JUDGE, "ready", True)
    report = table.sync(PLAYERS + dt.timedelta(hours=1))
    assert report.resolved and "then turn 2 · orders resolved" in describe_report(report), describe_report(report)
    assert _ordered(tmp_path, 2) == {"Benalish Host", "Blight Hound"}
    coalition, phyrexia = _archived(tmp_path, "coalition"), _archived(tmp_path, "phyrexia")
    assert "Rabid Cat: Dominaria; 4C > 4D" in coalition, coalition
    assert "Dark Pack: Dominaria; 11H > 12H" in phyrexia and "Jeff the Owl: Dominaria; 6C > 6D" in phyrexia, phyrexia
