"""Posts at war size are written in forum-sized parts, each whole and numbered (issue 40)."""

from __future__ import annotations

import datetime as dt

from sheets_gm.rulesets.coalition.engine import CoalitionRuleset
from sheets_gm.rulesets.coalition.enums import BattleType, Phase
from sheets_gm.rulesets.coalition.forum import PART_CHARS, PART_LINES, announcement_parts, results_parts
from sheets_gm.rulesets.coalition.settings import CoalitionSettings
from sheets_gm.rulesets.coalition.sheet.report import report_drawing, report_rows
from sheets_gm.rulesets.coalition.state import Battle, BattleReport, CoalitionState
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.deadline import describe_deadline
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.poll import poll
from sheets_gm.sync.sheets import MatchSheets
from tests.fakes.memory import MemoryBackend

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)


def war() -> tuple[CoalitionState, CoalitionRuleset]:
    """257 battles announced on the default map, and the results of 257 battles of four lines each."""
    rules = create_ruleset("coalition")
    assert isinstance(rules, CoalitionRuleset)
    places = list(rules.board.places())
    battles = tuple(Battle(BattleType.ATTACKS, places[i], (f"Coalition army {i}", f"Phyrexian army {i}"),
                           weather="Light rain") for i in range(257))
    reports = tuple(BattleReport(f"Coalition army {i} attacks Phyrexian army {i}, {places[i]}", f"Coalition army {i}",
                                 (f"Coalition army {i} loses 100/0/0/0", f"Phyrexian army {i} loses 900/10/0/0",
                                  f"Phyrexian army {i} is bumped to {places[i + 1]}", "Coalition +5 victory points"))
                    for i in range(257))
    state = CoalitionState(turn=4, phase=Phase.RESULTS, armies=(), battles=battles, announced=battles,
                           outcomes=reports, notes=tuple(f"Army {i} heals in Wrath" for i in range(40)))
    return state, rules


def _fits(part: list[str]) -> bool:
    return len(part) <= PART_LINES and len("\n".join(part)) <= PART_CHARS


def test_the_announcements_of_257_battles_come_in_numbered_parts_each_with_the_strategies_line() -> None:
    state, rules = war()
    parts = announcement_parts(state, rules.board, "judge@example.org", "Fri 27 Nov 17:00 UTC")
    assert len(parts) > 1 and all(_fits(p) for p in parts)
    assert [p[0] for p in parts] == [f"Battle Announcements, turn 4 (part {n} of {len(parts)})"
                                     for n in range(1, len(parts) + 1)]
    battles = [line for p in parts for line in p if " attacks " in line]
    assert len(battles) == 257 and battles[-1].startswith("Coalition army 256 attacks Phyrexian army 256")
    assert all(p[-1] == "Send your battle strategies to judge@example.org before Fri 27 Nov 17:00 UTC." for p in parts)


def test_the_battle_results_come_whole_in_parts_that_never_cut_a_battle() -> None:
    state, _rules = war()
    done = CoalitionState(turn=5, phase=Phase.ORDERS, armies=(), outcomes=state.outcomes, notes=state.notes)
    parts = results_parts(done)
    assert len(parts) > 1 and all(_fits(p) for p in parts)
    lines = [line for p in parts for line in p]
    assert sum(1 for line in lines if " attacks " in line) == 257
    assert sum(line.startswith("- Army") for line in lines) == 40
    for part in parts:  # a battle's title is followed by its four lines in the same part
        for i, line in enumerate(part):
            if " attacks " in line:
                assert all(part[i + k].startswith("- ") for k in range(1, 5))
        assert part[-1] == "Victory points: Coalition 0, Phyrexia 0"
    assert any(p[2] == "End of turn (continued)" for p in parts) or sum("End of turn" in line for line in lines) == 1


def test_the_turn_report_holds_every_part_of_a_war() -> None:
    state, rules = war()
    drawing = report_drawing(state, rules.board, {}, "judge@example.org")
    assert drawing.height == 1 + report_rows(rules.board)
    announced = [str(r[2]) for r in drawing.values[1:] if str(r[2])]
    assert sum(" attacks " in line for line in announced) == 257 and not any(line.startswith("…") for line in announced)
    assert "parts, each a forum post of its own" in str(drawing.values[0][2])


def _coalition_match(strategies_to: str = "") -> tuple[MatchSheets, CoalitionRuleset]:
    rules = create_ruleset("coalition", CoalitionSettings(strategies_to=strategies_to))
    assert isinstance(rules, CoalitionRuleset)
    roster = rules.sample_roster()
    sheets = MatchSheets(roster.seats, MemoryBackend("board"), MemoryBackend("engine"),
                         tuple(MemoryBackend(s) for s in roster.seats), MemoryBackend("judge"))
    create_match(sheets, rules, roster, seed=b"deadline")
    cls = get_ruleset("coalition")
    type_bot_orders(sheets, cls, {s: bots_of(rules)["commander"].make(s) for s in roster.seats})
    return sheets, rules


def _announcements(sheets: MatchSheets) -> list[str]:
    board = sheets.board
    assert isinstance(board, MemoryBackend)
    tab = board.tabs["Turn report"]
    return [str(tab[(r, 2)]) for r in range(1, 300) if tab.get((r, 2))]


def test_the_announcement_carries_the_strategies_deadline_date_and_time() -> None:
    sheets, _rules = _coalition_match("judge@example.org")
    due = dt.datetime(2026, 11, 27, 17, tzinfo=dt.UTC)
    poll(sheets, get_ruleset("coalition"), now=NOW, force=True, next_deadline=lambda _now: due.isoformat())
    post = _announcements(sheets)
    assert post[0].startswith("Battle Announcements, turn 1") and len(post) > 3
    assert post[-1] == f"Send your battle strategies to judge@example.org before {describe_deadline(due.isoformat())}."
    assert "Fri 27 Nov" in post[-1] and "17:00" in post[-1]


def test_without_an_address_the_announcement_still_says_when_strategies_are_due() -> None:
    sheets, _rules = _coalition_match()
    due = dt.datetime(2026, 11, 27, 17, tzinfo=dt.UTC)
    poll(sheets, get_ruleset("coalition"), now=NOW, force=True, next_deadline=lambda _now: due.isoformat())
    assert _announcements(sheets)[-1] == f"Battle strategies are due before {describe_deadline(due.isoformat())}."
