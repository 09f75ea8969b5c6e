"""A game as one record of parts: the engine rules, and each optional part or ``None``.

This module is the record's kind (``Game``) and its parts' small types; a game's own ``game.py`` holds its record.
Like a godip ``Variant`` or a boardgame.io game object, every game package exports one ``GAME``
(in its ``game.py``) that the registry (``rulesets.registry``) maps its name to. The record says
everything the layers above ask of a game, so none of them probes a class for what it has:

- ``rules``: the engine class (``engine.ruleset.Ruleset``): set-up, windows, check, resolve, views…;
- ``sheet``: the sheet adapter (``sheets.adapter.SheetAdapter``), made from a match's rules;
- ``scenario``: the reader of the game's scenario files (``rulesets.parts.scenario.ScenarioCodec``);
- ``simulation``: its bots and what ``simulate`` counts (``rulesets.parts.figures``);
- ``gm``: the GM's ``adjust`` options and the events they make (applied by ``Ruleset.apply_gm_event``);
- ``legacy``: how to read what an earlier version of the game wrote (``rulesets.parts.legacy``, applied by
  ``sync.life.legacy``);
- ``mail``: how it reads mail to the judge (``rulesets.parts.mail.MailPart``), carried out by ``running.mailroom``;
- ``commands``: the game's own tools, ``sheets-gm <name> TOOL``, as data the command layer mounts;
- ``tests``: what the project's shared tests need of the game (``SharedTests``: house rules that end a match soon,
  the windows to play before a seat's secrets can differ), with defaults that fit a plain game.

Each part's protocol lives below this record, in ``rulesets.parts`` (the sheet adapter's in ``sheets.adapter``),
so the record and the games look only down; the layers that use a part import it from there.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from sheets_gm.engine.gm_events import CONCEDE, concession_of
from sheets_gm.engine.ruleset import BotKind, GmOption, Roster, Ruleset, RulesetTraits

if TYPE_CHECKING:  # the parts' protocols, for their types only: a command loads only the parts it uses
    from sheets_gm.rulesets.parts.figures import MatchTally, SimulationSpec
    from sheets_gm.rulesets.parts.legacy import LegacyUpgrades
    from sheets_gm.rulesets.parts.mail import MailPart
    from sheets_gm.rulesets.parts.scenario import ScenarioCodec
    from sheets_gm.sheets.adapter import SheetAdapter

RulesT = TypeVar("RulesT", bound=Ruleset[Any, Any, Any])


@dataclass(frozen=True, slots=True)
class Simulation(Generic[RulesT]):
    """What ``simulate`` plays and counts: the kinds of bot by name (the default first), the report's
    shape, and a fresh reader of one match from its first state. ``prepare``: what every process playing
    the rules' matches would otherwise compute for itself as it plays (the board's path tables), computed at once:
    ``simulate`` calls it before it forks its workers, which inherit the result instead of each computing it."""

    bots: Callable[[RulesT], Mapping[str, BotKind]]
    spec: Callable[[RulesT], SimulationSpec]
    tally: Callable[[RulesT, Any], MatchTally]
    prepare: Callable[[RulesT], None] | None = None


@dataclass(frozen=True, slots=True)
class GmPart:
    """The logged corrections a GM makes with ``sheets-gm adjust``: its options, and the GM events they
    make for a match of the given seats (ValueError naming the option and what it accepts). Whether an
    event fits the state is ``Ruleset.apply_gm_event``'s to say."""

    options: tuple[GmOption, ...]
    events_from_options: Callable[[Sequence[str], Mapping[str, Sequence[str]], str], Sequence[Any]]
    example: str  # the options of one ``adjust`` in this game, for its help: '--coins red=5 --reason "..."'


class GameCommandError(Exception):
    """A problem the user of a game's own tool can fix: the command layer prints it as one message (exit 1)."""


@dataclass(frozen=True, slots=True)
class GameCommand:
    """One of a game's own tools, ``sheets-gm <game> NAME``: its help, its arguments and what it runs.

    ``run`` returns the exit code and raises ``GameCommandError`` for a problem the user can fix."""

    name: str
    summary: str
    description: str
    example: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


@dataclass(frozen=True, slots=True)
class SharedTests:
    """What the project's shared tests (``scripts/test_game.sh``) need of a game, declared by the game itself so that
    a new one passes them without a line changed outside its package. Every default fits a plain game."""

    #: House rules (setting → value) under which a match ends in a few windows, for the tests that play one to its
    #: end: ``{"max_turns": 6}``. None: the game's own settings.
    short: Mapping[str, Any] = field(default_factory=dict)
    #: Windows every seat plays before the noninterference tests compare twin matches: enough for what a seat may
    #: not see to exist (Win or Die deploys face down in its first two windows).
    warm_up: int = 0
    #: How many seats of the sample roster (its first ones) the tests seat; 0: every one. A game whose sample is a
    #: crowd (Champions' 16) names a smaller table, which must still be a legal one.
    seats: int = 0
    #: The options of one ``adjust`` naming nothing a seat may not see (the twin tests run it on both matches);
    #: empty: the options of the GM part's example.
    adjust: tuple[str, ...] = ()
    #: House rules the input-lifecycle walk plays the sample match under, where the defaults would keep a run from its
    #: end (GvG's last turn early, so that rows typed at the end and once it is over are walked).
    walk: Mapping[str, Any] = field(default_factory=dict)
    #: House tables the lifecycle walk plays besides the sample match, by name: a house rule that changes the life of
    #: a row (``{"batch": {"resolve": ResolveMode.BATCH}}``: a seat's rows wait and resolve together at her Ready).
    variants: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: The GM's adjustment that ends the match or takes a row's subject away (a side concedes, a unit dies), as the
    #: option and value(s) of ``adjust`` for a state, its players and a number to vary it by; None: the GM part's
    #: example made of a player.
    ending: Callable[[Any, tuple[str, ...], int], tuple[str, str | list[str]]] | None = None

    def roster(self, sample: Roster) -> Roster:
        """The tests' roster: the sample roster's first ``seats`` seats and their members (every seat for 0)."""
        seats = sample.seats[:self.seats] if self.seats else sample.seats
        return Roster(seats, tuple(m for m in sample.members if m.seat in seats or m.seat not in sample.seats))


@dataclass(frozen=True, slots=True)
class Game(Generic[RulesT]):
    """One game: its engine rules and its optional parts, each None where the game has none."""

    rules: type[RulesT]
    sheet: Callable[[RulesT], SheetAdapter[Any, Any]] | None = None
    scenario: Callable[[], ScenarioCodec] | None = None
    simulation: Simulation[RulesT] | None = None
    gm: GmPart | None = None
    legacy: LegacyUpgrades | None = None
    mail: MailPart | None = None
    commands: tuple[GameCommand, ...] = ()
    tests: SharedTests = field(default_factory=SharedTests)

    @property
    def traits(self) -> RulesetTraits:
        """What the game declares about itself (its rules' traits)."""
        return self.rules.traits

    @property
    def name(self) -> str:
        """The registry name, as typed in match.toml and scenario files."""
        return self.rules.traits.name

    @property
    def gm_options(self) -> tuple[GmOption, ...]:
        """The options of ``adjust`` for this game (none without a GM part): its own, then ``--concede``, which
        every game with GM events takes (``engine.gm_events``)."""
        return (*self.gm.options, CONCEDE) if self.gm is not None else ()

    def gm_events(self, seats: Sequence[str], values: Mapping[str, Sequence[str]], reason: str) -> list[Any]:
        """The GM events ``adjust``'s options ask for (``values`` by flag, without dashes): a concession
        (``--concede SEAT``, alone), or the game's own corrections; ValueError naming what is wrong and what is
        accepted."""
        if self.gm is None:
            raise ValueError(f"a {self.name} match takes no GM events")
        if values.get(CONCEDE.flag):
            others = [f"--{flag}" for flag, given in values.items() if given and flag != CONCEDE.flag]
            if others:
                raise ValueError(f"--concede goes alone: give {', '.join(others)} in an adjust of its own")
            return [concession_of(seats, values[CONCEDE.flag], reason)]
        return list(self.gm.events_from_options(seats, {k: v for k, v in values.items() if k != CONCEDE.flag},
                                                reason))

    def sheet_of(self, rules: RulesT) -> SheetAdapter[Any, Any] | None:
        """The sheet adapter of a match with these rules, or None for a game with no sheet."""
        return self.sheet(rules) if self.sheet is not None else None

    def bots(self, rules: RulesT) -> Mapping[str, BotKind]:
        """The kinds of bot of a match with these rules (none for a game without a simulation)."""
        return self.simulation.bots(rules) if self.simulation is not None else {}


AnyGame = Game[Any]
