"""Twin matches that differ only in what other seats typed for a window, and what one seat receives in each.

A match of any game (the toy game too) is created by ``init`` in a folder, laid out as the game's starter config
lays it out (a workbook per seat, the engine under ``gm/``), and played for a few windows by the demo's bots typing
into every seat's cells. At a window, the folder is copied: the watched seat types the same orders in both, and every
other seat types orders of its own in each (a bot of another kind, or made from another secret), with no Ready
ticked. A seat that does not act in the window (a game of turns) types ahead, for its next window. Then the same steps
run on both: a poll, each seat's Ready ticked, a poll... and after each, what the watched seat receives is compared
(``Received``: its workbook and the board, text by text, and the notices the poll sends it or the channel), and what
a bot handed its seat now would be given and would type (``bot_of``).
"""

from __future__ import annotations

import datetime as dt
import shutil
import tomllib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sheets_gm.commands.init import starter_config
from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.init.start import init_match
from sheets_gm.match.config import MatchConfig, load_config, toml_key
from sheets_gm.rulesets.registry import AnyRuleset, bots_of, create_ruleset, get_game, get_ruleset, ruleset_names
from sheets_gm.sync.autoplay import type_bot_orders, typed_values
from sheets_gm.sync.bot_seats import bot_input, bot_rows
from sheets_gm.sync.poll import poll
from sheets_gm.sync.read import MatchRead, read_match
from sheets_gm.sync.sheets import WriteBatch, seat_backend
from tests.conformance.noninterference import canonical, opened
from tests.conformance.test_leak_scan import roster_csv
from tests.conformance.test_noninterference_files import Received, received
from tests.made import made_into

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
SEED = b"twin orders: the seed of the match"
#: The games the twin tests walk: every game with a sheet, and the toy game (registered by the tests that walk it).
GAMES = [*(n for n in ruleset_names() if get_game(n).sheet is not None), "tictactoe"]


def config_text(game: str) -> str:
    """The game's starter config (as ``init GAME`` writes it), or for a game that ships none (the toy game) the same
    layout: the board, the engine under ``gm/``, a workbook per seat of its sample roster."""
    path = starter_config(game)
    if path.exists():
        return path.read_text(encoding="utf-8")
    seats = create_ruleset(game).sample_roster().seats
    orders = ", ".join(f'{toml_key(s)} = "orders-{s}.xlsx"' for s in seats)
    return (f'ruleset = "{game}"\ntitle = "Twins"\nseats = [{", ".join(f"{s!r}" for s in seats)}]\n[sheets]\n'
            f'backend = "local"\nboard = "board.xlsx"\nengine = "gm/engine.xlsx"\norders = {{ {orders} }}\n')


def seats_of(game: str) -> list[str]:
    """The seats (or teams) of the match ``config_text`` lays out."""
    data = tomllib.loads(config_text(game))
    return [str(s) for s in data.get("seats") or data.get("teams") or []]


@dataclass(frozen=True)
class Typist:
    """Who types a seat's orders in a test: one of the game's bots (its kind; '' for its best) made from a secret.
    The same typist on the same state types the same."""

    secret: str
    kind: str = ""

    def bot(self, rules: AnyRuleset, seat: str) -> Any:
        """The bot that types ``seat``'s orders."""
        kinds = bots_of(rules)
        return kinds[self.kind or next(iter(kinds))].make(f"{self.secret}/{seat}")


def warmed_up(folder: Path, game: str, windows: int) -> MatchConfig:
    """A match of ``game`` created by ``init`` in ``folder``, after ``windows`` windows every seat played by bots
    (orders typed, Ready ticked, one poll each)."""
    rules: AnyRuleset = create_ruleset(game)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "match.toml").write_text(config_text(game), encoding="utf-8")
    config = load_config(folder / "match.toml")
    roster_csv(rules, folder / "roster.csv", config.seats)
    init_match(config, now=NOW, roster_file=folder / "roster.csv", share=False, seed=SEED)
    sheets, cls = opened(config), get_ruleset(game)
    for n in range(windows):
        warm = Typist(f"warm-up/{n}")
        type_bot_orders(sheets, cls, {s: warm.bot(rules, s) for s in (*config.seats, JUDGE)})
        poll(sheets, cls, now=NOW)
    return config


def acting(config: MatchConfig) -> tuple[str, ...]:
    """The seats (the judge among them) acting in the open window; none once the match is over."""
    record = read_match(opened(config), get_ruleset(config.ruleset)).record
    window = record.ruleset.window(record.state)
    return () if window is None else window.seats


def type_orders(config: MatchConfig, typists: Mapping[str, Typist], *, ready: bool) -> dict[str, str]:
    """Each seat of ``typists`` acting now types the orders of its typist's bot (and ticks Ready with ``ready``);
    the orders typed, as JSON text, by seat."""
    rules = create_ruleset(config.ruleset)
    typed = type_bot_orders(opened(config), get_ruleset(config.ruleset),
                            {s: t.bot(rules, s) for s, t in typists.items()}, ready=ready)
    return {s: canonical(rules.orders_codec.to_json(rules.merge_orders({s: o}))) for s, o in typed.items()}


def _ahead(record: Any, seat: str) -> tuple[Any, Any] | None:
    """The state and window of ``seat``'s next window, the windows before it played out in memory by bots (None
    when the match ends first)."""
    rules, state = record.ruleset, record.state
    for _ in range(len(record.seats) + 2):
        window = rules.window(state)
        if window is None:
            return None
        if seat in window.seats:
            return state, window
        dice = rules.dice(record.seed, state)
        plays = {s: Typist("ahead").bot(rules, s).orders(state, s, dice) for s in window.seats}
        state = rules.resolve(state, rules.merge_orders(plays), dice).state
    return None


def type_ahead(config: MatchConfig, seat: str, typist: Typist) -> str:
    """``seat``, which does not act now, types into its rows the orders its typist's bot would give in its next
    window; the cells typed, as JSON text ('' when it has no window ahead, or no row to type them in)."""
    sheets, cls = opened(config), get_ruleset(config.ruleset)
    read = read_match(sheets, cls)
    ahead = _ahead(read.record, seat)
    if ahead is None:
        return ""
    state, window = ahead
    rules = read.record.ruleset
    orders = typist.bot(rules, seat).orders(state, seat, rules.dice(read.record.seed, state))
    tab = read.seats[seat].tab
    rows = {(r.table, r.subject): r.row for r in read.seats[seat].rows}
    batch, backend = WriteBatch(), seat_backend(sheets, read.tabs, seat)
    typed: list[str] = []
    for table, by_subject in typed_values(read.adapter, state, window, seat, orders, tab, ready=False).items():
        placed = tab.table(table)
        for subject, values in by_subject.items():
            for key, value in values.items() if (table, subject) in rows else ():
                batch.put(backend, placed.at(placed.cell(rows[(table, subject)] - placed.first_row, key)), [[value]])
                typed.append(f"{table}/{subject}/{key}={value}")
    batch.run(sheets.write_order())
    return canonical(typed) if typed else ""


def bot_of(read: MatchRead, seat: str) -> dict[str, str]:
    """What a bot handed ``seat`` now (``adjust --bot``) would be given (``bot_input``: the state as the seat knows
    it, its dice's published rolls) and would type (``bot_rows``, the rows the sync types for it), as JSON text."""
    record = read.record
    given = bot_input(record, record.state, seat)
    out = {"its bot's input": canonical({"state": record.ruleset.state_codec.to_json(given.state),
                                         "rolls shown": given.dice.pins})}
    window = record.ruleset.window(record.state)
    if window is not None and seat in window.seats and seat in read.seats:
        best = next(iter(bots_of(record.ruleset)))
        rows, _ = bot_rows(replace(record, bots={seat: best}), read.adapter, record.state, window, seat,
                           read.seats[seat].tab)
        out["its bot's moves"] = canonical({t: {s: r.values for s, r in by.items()} for t, by in rows.items()})
    return out


@dataclass
class Twins:
    """Two copies of one match (``a``, ``b``), ``seat`` watched; ``typists``: who types each seat's orders in each
    (the watched seat's the same in both); ``differing``: the seats whose typed orders differ between the two, with
    what each typed (JSON text, in the first match and in its twin)."""

    a: MatchConfig
    b: MatchConfig
    seat: str
    typists: tuple[dict[str, Typist], dict[str, Typist]] = field(default_factory=lambda: ({}, {}))
    differing: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def both(self) -> tuple[MatchConfig, MatchConfig]:
        """The match and its twin."""
        return self.a, self.b


def _typed(config: MatchConfig, typists: Mapping[str, Typist], now: Collection[str]) -> dict[str, str]:
    """Each seat of ``typists`` types: for the open window if it acts in it (no Ready), else ahead, for its next."""
    typed = type_orders(config, {s: t for s, t in typists.items() if s in now}, ready=False)
    return typed | {s: type_ahead(config, s, t) for s, t in typists.items() if s not in now}


def twins_of(base: Path, folder: Path, seat: str, others: Sequence[str] = (), tag: str = "") -> Twins:
    """The match in ``base`` copied twice into ``folder``; in both, ``seat`` types the same orders (no Ready) when it
    acts; each of ``others`` (every other seat and the judge when empty) types its own orders in each copy: for the
    open window when it acts in it (no Ready), else ahead, for its next window (``type_ahead``). Until some seat's
    orders differ, the twin's are typed again by the game's other kinds of bot and from other secrets (a greedy
    bot often has one best move)."""
    configs = []
    for side in ("a", "b"):
        shutil.copytree(base, folder / side)
        configs.append(load_config(folder / side / "match.toml"))
    twins = Twins(configs[0], configs[1], seat=seat)
    now = acting(twins.a)
    mine = {seat: Typist(f"watched{tag}")} if seat in now else {}
    others = [s for s in (others or (*twins.a.seats, JUDGE)) if s != seat]
    kinds = list(bots_of(create_ruleset(twins.a.ruleset)))
    for attempt in range(2 * len(kinds) + 2):
        kind = kinds[attempt % len(kinds)]
        twins.typists = ({**mine, **{s: Typist(f"one{tag}/{attempt}") for s in others}},
                         {**mine, **{s: Typist(f"another{tag}/{attempt}", kind) for s in others}})
        typed = [_typed(c, t, now) for c, t in zip(twins.both, twins.typists, strict=True)]
        twins.differing = {s: (typed[0].get(s, ""), typed[1].get(s, "")) for s in others
                           if typed[0].get(s, "") != typed[1].get(s, "")}
        if twins.differing:
            break
    return twins


def tick_ready(twins: Twins, seats: Collection[str]) -> None:
    """Each of ``seats`` acting now ticks its Ready in both matches, typing again what its typist types (the watched
    seat the same in both, another seat its own in each; a seat nobody typed for, the same in both)."""
    for config, typists in zip(twins.both, twins.typists, strict=True):
        type_orders(config, {s: typists.get(s, Typist("calm")) for s in seats}, ready=True)


@dataclass(frozen=True)
class Seen:
    """What a poll leaves a watched seat: what it receives, what a bot on its seat is given and would type, whether
    the poll resolved a window, and the seats acting in the window open after it."""

    received: Received
    bot: dict[str, str]
    resolved: bool
    acting: tuple[str, ...]


def watched(config: MatchConfig, seat: str) -> Seen:
    """A poll of ``config`` (run here), and what it leaves ``seat`` (``Seen``)."""
    sheets, cls = opened(config), get_ruleset(config.ruleset)
    report = poll(sheets, cls, now=NOW)
    read = read_match(sheets, cls)
    window = read.record.ruleset.window(read.record.state)
    return Seen(received(config, seat, report), bot_of(read, seat), report.resolved,
                () if window is None else window.seats)


def copied_base(tmp: Path, game: str, windows: int) -> Path:
    """A match of ``game`` warmed up for ``windows`` windows (plus the game's own warm-up) in ``tmp / 'base'``: played
    once a test run and copied (``tests/made.py``; the ``base`` fixture's and the planted mistakes' are the same
    match). A test that plants a mistake takes its copy before planting it, so that no copy is made with it."""
    made_into(tmp / "base", ("twin orders base", game, windows),
              lambda into: warmed_up(into, game, get_game(game).tests.warm_up + windows), shared=True)
    return tmp / "base"
