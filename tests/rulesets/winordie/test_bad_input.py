"""Bad input gives a message naming where it is and what would be accepted, and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.engine.ruleset import Member, Roster
from sheets_gm.rulesets.parts.fields import ScenarioError
from sheets_gm.rulesets.winordie.cards import CardTableError, read_tables
from sheets_gm.rulesets.winordie.enums import ActionKind, Mode
from sheets_gm.rulesets.winordie.orders import Action, Placement, WodOrders
from sheets_gm.rulesets.winordie.settings import WodSettings
from sheets_gm.rulesets.winordie.setup import RosterError
from sheets_gm.scenario.runner import run_file
from tests.paths import ROOT
from tests.rulesets.winordie.helpers import canonical, deployed, rules

TEMPLATE = ROOT / "templates" / "winordie"
SCENARIO = ROOT / "tests" / "scenarios" / "winordie" / "attack_survivor_of_melee_counter_attacks.yaml"


def _copy_tables(tmp_path: Path) -> Path:
    for name in ("cards.csv", "abilities.csv", "lineups.csv", "tactics.csv"):
        (tmp_path / name).write_text((TEMPLATE / name).read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


def test_the_shipped_tables_read_and_every_card_is_a_sample(tmp_path: Path) -> None:
    tables = read_tables(_copy_tables(tmp_path))
    assert len({c.region for c in tables.cards.values()}) == 5
    assert all(c.set == "sample" for c in tables.cards.values())
    assert len(tables.tactics) == 7 and len(tables.lineups) == 2


def test_a_card_row_missing_a_field_names_the_file_and_line(tmp_path: Path) -> None:
    folder = _copy_tables(tmp_path)
    lines = (folder / "cards.csv").read_text(encoding="utf-8").splitlines()
    cells = lines[3].split(",")
    cells[9] = ""  # the health of the third card
    lines[3] = ",".join(cells)
    (folder / "cards.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(CardTableError, match=r"cards\.csv:4: the card has no health; every card needs"):
        read_tables(folder)


def test_a_bad_number_and_a_bad_type_name_the_line(tmp_path: Path) -> None:
    folder = _copy_tables(tmp_path)
    text = (folder / "cards.csv").read_text(encoding="utf-8")
    (folder / "cards.csv").write_text(text.replace("Shieldbearer,Yaveil Alliance,Sol Citadel,Fighter,3,2",
                                                   "Shieldbearer,Yaveil Alliance,Sol Citadel,Fighter,3,two"),
                                      encoding="utf-8")
    with pytest.raises(CardTableError, match=r"cards\.csv:3: Shieldbearer: speed must be a whole number"):
        read_tables(folder)
    (folder / "cards.csv").write_text(text.replace("Sol Citadel,Fighter", "Sol Citadel,Wizard", 1), encoding="utf-8")
    with pytest.raises(CardTableError, match=r"cards\.csv:3: Shieldbearer: unknown unit type 'Wizard'; use leader"):
        read_tables(folder)


def test_an_ability_of_no_card_and_a_line_up_of_no_card_are_named(tmp_path: Path) -> None:
    folder = _copy_tables(tmp_path)
    with (folder / "abilities.csv").open("a", encoding="utf-8") as out:
        out.write("Nobody,action,Wave,Waves.\n")
    with pytest.raises(CardTableError, match="abilities for 'nobody', which is no card"):
        read_tables(folder)
    folder = _copy_tables(tmp_path)
    with (folder / "lineups.csv").open("a", encoding="utf-8") as out:
        out.write("Ironclad Defense,Ghost,1\n")
    with pytest.raises(CardTableError, match=r"lineups\.csv:10: a row names a line-up and one of the cards"):
        read_tables(folder)


def _custom(seat: str, cards: list[tuple[str, str, str]]) -> tuple[Member, ...]:
    return tuple(Member(uid, seat, {"card": card, "enhancements": enh}) for uid, card, enh in cards)


ADVANCED = WodSettings(mode=Mode.ADVANCED)
BO = (Member("Bo", "Bo", {"lineup": "Firepower Suppression"}),)


def test_a_legion_over_budget_names_its_row() -> None:
    r = rules(ADVANCED)
    ann = _custom("Ann", [("A0", "Sol Commander", ""), *[(f"A{i}", "Lancer", "Attack,Health") for i in (1, 2)],
                          *[(f"A{i}", "Shieldbearer", "Toughness") for i in (3, 4, 5)], ("A6", "Sky Sentinel", "")])
    with pytest.raises(RosterError, match=r"Ann's legion: roster row 7 \(A6\): the legion costs 29 crystals; the "
                                          r"budget is 20"):
        r.new_match(Roster(("Ann", "Bo"), (*ann, *BO)), b"s")


def test_a_legion_outside_its_faction_names_the_row() -> None:
    r = rules(ADVANCED)
    ann = _custom("Ann", [("A0", "Sol Commander", ""), *[(f"A{i}", "Shieldbearer", "") for i in (1, 2, 3)],
                          ("A4", "Tusk Raider", ""), ("A5", "Sun Archer", ""), ("A6", "Sun Archer", "")])
    with pytest.raises(RosterError, match=r"roster row 5 \(A4\): Tusk Clan is outside the legion's faction "
                                          r"Sol Citadel"):
        r.new_match(Roster(("Ann", "Bo"), (*ann, *BO)), b"s")


def test_a_legion_needs_one_leader_and_six_to_nine_units_in_advanced_mode() -> None:
    r = rules(ADVANCED)
    few = _custom("Ann", [("A0", "Sol Commander", ""), ("A1", "Shieldbearer", "")])
    with pytest.raises(RosterError, match="6 to 9 units besides its leader; this one has 1"):
        r.new_match(Roster(("Ann", "Bo"), (*few, *BO)), b"s")
    leaderless = _custom("Ann", [(f"A{i}", "Shieldbearer", "") for i in range(3)] +
                         [(f"B{i}", "Sun Archer", "") for i in range(3)])
    with pytest.raises(RosterError, match="exactly one leader; this one has 0"):
        r.new_match(Roster(("Ann", "Bo"), (*leaderless, *BO)), b"s")


def test_an_unknown_line_up_or_card_names_the_roster_row() -> None:
    r = rules()
    with pytest.raises(RosterError, match=r"roster row 1 \(Ann\): there is no line-up 'Iron'; the line-ups are"):
        r.new_match(Roster(("Ann", "Bo"), (Member("Ann", "Ann", {"lineup": "Iron"}), *BO)), b"s")
    with pytest.raises(RosterError, match=r"roster row 1 \(X\): there is no card 'Ghost'"):
        r.new_match(Roster(("Ann", "Bo"), (Member("X", "Ann", {"card": "Ghost"}), *BO)), b"s")
    with pytest.raises(RosterError, match="enhancements are for the advanced mode"):
        r.new_match(Roster(("Ann", "Bo"), (Member("X", "Ann", {"card": "Lancer", "enhancements": "Attack"}),
                                           *BO)), b"s")


def test_refused_rows_name_the_row_and_what_is_accepted_and_change_nothing() -> None:
    r = rules()
    state = deployed(r)
    seat = state.acting
    mine = [u for u in state.units if u.owner == seat]
    unit = mine[0]
    enemy = next(u for u in state.units if u.owner != seat)
    orders = WodOrders(actions={seat: (
        Action(ActionKind.MOVE, unit.id, "Z99"),
        Action(ActionKind.ATTACK, unit.id, "nobody"),
        Action(ActionKind.ATTACK, unit.id, enemy.at.label if enemy.at else ""),
        Action(ActionKind.MOVE, "Ghost", "C3"),
        Action(ActionKind.ABILITY, unit.id, "Dance"),
        Action(ActionKind.COUNCIL, "", "Iron Wall"),
        Action(ActionKind.CALL, unit.id, "Lancer"),
    )}, hold=(seat,))
    before = canonical(r.state_codec.to_json(state))
    verdicts = [v for v in r.check(state, orders, r.dice(b"x", state)) if v.seat == seat]
    assert [v.accepted for v in verdicts] == [False] * 7
    messages = [v.message for v in verdicts]
    assert messages[0].startswith(f"Row 1 ({unit.id} move Z99): 'Z99' is not a hex of the map")
    assert "name a target by its hex (C3), an exposed unit's id or a face-down token's name" in messages[1]
    assert messages[2].startswith("Row 3") and "hexes away; the range is" in messages[2]
    assert "you have no unit 'Ghost' on the board; yours are" in messages[3]
    assert "has no ability 'Dance'; it can activate" in messages[4]
    assert "the War Council is for the advanced mode" in messages[5]
    assert "not on your baseline" in messages[6] or "is not in your barrack" in messages[6]
    resolved = r.resolve(state, orders, r.dice(b"x", state)).state
    assert canonical(r.state_codec.to_json(state)) == before
    assert resolved.legions[seat].tokens == (5 if state.turn == 1 else 7)


def test_a_bad_deployment_changes_nothing_and_names_the_row() -> None:
    r = rules()
    state = r.new_match(r.sample_roster(), b"s")
    seat = state.acting
    units = [u.id for u in state.units if u.owner == seat]
    legal = r.rules.board.deploy_hexes(state.legions[seat].slot)[0].label
    orders = WodOrders(deploy={seat: (Placement(units[0], "E5"), Placement(units[1], legal),
                                      Placement(units[2], legal))})
    verdicts = r.check(state, orders, r.dice(b"s", state))
    refused = [v.message for v in verdicts if not v.accepted]
    # each placement is named by its unit (whose row she sees in the table), not by its place among those read
    assert refused[0].startswith(f"{units[0]} (on E5): E5 is a plain 3 hexes from your baseline, not in or next to "
                                 "it; deploy on a plain in or next to your baseline (")
    assert f"{units[2]} (on {legal}): {legal} is taken" in refused
    assert not any(m.startswith("Row ") for m in refused)
    assert any(m.startswith(f"{units[3]} is not placed") for m in refused)
    # Row 2 could be placed, but nothing is deployed: it is not carried out either (the sync kept it as resolved)
    assert any(m.startswith(f"{units[1]} is not deployed, as no unit is while another row is refused") for m in refused)
    assert not any(v.accepted for v in verdicts)
    resolution = r.resolve(state, orders, r.dice(b"s", state))
    assert not any(v.accepted for v in resolution.verdicts)
    after = resolution.state
    assert all(u.at is None for u in after.units)
    assert r.window(after) == r.window(state)


def test_a_malformed_scenario_names_the_line(tmp_path: Path) -> None:
    text = SCENARIO.read_text(encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("      - {unit: A1, attack: B7}", "      - {unit: A1, attack: B7, charge: yes}"),
                   encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"bad\.yaml:\d+: unknown key 'charge' in an action; known keys: unit"):
        run_file(bad)
    bad.write_text(text.replace("counter/B7/A1/1/2: 2", "counter/B7/A1/1/2: 7"), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"pinned die counter/B7/A1/1/2 is 7; use 1 to 6"):
        run_file(bad)
    bad.write_text(text.replace("at: C2, hidden: true", "at: Q9, hidden: true"), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"B7's hex: Q9 is off the map \(A1 to D4\)"):
        run_file(bad)
    bad.write_text(text.replace("health: 5, hit: 4", "hit: 4"), encoding="utf-8")
    with pytest.raises(ScenarioError, match="the card has no health"):
        run_file(bad)
