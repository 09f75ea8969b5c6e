"""The stand-in GM (issue 54, item 4): what the cards make mechanical applied as the GM's adjustments, the rest
left for a person; a practice match has it, and its sync applies it after each poll."""

from __future__ import annotations

from sheets_gm.engine.gm_events import apply_gm
from sheets_gm.rulesets.winordie.enums import GmKind
from sheets_gm.rulesets.winordie.settings import WodSettings
from sheets_gm.rulesets.winordie.state import Pending, WodState
from sheets_gm.sync.life.export import match_replay
from sheets_gm.sync.life.replay import replay_states
from tests.rulesets.winordie.helpers import passive_attack, rules
from tests.sync.test_typed_row_lifecycle import Match

ON = WodSettings(stand_in_gm=True)


def _passive_waits(settings: WodSettings | None) -> tuple[WodState, str]:
    """A turn whose attack a passive (Frenzy or Charge) stopped: the state, and the attacker."""
    made = passive_attack(settings)
    return made.first.state, made.attacker.id


def test_the_stand_in_gm_gives_a_charge_after_a_one_hex_move_no_die() -> None:
    """Issue 64, item 1 ("check every passive's card text"), played in LibreOffice: the Lancer moved one hex and
    attacked, and the stand-in GM gave its Charge ("After moving 2 or more hexes this turn my next attack rolls 1 more
    die") the die. It settles the Charge with no die and says why; the Log tells the GM how far the unit moved."""
    made = passive_attack(ON, one_hex=True)
    state = made.first.state
    assert made.passive.name == "Charge"
    assert any(f"({made.attacker.id} (Lancer)'s passive Charge may change its attack (it attacks after moving 1 hex "
               "this turn)" in f"({e.text}" for e in made.first.events), [e.text for e in made.first.events]
    (pending,) = state.pending
    events = made.rules.stand_in_gm_events(state)
    assert [(e.kind, e.target) for e in events] == [(GmKind.DONE, str(pending.id))]
    assert events[0].reason.endswith(f"{made.attacker.id} moved 1 hex this turn, not 2 or more: no die"), events
    logged = [e.text for e in apply_gm(made.rules, state, events[0]).events]  # issue 78, item 7: nothing applied
    assert logged[0].startswith("GM settles Charge of ") and "applies" not in logged[0], logged


def test_the_stand_in_gm_gives_a_passive_its_die_and_settles_it() -> None:
    r = rules(ON)
    state, attacker = _passive_waits(ON)
    (pending,) = state.pending
    events = r.stand_in_gm_events(state)
    assert [(e.kind, e.target, e.value) for e in events] == [(GmKind.DICE, attacker, "+1"),
                                                           (GmKind.DONE, str(pending.id), "")]
    assert all(e.reason.startswith(f"stand-in GM: {pending.name} of {attacker} (") for e in events), events
    for event in events:
        state = apply_gm(r, state, event).state
    assert state.changes[attacker].dice == 1 and not state.pending
    assert rules().stand_in_gm_events(_passive_waits(None)[0]) == []  # off unless the match turns it on


def test_what_needs_judgement_is_left_for_a_person() -> None:
    r = rules(ON)
    state, _ = _passive_waits(ON)
    state = state.copy()
    unit = next(u for u in state.units if u.owner == state.acting)
    state.pending.append(Pending(99, state.turn, state.acting, unit.id, "Root Walk",
                                 "Move me to any free forest hex within 4 hexes.", ""))
    events = r.stand_in_gm_events(state)
    assert "99" not in [e.target for e in events if e.kind is GmKind.DONE]
    assert [e.kind for e in events][-1] is GmKind.DONE  # the passive still applied


def test_a_practice_match_s_resolution_applies_the_stand_in_gm_logged_and_replayed() -> None:
    """Issue 60, item 1: the stand-in GM's adjustments are part of the resolution that makes them due (one write,
    one transaction): the state it leaves wants none, and the Log, the history and the replay hold them."""
    match = Match("winordie", ON)
    for _ in range(40):
        read = match.read()
        if read.record.ruleset.window(read.record.state) is None:
            break
        report = match.bots_play()
        after = match.read().record
        assert after.ruleset.stand_in_gm_events(after.state) == []  # nothing left for a second transaction
        events = (after.gm_events or {}).get("events") or []
        if events:
            assert report.facts is not None
            assert any("stand-in GM" in e.text for e in report.facts.events), report.facts.events
            assert all("stand-in GM" in str(e.get("reason", "")) for e in events)
            assert replay_states(match_replay(match.sheets, match.cls)).difference is None
            return
    raise AssertionError("no effect the stand-in GM applies came up in 40 windows")


def test_a_fire_volley_aim_is_read_as_the_guide_writes_it() -> None:
    """Issue 64, item 5: the guide writes an Aim as ``Bo token 4 on E3``; the stand-in GM read only an Aim that was
    exactly one name. It reads the Aim's names as words now, and leaves for a person an Aim whose token and hex
    disagree or that names two units."""
    from sheets_gm.rulesets.winordie.stand_in import _aimed

    r = rules(ON)
    state = _passive_waits(ON)[0].copy()
    archer = next(u for u in state.units if u.owner == state.acting and u.at is not None)
    assert archer.at is not None
    free = [h for h in r.rules.board.neighbours(archer.at)
            if state.unit_at(h) is None and not r.rules.board.terrain[h].obstacle]
    enemies = [u for u in state.units if u.owner != state.acting and u.at is not None]
    for enemy, hex_ in zip(enemies, free, strict=False):  # two enemies beside the archer, face down with tokens
        enemy.at, enemy.hidden = hex_, True
        enemy.token = enemy.token or f"{enemy.owner} token {enemy.id[-1]}"
    first, second = enemies[0], enemies[1]
    assert first.at is not None and second.at is not None

    def aimed(aim: str) -> str | None:
        found = _aimed(r.rules, state, Pending(1, state.turn, state.acting, archer.id, "Fire Volley", "", aim))
        return None if found is None else found.id

    assert aimed(f"{first.token} on {first.at.label}") == first.id
    assert aimed(f"{first.token.upper()} on {first.at.label.lower()}.") == first.id
    assert aimed(first.at.label) == first.id and aimed(first.token) == first.id
    assert aimed(f"{first.token} on {second.at.label}") is None  # token and hex disagree
    assert aimed(f"{first.token} and {second.token}") is None  # two units
    assert aimed(first.id) is None  # a face-down unit is not named by its id (the opponent's secret)


def test_a_stopped_attack_the_stand_in_gm_settled_says_so_and_goes_on() -> None:
    """Issue 64, item 5: the row a passive stopped says the stand-in GM applied it, not "the GM weighs it first; tick
    Go or Ready again"; her Ready stays ticked, the next poll goes on, and the summary counts nothing waiting."""
    match = Match("winordie", ON)
    for _ in range(40):
        report = match.bots_play()
        read = match.read()
        window = read.record.ruleset.window(read.record.state)
        assert window is not None
        acting = window.awaited[0]
        rows = [r for r in read.seats[acting].rows if r.table == "actions" and r.typed]
        if not any("stand-in GM applied" in r.feedback for r in rows):
            continue
        assert not any("tick Go or Ready again" in r.feedback for r in rows), [r.feedback for r in rows]
        seat_row = match.row(acting, "seat", 0)
        assert seat_row.ticked("ready") and "stand-in GM applied" in seat_row.feedback, seat_row.feedback
        assert "card effect" not in report.result and not read.record.state.pending, report.result
        assert match.poll().resolved  # it goes on: nothing for her to tick again
        return
    raise AssertionError("no stop the stand-in GM settles came up in 40 windows")


def test_a_stopped_attack_the_stand_in_gm_settled_goes_on_under_a_go_too() -> None:
    """Issue 64, item 5, played in LibreOffice: a Lancer moved and attacked under Go, its Charge stopped the attack
    and the stand-in GM settled it; the row said "the row goes on at the next sync (your Go or Ready stays ticked:
    nothing to tick again)", but the Go was unticked with the rows a step leaves ("Go carried out 2 rows and left 1
    … tick Go again") and the next poll waited for her. A Go kept by the stop stays ticked, as a Ready does."""
    from sheets_gm.sync.autoplay import type_bot_orders

    match = Match("winordie", ON)
    gone = ""  # the turn a Go resolved a step of: its next step is typed with Ready, to end it
    for _ in range(60):
        window = match.window()
        acting = window.awaited[0]
        stepped = window.phase == "actions" and window.key != gone
        type_bot_orders(match.sheets, match.cls, match.bots, ready=not stepped)
        if stepped:
            match.type(acting, "seat", 0, "go", True)
            gone = window.key
        assert match.poll().resolved
        rows = [r for r in match.read().seats[acting].rows if r.table == "actions" and r.typed]
        if not stepped or not any("stand-in GM applied" in r.feedback for r in rows):
            continue
        seat_row = match.row(acting, "seat", 0)
        assert seat_row.ticked("go") and "stand-in GM applied" in seat_row.feedback, seat_row.feedback
        assert "tick Go again" not in seat_row.feedback, seat_row.feedback
        assert match.poll().resolved  # it goes on: nothing for her to tick again
        return
    raise AssertionError("no stop the stand-in GM settles came up under a Go in 60 windows")


def test_a_reaction_the_stand_in_gm_settles_says_so_in_its_own_row() -> None:
    """Issue 78, item 7: in a practice match the row of a reaction that fired said "(the GM applies its effect)"
    while the stand-in GM applied it. Bots play until a reaction fires and the stand-in GM settles the stop."""
    match = Match("winordie", ON)
    for _ in range(60):
        match.bots_play()
        read = match.read()
        rows = [(seat, r) for seat in read.seats for r in read.seats[seat].rows if r.table == "reactions"
                and "fired before" in r.feedback]
        settled = [r for _seat, r in rows if "stand-in GM" in r.feedback]
        if not settled:
            continue
        assert all("the GM applies its effect" not in r.feedback for r in settled), [r.feedback for r in settled]
        return
    raise AssertionError("no reaction the stand-in GM settles fired in 60 windows")
