"""The engine tab's record: everything needed to carry a match on, as cell values."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sheets_gm.engine.core.settings import SettingError, parse_settings, settings_to_mapping
from sheets_gm.rulesets.gvg.board import GvgMap, MapError
from sheets_gm.rulesets.gvg.rules import GvgRules
from sheets_gm.rulesets.gvg.settings import GvgSettings
from sheets_gm.rulesets.gvg.sheet.positions import ENGINE_KEYS
from sheets_gm.rulesets.gvg.state import GmEvent, GvgState, gm_event_from_json, gm_event_to_json
from sheets_gm.sheets.layout import CellValue, Grid


@lru_cache(maxsize=8)
def _map_of(text: str) -> GvgMap:
    """The map of an engine record's text, parsed once per process (a GvgMap never changes)."""
    return GvgMap.from_text(text, where="engine tab map")


class RecordError(ValueError):
    """An engine tab that cannot be read: no match yet, or edited by hand."""


@dataclass(frozen=True, slots=True)
class PendingGmEvents:
    """GM events (duels, adjustments) since the last resolution, in order, and the state they started from.

    A resolution moves them into its turn's history entry, so a replay can apply them again;
    ``start`` is kept because before turn 1 no history holds the state the first event changed."""

    start: GvgState | None = None
    events: tuple[GmEvent, ...] = ()

    def then(self, state: GvgState, events: Sequence[GmEvent]) -> PendingGmEvents:
        """These ``events`` added after the pending ones; ``state`` is the state they are applied to."""
        return PendingGmEvents(self.start if self.start is not None else state.copy(), self.events + tuple(events))

    def to_json(self) -> dict[str, Any] | None:
        """JSON-ready data (None when there is no event)."""
        if not self.events or self.start is None:
            return None
        return {"state_before": self.start.to_json(), "events": [gm_event_to_json(e) for e in self.events]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> PendingGmEvents:
        """Rebuild what ``to_json`` saved (None is no event); KeyError, ValueError or TypeError if malformed."""
        if not data:
            return cls()
        return cls(GvgState.from_json(data["state_before"]), tuple(gm_event_from_json(e) for e in data["events"]))


@dataclass(frozen=True, slots=True)
class EngineRecord:
    """The authoritative match: state, secret seed, settings, map, log length, deadline."""

    ruleset: str
    state: GvgState
    seed: bytes
    seed_hash: str
    settings: GvgSettings
    map_text: str
    log_rows: int
    deadline: str
    teams: tuple[str, str]
    gm_events: PendingGmEvents = field(default_factory=PendingGmEvents)

    @property
    def turn(self) -> int:
        """The turn about to be resolved (or the last one, once the match is over)."""
        return self.state.turn

    @property
    def last_resolved(self) -> int:
        """The last resolved turn (0 before the first resolution)."""
        return self.state.turn if self.state.finished else self.state.turn - 1

    def rules(self) -> GvgRules:
        """The match's map and settings (the map is parsed once per text: its path caches are kept)."""
        return GvgRules(_map_of(self.map_text), self.settings)

    def values(self) -> Grid:
        """The value column of the engine tab, one cell per key (B2 downwards)."""
        cells: dict[str, CellValue] = {
            "ruleset": self.ruleset,
            "turn": self.state.turn,
            "state": json.dumps(self.state.to_json(), separators=(",", ":"), ensure_ascii=False),
            "seed": self.seed.hex(),
            "seed_hash": self.seed_hash,
            "settings": json.dumps(settings_to_mapping(self.settings), separators=(",", ":")),
            "map": self.map_text,
            "log_rows": self.log_rows,
            "deadline": self.deadline,
            "teams": json.dumps(list(self.teams)),
            "gm_events": _json_or_empty(self.gm_events.to_json()),
        }
        return [[cells[k]] for k in ENGINE_KEYS]

    @staticmethod
    def key_column() -> Grid:
        """The key column of the engine tab (A2 downwards)."""
        return [[k] for k in ENGINE_KEYS]


def _json_or_empty(data: dict[str, Any] | None) -> str:
    return "" if data is None else json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _text(v: CellValue) -> str:
    return "" if v is None else str(v)


def parse_record(rows: Grid, where: str) -> EngineRecord:
    """Read the engine tab's key/value rows (without the header row)."""
    values: dict[str, CellValue] = {}
    for i, key in enumerate(ENGINE_KEYS):
        row = rows[i] if i < len(rows) else []
        found = _text(row[0]) if row else ""
        if found != key:
            raise RecordError(f"{where}: cell A{i + 2} should say {key!r} but says {found!r}; the engine tab "
                              "was edited (restore it from a backup or the export) or the match was never created "
                              "(run init)")
        values[key] = row[1] if len(row) > 1 else None
    try:
        state_json: Any = json.loads(_text(values["state"]))
        state = GvgState.from_json(state_json)
        settings = parse_settings(GvgSettings, json.loads(_text(values["settings"])), where=f"{where} settings")
        teams_list = json.loads(_text(values["teams"]))
        map_text = _text(values["map"])
        GvgMap.from_text(map_text, where=f"{where} map")
        record = EngineRecord(
            ruleset=_text(values["ruleset"]), state=state, seed=bytes.fromhex(_text(values["seed"])),
            seed_hash=_text(values["seed_hash"]), settings=settings, map_text=map_text,
            log_rows=int(_text(values["log_rows"]) or 0), deadline=_text(values["deadline"]),
            teams=(str(teams_list[0]), str(teams_list[1])),
            gm_events=PendingGmEvents.from_json(json.loads(_text(values["gm_events"]) or "null")),
        )
    except (ValueError, KeyError, TypeError, IndexError, SettingError, MapError) as exc:
        raise RecordError(f"{where}: the engine tab cannot be read ({exc}); "
                          "restore it from a backup or the export") from None
    if record.state.turn != int(_text(values["turn"]) or 0):
        raise RecordError(f"{where}: the turn cell says {values['turn']} but the state is at turn {record.state.turn}")
    return record
