"""Noughts and crosses' record: the rules and each part of the game (its sheet, scenario files, bot, GM option).

The GM may correct a square (``adjust --mark``), and scenario files play it as data (``scenarios/``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sheets_gm.rulesets import kit
from tests.toygame.engine import SQUARES, ToyOrders, ToyRuleset, ToyState
from tests.toygame.sheet import ToySheet

OPTIONS = (kit.GmOption("mark", "SQUARE=MARK", "set a square's mark: X, O or none (free)"),)


def events_from_options(seats: Sequence[str], values: Mapping[str, Sequence[str]], reason: str) -> list[dict[str, Any]]:
    """``--mark B2=none`` as GM events; ValueError naming the option and what it accepts."""
    out = []
    for text in values.get("mark", ()):
        square, _, mark = (part.strip() for part in text.upper().partition("="))
        if square not in SQUARES or mark not in ("X", "O", "NONE"):
            raise ValueError(f"--mark {text!r}: write a square A1 to C3, '=' and X, O or none, e.g. B2=none")
        out.append({"square": square, "mark": mark.replace("NONE", ""), "reason": reason})
    return out


@dataclass
class RandomMarker:
    """A bot: a free square drawn at random."""

    rng: random.Random

    def orders(self, state: ToyState, seat: str, dice: kit.TurnDice) -> ToyOrders:
        """Its square, when it is its turn."""
        free = [s for s in SQUARES if not state.marks[s]]
        return ToyOrders({seat: self.rng.choice(free)} if seat == state.acting() and free else {})


@dataclass
class ToyTally:
    """What ``simulate`` counts of one game: how it ended, and who won."""

    rules: ToyRuleset
    start: ToyState

    def window(self, resolution: kit.Resolution[Any]) -> None:
        """Nothing to count while it is played."""

    def finish(self, state: ToyState) -> kit.MatchSummary:
        """Three in a row or a draw; 1 for the winner."""
        return kit.MatchSummary("line" if state.winner else "draw",
                            tuple((float(p == state.winner),) for p in self.start.players))


class ToyScenarioCodec:
    """Scenario files: ``players`` (the roster's order), ``turns`` from an empty grid, ``expect``."""

    keys = ("name", "ruleset", "settings", "players", "turns", "expect")  # no ``given``: nine turns reach any grid

    def load(self, doc: kit.LinedDict, f: kit.Fields, settings: Any) -> kit.Scenario[ToyState, ToyOrders]:
        """A new game of the two players, a window per turn, and ``expect`` to compare."""
        line, turns = doc.line_of("players"), f.sequence(doc.get("turns"), doc.line_of("turns"), "turns")
        players = tuple(f.text(p, line, "a player") for p in f.sequence(doc.get("players"), line, "players"))
        if len(players) != 2:
            raise f.fail(line, f"players: name the two, in the roster's order, e.g. [Ann, Bo]; {len(players)} named")
        want = f.mapping(doc.get("expect"), doc.line_of("expect"), "expect",
                         ("marks", "winner", "refused", "log_contains"))
        rules = ToyRuleset(settings)
        return kit.Scenario(rules, rules.new_match(kit.Roster(players), b""),
                        [_turn(f, t, doc.line_of("turns"), i) for i, t in enumerate(turns)],
                        lambda final, verdicts: _compare(f, want, final, verdicts))


def _turn(f: kit.Fields, item: Any, line: int, i: int) -> kit.Entry[ToyState, ToyOrders]:
    """A turn: whose it must be, her square (none: she passes), and GM events before it (``adjust --mark``'s)."""
    t = f.mapping(item, line, f"turn {i + 1}", ("player", "square", "gm"))
    seat, square = f.text(t.get("player"), t.line, "player"), str(t.get("square") or "").strip().upper()
    try:
        gm = events_from_options((), {"mark": [str(m) for m in f.sequence(t.get("gm"), t.line, "gm")]}, "scenario")
    except ValueError as exc:
        raise f.fail(t.line_of("gm"), str(exc)) from None
    return kit.Entry.of(t.line, f"turn {i + 1}", [kit.Play(ToyOrders({seat: square} if square else {}))], gm, seat)


def _compare(f: kit.Fields, e: kit.LinedDict, state: ToyState, verdicts: Sequence[kit.Verdict]) -> list[str]:
    """Each difference from ``expect``: marks (null: free), the winner (a player, draw or null), who was refused."""
    marks = f.mapping(e.get("marks"), e.line_of("marks"), "expect.marks")
    if bad := [sq for sq in marks if sq not in SQUARES]:
        raise f.fail(marks.line_of(bad[0]), f"expect.marks: {bad[0]!r} is no square of the grid; write A1 to C3")
    got = {"marks": {sq: state.marks[sq] or None for sq in marks}, "winner": state.winner or (
        "draw" if state.over else None), "refused": sorted(v.seat for v in verdicts if not v.accepted)}
    return [f"{key}: expected {e[key]}, got {got[key]}" for key in got if key in e and e[key] != got[key]]


GAME = kit.Game(
    rules=ToyRuleset,
    sheet=ToySheet,
    scenario=ToyScenarioCodec,
    gm=kit.GmPart(OPTIONS, events_from_options, '--mark B2=none --reason "Bo typed into the wrong square"'),
    simulation=kit.Simulation(
        bots=lambda r: {"random": kit.BotKind("random", "a free square at random",
                                          lambda seed: RandomMarker(random.Random(seed)))},
        spec=lambda r: kit.SimulationSpec("turns", (("line", "three in a row"), ("draw", "a full grid")),
                                      (kit.FigureSpec("won", "won", kit.FigureKind.SHARE),)),
        tally=ToyTally),
)
