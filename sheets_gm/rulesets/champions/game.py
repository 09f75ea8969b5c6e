"""The ``GAME`` record of Champions: its engine class (``engine.py``) and its parts
(sheet, scenario codec, simulation, GM options), each made from a match's rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.champions.bots import ChampionsBot
from sheets_gm.rulesets.champions.engine import ChampionsRuleset
from sheets_gm.rulesets.champions.figures import ChampionsTally, simulation_spec
from sheets_gm.rulesets.champions.gm import GM_OPTIONS, events_from_options
from sheets_gm.rulesets.champions.scenario import ChampionsScenarioCodec
from sheets_gm.rulesets.champions.sheet.adapter import ChampionsSheet


def bot_kinds(ruleset: ChampionsRuleset) -> Mapping[str, kit.BotKind]:
    """``affinity`` (the default), ``stack`` and ``random``: how they equip differs (see ``bots``); ``seek``,
    practice's, goes looking for fights."""
    rules = ruleset.rules
    kinds = (
        kit.BotKind("affinity", "moves toward loot, equips items by affinity, picks sets that exploit strengths",
                    lambda seed: ChampionsBot(rules, seed, "affinity")),
        kit.BotKind("stack", "as affinity, but stacks the best items on its two healthiest champions",
                    lambda seed: ChampionsBot(rules, seed, "stack")),
        kit.BotKind("random", "random but legal orders", lambda seed: ChampionsBot(rules, seed, "random")),
        kit.BotKind("seek", "as affinity, but comes to its rivals' tiles to fight them (practice: the learner meets "
                    "the fights too)", lambda seed: ChampionsBot(rules, seed, "seek"), tutor=True),
    )
    return {kind.name: kind for kind in kinds}


def champions_out(state: Any, _seats: tuple[str, ...], n: int) -> tuple[str, list[str]]:
    """The shared tests' GM adjustment: a player's four champions killed (she is out: her rows' subjects go), or, for
    an odd ``n``, those of every player but one (the last standing wins: the match is over)."""
    alive = [p.name for p in state.alive()] or [state.players[0].name]
    out = [p for i, p in enumerate(alive) if i != n % len(alive)] if n % 2 else []
    out = out or alive[n % len(alive):][:1]
    return "health", [f"{name}.{c}=0" for name in out for c in ("gladiator", "rogue", "mage", "healer")]


GAME = kit.Game(
    rules=ChampionsRuleset,
    sheet=lambda r: ChampionsSheet(r.rules),  # a public board, each player's orders tab for both windows, her View
    scenario=ChampionsScenarioCodec,
    simulation=kit.Simulation(bots=bot_kinds, spec=lambda r: simulation_spec(r.rules.settings.max_rounds),
                              tally=lambda r, start: ChampionsTally(r.rules.table, start)),
    gm=kit.GmPart(GM_OPTIONS, events_from_options,
                  '--health Ann.mage=40 --reason "a heal was missed"'),
    tests=kit.SharedTests(short={"max_rounds": 3}, seats=4, ending=champions_out),  # a table of 4 of the sample's 16
)
