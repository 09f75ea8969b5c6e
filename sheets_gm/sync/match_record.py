"""The engine tab of a match of any ruleset: everything needed to carry it on, as cell values.

The tab holds a key column and a value column (row 2 downwards), then one history row per
resolution from row ``HISTORY_FIRST_ROW``: the window resolved, its orders as JSON, the state
before, where its log lines start, and the GM events applied before it, so ``undo``, ``verify``
and ``export`` can replay any match from its first state.

A value longer than a cell holds (a war of a hundred armies) runs on into the cells right of it
(``spread_cells``): its first cell then starts with ``⧉N⧉``, N the cells it fills. A value that
fits stays one plain cell, as matches made before wrote it; one longer than ``VALUE_CELLS`` cells hold
is packed first (below), then spread.

The rows a resolution read, as the sync keeps them for itself (a seat's pending row, the history's
``archived``), are packed past ``CELL_CHUNK`` characters (``packed_cell``: zlib, then base64, behind
``⧉z⧉``). Typed rows repeat their keys, so a judge's 100,000 characters of a 300-army war pack to about
3,500; a side's 200,000 characters of mailed movement, each mail's heading and lines worded as its
players wrote them, to about 18,000, which the pending row spreads down its cells
(``sync.rows.pending_row``). ``joined_cells`` joins and unpacks every form.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sheets_gm.engine.dice import TurnDice
from sheets_gm.engine.settings import SettingError, parse_settings, settings_to_mapping
from sheets_gm.rulesets.registry import AnyRuleset, UnknownRulesetError, get_ruleset
from sheets_gm.sheets.layout import CellValue, Grid, a1, cells

#: The keys of the engine tab, in their rows (A2 downwards).
MATCH_KEYS = ("ruleset", "window", "state", "seed", "seed_hash", "settings", "board", "log_rows", "deadline",
              "seats", "gm_events", "resolved", "seat_logs", "deal", "kept_dice", "bots", "schedule", "generation",
              "last")
#: Keys an engine tab written by an earlier version may lack (an empty key cell): their value's default.
LATER_KEYS = {"deal": "0", "kept_dice": "", "bots": "{}", "schedule": "", "generation": "", "last": ""}
HISTORY_FIRST_ROW = 21
HISTORY_MARGIN = 10  # history rows laid out past the ruleset's declared cap
#: Characters of a long value kept per cell: an .xlsx cell holds 32,767 UTF-16 units (a character outside the
#: basic plane takes two), a Google cell 50,000 characters.
CELL_CHUNK = 16_000
#: The cells a value may run over, its own and those right of it: 800,000 characters (the record of a match of
#: thousands of armies); a longer one is refused by name rather than cut.
VALUE_CELLS = 50
ENGINE_COLS = 1 + VALUE_CELLS  # the engine tab's columns: the key (or the resolution's number), then the value
_SPREAD = re.compile(r"^⧉(\d+)⧉")
_PACKED = "⧉z⧉"


class ValueTooLongError(ValueError):
    """A value of the engine record longer than ``VALUE_CELLS`` cells hold, even packed: said in words (exit code 1),
    with what to do."""


#: What a GM does when a value outgrows the cells (``ValueTooLongError``).
TOO_LONG_HINT = ("nothing was written; clear what cannot be resolved at once (a side's Forum tab holding more lines "
                 "than its armies' orders need), then run the command again")


def _too_long(what: str, length: int, packed: int) -> ValueTooLongError:
    return ValueTooLongError(f"the {what} is {length:,} characters long, {packed:,} packed: the engine keeps at most "
                             f"{VALUE_CELLS * CELL_CHUNK:,} packed characters ({VALUE_CELLS} cells of "
                             f"{CELL_CHUNK:,}); {TOO_LONG_HINT}")


def _packed(text: str) -> str:
    return _PACKED + base64.b64encode(zlib.compress(text.encode(), 9)).decode("ascii")


def spread_cells(text: str, what: str) -> list[CellValue]:
    """``text`` as the cells of a row it fills: one plain cell when it fits, else ``⧉N⧉`` and its first part,
    then the next parts; a text longer than ``VALUE_CELLS`` cells hold is packed first (``packed_cell``), and
    ValueTooLongError names ``what`` when even packed it does not fit.

    >>> spread_cells("{}", "state value")
    ['{}']
    >>> big = '{"rows":[' + ",".join(['{"table":"moves","row":7}'] * 40000) + ']}'
    >>> cells = spread_cells(big, "rows read")
    >>> len(big) > VALUE_CELLS * CELL_CHUNK, str(cells[0]).startswith("⧉z⧉"), joined_cells(cells, 0) == big
    (True, True, True)
    """
    if len(text) <= CELL_CHUNK:
        return [text]
    if len(text) > VALUE_CELLS * CELL_CHUNK and not text.startswith(_PACKED):
        packed = _packed(text)
        if len(packed) > VALUE_CELLS * CELL_CHUNK:
            raise _too_long(what, len(text), len(packed))
        return spread_cells(packed, what)
    parts = [text[i:i + CELL_CHUNK] for i in range(0, len(text), CELL_CHUNK)]
    if len(parts) > VALUE_CELLS:
        raise _too_long(what, len(text), len(text))
    return [f"⧉{len(parts)}⧉{parts[0]}", *parts[1:]]


def packed_cell(text: str, what: str) -> str:
    """``text`` as the sync keeps it for itself: itself when it fits one cell (``CELL_CHUNK``), else packed behind
    ``⧉z⧉``, which ``spread_cells`` runs over the cells it needs (ValueTooLongError naming ``what`` when even the
    packed text is longer than ``VALUE_CELLS`` cells hold).

    >>> packed_cell('{"rows":[]}', "rows read")
    '{"rows":[]}'
    >>> big = '{"rows":[' + ",".join(['{"table":"moves","row":7}'] * 2000) + ']}'
    >>> cell = packed_cell(big, "rows read")
    >>> cell.startswith("⧉z⧉") and len(cell) < CELL_CHUNK and joined_cells([cell], 0) == big
    True
    """
    if len(text) <= CELL_CHUNK:
        return text
    packed = _packed(text)
    if len(packed) > VALUE_CELLS * CELL_CHUNK:
        raise _too_long(what, len(text), len(packed))
    return packed


def _unpacked(text: str) -> str:
    """A value as written, unpacked if ``packed_cell`` packed it (ValueError if the packing is damaged)."""
    if not text.startswith(_PACKED):
        return text
    try:
        return zlib.decompress(base64.b64decode(text[len(_PACKED):], validate=True)).decode()
    except (binascii.Error, zlib.error, UnicodeDecodeError) as exc:
        raise ValueError(f"a packed value that cannot be unpacked ({exc})") from None


def spread_text(row: Sequence[CellValue], first: int) -> str:
    """The text whose first cell is ``row[first]`` with the cells it runs on into (``spread_cells``), as one
    (still packed, if it was)."""
    head = "" if first >= len(row) or row[first] is None else str(row[first])
    found = _SPREAD.match(head)
    if found is None:
        return head
    rest = [("" if i >= len(row) or row[i] is None else str(row[i])) for i in range(first + 1, first + int(found[1]))]
    return head[found.end():] + "".join(rest)


def joined_cells(row: Sequence[CellValue], first: int) -> str:
    """The value whose first cell is ``row[first]``, with the cells it runs on into (``spread_cells``), and
    unpacked (``packed_cell``); ValueError for a packed value that was damaged."""
    return _unpacked(spread_text(row, first))


def kept_keys(kept: Mapping[str, Any] | None, window_key: str) -> dict[str, tuple[int, int]]:
    """The die keys ``kept`` (a record's ``kept_dice``, or a history row's) keeps for window ``window_key``, each
    with the deal and sides it was shown with; none when it names another window (or nothing).

    >>> kept_keys({"window": "3", "keys": {"move/Ann": [0, 6]}}, "3"), kept_keys({"window": "3"}, "4")
    ({'move/Ann': (0, 6)}, {})
    """
    if not kept or str(kept.get("window")) != window_key:
        return {}
    return {str(k): (int(v[0]), int(v[1])) for k, v in dict(kept.get("keys") or {}).items()}


#: How the board's cell holding its stamp starts (``FileStamp.cell``).
STAMP_MARK = "⧉gen⧉"
#: Hex digits kept of the history's hash.
HISTORY_HASH = 16


@dataclass(frozen=True)
class FileStamp:
    """The match and generation a seat's file was drawn for (``MatchRecord.stamp``), kept in its pending row: the
    match's id, how many changes it had committed, and the hash of their history."""

    match: str
    generation: int
    history: str

    def to_json(self) -> dict[str, Any]:
        """The stamp as the pending row keeps it."""
        return {"match": self.match, "n": self.generation, "h": self.history}

    def cell(self) -> str:
        """The stamp as the board keeps it, in one cell (``STAMP_MARK`` and its JSON)."""
        return STAMP_MARK + compact_json(self.to_json())

    @classmethod
    def from_cell(cls, value: CellValue) -> FileStamp | None:
        """The stamp a board's cell keeps (None when the cell is not one, or cannot be read)."""
        text = value if isinstance(value, str) else ""
        if not text.startswith(STAMP_MARK):
            return None
        try:
            return cls.from_json(json.loads(text[len(STAMP_MARK):]))
        except ValueError:
            return None

    @classmethod
    def from_json(cls, data: Any) -> FileStamp | None:
        """The stamp a pending row keeps (None when it keeps none readable: a file written before stamps).

        >>> FileStamp.from_json({"match": "ab", "n": 3, "h": "cd"}), FileStamp.from_json("x")
        (FileStamp(match='ab', generation=3, history='cd'), None)
        """
        if not isinstance(data, dict):
            return None
        n = data.get("n")
        if not isinstance(n, int) or isinstance(n, bool):
            return None
        return cls(str(data.get("match", "")), n, str(data.get("h", "")))


def _generation(text: str) -> dict[str, Any]:
    """The record's ``generation`` and ``history`` from the engine's cell (nothing kept: 0 and '')."""
    if not text:
        return {}
    found = json.loads(text)
    return {"generation": int(found["n"]), "history": str(found["h"])}


@dataclass(frozen=True)
class Reseed:
    """A seed drawn when the GM's ``undo`` reopened a match whose end had published the seed in force: its hash,
    committed at the undo (its Log line prints it), the GM's reason, and what the undo took back (``ended``: the
    resolution's history row with the state it ended at, ``state_after``, and the GM events applied after it,
    ``gm_events_after``, so that ``verify`` recomputes its dice with the seed then in force; or ``{"adjustment":
    reasons}`` for the GM's adjustment that ended it, which rolled no die). Every window resolved after it is dealt
    from this seed (its history row names it, ``seed``: its place in ``MatchRecord.seeds``)."""

    seed: bytes
    hash: str
    reason: str
    ended: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        """The link as the engine's ``seed`` cell and the replay keep it."""
        return {"seed": self.seed.hex(), "hash": self.hash, "reason": self.reason, "ended": dict(self.ended)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reseed:
        """A link kept by ``to_json`` (ValueError, KeyError or TypeError when it cannot be read)."""
        ended = data.get("ended") or {}
        if not isinstance(ended, dict):
            raise ValueError(f"the link's 'ended' is {ended!r}, not a record")
        return cls(bytes.fromhex(str(data["seed"])), str(data["hash"]), str(data.get("reason", "")), ended)


def seeds_cell(first: bytes, reseeds: Sequence[Reseed]) -> str:
    """The engine's ``seed`` cell: the seed's hex alone, as every match never reopened keeps it, or (once an undo
    reopened its end) the first seed with the chain of those drawn since.

    >>> seeds_cell(b"ab", ())
    '6162'
    >>> parse_seeds(seeds_cell(b"ab", (Reseed(b"cd", "h", "oops", {}),)))[1][0].seed
    b'cd'
    """
    if not reseeds:
        return first.hex()
    return compact_json({"first": first.hex(), "reseeds": [r.to_json() for r in reseeds]})


def parse_seeds(text: str) -> tuple[bytes, tuple[Reseed, ...]]:
    """The first seed and the chain the ``seed`` cell keeps (``seeds_cell``); ValueError when it cannot be read."""
    text = text.strip()
    if not text.startswith("{"):
        return bytes.fromhex(text), ()
    found = json.loads(text)
    links = found.get("reseeds") if isinstance(found, dict) else None
    if not isinstance(links, list) or not all(isinstance(link, dict) for link in links):
        raise ValueError("the seed cell's chain of seeds cannot be read")
    return bytes.fromhex(str(found["first"])), tuple(Reseed.from_json(link) for link in links)


class MatchRecordError(ValueError):
    """An engine tab that cannot be read: no match yet, or edited by hand."""


def compact_json(data: Any) -> str:
    """JSON in one cell: no spaces, non-ASCII kept."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class MatchRecord:
    """The authoritative match: its rules, state, secret seed, and the sync's counters.

    ``gm_events`` are the GM events (as JSON) applied since the last resolution, with the state
    they started from; ``seat_logs`` counts the lines of each seat's private log. ``deal`` counts the
    match's undos: every window resolved after one is dealt afresh (``TurnDice.dealt``), as its first
    dice may be in the log; 0 for a match never undone, whose dice are the plain formula's. ``kept_dice``
    (``{"window": KEY, "keys": {die key: [deal, sides]}}``, or empty) names the rolls of the window an undo
    reopened that were public before anyone typed orders (GvG's move rolls): they keep the deal they were
    shown with, so that nobody's orders are refused for a roll changed by the undo. ``bots`` names the seats (or a
    team's or side's members) one of the game's bots plays, with the kind of bot (``sync.bot_seats``). ``schedule`` is
    the match config's ``[deadlines]`` the open window's deadline was taken from, in words (``none`` for no
    deadlines; '' in a record written before it was kept): a config whose schedule says otherwise is a change the
    next poll applies (``sync.life.deadline_change``). ``generation`` counts every change the match committed that drew
    every seat's file again (a resolution, an undo, an adjustment, a seat handed over, a repair; it never goes down,
    an undo included), and ``history`` chains a hash of each (``moved_on``): every seat's file carries both with the
    match's id (``stamp``), so that an engine older than the files it wrote, or a file of another match, shows
    (``sync.read``); 0 and '' in a record written before they were kept. ``last`` says what the last resolution closed
    (``{"window": KEY, "by": "force" | "sync", "at": ISO}``: the window a step of which it resolved, whether the GM's
    force made it, as its record keeps it, so that a resolution completed after a cut writes the same, and when, which
    the judge's mailbox reads as the moment that window closed; an undo keeps the window of the resolution before the
    one it took back, and no moment): a force is judged by it with no second read of the engine (empty before the
    first resolution, and in a record written before it was kept)."""

    ruleset: AnyRuleset
    state: Any
    seed: bytes
    seed_hash: str
    seats: tuple[str, ...]
    log_rows: int = 0
    deadline: str = ""
    resolved: int = 0
    gm_events: dict[str, Any] | None = None
    seat_logs: Mapping[str, int] = field(default_factory=dict)
    deal: int = 0
    kept_dice: Mapping[str, Any] = field(default_factory=dict)
    bots: Mapping[str, str] = field(default_factory=dict)
    schedule: str = ""
    generation: int = 0
    history: str = ""
    last: Mapping[str, str] = field(default_factory=dict)
    reseeds: tuple[Reseed, ...] = ()

    @property
    def seeds(self) -> tuple[bytes, ...]:
        """Every seed of the match in order: the first (``seed``, its hash published at the start) and one more for
        each undo that reopened its end (``reseeds``); the last deals every die from now on."""
        return (self.seed, *(r.seed for r in self.reseeds))

    @property
    def dice_seed(self) -> bytes:
        """The seed in force: the one every die is dealt from now (``seed`` for a match never reopened)."""
        return self.reseeds[-1].seed if self.reseeds else self.seed

    @property
    def dice_hash(self) -> str:
        """The hash published for the seed in force (at the start, or at the undo that drew it)."""
        return self.reseeds[-1].hash if self.reseeds else self.seed_hash

    @property
    def name(self) -> str:
        """The ruleset's registry name."""
        return self.ruleset.traits.name

    def window_key(self) -> str:
        """The open window's key ('' once the match is over)."""
        window = self.ruleset.window(self.state)
        return "" if window is None else window.key

    def dice(self, state: Any = None) -> TurnDice:
        """The keyed dice of the window open in ``state`` (the record's state by default), of the match's
        current deal, the rolls ``kept_dice`` names for that window kept as they were shown."""
        state = self.state if state is None else state
        return self.ruleset.dice(self.dice_seed, state).dealt(self.deal, self.kept_for(state))

    def kept_for(self, state: Any) -> dict[str, tuple[int, int]]:
        """The rolls kept from an earlier deal in the window open in ``state`` (key → deal and sides): those
        ``kept_dice`` names, if it names that window; none otherwise."""
        window = self.ruleset.window(state)
        return kept_keys(self.kept_dice, window.key if window is not None else "")

    @property
    def match_id(self) -> str:
        """The match's id: the start of its seed's published hash (two matches never share a seed)."""
        return self.seed_hash[:16]

    def stamp(self) -> FileStamp:
        """What every seat's file drawn for this record carries (``FileStamp``)."""
        return FileStamp(self.match_id, self.generation, self.history)

    def moved_on(self, what: str) -> MatchRecord:
        """This record one change further on: ``what`` (``"resolution 3"``, ``"undo of resolution 3"``…) counted in
        its generation and chained into its history's hash."""
        digest = hashlib.sha256(f"{self.history}|{self.generation + 1}|{what}".encode()).hexdigest()[:HISTORY_HASH]
        return replace(self, generation=self.generation + 1, history=digest)

    def values(self) -> Grid:
        """The value column of the engine tab, one cell per key (B2 downwards)."""
        r = self.ruleset
        found: dict[str, CellValue] = {
            "ruleset": self.name,
            "window": self.window_key(),
            "state": compact_json(r.state_codec.to_json(self.state)),
            "seed": seeds_cell(self.seed, self.reseeds),
            "seed_hash": self.seed_hash,
            "settings": compact_json(settings_to_mapping(r.settings)),
            "board": r.board_text,
            "log_rows": self.log_rows,
            "deadline": self.deadline,
            "seats": compact_json(list(self.seats)),
            "gm_events": "" if self.gm_events is None else compact_json(self.gm_events),
            "resolved": self.resolved,
            "seat_logs": compact_json(dict(self.seat_logs)),
            "deal": self.deal,
            "kept_dice": compact_json(dict(self.kept_dice)) if self.kept_dice else "",
            "bots": compact_json(dict(self.bots)),
            "schedule": self.schedule,
            "generation": compact_json({"n": self.generation, "h": self.history}) if self.generation else "",
            "last": compact_json(dict(self.last)) if self.last else "",
        }
        return [spread_cells(v, f"{k} value") if isinstance(v, str) else [v] for k, v in
                ((k, found[k]) for k in MATCH_KEYS)]


def key_column() -> Grid:
    """The key column of the engine tab (A2 downwards)."""
    return [[k] for k in MATCH_KEYS]


def _width(grid: Grid) -> int:
    return max([len(r) for r in grid] + [1])


def engine_write(tab: str, record: MatchRecord) -> tuple[str, Grid]:
    """The range and values of the record's value column (B2 down; a long value runs on to its right)."""
    values = record.values()
    return a1(tab, cells(1, 2, _width(values), 1 + len(MATCH_KEYS))), values


def engine_read_range(tab: str) -> str:
    """What a poll reads of the engine tab: the header and the key/value rows, every column."""
    return a1(tab, f"1:{1 + len(MATCH_KEYS)}")


def history_range(tab: str, resolution: int) -> str:
    """The history row of the ``resolution``-th resolution (1-based), every column (to read it)."""
    row = HISTORY_FIRST_ROW + resolution - 1
    return a1(tab, f"{row}:{row}")


def history_write(tab: str, resolution: int, entry: Mapping[str, Any]) -> tuple[str, Grid]:
    """The range and values of the ``resolution``-th history row: its number, then its JSON."""
    row = HISTORY_FIRST_ROW + resolution - 1
    values: Grid = [[resolution, *spread_cells(compact_json(entry), f"history of resolution {resolution}")]]
    return a1(tab, cells(0, row, _width(values) - 1, row)), values


def history_rows(tab: str, count: int) -> str:
    """The first ``count`` history rows, every column (for undo, verify and export)."""
    return a1(tab, f"{HISTORY_FIRST_ROW}:{HISTORY_FIRST_ROW + max(count, 1) - 1}")


def _text(value: CellValue) -> str:
    return "" if value is None else str(value)


def logged_rows(rows: Grid) -> int:
    """The Log's line count the engine tab's key/value rows (without the header row) hold, read alone (0 when it
    cannot be read: the record's own parse then names what is wrong)."""
    i = MATCH_KEYS.index("log_rows")
    row = rows[i] if i < len(rows) else []
    try:
        return int(_text(row[1]) or 0) if len(row) > 1 and _text(row[0]).strip() == "log_rows" else 0
    except ValueError:
        return 0


def parse_match_record(rows: Grid, where: str) -> MatchRecord:
    """Read the engine tab's key/value rows (without the header row); MatchRecordError naming the cell."""
    values: dict[str, CellValue] = {}
    for i, key in enumerate(MATCH_KEYS):
        row = rows[i] if i < len(rows) else []
        found = _text(row[0]).strip() if row else ""
        if found == "" and key in LATER_KEYS:  # an engine tab laid out before this key existed
            values[key] = (row[1] if len(row) > 1 else None) or LATER_KEYS[key]
            continue
        if found != key:
            raise MatchRecordError(
                f"{where}: cell A{i + 2} should say {key!r} but says {found!r}; the engine tab was edited (restore "
                "it from a backup or the export) or the match was never created (run init)")
        values[key] = joined_cells(row, 1) if len(row) > 1 and isinstance(row[1], str) else (
            row[1] if len(row) > 1 else None)
    try:
        ruleset_class = get_ruleset(_text(values["ruleset"]))
        settings = parse_settings(ruleset_class.traits.settings_type, json.loads(_text(values["settings"])),
                                  where=f"{where} settings")
        ruleset = ruleset_class.create(settings, _text(values["board"]))
        state = ruleset.state_codec.from_json(json.loads(_text(values["state"])))
        seats = tuple(str(s) for s in json.loads(_text(values["seats"])))
        gm_text = _text(values["gm_events"])
        seed, reseeds = parse_seeds(_text(values["seed"]))
        record = MatchRecord(
            ruleset=ruleset, state=state, seed=seed, reseeds=reseeds,
            seed_hash=_text(values["seed_hash"]), seats=seats,
            log_rows=int(_text(values["log_rows"]) or 0), deadline=_text(values["deadline"]),
            resolved=int(_text(values["resolved"]) or 0),
            gm_events=json.loads(gm_text) if gm_text else None,
            seat_logs={str(k): int(v) for k, v in json.loads(_text(values["seat_logs"]) or "{}").items()},
            deal=int(_text(values["deal"]) or 0),
            kept_dice=json.loads(_text(values["kept_dice"])) if _text(values["kept_dice"]) else {},
            bots={str(k): str(v) for k, v in json.loads(_text(values["bots"]) or "{}").items()},
            schedule=_text(values["schedule"]),
            **_generation(_text(values["generation"])),
            last={str(k): str(v) for k, v in json.loads(_text(values["last"]) or "{}").items()},
        )
    except UnknownRulesetError as exc:
        raise MatchRecordError(f"{where}: {exc}") from None
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, SettingError) as exc:
        raise MatchRecordError(f"{where}: the engine tab cannot be read ({exc}); restore it from a backup or "
                               "the export") from None
    if record.window_key() != _text(values["window"]):
        raise MatchRecordError(f"{where}: the window cell says {_text(values['window'])!r} but the state is in "
                               f"window {record.window_key()!r}; restore the engine tab from a backup")
    return record
