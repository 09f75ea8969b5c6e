"""Exporting a match: the workbook (.xlsx), CSV per tab (formula injection neutralised), a JSON replay.

The replay holds the initial state, every turn's orders and the GM events before it, the
settings, the map and the seed, so anyone can recompute every roll and every state
(``replay_states``).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sheets_gm.engine.core.dice import TurnDice, seed_hash
from sheets_gm.engine.core.diff import first_difference
from sheets_gm.engine.core.settings import parse_settings, settings_to_mapping
from sheets_gm.rulesets.gvg.board import GvgMap
from sheets_gm.rulesets.gvg.gm import GmEventError, apply_gm_event
from sheets_gm.rulesets.gvg.resolve import resolve_turn
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.sheet.layout import LOG_ROWS
from sheets_gm.rulesets.gvg.sheet.positions import GvgPositions
from sheets_gm.rulesets.gvg.sheet.template import SheetTemplate, default_template
from sheets_gm.rulesets.gvg.state import GvgState, gm_event_from_json, orders_from_json
from sheets_gm.sheets.backend import SheetBackend, SheetError
from sheets_gm.sheets.layout import CellValue, Grid
from sheets_gm.sync.record import EngineRecord
from sheets_gm.sync.sheets import MatchSheets, ReadBatch
from sheets_gm.sync.snapshot import Snapshot, read_snapshot

REPLAY_FORMAT = "sheets-gm replay v2"
#: Formats ``replay_states`` reads: v1 had no GM events (a v1 reader stops at a v2 file rather than mismatch).
REPLAY_FORMATS = ("sheets-gm replay v1", REPLAY_FORMAT)
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class ReplayError(ValueError):
    """A replay file that is malformed or does not reproduce its own states."""


def neutralise(value: CellValue) -> str:
    """A cell as CSV text that no spreadsheet program will run as a formula (OWASP: prefix a quote)."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def to_csv(grid: Grid) -> str:
    """A tab's values as CSV, every cell neutralised."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180; also makes the writer quote a lone \r
    width = max((len(r) for r in grid), default=0)
    for row in grid:
        writer.writerow([neutralise(v) for v in row] + [""] * (width - len(row)))
    return out.getvalue()


def history(sheets: MatchSheets, record: EngineRecord, template: SheetTemplate) -> list[dict[str, Any]]:
    """Every resolved turn's history entry (one read of the engine tab's history rows)."""
    pos = GvgPositions.build(template, record.teams, ((), ()), 0, 0)
    last = record.last_resolved
    if last < 1:
        return []
    (grid,) = sheets.engine.read([pos.engine_history_all(last)])
    entries = []
    for i in range(last):
        row = grid[i] if i < len(grid) else []
        try:
            entry = json.loads(str(row[1]))
        except (IndexError, json.JSONDecodeError):
            raise SheetError(f"the engine tab's history row of turn {i + 1} is missing or unreadable") from None
        entries.append(entry)
    return entries


def replay_document(record: EngineRecord, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The JSON replay: initial state, orders and GM events per turn, settings, map, seed, final state."""
    first_gm = entries[0].get("gm_events") if entries else record.gm_events.to_json()
    if first_gm:  # the state before the first GM event of turn 1 is the match's initial state
        initial = first_gm["state_before"]
    else:
        initial = entries[0]["state_before"] if entries else record.state.to_json()
    return {
        "format": REPLAY_FORMAT,
        "ruleset": record.ruleset,
        "teams": list(record.teams),
        "seed": record.seed.hex(),
        "seed_hash": record.seed_hash,
        "settings": settings_to_mapping(record.settings),
        "map": record.map_text,
        "initial_state": initial,
        "turns": [{"turn": e["turn"], "gm_events": _gm_events(e.get("gm_events")), "orders": e["orders"],
                   "state_before": e["state_before"]} for e in entries],
        "gm_events_after": _gm_events(record.gm_events.to_json()),
        "final_state": record.state.to_json(),
    }


def _gm_events(pending: dict[str, Any] | None) -> list[Any]:
    return list(pending["events"]) if pending else []


@dataclass(frozen=True, slots=True)
class ReplayCheck:
    """The outcome of replaying a match: turns replayed and the first difference (None: all equal)."""

    turns: int
    rolls: int
    difference: str | None


def replay_states(doc: dict[str, Any]) -> ReplayCheck:
    """Recompute every turn from the initial state, the GM events, the orders and the seed; compare every state.

    The GM events recorded before a turn are applied before its ``state_before`` is compared;
    those after the last turn, before the final state is."""
    if doc.get("format") not in REPLAY_FORMATS:
        raise ReplayError(f"not a sheets-gm replay (format {doc.get('format')!r}; expected {REPLAY_FORMAT!r})")
    try:
        seed = bytes.fromhex(doc["seed"])
        settings = parse_settings(GvgSettings, doc["settings"], where="replay settings")
        rules = GvgRules(GvgMap.from_text(doc["map"], where="replay map"), settings)
        state = GvgState.from_json(doc["initial_state"])
        turns = doc["turns"]
        final = doc["final_state"]
    except (KeyError, ValueError, TypeError) as exc:
        raise ReplayError(f"the replay is malformed: {exc}") from None
    if seed_hash(seed) != doc.get("seed_hash"):
        return ReplayCheck(0, 0, "the seed does not match the hash published at the start of the match")
    rolls = 0
    for entry in turns:
        where = f"before turn {entry['turn']}"
        state, problem = _apply_gm_events(rules, state, entry.get("gm_events", []), where)
        if problem is None:
            found = first_difference(entry["state_before"], state.to_json())
            if found is not None:
                problem = f"the state before turn {entry['turn']} differs: {found}"
        if problem is not None:
            return ReplayCheck(entry["turn"] - 1, rolls, problem)
        dice = TurnDice(seed, state.turn)
        result = resolve_turn(rules, state, orders_from_json(entry["orders"]), dice)
        rolls += len(result.rolls)
        state = result.state
    state, problem = _apply_gm_events(rules, state, doc.get("gm_events_after", []), "after the last turn")
    if problem is None:
        found = first_difference(final, state.to_json())
        if found is not None:
            problem = f"the final state differs from the replayed one: {found}"
    return ReplayCheck(len(turns), rolls, problem)


def _apply_gm_events(rules: GvgRules, state: GvgState, events: list[Any], where: str) -> tuple[GvgState, str | None]:
    """``state`` after the recorded GM events, or the problem with the first one that cannot be applied."""
    for i, data in enumerate(events, start=1):
        try:
            state, _log = apply_gm_event(rules, state, gm_event_from_json(data))
        except (GmEventError, KeyError, ValueError, TypeError, IndexError) as exc:
            return state, f"GM event {i} {where} cannot be applied ({exc})"
    return state, None


def match_replay(sheets: MatchSheets, template: SheetTemplate | None = None) -> dict[str, Any]:
    """The JSON replay of a match, read from its sheets (the layout checked, the history rows read)."""
    tpl = template or default_template()
    record = read_snapshot(sheets, tpl).record
    return replay_document(record, history(sheets, record, tpl))


def export_match(sheets: MatchSheets, folder: Path, template: SheetTemplate | None = None,
                 snapshot: Snapshot | None = None) -> list[Path]:
    """Write the match's workbooks (.xlsx), a CSV per tab and the JSON replay into ``folder``.

    ``snapshot`` is the match as the caller just read it (read here when not given)."""
    tpl = template or default_template()
    snap = snapshot or read_snapshot(sheets, tpl)
    record = snap.record
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    roles = {id(sheets.board): "board", id(sheets.engine): "engine"}
    for i, team in enumerate(record.teams):
        roles.setdefault(id(sheets.orders[i]), f"orders-{team}")
    names = {id(b): roles[id(b)] for b in sheets.write_order()}
    if len(names) == 1:
        names = {k: "match" for k in names}
    for backend in sheets.write_order():
        path = folder / f"{names[id(backend)]}.xlsx"
        path.write_bytes(backend.export_xlsx())
        written.append(path)
    batch = ReadBatch()
    tabs = _export_tabs(sheets, tpl, snap.positions, record)
    for backend, _tab, a1_range in tabs:
        batch.ask(backend, a1_range)
    batch.run(sheets.write_order())
    for backend, tab, a1_range in tabs:
        path = folder / f"{tab}.csv"
        path.write_text(to_csv(batch.get(backend, a1_range)), encoding="utf-8")
        written.append(path)
    doc = match_replay(sheets, tpl)
    path = folder / "replay.json"
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False), encoding="utf-8")
    written.append(path)
    return written


def _export_tabs(sheets: MatchSheets, tpl: SheetTemplate, pos: GvgPositions,
                 record: EngineRecord) -> list[tuple[SheetBackend, str, str]]:
    """(spreadsheet, tab, range) of every tab exported as CSV."""
    out: list[tuple[SheetBackend, str, str]] = [
        (sheets.board, tab, cells_range)
        for tab, cells_range in pos.export_ranges(len(record.state.players), record.log_rows, LOG_ROWS)
    ]
    for i, team in enumerate(pos.teams):
        out.append((sheets.orders[i], team.orders_tab, pos.orders_export_range(team)))
    return out
