"""The ``GAME`` record of Win or Die: its engine class (``engine.py``) and its parts
(sheet, scenario codec, simulation, GM options), each made from a match's rules."""

from __future__ import annotations

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.winordie.bots import bot_kinds
from sheets_gm.rulesets.winordie.engine import WodRuleset
from sheets_gm.rulesets.winordie.enums import ResolveMode
from sheets_gm.rulesets.winordie.figures import WodTally, simulation_spec
from sheets_gm.rulesets.winordie.gm import OPTIONS, events_from_options
from sheets_gm.rulesets.winordie.scenario import WodScenarioCodec
from sheets_gm.rulesets.winordie.sheet.adapter import WodSheet

GAME = kit.Game(
    rules=WodRuleset,
    sheet=WodSheet,
    scenario=WodScenarioCodec,
    simulation=kit.Simulation(bots=lambda r: bot_kinds(r.rules), spec=lambda r: simulation_spec(),
                              tally=lambda r, start: WodTally(start)),
    gm=kit.GmPart(OPTIONS, events_from_options,
                  '--damage Bo-2=3 --reason "Blood Price"'),
    # deploys face down in its first two windows; its adjust example names a unit, which a twin may hide elsewhere
    tests=kit.SharedTests(warm_up=3, adjust=("--crystals", "Bo=4"), variants={"batch": {"resolve": ResolveMode.BATCH}},
                          ending=lambda _state, seats, n: ("morale", f"{seats[n % 2]}=-99")),
)
