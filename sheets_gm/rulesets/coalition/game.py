"""The ``GAME`` record of the Coalition–Phyrexia war game: its engine class (``engine.py``) and its parts
(sheet, scenario codec, simulation, GM options), each made from a match's rules."""

from __future__ import annotations

from collections.abc import Mapping

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.bots import CoalitionBot
from sheets_gm.rulesets.coalition.engine import CoalitionRuleset
from sheets_gm.rulesets.coalition.figures import CoalitionTally, simulation_spec
from sheets_gm.rulesets.coalition.gm import OPTIONS, events_from_options
from sheets_gm.rulesets.coalition.mail.filing import CoalitionMail
from sheets_gm.rulesets.coalition.scenario import CoalitionScenarioCodec
from sheets_gm.rulesets.coalition.sheet.adapter import CoalitionSheet


def bot_kinds(ruleset: CoalitionRuleset) -> Mapping[str, kit.BotKind]:
    """``commander`` (raids, engages what it outnumbers, marches on structures) and ``cautious``; the
    judge's seat is played by the stand-in judge whatever the kind."""
    board, settings = ruleset.board, ruleset.settings
    kinds = (
        kit.BotKind("commander", "raids weak armies, engages what it outnumbers, marches on enemy structures "
                             "and features; the judge's seat gets the automatic stand-in judge",
                    lambda seed: CoalitionBot(board, settings, seed)),
        kit.BotKind("cautious", "marches on structures and features, fights only one time in five",
                    lambda seed: CoalitionBot(board, settings, seed, aggression=0.2)),
    )
    return {kind.name: kind for kind in kinds}


GAME = kit.Game(
    rules=CoalitionRuleset,
    # armies' orders rows per side, the judge's result rows, three planes
    sheet=lambda r: CoalitionSheet(r.board, r.settings.strategies_to),
    scenario=CoalitionScenarioCodec,
    simulation=kit.Simulation(bots=bot_kinds, spec=lambda r: simulation_spec(r.settings.max_turns),
                              tally=lambda r, start: CoalitionTally(start)),
    gm=kit.GmPart(OPTIONS, events_from_options,
                  '--vp coalition=120 --reason "judge ruling on the raid"'),
    mail=CoalitionMail(),
    tests=kit.SharedTests(short={"max_turns": 3}, ending=lambda _state, seats, n: ("concede", seats[n % 2])),
)
