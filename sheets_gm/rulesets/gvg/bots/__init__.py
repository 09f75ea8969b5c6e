"""Bots that give one team's orders from any state: a random one and one that plays to win.

They drive the benchmark now, and the demo and simulations later. Every order a bot gives
is one that ``check_orders`` accepts: destinations come from the engine's own path
distances and movement reach, skills from its cooldowns and costs. A bot reads the turn's
published movement rolls with ``TurnDice.peek`` so it records no roll.

Each bot owns a ``random.Random`` seeded at construction: given the bots' seeds and the
match seed, a match replays exactly. The generator advances with every call, so replaying a
match needs fresh bots (or bots built with the same seeds).

The modules: ``base`` (a team's orders, the bot protocol, a match between two bots), ``random_bot``, the
objective bot (``objective``, its turn plan in ``plan``, a player's ``job`` in it, and its steps in ``skills``,
``fights`` and ``moves``), and what they share: the board's ``geometry`` (path distances, best steps and jobs,
kept per board) and the ``captain``'s purse.

>>> from sheets_gm.rulesets.gvg.board import GvgMap
>>> from sheets_gm.rulesets.gvg.bots.base import play_match
>>> from sheets_gm.rulesets.gvg.bots.objective import ObjectiveBot
>>> from sheets_gm.rulesets.gvg.bots.random_bot import RandomBot
>>> from sheets_gm.rulesets.gvg.rules import GvgRules
>>> from sheets_gm.rulesets.gvg.settings import GvgSettings
>>> from sheets_gm.rulesets.gvg.setup import RosterEntry, new_match
>>> board = GvgMap.from_text("base1 stair1 . bulwark2 fish2 stair2 base2")
>>> rules = GvgRules(board, GvgSettings(max_turns=30))
>>> roster = [RosterEntry("Ann", "red", "dps"), RosterEntry("Bo", "blue", "tank")]
>>> state = new_match(board, ("red", "blue"), roster, rules.settings)
>>> result = play_match(rules, state, (ObjectiveBot(1), RandomBot(2)), b"seed")
>>> result.state.finished
True
"""
