"""The Win or Die sheet adapter: the generic sync's questions answered for this game.

Layout: ``templates/winordie/layout.yaml``. Reading rows and typing orders: ``sheet.read``.
What is drawn (board, panel, status, shown cells): ``sheet.draw``, always from the engine's
views, so the board is nobody's view and a panel is only its player's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.registry import sheet_spec
from sheets_gm.rulesets.winordie.enums import Mode, Phase
from sheets_gm.rulesets.winordie.orders import WodOrders, action_row, reaction_row
from sheets_gm.rulesets.winordie.sheet.draw import draw_board, draw_cards, gm_panel, own_panel, tracks, unit_cells
from sheets_gm.rulesets.winordie.sheet.read import (
    ACTIONS,
    REACTIONS,
    SEAT,
    UNITS,
    read_seat,
    typed_cells,
)
from sheets_gm.rulesets.winordie.state import WodState

if TYPE_CHECKING:
    from sheets_gm.rulesets.winordie.engine import WodRuleset


@dataclass(frozen=True)
class WodSheet(kit.SheetAdapter[WodState, WodOrders]):
    """Win or Die's sheet: a player's units, numbered action and reaction rows, the hex board."""

    ruleset: WodRuleset

    @property
    def spec(self) -> kit.SheetSpec:
        """``templates/winordie/layout.yaml``."""
        return sheet_spec("winordie")

    @property
    def _fatigue_limit(self) -> int:
        return self.ruleset.settings.fatigue_limit

    def rows(self, state: WodState, seat: str, table: kit.InputTable) -> list[str]:
        """Her living units (deployed or not), numbered action or reaction rows, or her seat."""
        if table.rows == SEAT:
            return [seat]
        if table.rows == UNITS:
            return [u.id for u in state.units if u.owner == seat]
        if table.rows in (ACTIONS, REACTIONS):
            row = action_row if table.rows == ACTIONS else reaction_row
            return [row(n) for n in range(1, self._slots(table.rows) + 1)]
        return []

    def _slots(self, kind: str) -> int:
        """Her action rows (or standing reaction rows): one per command token she may hold (each action or
        reaction spends one), the layout's ``min_rows`` at least."""
        table = next(t for t in self.spec.inputs if t.rows == kind)
        settings = self.ruleset.settings
        return max(table.min_rows, settings.tokens, settings.first_turn_tokens)

    def shown(self, state: WodState, seat: str, table: kit.InputTable, subject: str,
              dice: kit.TurnDice) -> Mapping[str, kit.CellValue]:
        """A unit row's card, hex, face, damage and stats (from her own view)."""
        if table.rows != UNITS:
            return {}
        return unit_cells(self.ruleset.view(state, seat), subject)

    def read_orders(self, state: WodState, window: kit.Window, seat: str,
                    rows: Mapping[str, Sequence[kit.TypedRow]]) -> kit.SeatInput[WodOrders]:
        """Her deployment, actions or standing reactions (``sheet.read``)."""
        return read_seat(self.ruleset.rules, state, window, seat, rows)

    def placed_verdicts(self, verdicts: Sequence[kit.Verdict],
                        seat_input: kit.SeatInput[WodOrders] | None) -> list[kit.Verdict]:
        """The check's verdicts, less a deployment's refusal of a unit whose row was refused as it was read (its
        hex off the map, or taken by another row): the row says what is wrong with it once, not that its unit is
        not placed as well."""
        unread = set(seat_input.problems) if seat_input is not None else set()
        return [v for v in verdicts if not (v.part == "deploy" and not v.accepted and v.subject in unread)]

    def typed_cells(self, state: WodState, window: kit.Window, seat: str,
                    orders: WodOrders) -> Mapping[str, Mapping[str, Mapping[str, kit.CellValue]]]:
        """What she would type for ``orders`` (``sheet.read.typed_cells``)."""
        return typed_cells(window, seat, orders)

    def drawings(self, state: WodState) -> Sequence[kit.BoardDrawing]:
        """The board, and the Cards tab of every card seen so far (both public)."""
        return (self.board(state), draw_cards(self.spec, self.ruleset.view(state, None)))

    def board_tab_before(self, state: WodState, deadline: str) -> Sequence[kit.BoardDrawing]:
        """The board alone (the layout's board tab): not the Cards tab."""
        return (self.board(state),)

    def board(self, state: WodState) -> kit.BoardDrawing:
        """The hex map from the public view, the GM's pending effects under it and the fallen."""
        return draw_board(self.spec, self.ruleset.rules.board, self.ruleset.view(state, None))

    def status(self, state: WodState, window: kit.Window | None, outcome: kit.Outcome | None) -> str:
        """Where the match stands, then each legion's morale and fatigue tracks."""
        view = self.ruleset.view(state, None)
        best_of = self.ruleset.settings.best_of if self.ruleset.settings.mode is Mode.ADVANCED else 1
        line = tracks(view, self._fatigue_limit, best_of)
        if outcome is not None or window is None:
            return f"Match over: {outcome.text if outcome else 'no winner'}. {line}"
        game = f"Game {state.game} · " if best_of > 1 else ""
        if state.phase is Phase.DEPLOY:
            return f"{game}Deployment: {state.acting} places her face-down tokens. {line}"
        return f"{game}Turn {state.turn}: {state.acting}'s turn. {line}{_gm_waits(len(view['pending']))}"

    def panel(self, state: WodState, seat: str) -> kit.Grid:
        """A player's: her legion's tracks, her units hidden or not, her barrack and her cards' abilities.
        The GM's: the effects to apply, then every unit."""
        if seat == kit.GM:
            return gm_panel(self.ruleset.view(state, None)["pending"],
                            [self.ruleset.view(state, s) for s in state.seats])
        return own_panel(self.ruleset.view(state, seat), seat, self._fatigue_limit)


def _gm_waits(pending: int) -> str:
    """What the status line says of the GM's list: the effects that wait for a person to apply them with
    ``sheets-gm adjust`` (a practice match has no GM but the learner), or nothing when none waits.

    >>> _gm_waits(0), _gm_waits(2)
    ('', ' · 2 card effects wait for the GM: apply each with sheets-gm adjust, then --done N')
    """
    if not pending:
        return ""
    return (f" · {pending} card effect{'s' if pending != 1 else ''} wait{'s' if pending == 1 else ''} for the GM: "
            "apply each with sheets-gm adjust, then --done N")
