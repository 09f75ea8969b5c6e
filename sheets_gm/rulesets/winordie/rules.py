"""One match's fixed part (map, settings, the GM's tables) and the small rules every module shares:
how a unit is named in the public log, revealing, dying and the two defeat conditions."""

from __future__ import annotations

from dataclasses import dataclass

from sheets_gm.engine.events import Event
from sheets_gm.rulesets.winordie.board import WodMap
from sheets_gm.rulesets.winordie.cards import CardTables
from sheets_gm.rulesets.winordie.enums import Ending, EventKind, Mode, Phase
from sheets_gm.rulesets.winordie.settings import WodSettings
from sheets_gm.rulesets.winordie.state import Unit, WodState


@dataclass(frozen=True, slots=True)
class WodRules:
    """The rules of one match: its map, its settings and the cards, line-ups and tactics tables.
    ``one_game`` stops play when the current game ends, the next game of a best of three not begun
    (a scenario plays one game, so that ``expect`` sees the state at its end)."""

    board: WodMap
    settings: WodSettings
    tables: CardTables
    one_game: bool = False

    @property
    def games_to_win(self) -> int:
        """Games a player must win to win the match: more than half of ``best_of`` in advanced mode, else 1."""
        return self.settings.best_of // 2 + 1 if self.settings.mode is Mode.ADVANCED else 1


def public_name(state: WodState, unit: Unit) -> str:
    """How the public log names a unit: its face-down token while hidden, else its id and card."""
    if unit.hidden:
        return f"{unit.token or unit.owner + ' (face down)'}"
    return f"{unit.id} ({unit.card})"


def identity(unit: Unit) -> str:
    """A hidden unit's secret: which unit its face-down token is (only its owner may read it)."""
    return f"{unit.token or 'undeployed'}: {unit.id} ({unit.card})"


def reveal(state: WodState, unit: Unit, events: list[Event], why: str) -> None:
    """Turn a hidden unit face up, with a public event saying which unit the token was."""
    if not unit.hidden:
        return
    token = unit.token
    unit.hidden = False
    events.append(Event(state.turn, EventKind.REVEALED, f"{token} is revealed ({why}): {unit.id} ({unit.card}).",
                        {"token": token, "unit": unit.id, "card": unit.card}))


def kill(state: WodState, unit: Unit, events: list[Event], why: str) -> None:
    """Remove a dead unit; its legion loses the unit's morale."""
    unit.hidden = False
    state.units.remove(unit)
    state.dead.append(unit)
    legion = state.legions[unit.owner]
    loss = state.morale_of(unit)
    legion.morale -= loss
    events.append(Event(state.turn, EventKind.DIED,
                        f"{unit.id} ({unit.card}) dies ({why}); {unit.owner}'s morale falls by {loss} to "
                        f"{legion.morale}.",
                        {"unit": unit.id, "card": unit.card, "owner": unit.owner, "morale_lost": loss}))


def defeated(rules: WodRules, state: WodState, seat: str) -> Ending | None:
    """How ``seat`` has lost, if she has: fatigue at the limit, or morale at or below fatigue."""
    legion = state.legions[seat]
    if legion.fatigue >= rules.settings.fatigue_limit:
        return Ending.FATIGUE
    if legion.morale <= legion.fatigue:
        return Ending.MORALE
    return None


def check_defeat(rules: WodRules, state: WodState, events: list[Event]) -> bool:
    """End the game if a legion has lost (both at once: the current turn player wins); True if it ended."""
    if state.phase is not Phase.ACTIONS:
        return False
    lost = {seat: how for seat in state.seats if (how := defeated(rules, state, seat)) is not None}
    if not lost:
        return False
    loser = state.other(state.acting) if len(lost) == 2 else next(iter(lost))
    finish_game(rules, state, state.other(loser), lost[loser], events)
    return True


def finish_game(rules: WodRules, state: WodState, winner: str, how: Ending, events: list[Event]) -> None:
    """Record a game's winner; the match ends, or (best of three) the next game is set up, its loser first."""
    from sheets_gm.rulesets.winordie.setup import setup_game  # setup builds on these rules

    loser = state.other(winner)
    state.games.append((winner, how))
    state.legions[winner].wins += 1
    reason = {Ending.MORALE: f"{loser}'s morale fell to her fatigue: a glorious victory",
              Ending.FATIGUE: f"{loser}'s fatigue reached {rules.settings.fatigue_limit}: a battle triumph",
              Ending.SURRENDER: f"{loser} surrenders"}[how]
    legion = state.legions[winner]
    events.append(Event(state.turn, EventKind.GAME_WON, f"{winner} wins game {state.game} ({reason}).",
                        {"winner": winner, "game": state.game, "ending": how.value}))
    if rules.one_game and legion.wins < rules.games_to_win:
        state.phase = Phase.OVER  # the game is over; the match would go on, but not here
        return
    if legion.wins >= rules.games_to_win:
        state.phase = Phase.OVER
        state.winner = winner
        if rules.games_to_win > 1:
            score = f"{legion.wins}-{state.legions[loser].wins}"
            events.append(Event(state.turn, EventKind.MATCH_WON, f"{winner} wins the match {score}.",
                                {"winner": winner, "score": score}))
        return
    setup_game(rules, state, state.game + 1, loser, events)
