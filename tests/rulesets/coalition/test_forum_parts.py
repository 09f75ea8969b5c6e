"""Posts at war size are written in forum-sized parts, each whole and numbered (issue 40)."""

from __future__ import annotations

from sheets_gm.rulesets.coalition.enums import BattleType, Phase
from sheets_gm.rulesets.coalition.forum import PART_CHARS, PART_LINES, announcement_parts, results_parts
from sheets_gm.rulesets.coalition.game import CoalitionRuleset
from sheets_gm.rulesets.coalition.sheet.report import report_drawing, report_rows
from sheets_gm.rulesets.coalition.state import Battle, BattleReport, CoalitionState
from sheets_gm.rulesets.registry import create_ruleset


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
