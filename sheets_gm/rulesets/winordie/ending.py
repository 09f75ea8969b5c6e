"""How a game of Win or Die ends: a legion beaten by fatigue or morale, the winner recorded, and (best of three)
the next game set up with its loser first."""

from __future__ import annotations

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.winordie.enums import Ending, EventKind, Phase
from sheets_gm.rulesets.winordie.rules import WodRules
from sheets_gm.rulesets.winordie.setup import setup_game
from sheets_gm.rulesets.winordie.state import WodState


def defeated(rules: WodRules, state: WodState, seat: str) -> Ending | None:
    """How ``seat`` has lost, if she has: fatigue at the limit, or morale at or below fatigue."""
    legion = state.legions[seat]
    if legion.fatigue >= rules.settings.fatigue_limit:
        return Ending.FATIGUE
    if legion.morale <= legion.fatigue:
        return Ending.MORALE
    return None


def check_defeat(rules: WodRules, state: WodState, events: list[kit.Event]) -> bool:
    """End the game if a legion has lost (both at once: the current turn player wins); True if it ended."""
    if state.phase is not Phase.ACTIONS:
        return False
    lost = {seat: how for seat in state.seats if (how := defeated(rules, state, seat)) is not None}
    if not lost:
        return False
    loser = state.other(state.acting) if len(lost) == 2 else next(iter(lost))
    finish_game(rules, state, state.other(loser), lost[loser], events)
    return True


def finish_game(rules: WodRules, state: WodState, winner: str, how: Ending, events: list[kit.Event]) -> None:
    """Record a game's winner; the match ends, or (best of three) the next game is set up, its loser first."""
    loser = state.other(winner)
    state.games.append((winner, how))
    state.legions[winner].wins += 1
    reason = {Ending.MORALE: f"{loser}'s morale fell to her fatigue: a glorious victory",
              Ending.FATIGUE: f"{loser}'s fatigue reached {rules.settings.fatigue_limit}: a battle triumph",
              Ending.SURRENDER: f"{loser} surrenders"}[how]
    legion = state.legions[winner]
    events.append(kit.Event(state.turn, EventKind.GAME_WON, f"{winner} wins game {state.game} ({reason}).",
                            {"winner": winner, "game": state.game, "ending": how.value}))
    if rules.one_game and legion.wins < rules.games_to_win:
        state.phase = Phase.OVER  # the game is over; the match would go on, but not here
        return
    if legion.wins >= rules.games_to_win:
        state.phase = Phase.OVER
        state.winner = winner
        if rules.games_to_win > 1:
            score = f"{legion.wins}-{state.legions[loser].wins}"
            events.append(kit.Event(state.turn, EventKind.MATCH_WON, f"{winner} wins the match {score}.",
                                    {"winner": winner, "score": score}))
        return
    setup_game(rules, state, state.game + 1, loser, events)
