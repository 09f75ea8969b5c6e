"""Matches and replays of a ruleset's old layout moved onto the generic sync, through its ``legacy`` hook.

- ``windows_replay(doc)``: any replay ``verify`` is given, as a generic windows replay (an old
  one converted by its ruleset's hook, or a clear message);
- ``upgrade_match``: what ``repair`` does first to an old match: the engine record, its history
  and the seats' archives written again in the generic terms, the old orders tabs cleared, and
  what players had typed for the open window read as rows of the new layout; the repair then
  lays every tab out (deleting the old layout's ``old_tabs``) and writes those rows back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sheets_gm.engine.settings import parse_settings
from sheets_gm.rulesets.parts.legacy import LegacyError, LegacyUpgrades, RawCells, UpgradedMatch
from sheets_gm.rulesets.registry import AnyRuleset, UnknownRulesetError, get_game, sheet_spec
from sheets_gm.sheets.adapter import AnySheetAdapter
from sheets_gm.sheets.backend import SheetBackend, SheetError
from sheets_gm.sheets.layout import CellValue, Grid, a1, cells, quote_tab
from sheets_gm.sheets.tables import TypedRow
from sheets_gm.sync.life.archive_move import OLD_FIRST_HISTORY_ROW
from sheets_gm.sync.life.replay import OLD_LOG_ROWS, WINDOW_REPLAY_FORMAT, WindowReplayError
from sheets_gm.sync.match_record import (
    HISTORY_FIRST_ROW,
    MatchRecord,
    MatchRecordError,
    compact_json,
    key_column,
    parse_match_record,
    spread_cells,
)
from sheets_gm.sync.match_tabs import MatchTabs
from sheets_gm.sync.old_layout import legacy_of
from sheets_gm.sync.read import adapter_of
from sheets_gm.sync.sheets import MatchSheets, WriteBatch, seat_backend


def windows_replay(doc: Mapping[str, Any]) -> dict[str, Any]:
    """``doc`` as a generic windows replay: as it is, or converted by its ruleset's legacy hook; WindowReplayError
    saying what the file is not."""
    fmt = doc.get("format")
    if fmt == WINDOW_REPLAY_FORMAT:
        return dict(doc)
    try:
        hook = get_game(str(doc.get("ruleset", ""))).legacy
    except UnknownRulesetError:
        hook = None
    if hook is None or fmt not in hook.replay_formats:
        raise WindowReplayError(f"not a replay this version reads (its format is {fmt!r}, this version writes "
                                f"{WINDOW_REPLAY_FORMAT!r} and reads the older formats its rulesets list): verify it "
                                "with the version that exported it")
    try:
        return {"format": WINDOW_REPLAY_FORMAT, **hook.upgrade_replay(doc)}
    except LegacyError as exc:
        raise WindowReplayError(f"the replay is malformed: {exc}") from None


def engine_cells(sheets: MatchSheets, tab: str) -> Grid:
    """The engine tab, whole (an old record's history rows included): a range naming only the tab, which Google
    never refuses as past the tab's edge."""
    (grid,) = sheets.engine.read([quote_tab(tab)])
    return grid


@dataclass
class UpgradeReport:
    """What moving an old match did: the record it now has, the rows carried over, what could not be."""

    record: MatchRecord
    layout_name: str
    carried: dict[str, dict[str, dict[str, TypedRow]]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def upgraded_record(ruleset_class: type[AnyRuleset], up: UpgradedMatch, where: str) -> MatchRecord:
    """The generic record of an upgraded match, read back through ``parse_match_record`` so it is checked the
    way every sync will read it."""
    values: dict[str, CellValue] = {
        "ruleset": up.ruleset, "window": "", "state": compact_json(up.state), "seed": up.seed.hex(),
        "seed_hash": up.seed_hash, "settings": compact_json(dict(up.settings)), "board": up.board,
        "log_rows": up.log_rows, "deadline": up.deadline, "seats": compact_json(list(up.seats)),
        "gm_events": "" if up.gm_events is None else compact_json(up.gm_events), "resolved": up.resolved,
        "seat_logs": "{}", "deal": 0, "kept_dice": "", "bots": "{}", "schedule": "", "generation": "", "last": "",
    }
    try:
        settings = parse_settings(ruleset_class.traits.settings_type, dict(up.settings), where=f"{where} settings")
        ruleset = ruleset_class.create(settings, up.board)
        window = ruleset.window(ruleset.state_codec.from_json(up.state))
    except (KeyError, ValueError, TypeError, IndexError, AttributeError) as exc:
        raise MatchRecordError(f"{where}: the old record does not read as a {ruleset_class.traits.title} match "
                               f"({exc}); restore the engine tab from a backup") from None
    values["window"] = "" if window is None else window.key
    return parse_match_record([[k[0], values[str(k[0])]] for k in key_column()], where)


def _archive_entries(record: MatchRecord, up: UpgradedMatch, seat: str, adapter: AnySheetAdapter) -> list[str]:
    """The archive rows of ``seat`` for every resolution, in the generic terms: the rows it would have typed."""
    ruleset = record.ruleset
    out = []
    for entry, parts in zip(up.history, up.seat_orders, strict=True):
        before = ruleset.state_codec.from_json(entry["state_before"])
        window = ruleset.window(before)
        rows: list[dict[str, object]] = []
        part = parts.get(seat)
        if window is not None and part is not None:
            typed = adapter.typed_cells(before, window, seat, ruleset.orders_codec.from_json(part))
            rows = [TypedRow(table, subject, 0, window.key, dict(values), "").to_json()
                    for table, by_subject in typed.items() for subject, values in by_subject.items()]
        out.append(compact_json({"resolution": entry["resolution"], "window": entry["window"], "rows": rows}))
    return out


def _rewrite(batch: WriteBatch, backend: SheetBackend, tab: str, old: Grid, new: Mapping[int, Sequence[CellValue]],
             *, keep_rows: int = 1) -> None:
    """One write over the tab from row ``keep_rows + 1``: the ``new`` rows (by 1-based row number) where given,
    blanks over whatever else ``old`` (the tab as read from A1) held, so nothing of the old layout is left."""
    last = max([len(old), *new])
    if last <= keep_rows:
        return
    width = max([1, *(len(r) for r in old[keep_rows:]), *(len(r) for r in new.values())])
    grid: Grid = [list(new.get(row, ())) + [""] * (width - len(new.get(row, ()))) for row in range(keep_rows + 1,
                                                                                                    last + 1)]
    batch.put(backend, a1(tab, cells(0, keep_rows + 1, width - 1, last)), grid)


def _carried(record: MatchRecord, hook: LegacyUpgrades, adapter: AnySheetAdapter, seat: str, raw: RawCells,
             report: UpgradeReport) -> None:
    """What ``seat`` typed for the open window on the old layout, as rows of the new one (or a note)."""
    ruleset = record.ruleset
    window = ruleset.window(record.state)
    found = hook.carried_orders(raw, ruleset.state_codec.to_json(record.state), seat)
    report.notes += [f"not carried over: {d}" for d in found.dropped]
    if window is None or found.orders is None:
        return
    try:
        typed = adapter.typed_cells(record.state, window, seat, ruleset.orders_codec.from_json(found.orders))
    except (KeyError, ValueError, TypeError) as exc:
        report.notes.append(f"not carried over: what {seat} typed for {window.label} ({exc}); it must be typed again")
        return
    rows = report.carried.setdefault(seat, {})
    for table, by_subject in typed.items():
        for subject, values in by_subject.items():
            rows.setdefault(table, {})[subject] = TypedRow(table, subject, 0, window.key, dict(values), "")


def upgrade_match(sheets: MatchSheets, ruleset_class: type[AnyRuleset]) -> UpgradeReport | None:
    """Move a match of the ruleset's old layout onto the generic one: its engine record, history and the seats'
    archives rewritten in the generic terms, the old orders tabs cleared (what was typed for the open window is
    in the report, to be written back by the repair that follows). None when the match is not on the old
    layout; SheetError naming the cell when its old record cannot be read, before anything is written."""
    hook = legacy_of(ruleset_class)
    spec = sheet_spec(ruleset_class.traits.name)
    engine_tab = spec.tabs.engine
    if hook is None or engine_tab not in sheets.engine.tab_names():
        return None
    raw = engine_cells(sheets, engine_tab)
    if not hook.detect(raw):
        return None
    where = f"{sheets.engine.name} tab {engine_tab!r}"
    try:
        up = hook.upgrade_record(raw, where)
        record = upgraded_record(ruleset_class, up, where)
    except (LegacyError, ValueError) as exc:
        raise SheetError(f"{exc}. Nothing was changed") from None
    if record.seats != sheets.seats:
        raise SheetError(f"the match config names seats {', '.join(sheets.seats)} but the old engine tab holds "
                         f"{', '.join(record.seats)}: fix the config (nothing was changed)")
    adapter = adapter_of(record.ruleset)
    tabs = MatchTabs(spec, sheets.seats, ruleset_class.traits.judge)
    report = UpgradeReport(record, hook.layout_name)
    batch = WriteBatch()
    for seat in sheets.seats:
        backend = seat_backend(sheets, tabs, seat)
        present = backend.tab_names()
        old_orders = hook.orders_tab(seat)
        if old_orders in present:
            (grid,) = backend.read([quote_tab(old_orders)])
            _carried(record, hook, adapter, seat, grid, report)
            _rewrite(batch, backend, old_orders, grid, {}, keep_rows=0)
        archive = tabs.archive(seat)
        if archive not in present:
            report.notes.append(f"tab {archive!r} was missing in {backend.name}: undo cannot put back what was typed "
                                "for the turns resolved before the move")
            continue
        entries = _archive_entries(record, up, seat, adapter)
        (old,) = backend.read([quote_tab(archive)])
        # In the old tab's three columns (Google refuses more before the layout widens it): the repair that
        # follows moves them to the engine's history and the hidden Copies tab (``archive_move``).
        _rewrite(batch, backend, archive, old, {OLD_FIRST_HISTORY_ROW + i: [e["window"], text, ""]
                                                 for i, (e, text) in enumerate(zip(up.history, entries, strict=True))})
    engine_rows: dict[int, Sequence[CellValue]] = {
        2 + i: [k[0], *v] for i, (k, v) in enumerate(zip(key_column(), record.values(), strict=True))}
    # Each moved history row names the Log rows the old layout wrote, worded as it worded them: verify -c compares
    # those by their figures only (``log_check``).
    engine_rows.update({HISTORY_FIRST_ROW + i: [e["resolution"], *spread_cells(
        compact_json({**e, OLD_LOG_ROWS: up.log_rows}), f"history of resolution {i + 1}")]
        for i, e in enumerate(up.history)})
    _rewrite(batch, sheets.engine, engine_tab, raw, engine_rows)
    batch.run(sheets.write_order())
    return report


def old_tabs(ruleset_class: type[AnyRuleset]) -> Sequence[str]:
    """The old layout's board tabs that the generic layout deletes."""
    hook = legacy_of(ruleset_class)
    return () if hook is None else hook.old_tabs
