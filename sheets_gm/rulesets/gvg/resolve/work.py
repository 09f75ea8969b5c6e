"""The working copy of one GvG turn's resolution, which ``resolve_turn`` makes and passes to each phase.

It holds the state being changed (a copy: the input is never touched), the checked orders, the dice,
the log written so far and what the phases tell each other: the skills in force, who was knocked down
or revived, the healers' buff reach and the destroyed bulwarks. The small helpers every phase uses
(the log, a team's name, a player's action) are its methods; the phases are functions of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sheets_gm.engine.grid import Coord
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.check import CheckedOrders
from sheets_gm.rulesets.gvg.enums import Action, EventKind, Outcome, Role, Skill, Status, StructureKind
from sheets_gm.rulesets.gvg.orders import PlayerOrder
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.state import GvgState, Player, Structure

# Python 3.11 reads a member such as ``Status.ACTIVE`` off its class through EnumType's
# ``__getattr__`` hook, about 0.1 µs each; the per-player loops below read these constants.
_ACT = Action.ACT
_BUFF = Action.BUFF
_REVIVE = Action.REVIVE
_PICKUP = Action.PICKUP
_NO_ROLL = frozenset({Action.BUFF, Action.REVIVE})  # actions taken instead of rolling
_ACTIVE = Status.ACTIVE
_KNOCKED_DOWN = Status.KNOCKED_DOWN
_BULWARK = StructureKind.BULWARK
_FISH = StructureKind.FISH
_DPS = Role.DPS
_TANK = Role.TANK
_HEALER = Role.HEALER
_ATTACKERS_WIN = Outcome.ATTACKERS_WIN
_MOVED = EventKind.MOVED
_NOBODY: frozenset[str] = frozenset()


class Turn:
    """One turn being resolved: the rules, the state being changed, the checked orders and dice, the log, and
    what the phases tell each other.

    A plain class with slots rather than a dataclass: one is made every turn, and the generated ``__init__`` called
    a factory for each of its lists and sets, then ``__post_init__``."""

    __slots__ = ("active", "board", "buff_reach", "checked", "destroyed_bulwarks", "dice", "events", "knocked",
                 "orders", "pickers", "revived", "rules", "s", "state", "turn")

    def __init__(self, rules: GvgRules, state: GvgState, checked: CheckedOrders, dice: kit.TurnDice) -> None:
        self.rules = rules
        self.state = state
        self.checked = checked
        self.dice = dice
        self.events: list[kit.Event] = []
        self.active: list[set[Skill]] = [set(), set()]  # each team's skills in force
        self.knocked: set[str] = set()
        self.revived: set[str] = set()
        self.buff_reach: list[list[frozenset[Coord]]] = [[], []]  # per team, each buff's tiles
        self.destroyed_bulwarks = [0, 0]
        self.s: GvgSettings = rules.settings
        self.board: GvgMap = rules.board
        self.turn = state.turn
        self.orders: Mapping[str, PlayerOrder] = checked.accepted.players
        # the players whose accepted action is a pickup
        acting = checked.acting  # most turns: one or two healers' actions, or none
        self.pickers = frozenset([name for name, action in acting.items() if action is _PICKUP]) if acting else _NOBODY

    def log(self, event_kind: EventKind, text: str | Callable[[], str], /, **data: Any) -> None:
        """Add a line to the turn's log (the text may be a callable, rendered when read). The first parameter is not
        called ``kind``, which a battle's data holds: compiled with mypyc, a positional-only parameter and a keyword of
        ``data`` that share a name lose the keyword (the battle's ``kind`` went missing from its data)."""
        self.events.append(kit.Event(self.turn, event_kind, text, data))

    def team(self, index: int) -> str:
        """A team's name by its index."""
        return self.state.teams[index]

    def structure_words(self, structure: Structure) -> str:
        """A structure as the log names it: ``red's bulwark on E4`` (its id, ``bulwark@E4``, is in the data)."""
        return f"{self.state.teams[structure.team]}'s {structure.kind} on {structure.at.label}"  # a StrEnum: its value

    def action(self, p: Player) -> Action:
        """The action ``p`` chose this turn (act when she gave none)."""
        order = self.orders.get(p.name)
        return order.action if order else _ACT

    def rolls(self, p: Player) -> bool:
        """Whether ``p`` rolls in the action phase (not buffing/reviving, not teleported)."""
        return p.name not in self.checked.teleports and self.action(p) not in _NO_ROLL

    def can_act(self, p: Player) -> bool:
        """Whether ``p`` acts in the action phase (not after a ballista teleport)."""
        return p.name not in self.checked.teleports
