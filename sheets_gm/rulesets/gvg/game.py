"""The ``GAME`` record of GvG: its engine class (``engine.py``) and its parts
(sheet, scenario codec, simulation, GM options, legacy upgrades), each made from a match's rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.gvg.bots.base import Bot as GvgBot
from sheets_gm.rulesets.gvg.bots.objective import ObjectiveBot
from sheets_gm.rulesets.gvg.bots.random_bot import RandomBot
from sheets_gm.rulesets.gvg.engine import GvgRuleset
from sheets_gm.rulesets.gvg.figures import GvgTally, simulation_spec
from sheets_gm.rulesets.gvg.gm import OPTIONS, events_from_options
from sheets_gm.rulesets.gvg.legacy import GvgLegacy
from sheets_gm.rulesets.gvg.orders import TurnOrders
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.scenario import GvgScenarioCodec
from sheets_gm.rulesets.gvg.state import GvgState

if TYPE_CHECKING:
    from sheets_gm.rulesets.gvg.sheet.adapter import GvgSheet


@dataclass(frozen=True, slots=True)
class _SeatBot:
    """A GvG bot (which plays a team slot) seen as a core ``Bot`` (which plays a seat by name)."""

    rules: GvgRules
    bot: GvgBot

    def orders(self, state: GvgState, seat: str, dice: kit.TurnDice) -> TurnOrders:
        team = state.teams.index(seat)  # ``state.team_index`` without its call: asked for each team every turn
        part = self.bot.orders(self.rules, state, team, dice)
        # positional: a frozen dataclass's keywords cost a dictionary a call, twice a turn in a simulation
        return TurnOrders(part.players, (part.skills, ()) if team == 0 else ((), part.skills))


def bot_kinds(ruleset: GvgRuleset) -> Mapping[str, kit.BotKind]:
    """``objective`` (plays for the trees, buys skills), ``random`` and ``noskills``."""
    rules = ruleset.rules
    kinds = (
        kit.BotKind("objective", "plays for the tree and buys command skills",
                    lambda seed: _SeatBot(rules, ObjectiveBot(seed))),
        kit.BotKind("random", "random but legal orders", lambda seed: _SeatBot(rules, RandomBot(seed))),
        kit.BotKind("noskills", "the objective bot with a captain who never buys a command skill",
                    lambda seed: _SeatBot(rules, ObjectiveBot(seed, buys_skills=False))),
    )
    return {kind.name: kind for kind in kinds}


def sheet_of(ruleset: GvgRuleset) -> GvgSheet:
    """A team's orders tab (a row per player, the captain's row) and the board. Imported when first asked: the sheet
    brings the workbook and table libraries, which a simulation's workers and the engine's benchmarks never use."""
    from sheets_gm.rulesets.gvg.sheet.adapter import GvgSheet

    return GvgSheet(ruleset.rules)


def moved_onto_another(state: GvgState, _seats: tuple[str, ...], n: int) -> tuple[str, str]:
    """The shared tests' GM adjustment: a player moved onto another's tile (her typed destination and roll may no
    longer fit)."""
    players = state.players
    return "position", f"{players[n % len(players)].name}={players[(n + 1) % len(players)].at.label}"


GAME = kit.Game(
    rules=GvgRuleset,
    sheet=sheet_of,
    scenario=GvgScenarioCodec,
    simulation=kit.Simulation(bots=bot_kinds, spec=lambda r: simulation_spec(r.rules.settings.max_turns),
                              tally=lambda r, start: GvgTally(start),
                              prepare=lambda r: r.rules.board.fill_paths(r.rules.settings.movement)),
    gm=kit.GmPart(OPTIONS, events_from_options,
                  '--coins red=5 --reason "duel paid twice"'),
    legacy=GvgLegacy(),  # matches in play and replays of the old GvG layout, read in today's terms
    tests=kit.SharedTests(short={"max_turns": 6}, walk={"max_turns": 5}, ending=moved_onto_another),
)
