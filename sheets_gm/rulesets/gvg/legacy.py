"""GvG matches and replays of the old layout (GvG's own sync, before the generic one), in today's terms.

What the old code wrote, kept here as data so it can be read after that code is deleted:

- the engine tab: keys in A2:A12 (``OLD_KEYS``) with their values in column B, then from row 21
  one history row per resolved turn: the turn in A, in B ``{"turn", "orders", "state_before",
  "log_from", "events", "gm_events"}``; ``gm_events`` is ``{"state_before", "events"}`` or null;
- each team's orders tab ``Orders <team>``: a row per player from row 5 (name, for turn, move
  roll, destination, action, teleport, …), then a row headed ``Captain`` and the captain's row
  (name, for turn, seven skill cells, Ready);
- the replays: v1 (``turns`` of orders and state_before) and v2 (v1 with ``gm_events`` per turn
  and ``gm_events_after``), both with ``teams`` and ``map``.

GvG's generic seats are its two team names and its windows are keyed ``str(turn)``: the n-th
resolution of an old match is the resolution of turn n.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sheets_gm.engine.settings import SettingError, parse_settings, settings_to_mapping
from sheets_gm.rulesets.gvg.board import GvgMap, MapError
from sheets_gm.rulesets.gvg.orders import PlayerOrder, TurnOrders, orders_to_json
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.state import GvgState
from sheets_gm.rulesets.parts.legacy import CarriedOrders, LegacyError, RawCells, UpgradedMatch

OLD_KEYS = ("ruleset", "turn", "state", "seed", "seed_hash", "settings", "map", "log_rows", "deadline", "teams",
            "gm_events")
#: Keys only the old record has, in their old rows (the generic record has window, board and seats there).
_OLD_ONLY = {1: "turn", 6: "map", 9: "teams"}
OLD_HISTORY_ROW = 21
OLD_ORDERS_FIRST_ROW = 5
OLD_ORDER_COLUMNS = (3, 4, 5)  # destination, action, teleport (0-based)
OLD_CAPTAIN_SKILLS = range(2, 9)
OLD_CAPTAIN_READY = 9
REPLAY_V1 = "sheets-gm replay v1"
REPLAY_V2 = "sheets-gm replay v2"


def _cell(raw: RawCells, row: int, col: int) -> Any:
    """The value of a 1-based row, 0-based column ('' beyond what was read)."""
    line = raw[row - 1] if row - 1 < len(raw) else ()
    return line[col] if col < len(line) and line[col] is not None else ""


def _json_cell(raw: RawCells, row: int, what: str, where: str) -> Any:
    text = str(_cell(raw, row, 1))
    try:
        return json.loads(text) if text.strip() else None
    except json.JSONDecodeError as exc:
        raise LegacyError(f"{where}: cell B{row} ({what}) is not readable JSON ({exc.msg} at character "
                          f"{exc.pos}); restore the engine tab from a backup") from None


def _placed(where: str, exc: Exception) -> str:
    """``exc``'s message, led by ``where`` unless it already says where it is."""
    text = str(exc)
    return text if text.startswith(where.split(":")[0]) else f"{where}: {text}"


def detect_record(raw: RawCells) -> bool:
    """Whether the engine tab's cells (from A1) hold the old record: one of the keys only it has in its row."""
    return any(str(_cell(raw, 2 + i, 0)).strip() == key for i, key in _OLD_ONLY.items())


def _seat_part(orders: Mapping[str, Any], state_before: Mapping[str, Any], team: int) -> dict[str, Any]:
    """The orders of team slot ``team`` alone: its players' orders and its own skills slot."""
    teams_of = {str(p.get("name")): p.get("team") for p in state_before.get("players", [])}
    skills = [list(s) for s in orders.get("skills", [[], []])]
    own: list[list[Any]] = [[], []]
    own[team] = skills[team] if team < len(skills) else []
    return {"players": {n: o for n, o in orders.get("players", {}).items() if teams_of.get(n) == team},
            "skills": own}


def upgrade_record(raw: RawCells, where: str) -> UpgradedMatch:
    """The old engine tab (cells from A1, history rows included) as the generic record of the same match."""
    from sheets_gm.rulesets.gvg.sheet.read import parse_turn  # the cell readers need pydantic: loaded when used

    for i, key in enumerate(OLD_KEYS):
        found = str(_cell(raw, i + 2, 0)).strip()
        if found != key:
            raise LegacyError(f"{where}: cell A{i + 2} should say {key!r} but says {found!r}: this is not an "
                              "engine tab of the old GvG layout, or it was edited; restore it from a backup")
    row = {key: i + 2 for i, key in enumerate(OLD_KEYS)}
    try:
        state_json = _json_cell(raw, row["state"], "state", where)
        state = GvgState.from_json(state_json)
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        raise LegacyError(f"{where}: cell B{row['state']} (state) does not hold a GvG state ({exc}); restore the "
                          "engine tab from a backup") from None
    try:
        settings = parse_settings(GvgSettings, _json_cell(raw, row["settings"], "settings", where) or {},
                                  where=f"{where} cell B{row['settings']} (settings)")
    except SettingError as exc:
        raise LegacyError(_placed(f"{where}: cell B{row['settings']} (settings)", exc)) from None
    board = str(_cell(raw, row["map"], 1))
    try:
        GvgMap.from_text(board, where=f"{where} cell B{row['map']} (map)")
    except MapError as exc:
        raise LegacyError(_placed(f"{where}: cell B{row['map']} (map)", exc)) from None
    teams = _json_cell(raw, row["teams"], "teams", where)
    if not (isinstance(teams, list) and len(teams) == 2 and all(isinstance(t, str) for t in teams)):
        raise LegacyError(f"{where}: cell B{row['teams']} (teams) should hold the two team names as a JSON list, "
                          f"like [\"red\", \"blue\"], not {_cell(raw, row['teams'], 1)!r}")
    if tuple(teams) != state.teams:
        raise LegacyError(f"{where}: cell B{row['teams']} names the teams {teams} but the state's are "
                          f"{list(state.teams)}; restore the engine tab from a backup")
    seed_text = str(_cell(raw, row["seed"], 1)).strip()
    try:
        seed = bytes.fromhex(seed_text)
    except ValueError:
        raise LegacyError(f"{where}: cell B{row['seed']} (seed) should hold the match seed in hexadecimal, not "
                          f"{seed_text[:20]!r}") from None
    turn_cell = parse_turn(_cell(raw, row["turn"], 1))
    if turn_cell != state.turn:
        raise LegacyError(f"{where}: cell B{row['turn']} (turn) says {_cell(raw, row['turn'], 1)!r} but the state is "
                          f"at turn {state.turn}; restore the engine tab from a backup")
    log_rows = parse_turn(_cell(raw, row["log_rows"], 1))
    pending = _json_cell(raw, row["gm_events"], "gm_events", where)
    if pending is not None and not (isinstance(pending, dict) and {"state_before", "events"} <= pending.keys()):
        raise LegacyError(f"{where}: cell B{row['gm_events']} (gm_events) should hold the pending GM events "
                          "({\"state_before\": …, \"events\": […]}) or be empty")
    resolved = state.turn if state.finished else state.turn - 1
    history: list[dict[str, Any]] = []
    seat_orders: list[dict[str, dict[str, Any]]] = []
    for turn in range(1, resolved + 1):
        at = OLD_HISTORY_ROW + turn - 1
        entry = _json_cell(raw, at, f"the history of turn {turn}", where)
        if not isinstance(entry, dict) or entry.get("turn") != turn or str(_cell(raw, at, 0)).strip() != str(turn):
            raise LegacyError(f"{where}: row {at} should hold the history of turn {turn} (the turn in A{at}, its "
                              f"record in B{at}); restore the engine tab from a backup")
        try:
            orders, before = dict(entry["orders"]), dict(entry["state_before"])
        except (KeyError, TypeError, ValueError) as exc:
            raise LegacyError(f"{where}: cell B{at} (the history of turn {turn}) lacks {exc}") from None
        history.append({"resolution": turn, "window": str(turn), "orders": orders, "state_before": before,
                        "log_from": int(entry.get("log_from") or 0), "events": int(entry.get("events") or 0),
                        "seat_logs_from": {}, "gm_events": entry.get("gm_events")})
        seat_orders.append({team: _seat_part(orders, before, i) for i, team in enumerate(state.teams)})
    return UpgradedMatch(
        ruleset="gvg", settings=settings_to_mapping(settings), board=board, state=state_json, seed=seed,
        seed_hash=str(_cell(raw, row["seed_hash"], 1)).strip(), seats=state.teams, log_rows=log_rows or 0,
        deadline=str(_cell(raw, row["deadline"], 1)).strip(), resolved=resolved, gm_events=pending,
        history=tuple(history), seat_orders=tuple(seat_orders))


def carried_orders(raw: RawCells, state_json: Mapping[str, Any], seat: str) -> CarriedOrders:
    """What ``seat``'s players and captain typed for the open turn in the old orders tab (cells from A1)."""
    # the cell readers need pydantic: loaded when used
    from sheets_gm.rulesets.gvg.sheet.read import parse_captain_cells, parse_order_cells, parse_turn

    try:
        state = GvgState.from_json(state_json)
        team = state.teams.index(seat)
    except (KeyError, ValueError, TypeError, IndexError):
        return CarriedOrders(None, (f"the orders of {seat} were not carried: the match has no team {seat!r}",))
    members = {p.name for p in state.players if p.team == team}
    players: dict[str, PlayerOrder] = {}
    dropped: list[str] = []
    skills: tuple[Any, ...] = ()
    row = OLD_ORDERS_FIRST_ROW
    while row <= len(raw):
        name = str(_cell(raw, row, 0)).strip()
        if name == "Captain":  # the captain's header; the captain's row follows
            captain_row = row + 1
            if parse_turn(_cell(raw, captain_row, 1)) in (state.turn, None):
                cells = [_cell(raw, captain_row, c) for c in OLD_CAPTAIN_SKILLS]
                parsed = parse_captain_cells(cells, _cell(raw, captain_row, OLD_CAPTAIN_READY))
                skills = parsed.skills
                dropped += [f"{seat}'s captain's skill cell: {p}" for p in parsed.problems]
                if parsed.ready:
                    dropped.append(f"{seat}'s captain's Ready tick (the captain ticks it again in the new tab)")
            break
        if name in members and parse_turn(_cell(raw, row, 1)) in (state.turn, None):
            cells = [_cell(raw, row, c) for c in OLD_ORDER_COLUMNS]
            parsed_order = parse_order_cells(cells[0], cells[1], cells[2])
            if parsed_order.order is not None:
                players[name] = parsed_order.order
            dropped += [f"{name}'s order: {p}" for p in parsed_order.problems]
        row += 1
    if not players and not skills:
        return CarriedOrders(None, tuple(dropped))
    slots: list[tuple[Any, ...]] = [(), ()]
    slots[team] = skills
    return CarriedOrders(orders_to_json(TurnOrders(players=players, skills=(slots[0], slots[1]))), tuple(dropped))


def upgrade_replay(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A v1 or v2 replay as a generic windows replay (without its ``format``, which the reader sets)."""
    fmt = doc.get("format")
    if fmt not in (REPLAY_V1, REPLAY_V2):
        raise LegacyError(f"format {fmt!r} is not an old GvG replay ({REPLAY_V1!r} or {REPLAY_V2!r})")
    missing = [k for k in ("teams", "seed", "seed_hash", "settings", "map", "initial_state", "turns", "final_state")
               if k not in doc]
    if missing:
        raise LegacyError(f"the replay ({fmt}) lacks {', '.join(repr(k) for k in missing)}")
    resolutions = []
    for i, entry in enumerate(doc["turns"], start=1):
        if not isinstance(entry, Mapping) or not {"turn", "orders", "state_before"} <= entry.keys():
            raise LegacyError(f"the replay's turn {i} should hold 'turn', 'orders' and 'state_before'")
        resolutions.append({"resolution": i, "window": str(entry["turn"]),
                            "gm_events": list(entry.get("gm_events", [])), "orders": entry["orders"],
                            "state_before": entry["state_before"]})
    return {"ruleset": "gvg", "seats": list(doc["teams"]), "seed": doc["seed"], "seed_hash": doc["seed_hash"],
            "settings": doc["settings"], "board": doc["map"], "initial_state": doc["initial_state"],
            "resolutions": resolutions, "gm_events_after": list(doc.get("gm_events_after", [])),
            "final_state": doc["final_state"]}


class GvgLegacy:
    """GvG's ``LegacyUpgrades``: the old layout's engine record, orders tabs and replays v1 and v2."""

    layout_name: str = "GvG"
    replay_formats: tuple[str, ...] = (REPLAY_V1, REPLAY_V2)
    #: The old board spreadsheet's Players tab (the new board shows the players itself). The Roster tab, where
    #: the GM may have typed the roster, stays: repair reads the players' e-mails from it.
    old_tabs: tuple[str, ...] = ("Players",)

    def detect(self, raw: RawCells) -> bool:
        """Whether the engine tab's cells are the old record."""
        return detect_record(raw)

    def upgrade_record(self, raw: RawCells, where: str) -> UpgradedMatch:
        """The old engine tab as the generic record."""
        return upgrade_record(raw, where)

    def orders_tab(self, seat: str) -> str:
        """``Orders <team>``."""
        return f"Orders {seat}"

    def carried_orders(self, raw: RawCells, state: Mapping[str, Any], seat: str) -> CarriedOrders:
        """What the team typed for the open turn."""
        return carried_orders(raw, state, seat)

    def upgrade_replay(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        """A v1 or v2 replay as a windows replay."""
        return upgrade_replay(doc)
