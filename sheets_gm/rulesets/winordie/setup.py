"""Set-up: legions from the roster, barracks, the first-player roll and the hidden deployment.

A roster seat is a player. Her members are either one row naming a line-up of the table
(``lineup``), whose units are named ``<player>-1``, ``<player>-2``… in the table's order, or
one row per unit (the member's name is the unit's id; ``card``, and in advanced mode
``enhancements``). Advanced mode checks the legion: one leader, 6–9 other units of one
faction, cards within their limits, at most 6 of an enhancement, within the 20-crystal
budget (what is not spent is kept). Her barrack holds the other cards of her faction, each
up to its limit.
"""

from __future__ import annotations

from collections.abc import Sequence

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.winordie.cards import (
    CardTableError,
    Recruit,
    legion_cost,
    legion_problem,
    parse_enhancements,
)
from sheets_gm.rulesets.winordie.enums import EventKind, Mode, Phase
from sheets_gm.rulesets.winordie.rules import WodRules
from sheets_gm.rulesets.winordie.state import Legion, Unit, WodState

ROLL_LIMIT = 50  # first-player rerolls before the roster's first player starts (never reached in practice)


class RosterError(ValueError):
    """A roster that cannot start a match, naming the row."""


def recruits_of(rules: WodRules, seat: str, members: Sequence[tuple[int, kit.Member]]) -> list[Recruit]:
    """The legion a player's roster rows describe (see the module notes); RosterError naming the row."""
    out: list[Recruit] = []
    for row, member in members:
        where = f"roster row {row} ({member.name})"
        lineup = member.fields.get("lineup", "").strip()
        if lineup:
            entries = next((v for k, v in rules.tables.lineups.items() if k.lower() == lineup.lower()), None)
            if entries is None:
                known = ", ".join(sorted(rules.tables.lineups)) or "none"
                raise RosterError(f"{where}: there is no line-up {lineup!r}; the line-ups are {known}")
            for card, count, line in entries:
                for _ in range(count):
                    out.append(Recruit(f"{seat}-{len(out) + 1}", card, (), f"line-up {lineup!r}, table line {line}"))
            continue
        card = member.fields.get("card", "").strip()
        if not card:
            raise RosterError(f"{where}: give a line-up (column lineup) or a unit's card (column card)")
        try:
            enhancements = parse_enhancements(member.fields.get("enhancements", ""), where)
        except CardTableError as exc:
            raise RosterError(str(exc)) from None
        if enhancements and rules.settings.mode is not Mode.ADVANCED:
            raise RosterError(f"{where}: enhancements are for the advanced mode (setting mode=advanced)")
        found = rules.tables.card(card)
        if found is None:
            raise RosterError(f"{where}: there is no card {card!r} in the cards table")
        out.append(Recruit(member.name, found.name, enhancements, where))
    return out


def new_match(rules: WodRules, roster: kit.Roster, seed: bytes) -> WodState:
    """The state before the first deployment window: legions, barracks, and the first player by dice."""
    if len(roster.seats) != 2 or roster.seats[0] == roster.seats[1]:
        raise RosterError(f"Win or Die is played by two players; the roster names {', '.join(roster.seats) or 'none'}")
    seats = (roster.seats[0], roster.seats[1])
    s = rules.settings
    rows = list(enumerate(roster.members, start=1))
    recruits: dict[str, tuple[Recruit, ...]] = {}
    for seat in seats:
        legion = recruits_of(rules, seat, [(n, m) for n, m in rows if m.seat == seat])
        budget = s.budget if s.mode is Mode.ADVANCED else None
        problem = legion_problem(rules.tables, legion, budget=budget, min_units=s.min_units, max_units=s.max_units,
                                 enhancement_cost=s.enhancement_cost, enhancement_limit=s.enhancement_limit)
        if problem:
            raise RosterError(f"{seat}'s legion: {problem}")
        recruits[seat] = tuple(legion)
    ids = [r.id for rs in recruits.values() for r in rs]
    twice = next((i for i in ids if ids.count(i) > 1), None)
    if twice is not None:
        raise RosterError(f"the unit id {twice!r} is used twice; every unit needs its own id")
    cards = {}
    crystals: dict[str, int] = {}
    barrack: dict[str, tuple[str, ...]] = {}
    for seat in seats:
        legion_cards = [rules.tables.cards[r.card] for r in recruits[seat]]
        faction = legion_cards[0].faction
        in_legion = [c.name for c in legion_cards]
        for c in legion_cards:
            cards[c.name] = c
        spare: list[str] = []
        for card in sorted(rules.tables.cards.values(), key=lambda c: c.name):
            if card.faction == faction and not card.leader:
                spare += [card.name] * max(0, card.limit - in_legion.count(card.name))
                cards[card.name] = card
        barrack[seat] = tuple(spare)
        crystals[seat] = max(0, s.budget - legion_cost(rules.tables, recruits[seat], s.enhancement_cost))
    fixed = {seat: tuple(Recruit(r.id, r.card, r.enhancements) for r in recruits[seat]) for seat in seats}
    state = WodState(seats=seats, legions={seat: Legion(seat, i) for i, seat in enumerate(seats)}, units=[],
                     cards=cards, tactics=dict(rules.tables.tactics), recruits=fixed, start_crystals=crystals,
                     start_barrack=barrack)
    events: list[kit.Event] = []
    setup_game(rules, state, 1, roll_first(state, kit.TurnDice(seed, 0), events), events)
    return state


def roll_first(state: WodState, dice: kit.TurnDice, events: list[kit.Event]) -> str:
    """The first player: each rolls a die (``first/<n>/<player>``), again while equal; the higher starts. Every
    roll is logged with its die's whole message, a tie too."""
    a, b = state.seats
    for n in range(1, ROLL_LIMIT + 1):
        ka, kb = f"first/{n}/{a}", f"first/{n}/{b}"
        ra, rb = dice.d6(ka), dice.d6(kb)
        said = f"{a} rolls {ra} [{dice.message(ka)}], {b} rolls {rb} [{dice.message(kb)}]"
        if ra == rb:
            events.append(kit.Event(0, EventKind.FIRST_PLAYER, f"{said}: a tie, both roll again.",
                                    {"rolls": {a: ra, b: rb}, "first": ""}))
            continue
        first = a if ra > rb else b
        events.append(kit.Event(0, EventKind.FIRST_PLAYER, f"{said}: {first} plays first.",
                                {"rolls": {a: ra, b: rb}, "first": first}))
        return first
    return a


def setup_game(rules: WodRules, state: WodState, game: int, first: str, events: list[kit.Event]) -> None:
    """Set up game ``game``: fresh units (undeployed, hidden), tracks and barracks; ``first`` deploys first."""
    state.game = game
    state.turn = 0
    state.phase = Phase.DEPLOY
    state.first = first
    state.started = False
    state.dead = []
    state.pending = []
    state.units = [Unit(r.id, r.card, seat, enhancements=r.enhancements)
                   for seat in state.seats for r in state.recruits[seat]]
    for seat in state.seats:
        legion = state.legions[seat]
        legion.morale = sum(state.morale_of(u) for u in state.units if u.owner == seat)
        legion.fatigue = 0
        legion.crystals = state.start_crystals.get(seat, 0)
        legion.tokens = 0
        legion.barrack = list(state.start_barrack.get(seat, ()))
        legion.calls = 0
        legion.council = []
        legion.council_turn = 0
    if game > 1:
        events.append(kit.Event(state.turn, EventKind.NEW_GAME,
                                f"Game {game} begins; {first}, who lost the last game, deploys and plays first.",
                                {"game": game, "first": first}))
    for seat in state.seats:
        hexes = rules.board.deploy_hexes(state.legions[seat].slot)
        count = sum(1 for u in state.units if u.owner == seat)
        if len(hexes) < count:
            raise RosterError(f"{seat} has {count} units but the map has only {len(hexes)} plains in or next to "
                              f"baseline {state.legions[seat].slot + 1}")
