"""No seat learns what its rules hide after the window resolves either, and an engine keeps nothing of orders it did
not carry out: two properties of every game (the toy game too), proven by difference on twins.

- **Across the resolution**: at states of a seeded bot match, for every seat S, twins that differ only in what S may
  not see (the state's hidden part, ``Ruleset.unseen_twin``; the other seats' orders), resolved through the same
  orders of S, must give S the same lines of the Log and the public the same public lines, but for the lines of the
  kinds the game names as reveals (``Ruleset.reveals``: a fight's square, a unit that attacks), and those where the
  fields each reveal declares differ; what the new state shows is its views' to say (held to noninterference state
  by state, ``test_noninterference.py``), and where S's view and the fields of the reveals it reads are the same,
  its feedback, its bot's state and orders are too. An engine that publishes a hidden move ("Ann moves to B2.")
  fails it, and so does a reveal's line that tells more than its fields (a sale's line naming the losing bids).
  The last window is always walked: what no reveal declares stays secret after the end.
- **Nothing kept of orders not carried out**: twin windows whose orders differ (other bots, a seat typing nothing),
  after which every seat's view and the public board are the same, end in the same engine state: orders nobody is
  shown carried out were not carried out, and the state holds nothing derived from them. An engine that keeps a
  window's orders out of every view and its bot's state, to carry them out a window late, fails it.

- **The files and notices across the resolution**: twin matches on local workbooks, resolved by the real sync in one
  poll, the watched seat's bot typing the same in both: the other seats' orders differing where the engine shows the
  watched seat the same after the window (``comparable_typists``), or one other seat typing nothing in one twin and
  only orders its rules refuse in the other (``refused_typing``: every game has those, its state ending the same in
  both, since no refused order is carried out). The seat's workbook and the board, cell by cell, and the poll's
  notices to it and to the channel (what the page is built from) must be the same. Every game under ``-m soak``,
  three seats in three windows; one game in the quick run, always the same (``QUICK_FILES_GAME``).

A few states in the quick run, every state under ``-m soak``; the planted engines are the toy games of
``test_toy_games.py`` (scouts publishing moves or keeping them for later, an auction telling its losing bids...), a
Champions engine publishing the orders it resolved, and a GvG reader carrying out a row it refused, for the files.
"""

from __future__ import annotations

import functools
import random
import re
import shutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.engine.events import Event, visible_to
from sheets_gm.engine.reveals import reveal_of
from sheets_gm.engine.ruleset import JUDGE, BotKind, Information
from sheets_gm.match.config import MatchConfig, load_config
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_ruleset, ruleset_names
from sheets_gm.sheets.spec import ColumnKind
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.replay import match_history
from sheets_gm.sync.poll import WindowReport, poll
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import WriteBatch, seat_backend
from tests.conformance.noninterference import (
    AnyRuleset,
    Resolutions,
    canonical,
    differences_after,
    json_differences,
    kept_differences,
    opened,
    resolved_for,
    told_apart,
)
from tests.conformance.scouts import Kind
from tests.conformance.test_engine_conformance import PlayedMatch, played
from tests.conformance.test_noninterference_files import GAMES as FILE_GAMES
from tests.conformance.test_noninterference_files import (
    NOW,
    Received,
    match_at,
    received,
    seats_of,
    unstamped,
    warm_up,
)
from tests.toygame.registered import toy_registered

GAMES = [*ruleset_names(), "tictactoe"]
HIDDEN = Information.HIDDEN_STATE


@dataclass
class Walked:
    """What a walk over a match found, and how many twins it compared (a property over no twin proves nothing)."""

    found: list[str] = field(default_factory=list)
    hidden: int = 0  # twins differing in the state's hidden part, compared across the resolution
    orders: int = 0  # twins differing in other seats' orders, compared across the resolution
    kept: int = 0  # twin windows compared for what the state keeps


def orders_of(rules: AnyRuleset, state: Any, seed: bytes, makers: Mapping[str, Callable[[], Any]],
              skip: str = "") -> Any:
    """The orders of every seat acting in ``state`` (the judge too), each from a bot its maker makes afresh (a bot
    draws from its own generator: asked twice, it may answer otherwise), ``skip`` typing none."""
    window = rules.window(state)
    seats = [s for s in (window.seats if window else ()) if s != skip]
    dice = rules.dice(seed, state)
    return rules.merge_orders({s: makers[s]().orders(state, s, dice) for s in seats})


def twin_orders(rules: AnyRuleset, state: Any, seed: bytes, seat: str, n: int, kinds: Mapping[str, BotKind],
                most: int, ones: dict[str, Any] | None = None) -> list[tuple[Any, Any]]:
    """Pairs of orders for the window of ``state`` that differ only in what seats other than ``seat`` type: the
    others' bots made from another secret and of another kind, and each other seat typing nothing (the first
    ``most`` of them after ``seat``). ``ones``: the orders of the first kind's bots at this state, by the seat typing
    none ("" for none), kept across the seats of a walk (they do not depend on ``seat``)."""
    seats = (*rules.seats(state), JUDGE)
    first = list(kinds.values())
    one = {s: functools.partial(first[0].make, f"one/{n}/{s}") for s in seats}
    other = {s: one[s] if s == seat else functools.partial(first[(n + 1) % len(first)].make, f"another/{n}/{s}")
             for s in seats}
    kept = {} if ones is None else ones

    def ones_but(skip: str) -> Any:
        if skip not in kept:
            kept[skip] = orders_of(rules, state, seed, one, skip=skip)
        return kept[skip]

    mine = ones_but("")
    window = rules.window(state)
    pairs = [(mine, orders_of(rules, state, seed, other))]
    acting = list(window.seats if window else ())
    after = acting[acting.index(seat) + 1:] + acting[:acting.index(seat)] if seat in acting else acting
    pairs += [(mine, ones_but(s)) for s in after[:most]]
    codec = rules.orders_codec
    return [(a, b) for a, b in pairs if canonical(codec.to_json(a)) != canonical(codec.to_json(b))]


def walk(rules: AnyRuleset, match: PlayedMatch, every: int, bots: Mapping[str, BotKind] | None = None,
         most: int = 99) -> Walked:
    """Both properties (see the module) at one state of ``match`` in ``every`` and at the last window's, whose
    resolution ends the match (what no reveal declares stays secret after the end too), for the first ``most``
    seats (and of the seats typing nothing in their twins, the first ``most`` after each)."""
    kinds = bots or bots_of(rules)
    out = Walked()
    states = [match.start, *match.states]
    for n, (state, orders_json) in enumerate(zip(states, match.orders_json, strict=False)):
        if n % every and n != len(match.orders_json) - 1:
            continue
        played = rules.orders_codec.from_json(orders_json)
        done: Resolutions = {}  # each seat's orders resolved once beside every twin of the others'
        ones: dict[str, Any] = {}  # the first kind's bots' orders, made once for every seat's twins
        for seat in rules.seats(state)[:most]:
            twin = rules.unseen_twin(state, seat, random.Random(f"{n}/{seat}"))
            pairs = [] if canonical(rules.state_codec.to_json(twin)) == canonical(rules.state_codec.to_json(state)) \
                else [("hidden", ((state, played), (twin, played)))]
            crossed = twin_orders(rules, state, match.seed, seat, n, kinds, most, ones)
            pairs += [("orders", ((state, a), (state, b))) for a, b in crossed]
            for what, twins in pairs:
                found, compared = differences_after(rules, twins, match.seed, seat, bots, done)
                out.found += [f"{match.windows[n].label} ({what} twins): {d}" for d in found]
                setattr(out, what, getattr(out, what) + compared)
            for a, b in crossed:
                found, compared = kept_differences(rules, state, (a, b), match.seed, done)
                out.found += [f"{match.windows[n].label}, orders of {seat}'s others differing: {d}" for d in found]
                out.kept += compared
    return out


@pytest.fixture(scope="module", params=GAMES)
def game(request: pytest.FixtureRequest) -> Iterator[tuple[AnyRuleset, PlayedMatch]]:
    """Each game with one seeded bot match (every state kept)."""
    with toy_registered():
        rules: AnyRuleset = create_ruleset(request.param)
        yield rules, played(rules, b"noninterference/after")


def said(rules: AnyRuleset, walked: Walked) -> str:
    """What a contributor is told when the walk found something: which property, and where."""
    return (f"{rules.traits.title}: what a seat is handed after a resolution depends on what the rules hide from it "
            "(a line of the Log, public or its own, that is no declared reveal: declare its kind in the engine's "
            "`reveals`, with the fields it tells, if a rule reveals it; or a reveal's line that tells more than the "
            "fields it declares), or the state keeps what no one was shown (orders not carried out in "
            "their window): " + " | ".join(walked.found[:6]))


def test_a_resolution_tells_a_seat_nothing_its_rules_hide_but_their_reveals(
        game: tuple[AnyRuleset, PlayedMatch]) -> None:
    rules, match = game
    with toy_registered():
        walked = walk(rules, match, every=max(1, len(match.states) // 4), most=3)  # and the last window
    assert walked.found == [], said(rules, walked)
    if rules.traits.information is Information.HIDDEN_STATE:
        assert walked.hidden, f"{rules.traits.title}: no twins of its hidden state were compared: it proves nothing"


@pytest.mark.soak
def test_soak_a_resolution_tells_a_seat_nothing_its_rules_hide_but_their_reveals(
        game: tuple[AnyRuleset, PlayedMatch]) -> None:
    rules, match = game
    with toy_registered():
        walked = walk(rules, match, every=1)
    assert walked.found == [], said(rules, walked)


# -- each property fails with its defect planted: the toy games of test_toy_games.py (scouts.py, auction.py...) ------


# -- the files, the notices and the page across the resolution ------------------------------------------------------
def shown_after(config: MatchConfig, seat: str, report: WindowReport, fields: bool = True) -> str:
    """What the engine declares ``seat`` shown once the poll of ``report`` resolved: its view and the public board
    of the new state, and of the game's reveals whose lines it or the public read, what each makes public (the
    fields it declares of the state before, the state after and the orders, the history's); or, not ``fields``,
    the lines themselves (twins in which a seat types only orders its rules refuse must show nothing different,
    though their orders, and so a reveal's fields of the orders, differ)."""
    sheets = opened(config)
    read = read_match(sheets, get_ruleset(config.ruleset))
    record, rules = read.record, read.record.ruleset
    events = [e for who in (seat, None) for e in visible_to(report.facts.events if report.facts else (), who)]
    told: Any = [[e.text for e in events if reveal_of(rules.reveals, e.kind) is not None]]
    if fields:
        entry = match_history(sheets, record, read.tabs.spec.tabs.engine)[-1]
        jsons = (entry["state_before"], rules.state_codec.to_json(record.state), entry["orders"])
        told = {str(r.kind): r.of(*jsons) for r in rules.reveals if r.kind in {e.kind for e in events}}
    return canonical([rules.view(record.state, seat), rules.view(record.state, None), told])


Makers = dict[str, Callable[[], Any]]


def comparable_typists(config: MatchConfig, seat: str) -> tuple[Makers, Makers] | None:
    """Two sets of bots' makers for the match's seats, the same for ``seat``, whose orders for the open window differ
    and after which the engine shows ``seat`` the same (``told_apart``: its view, the public board, the reveals), tried
    in memory first (twins a view or a reveal tells apart would prove nothing): one other seat's bot of another
    secret or kind at a time; None when none gives them."""
    record = read_match(opened(config), get_ruleset(config.ruleset)).record
    rules, state = record.ruleset, record.state
    kinds = list(bots_of(rules).values())
    seats = (*config.seats, JUDGE)
    one: Makers = {s: functools.partial(kinds[0].make, f"one/{s}") for s in seats}
    for n, differing in enumerate(s for s in seats for _ in range(2) if s != seat):  # one other seat at a time
        other: Makers = {s: functools.partial(kinds[n % len(kinds)].make, f"another/{n}/{s}") if s == differing
                         else one[s] for s in seats}
        orders = [orders_of(rules, state, record.seed, makers) for makers in (one, other)]
        if canonical(rules.orders_codec.to_json(orders[0])) == canonical(rules.orders_codec.to_json(orders[1])):
            continue
        (mine, _), (theirs, _) = (resolved_for(rules, state, o, record.seed, seat) for o in orders)
        if not told_apart(mine, theirs, "the reveals it reads"):
            return one, other
    return None


#: What one twin's other seats type for the open window, into the match of the config it is handed.
Typing = Callable[[MatchConfig], None]
#: What a seat typing orders its rules refuse types, by the kind of column: no unit, square, army or number is named so.
REFUSED = {ColumnKind.TEXT: "no such order", ColumnKind.NUMBER: "many", ColumnKind.CHOICE: "no such choice"}


def bots_typing(seat: str, makers: Makers) -> Typing:
    """The other seats typing what their bots of ``makers`` order, Ready ticked."""
    def typing(config: MatchConfig) -> None:
        type_bot_orders(opened(config), get_ruleset(config.ruleset), {s: b() for s, b in makers.items() if s != seat},
                        ready=True)
    return typing


@dataclass(frozen=True)
class Twins:
    """What the other seats type in a match and in its twin; ``refused``: the seat typing, in the twin, only orders
    its rules refuse (else '': the other seats' bots typing otherwise)."""

    one: Typing
    other: Typing
    refused: str = ""


def twin_cell(kind: ColumnKind, first: bool, refused: bool) -> bool | str | None:
    """What ``refused_typing``'s twins type in a column of ``kind`` of a seat's row (``first``: the first of its
    table): Ready ticked there; a column of text, a number or a choice emptied (what was left there from an earlier
    window is read in neither twin), or in the first row typed as its rules refuse (``refused``); nothing else."""
    if kind is ColumnKind.READY:
        return True if first else None
    return (REFUSED[kind] if refused and first else "") if kind in REFUSED else None


def refused_typing(config: MatchConfig, seat: str) -> Twins | None:
    """Twins in which one other seat acting in the open window (the first of them) empties every row it types in,
    and in one twin types orders its rules refuse in the first row of each of its tables open now (``twin_cell``),
    its Ready ticked in both: no game carries out a refused order, so both end in the same engine state, and a game
    that tells a seat of another's refusal is found. None when no other seat acts in the window."""
    read = read_match(opened(config), get_ruleset(config.ruleset))
    window = read.record.ruleset.window(read.record.state)
    acting = [s for s in (window.seats if window else ()) if s != seat and s in read.seats]
    if window is None or not acting:
        return None
    other, phase = acting[0], window.phase

    def typing(refused: bool) -> Typing:
        def typed(cfg: MatchConfig) -> None:
            sheets = opened(cfg)
            now = read_match(sheets, get_ruleset(cfg.ruleset))
            seat_read, backend, batch = now.seats[other], seat_backend(sheets, now.tabs, other), WriteBatch()
            for placed in (t for t in seat_read.tab.tables if t.spec.open_in(phase)):
                rows = sorted(r.row for r in seat_read.rows if r.table == placed.spec.name)
                for row, column in ((r, c) for r in rows for c in placed.spec.columns):
                    value = twin_cell(column.kind, row == rows[0], refused)
                    if value is not None:
                        batch.put(backend, placed.at(placed.cell(row - placed.first_row, column.key)), [[value]])
            batch.run(sheets.write_order())
        return typed
    return Twins(typing(False), typing(True), refused=other)


def twin_typings(config: MatchConfig, seat: str) -> Iterator[Twins]:
    """What the other seats type in two twins, in the order ``compare_after`` tries them (each made when asked)."""
    makers = comparable_typists(config, seat)
    if makers is not None:
        yield Twins(bots_typing(seat, makers[0]), bots_typing(seat, makers[1]))
    refused = refused_typing(config, seat)
    if refused is not None:
        yield refused


def engine_state(config: MatchConfig) -> str:
    """The engine's state of the match of ``config``, as canonical JSON."""
    record = read_match(opened(config), get_ruleset(config.ruleset)).record
    return canonical(record.ruleset.state_codec.to_json(record.state))


def compare_after(tmp: Path, game: str, seat: str, windows: int, every: bool = False) -> tuple[list[str], bool]:
    """A match and its twin differing only in what the other seats type for the open window, Ready ticked, resolved
    in one poll (the bot on ``seat`` typing the same in both): first two sets of bots that ``comparable_typists``
    found the engine shows ``seat`` the same after, then one other seat typing nothing or orders its rules refuse
    (``refused_typing``: those twins must end in the same engine state, a refused order being carried out in none).
    What ``seat`` receives differently (its workbook and the board, cell by cell, and the poll's notices to it and
    the channel: what the page is built from too), where the engine shows it the same after the resolution; and
    whether it does (else nothing was compared). The first pair compared ends the walk, unless ``every``."""
    config = match_at(tmp / "match", game, seat, windows)
    found: list[str] = []
    compared = False
    for n, twins in enumerate(twin_typings(config, seat)):
        got: list[tuple[Received, str, str]] = []
        for side, typing in (("a", twins.one), ("b", twins.other)):
            shutil.copytree(tmp / "match", tmp / f"{n}{side}")
            cfg = load_config(tmp / f"{n}{side}" / "match.toml")
            typing(cfg)
            # the bot seat's rows typed and the window resolved in one poll
            report = poll(opened(cfg), get_ruleset(game), now=NOW, force=True)
            assert report.resolved, f"{game}: the window did not resolve ({report.reason})"
            got.append((received(cfg, seat, report), shown_after(cfg, seat, report, fields=not twins.refused),
                        engine_state(cfg)))
        (mine, shown, state), (theirs, shown_twin, state_twin) = got
        assert typed_apart(tmp / f"{n}a", tmp / f"{n}b", mine), f"{game}: the twins' other seats typed the same"
        if twins.refused and (shown, state) != (shown_twin, state_twin):
            found.append(f"{twins.refused}'s orders its rules refuse were carried out: " + "; ".join(
                json_differences(state, state_twin) + json_differences(shown, shown_twin)))
        elif shown == shown_twin:
            found += mine.differences(theirs)
        else:
            continue
        compared = True
        if not every:
            break
    return found, compared


def typed_apart(one: Path, other: Path, seen: Received) -> bool:
    """Whether a workbook the watched seat does not open differs between the twin matches in folders ``one`` and
    ``other`` (without which they did not differ in what the other seats typed)."""
    return any(unstamped(path) != unstamped(other / path.relative_to(one)) for path in one.rglob("*.xlsx")
               if path.name not in seen.files)


#: The game whose files the quick run walks across a resolution, the same every run: Champions' twins (another player
#: equipping otherwise, on another tile) are compared in the first window; every game's under ``-m soak``.
QUICK_FILES_GAME = "champions"


@pytest.mark.parametrize(("game", "quick"), [(QUICK_FILES_GAME, True),
                                             *(pytest.param(g, False, marks=pytest.mark.soak) for g in FILE_GAMES)],
                         ids=[f"{QUICK_FILES_GAME}-first", *FILE_GAMES])
def test_the_files_and_notices_after_a_resolution_tell_a_seat_nothing_its_rules_hide(game: str, quick: bool,
                                                                                     tmp_path: Path) -> None:
    """Each game, its first three seats (of Champions' eight) watched in three windows, every pair of twins
    (``quick``: the first seat's first pair in the first window)."""
    compared = 0
    for extra, seat in ((e, s) for e in range(1 if quick else 3) for s in seats_of(game)[:1 if quick else 3]):
        found, same = compare_after(tmp_path / f"{extra}-{seat}", game, seat, max(1, warm_up(game)) + extra,
                                    every=not quick)
        assert found == [], f"{game}: what {seat} receives after the resolution differs where the engine shows it " \
                            f"the same (a file's cell, a notice), or a refused order was carried out: " + \
                            " | ".join(found[:6])
        compared += same
    assert compared, f"{game}: a view or a reveal told every pair of twins apart: nothing was compared"


def test_another_player_s_orders_published_in_the_log_are_found_in_the_files(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The defect put back at the files: a Champions engine that adds a public line naming every order it resolved,
    no reveal of its rules. The board's Log cell is named with both texts."""
    cls = get_ruleset("champions")
    resolve = cls.resolve

    def publishing(self: Any, state: Any, orders: Any, dice: Any) -> Any:
        done = resolve(self, state, orders, dice)
        line = Event(done.events[0].turn if done.events else 0, done.events[0].kind if done.events else Kind.MOVE,
                     "Orders: " + canonical(self.orders_codec.to_json(orders)))
        return replace(done, events=[*done.events, line])

    monkeypatch.setattr(cls, "resolve", publishing)
    found, same = compare_after(tmp_path, "champions", "Ann", max(1, warm_up("champions")))
    assert same and any(re.match(r"board\.xlsx: tab '[^']+' cell [A-Z]+[0-9]+: 'Orders: .*' / 'Orders: ", d)
                        for d in found), found


def test_a_refused_order_carried_out_is_found_in_the_twins_files(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The defect put back for the refused twins: a GvG reader that carries out a captain's row it cannot read, as
    a default skill bought (Player Speed, a coin). Twins in which blue types nothing or only refused orders then end
    in other states, and the walk says whose refused orders were carried out and where the states differ."""
    from sheets_gm.rulesets.gvg.enums import Skill
    from sheets_gm.rulesets.gvg.sheet import adapter as gvg_adapter
    from sheets_gm.rulesets.gvg.sheet.read import parse_captain_cells as read

    def lenient(skill_cells: Any, ready: Any) -> Any:
        parsed = read(skill_cells, ready)
        return replace(parsed, skills=(Skill.PLAYER_SPEED,)) if parsed.problems else parsed

    monkeypatch.setattr(gvg_adapter, "parse_captain_cells", lenient)
    found, compared = compare_after(tmp_path, "gvg", "red", max(1, warm_up("gvg")))
    assert compared and found[0].startswith("blue's orders its rules refuse were carried out: ") \
        and "coins" in found[0], found


def test_champions_looting_lines_tell_a_tile_who_else_loots_there_as_its_rules_declare(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What the walk found in Champions: a looter's line names the tile's draw of who loots first, which tells the
    looters of a tile whether another there looted. Its rules print the draw so that it can be checked, and name the
    looting lines a reveal; without that declaration, the first window's walk (every seat) finds the line."""
    rules: AnyRuleset = create_ruleset("champions")
    match = played(rules, b"noninterference/after")
    first = replace(match, states=match.states[:1], windows=match.windows[:1], orders_json=match.orders_json[:1])
    assert walk(rules, first, every=1).found == []
    monkeypatch.setattr(type(rules), "reveals", ())
    found = walk(rules, first, every=1).found
    assert found and all("the other lines it reads differs" in d and "/lootorder/" in d for d in found), found
