"""The shared engine checks, run on a game the tests hold in hand (the suite's own toy games: no registry, no sheet):
each check as the shared test for every game makes it, by the same function, named by what it holds.

``failures`` plays one seeded bot match of the game and runs them all; a check that finds nothing gives ''. The toy
games (``auction.py``, ``scouts.py``, ``coins.py``) plant a mistake each setting, and ``test_toy_games.py`` asserts that
the check meant for it fails, and that each clean toy passes every one.
"""

from __future__ import annotations

from collections.abc import Mapping

from sheets_gm.engine.ruleset import BotKind, Information
from tests.conformance.noninterference import AnyRuleset
from tests.conformance.test_engine_conformance import drawn_outside, play, reused_keys
from tests.conformance.test_noninterference import leaks
from tests.conformance.test_noninterference_resolution import said, walk

#: The shared checks by name: what each holds.
CHECKS = {
    "dice": "the rules draw only the match's dice (test_engine_conformance.py)",
    "keys": "each window has a key of its own (test_engine_conformance.py)",
    "views": "a seat is handed the same whatever it may not see (test_noninterference.py)",
    "resolution": "a resolution tells a seat nothing its rules hide but their reveals, and keeps nothing of orders "
                  "it did not carry out (test_noninterference_resolution.py)",
}


def failures(rules: AnyRuleset, bots: Mapping[str, BotKind], seed: bytes = b"toy") -> dict[str, str]:
    """What each shared check (``CHECKS``) says of a bot match of ``rules`` (its bots of ``bots``): '' where it
    passes. Every state and window is walked (a toy's match is short); a walk across the resolutions that compared
    no twins of the hidden state, in a game that hides some, fails too (as the shared test does)."""
    match = play(rules, seed, kinds=bots)
    walked = walk(rules, match, every=1, bots=bots)
    idle = rules.traits.information is Information.HIDDEN_STATE and not walked.hidden
    return {"dice": drawn_outside(match), "keys": reused_keys(match),
            "views": " | ".join(leaks(rules, match, 1, every=1, bots=bots)[:4]),
            "resolution": said(rules, walked) if walked.found else
            "no twins of its hidden state were compared: the walk proves nothing" if idle else ""}


def failing(rules: AnyRuleset, bots: Mapping[str, BotKind]) -> dict[str, str]:
    """The shared checks that fail on a bot match of ``rules``, each with what it says."""
    return {name: said_ for name, said_ in failures(rules, bots).items() if said_}
