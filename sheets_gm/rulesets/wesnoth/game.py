"""The ``GAME`` record of the Wesnoth board game: its engine class (``engine.py``) and its parts
(sheet, scenario codec, simulation, GM options, own commands), each made from a match's rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.wesnoth.bots import RandomBot, SkirmisherBot
from sheets_gm.rulesets.wesnoth.commands import COMMANDS
from sheets_gm.rulesets.wesnoth.engine import WesnothRuleset
from sheets_gm.rulesets.wesnoth.figures import WesnothTally, simulation_spec
from sheets_gm.rulesets.wesnoth.gm import GM_OPTIONS, events_from_options
from sheets_gm.rulesets.wesnoth.scenario import WesnothScenarioCodec
from sheets_gm.rulesets.wesnoth.settings import ResolveMode
from sheets_gm.rulesets.wesnoth.sheet.adapter import WesnothSheet


def bot_kinds(ruleset: WesnothRuleset) -> Mapping[str, kit.BotKind]:
    """``skirmisher`` (the default) and ``random``."""
    rules = ruleset.rules
    kinds = (
        kit.BotKind("skirmisher", "recruits, takes villages, attacks where the expected exchange is good, "
                    "retreats to heal", lambda seed: SkirmisherBot(rules, seed, ruleset.ahead)),
        kit.BotKind("random", "random but legal rows", lambda seed: RandomBot(rules, seed, ruleset.ahead)),
    )
    return {kind.name: kind for kind in kinds}


def ending(state: Any, seats: tuple[str, ...], n: int) -> tuple[str, str]:
    """The shared tests' GM adjustment that takes a row's subject away: a unit wounded to death (gold for a side
    while there is none)."""
    return ("wounds", f"{state.units[n % len(state.units)].id}=99") if state.units else ("gold", f"{seats[n % 2]}=5")


GAME = kit.Game(
    rules=WesnothRuleset,
    # a row per unit with its Go box, the leader's recruits, End turn; the hex board and the Units tab
    sheet=WesnothSheet,
    scenario=WesnothScenarioCodec,
    simulation=kit.Simulation(bots=bot_kinds, spec=lambda r: simulation_spec(r.settings.max_rounds),
                              tally=lambda r, start: WesnothTally(start)),
    gm=kit.GmPart(GM_OPTIONS, lambda seats, values, reason: events_from_options(values, reason),
                  '--gold Ann=12 --reason "miscounted income"'),
    commands=COMMANDS,
    tests=kit.SharedTests(short={"max_rounds": 4}, variants={"batch": {"resolve": ResolveMode.BATCH}}, ending=ending),
)
