"""The interface every game's engine implements: declared traits plus pure functions over its own types.

A game's rules are a ruleset: its engine class, the ``rules`` of its record. The core (sync,
commands, scenarios, simulations, conformance test) knows no game by name; it asks the
ruleset, through this interface, everything it needs of the engine:

- **traits**, declared up front like OpenSpiel's ``_GAME_TYPE``: how turns work, who submits
  (teams, players or sides, and maybe a judge), what is hidden, which board, how many seats;
- **settings**: a frozen dataclass of named house rules (``engine.settings``);
- **set-up**: a new match from a roster of seats and members;
- **windows**: the submission round now open (a phase, the seats that act), so the sync
  knows whom to wait for; a finished match has none;
- **check** and **resolve**: a verdict per order, in words a player understands, then the
  new state and the events of the log;
- **outcome**, **views** (what one seat may see; ``None`` is the public board) and **GM events**
  (logged adjustments the ruleset accepts, applied);
- codecs (``engine.codecs``) so states, orders and GM events travel as JSON (engine tab, history,
  replays), declared as class attributes.

This is the engine part of a game only: the sheet adapter, the scenario codec, the simulation, the GM's
command-line options and a game's own tools are the other parts of its record (``rulesets.game_record.Game``),
each with its protocol in its own layer. A game's engine class subclasses ``Ruleset`` to inherit the
defaults of its trivial members (no opening events, no secrets, no checks before resolving, no GM events).

A ruleset *instance* is bound to one match's fixed part (its settings and board), the way a
python-chess variant is a class with its own rules: ``RulesetClass.create(settings, board)``.
States and orders are the ruleset's own plain typed data; the core treats them as opaque
and only moves them through the functions below.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, get_args, get_origin

from sheets_gm.engine.codecs import Codec
from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.events import Event
from sheets_gm.engine.reveals import Reveal

StateT = TypeVar("StateT")
OrdersT = TypeVar("OrdersT")
GmEventT = TypeVar("GmEventT")
_StateIn = TypeVar("_StateIn", contravariant=True)
_OrdersOut = TypeVar("_OrdersOut", covariant=True)

#: The seat name of a judge who enters results (the Coalition game's): a window may list it.
JUDGE = "judge"

#: The name a sheet adapter's ``panel`` is asked for to fill the GM's own tab (in the GM's engine
#: spreadsheet): what the GM must do by hand, such as card effects to apply. Never a seat.
GM = "gm"


class TurnStructure(StrEnum):
    """How submissions follow each other."""

    SIMULTANEOUS = "simultaneous"  # every seat submits in the same window (the guild game, Coalition, Champions)
    SEQUENTIAL = "sequential"  # one seat at a time, in roster order (Wesnoth)
    ALTERNATING = "alternating"  # two seats take turns, the other reacting (Win or Die)


class SeatKind(StrEnum):
    """Who submits orders: a seat is one order-writing party."""

    TEAM = "team"  # several members, a captain (the guild game)
    PLAYER = "player"  # one person (Wesnoth, Champions, Win or Die)
    SIDE = "side"  # many players, many armies (Coalition)


class Information(StrEnum):
    """What a seat may not see."""

    PERFECT = "perfect"  # everything is public
    PRIVATE_ORDERS = "private_orders"  # the state is public, orders are private until resolved
    HIDDEN_STATE = "hidden_state"  # parts of the state itself are hidden (units face down, tile-mates only)


class BoardKind(StrEnum):
    """The board's geometry, served by ``engine.topology``."""

    SQUARE = "square"
    HEX = "hex"
    PLANES = "planes"  # named-square planes (column number + row letter), some wrapping


@dataclass(frozen=True, slots=True)
class RulesetTraits:
    """What a ruleset declares about itself."""

    name: str  # the registry name, as typed in match.toml and scenario files
    title: str  # for people
    turn_structure: TurnStructure
    seat_kind: SeatKind
    information: Information
    board_kind: BoardKind
    min_seats: int
    max_seats: int
    max_windows: int  # an upper bound on the windows of a match with the default settings (conformance)
    settings_type: type[Any]
    # The file of the default board in the template folder ``templates/<name>/``; '' for a game with no board file
    # (its rules are created with an empty board text).
    default_board: str = ""
    judge: bool = False  # whether a human judge enters results in a window of their own
    # Roster groups that are no seat: a roster row may name one instead of a seat (Coalition's mercenary
    # bands, which nobody plays: the engine moves them).
    roster_groups: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Member:
    """One roster row: a person (or a unit or army the ruleset names) belonging to a seat.

    ``fields`` holds the ruleset's own roster columns by lower-case header (``role``,
    ``captain``, ``faction``…); the ruleset checks them in ``new_match``."""

    name: str
    seat: str
    fields: Mapping[str, str] = field(default_factory=dict)
    email: str = ""


class SeatCountError(ValueError):
    """The board holds fewer (or more) seats than the match names: no roster mends it, only another board or other
    seats. ``init`` says so before it writes or moves anything."""


@dataclass(frozen=True, slots=True)
class Roster:
    """The seats of a match in turn order, and their members."""

    seats: tuple[str, ...]
    members: tuple[Member, ...] = ()

    def of(self, seat: str) -> tuple[Member, ...]:
        """The members of ``seat``, in roster order."""
        return tuple(m for m in self.members if m.seat == seat)


@dataclass(frozen=True, slots=True)
class Window:
    """One round of submissions: what is open now, and for whom.

    ``key`` identifies the window within the match and stamps what players type for it (a
    row typed for another window is stale); ``turn`` keys the dice of what it resolves."""

    key: str  # e.g. "7" (turn 7), "3/equip" (Champions), "12/Ann" (Wesnoth)
    label: str  # for people: "turn 7", "round 3 · equip and fight", "turn 12 · Ann"
    phase: str  # the ruleset's phase name; the sheet template opens the input tables of this phase
    seats: tuple[str, ...]  # the seats that submit (JUDGE for a judge's window)
    turn: int  # the dice of this window's resolution are keyed by it
    stepwise: bool = False  # rows may resolve one by one as their Go box is ticked (Wesnoth's ``step``)
    waits_for: tuple[str, ...] | None = None  # the seats whose Ready is awaited; None: every seat that acts
    # The turn the game's log lines of this window carry, where it is not ``turn``: Wesnoth logs the round, while
    # its windows (each player's turn) key their dice by the player-turn count. None: ``turn``.
    log_turn: int | None = None
    # What the players send the judge for this window outside its tables, by its deadline (the Coalition's
    # "strategies"); '' for none. A window that names them is the judge's own: its deadline closes what the players
    # send, and only then is the judge's part open, until the judge marks it done (her Ready), or ``judge_hours``
    # after that deadline when more than 0 (the rulebook's "the players' deadline, then the judge").
    sealed: str = ""
    judge_hours: int = 0
    # The next window whose seats type their orders during this judge's window's players' part (the Coalition's
    # movement of the next turn, sent with the strategies before the one players' deadline): its rows are stamped
    # for it, and what its seats sent by the players' deadline is read when it opens, at once, since that deadline
    # is its own; what they send after it is late. ``early_out``: subjects that cannot take orders early (armies
    # in an open battle: they fight). None: no orders are taken early.
    early: Window | None = None
    early_out: tuple[str, ...] = ()

    @property
    def logged_turn(self) -> int:
        """The turn a log line about this window carries (the GM's undo of it), as the game's own lines do."""
        return self.turn if self.log_turn is None else self.log_turn

    @property
    def awaited(self) -> tuple[str, ...]:
        """The seats the window waits for (Win or Die's acting player, not her opponent setting reactions)."""
        return self.seats if self.waits_for is None else self.waits_for


@dataclass(frozen=True, slots=True)
class Verdict:
    """The engine's answer to one part of one order, shown in the row's feedback cell."""

    seat: str
    subject: str  # the row's key: a player, unit or army name, or the seat itself for seat-wide orders
    part: str  # which part of the order: "move", "action", "skill", "recruit"…
    accepted: bool
    message: str  # a sentence a player understands: "G9 is 5 steps away; your roll is 3"
    about: str = ""  # what the order is about when ``subject`` names its row instead (a Win or Die unit): '' = subject
    # told in its row before it resolves even in a game whose verdicts wait for the resolution (``preview: false``):
    # the rules say it depends on nothing its seat may not see (Win or Die's deployment, on her own baseline)
    shown_early: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished match ended: the winning seats (none is a draw) and a sentence."""

    winners: tuple[str, ...]
    text: str


@dataclass
class Resolution(Generic[StateT]):
    """What resolving a window (or applying a GM event) produced.

    ``unused`` names, per seat, the rows (by subject) whose orders were read but not carried out, each
    with why: Win or Die's rows from the one a reaction interrupted. While the window stays open the sync
    keeps them typed, that sentence in their feedback, instead of clearing them. Most rulesets use every
    order they read and leave it empty. ``verdicts`` are the answers a resolver gave while it ran, for a
    game whose check is its resolution run on a copy (empty when the game checks separately)."""

    state: StateT
    events: list[Event]
    unused: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    verdicts: list[Verdict] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class GmOption:
    """One option of ``sheets-gm adjust --<flag> VALUE``: a kind of logged GM event the ruleset accepts."""

    flag: str  # "coins"
    metavar: str  # "TEAM=N"
    help: str
    repeatable: bool = True


def split_option(option: str, value: str, form: str, example: str) -> tuple[str, str]:
    """An ``adjust`` option's ``KEY=VALUE`` split in two, or a ValueError naming the option and the accepted form.

    >>> split_option("--coins", "red=5", "TEAM=COINS", "red=5")
    ('red', '5')
    """
    key, sep, rest = value.partition("=")
    if not sep or not key.strip() or not rest.strip():
        raise ValueError(f"{option} {value!r}: write {form}, like {example}")
    return key.strip(), rest.strip()


def shared_json(views: Sequence[Any]) -> Any:
    """What every one of ``views`` (JSON values) shows alike: a mapping's keys whose values they share, a list or a
    value they all hold equal; None when they share nothing. The public board of a game whose views are by seat.

    >>> shared_json([{"turn": 3, "fleet": ["A1"], "shots": ["B2"]}, {"turn": 3, "fleet": ["C3"], "shots": ["B2"]}])
    {'turn': 3, 'shots': ['B2']}
    """
    if not views:
        return {}
    first = views[0]
    if isinstance(first, dict) and all(isinstance(v, dict) for v in views):
        out = {}
        for key in first:
            if all(key in v for v in views):
                shared = shared_json([v[key] for v in views])
                if shared is not None or all(v[key] is None for v in views):
                    out[key] = shared
        return out
    return first if all(v == first for v in views) else None


class Bot(Protocol[_StateIn, _OrdersOut]):
    """Plays one seat: returns that seat's orders for the open window (``merge_orders`` joins the seats')."""

    def orders(self, state: _StateIn, seat: str, dice: TurnDice) -> _OrdersOut: ...


@dataclass(frozen=True, slots=True)
class BotKind:
    """A kind of bot a ruleset offers: ``make(seed)`` gives one, ``help`` says how it plays."""

    name: str
    help: str
    make: Callable[[str], Bot[Any, Any]]
    # made for practice: it plays toward the one person at the table (Champions' ``seek`` comes to her tile, so
    # that she learns the fights too). ``init --practice`` seats it rather than the default; the simulator's
    # fingerprints (bot against bot) leave it out.
    tutor: bool = False


def _no_codec(rules: object, kind: str) -> TypeError:
    """What a game whose engine class has no codec for its ``kind`` is told."""
    return TypeError(f"{type(rules).__name__} has no {kind} codec: its type argument of Ruleset[...] is no dataclass, "
                     "dict or type with to_json/from_json; declare one (state_codec = Codec(to_json, from_json))")


@lru_cache(maxsize=32)
def _board_of(ruleset: type[Ruleset[Any, Any, Any]], text: str) -> Any:
    """The board ``ruleset`` reads from ``text``, read once per process for each class and text (equal texts are one
    key, whichever string holds them; a game's settings never change how its board reads)."""
    return ruleset.read_board(text)


#: The codecs of a ruleset, in the order of ``Ruleset``'s type arguments.
_CODECS = ("state_codec", "orders_codec", "gm_event_codec")


class Ruleset(Protocol[StateT, OrdersT, GmEventT]):
    """A game's rules bound to one match's settings and board; every method is pure."""

    traits: ClassVar[RulesetTraits]
    _settings: Any  # the defaults' own fields: a game writing ``from_board``, ``settings``, ``board_text`` has none
    _board_text: str

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A game's engine class gets the codecs its type arguments make (``Codec.made_for``: ``Ruleset[MyState,
        MyOrders, dict[str, Any]]``) wherever it declares none of its own."""
        super().__init_subclass__(**kwargs)
        kinds = next((get_args(b) for b in getattr(cls, "__orig_bases__", ()) if get_origin(b) is Ruleset), ())
        for name, kind in zip(_CODECS, kinds, strict=False):
            if next(vars(c)[name] for c in cls.__mro__ if name in vars(c)) is vars(Ruleset)[name]:
                made = Codec.made_for(kind)
                if made is not None:
                    setattr(cls, name, made)

    def __init__(self, settings: Any, board: str = "") -> None:
        """The rules of a match (the default ``from_board``): its settings and its board text, kept as given. A game
        that reads its board (a map to parse) overrides ``read_board`` and this (or ``from_board``), ``settings`` and
        ``board_text``."""
        self._settings, self._board_text = settings, board

    @classmethod
    def read_board(cls, text: str) -> Any:
        """The board of its text, parsed (ValueError naming the line of a board that does not parse); by default the
        text itself. ``create`` reads each text once per process, so every match on that text shares the board: it
        must never change once read (the routes it finds may be kept with it)."""
        return text

    @classmethod
    def from_board(cls, settings: Any, board: Any) -> Self:
        """The rules of a match: its settings and the board ``read_board`` made; by default the class made with
        both (``__init__``)."""
        return cls(settings, board)

    @classmethod
    def create(cls, settings: Any, board: str) -> Self:
        """The rules of a match: its settings (an instance of ``traits.settings_type``) and its board as text (the
        match's, the default one of its template folder, or '' for a game with no board file); ValueError naming
        the line of a board that does not parse. The board is read once per process for each class and text (every
        read of a match's record creates its rules again): a game writes ``read_board`` and ``from_board``, never
        this."""
        return cls.from_board(settings, _board_of(cls, board))

    @property
    def settings(self) -> Any:
        """The match's settings (by default as ``create`` was given them)."""
        return self._settings

    @property
    def board_text(self) -> str:
        """The board as text, as the engine record stores it (by default as ``create`` was given it)."""
        return self._board_text

    # -- set-up ----------------------------------------------------------------------------
    def sample_roster(self) -> Roster:
        """A full roster of made-up members: what demos, simulations and the conformance test play."""
        ...

    def new_match(self, roster: Roster, seed: bytes) -> StateT:
        """The state before the first window (set-up draws, such as spawn tiles, are keyed by ``seed``);
        ValueError naming the roster line for a bad roster."""
        ...

    def opening_events(self, state: StateT, seed: bytes) -> list[Event]:
        """The public events of ``new_match``'s set-up draws (who plays first…), for the Log of a new
        match: the same draws from the same ``seed``; none (the default) for a game whose set-up draws nothing."""
        return []

    # -- codecs ------------------------------------------------------------------------------
    # Made from the class's type arguments (``__init_subclass__``), or declared as class attributes
    # (``orders_codec = Codec(to_json, from_json)``); properties here only because a ClassVar cannot hold the
    # protocol's type variables.
    @property
    def state_codec(self) -> Codec[StateT]:
        """States as JSON: the engine tab, the history and the replays store them."""
        raise _no_codec(self, "state")

    @property
    def orders_codec(self) -> Codec[OrdersT]:
        """A window's orders as JSON: the history and the replays store them."""
        raise _no_codec(self, "orders")

    @property
    def gm_event_codec(self) -> Codec[GmEventT]:
        """GM events as JSON: the history stores them until the next resolution."""
        raise _no_codec(self, "GM event")

    # -- play --------------------------------------------------------------------------------
    def seats(self, state: StateT) -> tuple[str, ...]:
        """Every seat of the match, in turn order."""
        ...

    def window(self, state: StateT) -> Window | None:
        """The submission window open now; None once the match is over."""
        ...

    def dice(self, seed: bytes, state: StateT, pins: Mapping[str, Any] | None = None) -> TurnDice:
        """The keyed dice of the open window's resolution."""
        ...

    def no_orders(self) -> OrdersT:
        """The orders of a window in which nobody submitted anything: by default, no part merged."""
        return self.merge_orders({})

    def merge_orders(self, parts: Mapping[str, OrdersT]) -> OrdersT:
        """One window's orders from each seat's part (what bots and seat sheets produce)."""
        ...

    def check(self, state: StateT, orders: OrdersT, dice: TurnDice) -> list[Verdict]:
        """A verdict per order part; refused parts are left out by ``resolve``. The default has none: a game
        that refuses nothing before resolving, or whose ``resolve`` gives its verdicts (``Resolution.verdicts``).

        The verdicts are shown before the window resolves, so they depend on no roll of ``dice`` but those the game
        publishes (``rolls_shown``): a game whose check is its resolution run on a copy runs it on
        ``dice.blinded(shown)`` and words a part the dice decide without its outcome (the noninterference test
        checks every game with two seeds)."""
        return []

    def resolve(self, state: StateT, orders: OrdersT, dice: TurnDice) -> Resolution[StateT]:
        """The window resolved: the new state (the input is not changed) and the events."""
        ...

    def outcome(self, state: StateT) -> Outcome | None:
        """How the match ended, or None while it goes on."""
        ...

    def view(self, state: StateT, seat: str | None) -> dict[str, Any]:
        """What ``seat`` may see, as JSON-ready data; ``None`` is the public board (nobody's view). By default a
        seat's view is its ``seat_state`` as JSON, and the public board what every seat's view shows alike: the
        whole state in a game whose only secrets are the orders not yet resolved, which never enter the state. A
        game whose views have a shape of their own overrides this (and ``seat_state``)."""
        if seat is not None:
            return self.state_codec.to_json(self.seat_state(state, seat))
        shared = shared_json([self.view(state, s) for s in self.seats(state)])
        return shared if isinstance(shared, dict) else {}

    #: The kinds of event a rule names as a reveal, a ``Reveal`` each (``engine.reveals``) naming what it reveals:
    #: the fields of the state before the resolution, the state after it or the orders that a line of the kind may
    #: tell (a fight's square and who fought in it, a unit that attacks turned face up, a sale's buyer and price). Twin
    #: matches that agree on a kind's fields give the same text for its lines, whatever else hidden differs; every
    #: other line a seat reads, the public Log's too, is the same in twins it cannot tell apart (the noninterference
    #: test across a resolution). What no reveal declares stays secret for ever, after the end too. None by default.
    reveals: ClassVar[tuple[Reveal, ...]] = ()

    def seat_state(self, state: StateT, seat: str) -> StateT:
        """The state as ``seat`` knows it: what a bot playing the seat in a match is given. What the seat's view
        shows, and in place of what it may not see a stand-in anyone at the table would assume (another player's
        face-down token as an average unit, her bag as empty). By default the state itself (nothing hidden); a
        game that hides part of its state overrides this, and the default views follow it. A game that overrides
        ``view`` overrides this too (the engine conformance test says so): a view need not have the state's shape."""
        return state

    def rolls_shown(self, state: StateT, dice: TurnDice) -> dict[str, int]:
        """The open window's rolls every seat is shown before it resolves, by dice key (GvG's movement rolls): a
        bot playing a seat in a match is given these rolls and no other, and ``check`` may depend on no other.
        None by default."""
        return {}

    def unseen_twin(self, state: StateT, seat: str, rng: random.Random) -> StateT:
        """A state that ``seat`` cannot tell from ``state``: what it may not see drawn afresh with ``rng``
        (another player's face-down units swapped between their tokens, another player's bag), everything it may
        see unchanged. The noninterference test hands a seat both and asks that nothing the seat receives
        differs. By default ``state`` itself: a game whose only secrets are the orders not yet resolved and the
        seed (the test varies those itself)."""
        return state

    def seats_out(self, state: StateT, named: Collection[str] = ()) -> frozenset[str]:
        """The seats, and members, that play no more (a Champions player knocked out, a Coalition side that conceded
        and its armies): the status line names no bot for them. ``named`` are the seats and members the core asks
        about (the ones the match's bots play): a game whose state forgets a member it lost (a destroyed Coalition
        army) tells them out by their absence. None by default."""
        return frozenset()

    def secrets(self, state: StateT, seat: str) -> list[str]:
        """Texts only ``seat`` may see (a hidden unit's id and hex, a bag's items): the conformance
        test checks that no other seat's view and no public view contains any of them. None by default
        (a game of perfect information)."""
        return []

    # -- the GM ------------------------------------------------------------------------------
    def gm_event_problem(self, state: StateT, event: GmEventT) -> str:
        """Why a GM event the GM gives now may not be applied to ``state`` although it fits the rules ('' when
        it may): its words would tell the public Log what the rules hide. Asked of a new adjustment only, never
        of one a replay applies again (a match that logged it keeps it). None by default."""
        return ""

    def apply_gm_event(self, state: StateT, event: GmEventT) -> Resolution[StateT]:
        """A GM event applied (the input state is not changed), with its logged events; a game without
        GM events (no ``gm`` part in its record) refuses every one."""
        raise ValueError(f"{self.traits.title} takes no GM events")

    def start_warnings(self, state: StateT) -> list[str]:
        """What ``init`` says of a new match that it makes but that may not be meant (a map whose castles put
        enemies together: which seat counts it suits). None by default."""
        return []

    def stand_in_gm_events(self, state: StateT) -> list[GmEventT]:
        """The GM events a stand-in GM makes now, when the match has one (Win or Die's ``stand_in_gm``): the sync
        applies them after a poll as a GM's ``adjust``. None by default."""
        return []

    def concede(self, state: StateT, seat: str, reason: str) -> Resolution[StateT]:
        """``seat`` gives up (``adjust --concede``, ``engine.gm_events``): the match ended as the game's rules end
        it, logged with ``reason`` (the input state is not changed); ValueError when it cannot be (the match is
        over, the seat is out already). A game without GM events refuses it."""
        raise ValueError(f"{self.traits.title} takes no concession")
