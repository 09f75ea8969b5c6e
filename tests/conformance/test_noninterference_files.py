"""No seat learns what its rules hide, proven by difference: the files, notices and bot orders a seat receives.

For every game, a match is played through the real sync on local workbooks laid out as ``init`` lays them out,
one seat S handed to the game's best bot (so the sync itself types S's orders from what S may see). At a window,
the match folder is copied, and the copy made to differ in what S may not see only: the engine holds a twin state
(``Ruleset.unseen_twin``: another player's face-down units dealt afresh to her tokens, bags and pools
shuffled), and every other seat types other orders. The same poll then runs on both, at the same time, and
everything S receives must be identical: every XML part of every workbook S opens (cell values, notes,
validation lists, hidden tabs, defined names, document properties but their time stamps), and every notice to
S's members and to the public channel. A deliberate leak (a board cell naming a face-down unit) shows the test
failing. The substring scan (``test_leak_scan.py``) stays as a second net.
"""

from __future__ import annotations

import datetime as dt
import functools
import random
import re
import shlex
import shutil
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.cli import main as cli_main
from sheets_gm.commands.init import starter_config
from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.init.start import init_match
from sheets_gm.match.config import MatchConfig, load_config, toml_key
from sheets_gm.notify.announce import seen_of
from sheets_gm.notify.notices import NoticeRules, poll_notices
from sheets_gm.rulesets.registry import AnyRuleset, bots_of, create_ruleset, get_game, get_ruleset, ruleset_names
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.match_record import engine_write
from sheets_gm.sync.poll import WindowReport, poll
from sheets_gm.sync.read import read_match
from tests.conformance.leak_scan import workbook_differences, xml_parts
from tests.conformance.noninterference import canonical, opened
from tests.conformance.test_leak_scan import roster_csv
from tests.made import made_into
from tests.quick import soak_but

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
SEED = b"noninterference seed of the match"
GAMES = [n for n in ruleset_names() if get_game(n).sheet is not None]
_STAMPS = re.compile(rb"<dcterms:(created|modified)[^>]*>[^<]*</dcterms:\1>")


@dataclass(frozen=True)
class Received:
    """Everything a seat receives after a poll: each file it opens (XML parts, time stamps cut), its notices."""

    files: dict[str, dict[str, bytes]]
    notices: list[str]

    def differences(self, other: Received) -> list[str]:
        """What differs, by difference and not by a scan (so a text of any length counts): each file's texts by
        tab and cell, both texts named (``workbook_differences``), then the notices, one by one."""
        out = []
        for name in sorted(set(self.files) | set(other.files)):
            out += workbook_differences(name, self.files.get(name, {}), other.files.get(name, {}))
        mine, theirs = self.notices, other.notices
        out += [f"notice {n + 1}: {a!r} / {b!r}" for n, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b]
        if len(mine) != len(theirs):
            out.append(f"notices: {len(mine)} / {len(theirs)}: {mine[len(theirs):] or theirs[len(mine):]}")
        return out


def unstamped(path: Path) -> dict[str, bytes]:
    """Every XML part of the workbook at ``path``, its save time stamps cut (they differ by the clock alone)."""
    return {part: _STAMPS.sub(b"", raw) for part, raw in xml_parts(path).items()}


def config_text(game: str, seat: str, kind: str) -> str:
    """The game's starter config (as ``init GAME`` writes it, private sheets) with ``seat`` played by ``kind``."""
    text = starter_config(game).read_text(encoding="utf-8")
    return f'{text}\n[bots]\n{toml_key(seat)} = "{kind}"\n'


def received(config: MatchConfig, seat: str, report: WindowReport) -> Received:
    """What ``seat`` receives after the poll of ``report``: the board and its own orders workbook, every notice
    that poll sends to its members or to the channel."""
    opened = {config.local_path(config.board).resolve(),
              config.local_path(config.orders[config.seats.index(seat)]).resolve()}
    files = {path.name: unstamped(path) for path in opened}
    assert report.facts is not None
    notices = [f"{n.recipient}: {n.subject}\n{n.body}" for n in
               poll_notices(report.facts, seen_of(report), NoticeRules(lead=dt.timedelta(days=365)), NOW)
               if n.public or n.recipient == seat]
    return Received(files, notices)


def others_type(config: MatchConfig, seat: str, secret: str, unlike: str | None = None) -> str:
    """Every seat acting now but ``seat`` (and the judge) types the orders of a bot made from ``secret``, no Ready
    ticked: the orders others keep to themselves until the window resolves. With ``unlike`` (orders typed in the
    other match, as JSON), bots made from further secrets are tried until their orders differ (a bot often has
    one best move). Returns the orders typed, as JSON."""
    sheets = opened(config)
    cls = get_ruleset(config.ruleset)
    record = read_match(sheets, cls).record
    rules = record.ruleset
    window = rules.window(record.state)
    make = next(iter(bots_of(rules).values())).make
    for attempt in range(8):
        bots = {s: make(f"{secret}/{attempt}/{s}") for s in (*config.seats, JUDGE) if s != seat}
        plans = {s: bot.orders(record.state, s, record.dice()) for s, bot in bots.items()
                 if window is not None and s in window.seats}
        typed = canonical({s: rules.orders_codec.to_json(rules.merge_orders({s: o})) for s, o in plans.items()})
        if typed != unlike or not plans:
            break
    type_bot_orders(sheets, cls, bots, ready=False)
    return typed


def twin_engine(config: MatchConfig, seat: str, rng: random.Random) -> bool:
    """The engine of the match rewritten with a twin state ``seat`` cannot tell from its own; whether it differs."""
    sheets = opened(config)
    read = read_match(sheets, get_ruleset(config.ruleset))
    record = read.record
    twin = record.ruleset.unseen_twin(record.state, seat, rng)
    codec = record.ruleset.state_codec
    if codec.to_json(twin) == codec.to_json(record.state):
        return False
    where, values = engine_write(read.tabs.spec.tabs.engine, replace(record, state=twin))
    sheets.engine.write([RangeWrite(where, values)])
    return True


def match_at(tmp: Path, game: str, seat: str, windows: int) -> MatchConfig:
    """A match of ``game`` created by ``init`` in ``tmp``, ``seat`` played by the best bot, after ``windows``
    windows every seat played by bots (and as many more, up to three, as it takes to reach a window where what
    ``seat`` may not see can differ). Played once a test run and copied (``tests/made.py``: Win or Die's is
    the same match for the GM's walk and the planted leak, whose board is drawn again by the poll it compares)."""
    made_into(tmp, ("noninterference match", game, seat, windows), functools.partial(
        _played_match, game=game, seat=seat, windows=windows), shared=True)
    return load_config(tmp / "match.toml")


def _played_match(tmp: Path, game: str, seat: str, windows: int) -> MatchConfig:
    """``match_at``'s match, played here."""
    rules: AnyRuleset = create_ruleset(game)
    best = next(iter(bots_of(rules)))
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "match.toml").write_text(config_text(game, seat, best), encoding="utf-8")
    config = load_config(tmp / "match.toml")
    roster_csv(rules, tmp / "roster.csv", config.seats)
    init_match(config, now=NOW, roster_file=tmp / "roster.csv", share=False, seed=SEED)
    sheets = opened(config)
    cls = get_ruleset(game)
    make = bots_of(rules)[best].make
    n = 0
    while n < windows or (n < windows + 3 and nothing_hidden_moves(config, seat)):
        type_bot_orders(sheets, cls, {s: make(f"warm-up/{n}/{s}") for s in (*config.seats, JUDGE) if s != seat})
        poll(sheets, cls, now=NOW)
        poll(sheets, cls, now=NOW)  # the bot seat's rows typed by the first poll are read by the second
        n += 1
    return config


def nothing_hidden_moves(config: MatchConfig, seat: str) -> bool:
    """Whether at the open window nothing ``seat`` may not see can differ: no other seat types orders (the judge's
    alone, which a stand-in judge takes from the public board) and no twin state differs. A snapshot there would
    prove nothing, so the warm-up plays on (Coalition's battle results window)."""
    record = read_match(opened(config), get_ruleset(config.ruleset)).record
    window = record.ruleset.window(record.state)
    if window is None or set(window.seats) - {seat, JUDGE}:
        return False
    codec = record.ruleset.state_codec
    return all(codec.to_json(record.ruleset.unseen_twin(record.state, seat, random.Random(n))) ==
               codec.to_json(record.state) for n in range(3))


def warm_up(game: str) -> int:
    """The windows every seat plays before twin matches of ``game`` are compared, as the game declares them
    (``SharedTests.warm_up``: Win or Die deploys face down in its first two)."""
    return get_game(game).tests.warm_up


def seats_of(game: str) -> list[str]:
    """The seats (or teams) of the game's starter config."""
    data = tomllib.loads(starter_config(game).read_text(encoding="utf-8"))
    return [str(s) for s in data.get("seats") or data.get("teams") or []]


def compare(tmp_path: Path, game: str, seat: str, windows: int, twin_seed: int) -> tuple[list[str], bool]:
    """The differences ``seat`` receives between a match and its twin after one poll; whether the two differ at
    all where ``seat`` may not look (the engine's state, or another seat's workbook), without which the
    comparison would prove nothing."""
    config = match_at(tmp_path / "a", game, seat, windows)
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    twin = load_config(tmp_path / "b" / "match.toml")
    varied = twin_engine(twin, seat, random.Random(twin_seed))
    cls = get_ruleset(game)
    got = []
    typed: str | None = None
    for cfg, secret in ((config, "one"), (twin, "another")):
        typed = others_type(cfg, seat, secret, unlike=typed)
        got.append(received(cfg, seat, poll(opened(cfg), cls, now=NOW)))
    hidden_from_seat = {p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*.xlsx")} - {
        Path(name) for name in got[0].files}
    apart = [p for p in hidden_from_seat if unstamped(tmp_path / "a" / p) != unstamped(tmp_path / "b" / p)]
    return got[0].differences(got[1]), varied or bool(apart)


@pytest.mark.xdist_group("noninterference-winordie")  # Win or Die's match played once for this and the GM's walk
@pytest.mark.parametrize("game", soak_but(GAMES, "champions", "coalition"))
def test_a_seat_receives_the_same_whatever_it_may_not_see(game: str, tmp_path: Path) -> None:
    diffs, apart = compare(tmp_path, game, seats_of(game)[0], max(1, warm_up(game)), twin_seed=1)
    assert diffs == []
    assert apart, "the twin matches differ nowhere: the comparison proves nothing"


@pytest.mark.soak
@pytest.mark.parametrize("windows", [1, 2, 4, 6])
@pytest.mark.parametrize("game", GAMES)
def test_soak_every_seat_receives_the_same_whatever_it_may_not_see(game: str, windows: int,
                                                                   tmp_path: Path) -> None:
    for n, seat in enumerate(seats_of(game)):
        # where the twins differ nowhere (the other seat's bots type the same whatever their secret, or only this
        # seat acts), the comparison proves nothing: the next window is compared, up to two more
        for extra in range(3):
            diffs, apart = compare(tmp_path / f"{n}-{extra}", game, str(seat), warm_up(game) + windows + extra,
                                   twin_seed=n)
            assert diffs == [], seat
            if apart:
                break
        assert apart, f"{seat}: the twin matches differ nowhere in three windows"


def gm_steps(game: str, config: MatchConfig) -> list[list[str]]:
    """The GM's commands the walk runs on both matches, in turn: an ``adjust`` naming nothing a seat may not see (the
    game's ``SharedTests.adjust``, else its example's), an ``undo``, a ``repair``."""
    gm = get_game(game).gm
    steps: list[list[str]] = []
    if gm is not None:
        options = get_game(game).tests.adjust or shlex.split(gm.example.split(" --reason")[0])
        steps.append(["adjust", *options, "--reason", "walk"])
    return [*steps, ["undo", "--reason", "walk"], ["repair"]]


def walk_gm_commands(tmp_path: Path, game: str, seat: str, windows: int) -> list[str]:
    """The differences ``seat`` receives between a match and its twin after each of the GM's commands (each
    followed by a poll), the commands run on both."""
    diffs, _ = compare(tmp_path, game, seat, windows, twin_seed=3)
    configs = [load_config(tmp_path / side / "match.toml") for side in ("a", "b")]
    cls = get_ruleset(game)
    for step in gm_steps(game, configs[0]):
        got = []
        for cfg in configs:
            code = cli_main([step[0], "-c", str(cfg.path), *step[1:]])
            got.append((code, received(cfg, seat, poll(opened(cfg), cls, now=NOW))))
        assert got[0][0] == got[1][0] == 0, f"{step} ended {got[0][0]} in one match and {got[1][0]} in its twin"
        diffs += [f"after {step[0]}: {d}" for d in got[0][1].differences(got[1][1])]
    return diffs


@pytest.mark.xdist_group("noninterference-winordie")
def test_the_gm_s_commands_give_a_seat_the_same_whatever_it_may_not_see(tmp_path: Path) -> None:
    assert walk_gm_commands(tmp_path, "winordie", "Ann", warm_up("winordie")) == []


@pytest.mark.soak
@pytest.mark.parametrize("game", GAMES)
def test_soak_the_gm_s_commands_give_every_seat_the_same(game: str, tmp_path: Path) -> None:
    for n, seat in enumerate(seats_of(game)):
        assert walk_gm_commands(tmp_path / str(n), game, seat, warm_up(game) + 2) == [], seat


@pytest.fixture
def board_names_a_face_down_unit(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A deliberate leak: Win or Die's board status line names the card behind the other player's first token."""
    from sheets_gm.rulesets.winordie.sheet import adapter as wod_adapter

    cls = wod_adapter.WodSheet
    drawn: Callable[..., Any] = cls.board  # every drawing of the board tab (the sync's, a poll's check) is made here

    def leaking(self: Any, state: Any) -> Any:
        board = drawn(self, state)
        hidden = sorted((u for u in state.units if u.hidden and u.token), key=lambda u: u.token)
        if hidden:
            values = [list(r) for r in board.values]
            values[-1][0] = f"{hidden[-1].token} is {hidden[-1].card}"
            board = replace(board, values=values)
        return board

    monkeypatch.setattr(cls, "board", leaking)
    yield


def test_a_board_naming_a_face_down_unit_is_found(board_names_a_face_down_unit: None, tmp_path: Path) -> None:
    diffs, varied = compare(tmp_path, "winordie", "Ann", warm_up("winordie"), twin_seed=1)
    named = re.compile(r"board\.xlsx: tab '[^']+' cell [A-Z]+[0-9]+: '[^']+ is [^']+' / '")  # file, tab, cell, texts
    assert varied and any(named.match(d) for d in diffs), diffs
