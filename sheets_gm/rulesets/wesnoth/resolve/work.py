"""The working copy of one Wesnoth turn's resolution, which ``resolve_turn`` makes and passes to each part of it."""

from __future__ import annotations

from sheets_gm.engine.hexgrid import Hex
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.wesnoth.enums import EventKind
from sheets_gm.rulesets.wesnoth.rules import WesnothRules
from sheets_gm.rulesets.wesnoth.state import Player, Unit, WesnothState, time_of_day

TRUE_WORDS = ("true", "yes", "y", "x", "1")  # what ticks a standing advancement choice


class TurnWork:
    """The working copy of the state while one call resolves rows (the input state is never changed): the units,
    players, villages and counters being changed, the log and the verdicts so far, with the small helpers every
    part of the turn uses (a player's gold, a log line, a verdict). The parts are functions of their own."""

    def __init__(self, rules: WesnothRules, state: WesnothState, dice: kit.TurnDice) -> None:
        self.rules = rules
        self.start = state
        self.dice = dice
        self.units: dict[str, Unit] = {u.id: u for u in state.units}
        self.players: list[Player] = list(state.players)
        self.villages: dict[Hex, str] = dict(state.villages)
        self.acted: list[str] = list(state.acted)
        self.round = state.round
        self.turn = state.turn
        self.acting = state.acting
        self.tod_override = state.tod_override
        self.finished = state.finished
        self.winner = state.winner
        self.events: list[kit.Event] = []
        self.verdicts: list[kit.Verdict] = []

    @property
    def tod(self) -> str:
        """The time of day now."""
        return self.tod_override or time_of_day(self.round)

    def state(self) -> WesnothState:
        """The working copy as a state."""
        owners = self.villages
        villages = tuple((h, owners[h]) for h in sorted(owners, key=self.rules.board.routes.numbers.__getitem__))
        return WesnothState(self.round, self.turn, self.acting, tuple(self.players), tuple(self.units.values()),
                            villages, tuple(self.acted), self.tod_override, self.finished, self.winner,
                            self.start.team_names)

    def copy(self) -> TurnWork:
        """A working copy of this one, to try a row on and then keep or drop (the dice are the same object: see
        ``TurnDice.record_mark``)."""
        twin = TurnWork.__new__(TurnWork)
        twin.__dict__.update(self.__dict__)  # the counters and flags; each container below is copied
        twin.units = dict(self.units)
        twin.players = list(self.players)
        twin.villages = dict(self.villages)
        twin.acted = list(self.acted)
        twin.events = list(self.events)
        twin.verdicts = list(self.verdicts)
        return twin

    def resolution(self) -> kit.Resolution[WesnothState]:
        """What the rows resolved so far produced: the state, the events and the verdicts."""
        return kit.Resolution(self.state(), self.events, verdicts=self.verdicts)

    def player(self, name: str) -> tuple[int, Player]:
        """The index and record of the player called ``name``."""
        for i, p in enumerate(self.players):
            if p.name == name:
                return i, p
        raise KeyError(name)

    def gold(self, name: str, change: int) -> int:
        """Add ``change`` to a player's gold; her gold after it."""
        i, p = self.player(name)
        self.players[i] = p.with_gold(p.gold + change)
        return p.gold + change

    def team(self, name: str) -> int:
        """A player's team number."""
        return self.player(name)[1].team

    def enemies(self, a: str, b: str) -> bool:
        """Whether players ``a`` and ``b`` are on different teams (``rules.enemies`` on the working copy)."""
        return self._team_of(a) != self._team_of(b)

    def _team_of(self, name: str) -> int:
        return next((p.team for p in self.players if p.name == name), 0)

    def event(self, kind: EventKind, text: str, **data: object) -> None:
        """Log an event of this turn, under its round (the Log's Turn column counts rounds, as the status line,
        the orders tab and export do)."""
        self.events.append(kit.Event(self.round, kind, text, dict(data)))

    def verdict(self, unit: Unit | None, subject: str, part: str, accepted: bool, message: str) -> None:
        """Record a verdict for the unit's owner (the acting player for an unknown unit); a refusal is logged too."""
        seat = unit.owner if unit is not None else self.players[self.acting].name
        self.verdicts.append(kit.Verdict(seat, subject, part, accepted, message))
        if not accepted:
            self.event(EventKind.REFUSED, f"{subject} {part}: {message}", unit=subject, part=part)

    def hex(self, text: str) -> Hex:
        """The hex a player wrote, or CoordError saying what is accepted."""
        return self.rules.board.hex_named(text)
