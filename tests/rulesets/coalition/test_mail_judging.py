"""Which of a side's mailed strategies counts for a battle (``mail.judging``): the latest, read in the order the
judge's server received them."""

from __future__ import annotations

from sheets_gm.rulesets.coalition.enums import BattleType, Phase
from sheets_gm.rulesets.coalition.mail.judging import battle_strategies
from sheets_gm.rulesets.coalition.state import Battle
from sheets_gm.rulesets.parts.mail import Sealed
from tests.rulesets.coalition.helpers import army, state

BATTLE = Battle(BattleType.ATTACKS, "Dominaria 4C", ("Rabid Cat", "Various Puppies"))
STATE = state(army("Rabid Cat", "coalition", "4C"), army("Various Puppies", "phyrexia", "4C"), battles=(BATTLE,),
              phase=Phase.RESULTS)


def _strategy(player: str, received: str, text: str) -> Sealed:
    return Sealed("Dominaria 4C", "Rabid Cat attacks Various Puppies", "coalition", f"{player.lower()}@example.org",
                  player, received, (), f"{player}: Rabid Cat attacks Various Puppies", text)


def test_of_two_strategies_received_in_the_same_second_the_one_read_last_counts() -> None:
    # IMAP's arrival time is to the second: a player who mails a correction at once (or her leader a minute
    # later within one poll's batch) sends two mails of one second; the mailbox reads them in UID order, the
    # server's own order of arrival, so the later of the two is the one read last
    first = _strategy("Ann", "2026-11-28T12:08:28+00:00", "first")
    second = _strategy("Cy", "2026-11-28T12:08:28+00:00", "the correction")
    [found] = battle_strategies(STATE, [first, second])
    assert found.counts["coalition"] is second
    [found] = battle_strategies(STATE, [_strategy("Ann", "2026-11-28T12:08:27+00:00", "older"), first])
    assert found.counts["coalition"] is first
