"""The match page's history is the match's public Log: over every window's page (the board before the first
resolution, each resolution's page, the page of the match now), the Log lines the page shows are the board's
public Log, line for line, in order, the lines an undo took back left out as the Log's undo line names them — for
every game, played through the real sync and the GM's own commands (an adjustment, a seat handed to a bot and back,
an undo), the page built by the poll as a host builds it."""

from __future__ import annotations

import datetime as dt
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sheets_gm.cli import main as cli_main
from sheets_gm.commands.init import starter_config
from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.init.start import init_match
from sheets_gm.match.config import MatchConfig, load_config
from sheets_gm.rulesets.registry import bots_of, create_ruleset, get_game, get_ruleset, ruleset_names
from sheets_gm.running.run import sync_once
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.log_check import Line, holding_lines
from sheets_gm.sync.read import adapter_of, read_match
from sheets_gm.sync.writes import status_line
from sheets_gm.web.site import record_of
from sheets_gm.web.standings import figures_of
from tests.conformance.noninterference import opened
from tests.conformance.test_leak_scan import roster_csv
from tests.web.pages import windows_listed

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
SEED = b"the page's log is the match's log"
GAMES = [n for n in ruleset_names() if get_game(n).sheet is not None]


class _LogRows(HTMLParser):
    """The rows of a page's Log tables (its sections of class ``log``), in order: turn, kind, sentence."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[Line] = []
        self._depth = 0  # inside a Log section
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag == "section":
            self._depth += 1 if self._depth or "log" in classes else 0
        elif self._depth and tag == "tr":
            self._row = []
        elif self._row is not None and tag == "td":
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "section" and self._depth:
            self._depth -= 1
        elif tag == "td" and self._row is not None and self._cell is not None:
            self._row.append("".join(self._cell))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            if len(self._row) == 3:
                self.rows.append((self._row[0], self._row[1], self._row[2]))
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def page_log(folder: Path) -> list[Line]:
    """The Log lines the page shows over all its windows, in the order its history steps through them."""
    rows: list[Line] = []
    for window in windows_listed(folder):
        parser = _LogRows()
        parser.feed((folder / window["file"]).read_text(encoding="utf-8"))
        rows += parser.rows
    return rows


def board_log(config: MatchConfig) -> list[Line]:
    """The board's public Log: its lines that still hold, in order, each whole."""
    sheets = opened(config)
    read = read_match(sheets, get_ruleset(config.ruleset))
    (grid,) = sheets.board.read([read.tabs.log_to_end(0)])
    return holding_lines(grid)


#: House rules the walk plays a game under where the Log has lines of its own under them: Win or Die's stand-in GM,
#: whose adjustments (a Charge's, a Frenzy's) the resolution logs with its own lines.
HOUSE = {"winordie": "stand_in_gm = true\n"}


def _new_match(folder: Path, game: str) -> MatchConfig:
    folder.mkdir(parents=True, exist_ok=True)
    text = starter_config(game).read_text(encoding="utf-8")
    if game in HOUSE:
        head, settings, tail = text.partition("\n[settings]")
        text = f"{head}{settings}{tail.partition(chr(10))[0]}\n{HOUSE[game]}{tail.partition(chr(10))[2]}"
    (folder / "match.toml").write_text(text, encoding="utf-8")
    config = load_config(folder / "match.toml")
    roster_csv(create_ruleset(game), folder / "roster.csv", config.seats)
    init_match(config, now=NOW, roster_file=folder / "roster.csv", share=False, seed=SEED)
    return config


class _Table:
    """A match of one game played as a table plays it: the people type, the GM runs her commands, a host polls and
    builds the page; after every poll the page's Log is the board's."""

    def __init__(self, folder: Path, game: str) -> None:
        self.config = _new_match(folder, game)
        self.cls = get_ruleset(game)
        self.make = next(iter(bots_of(create_ruleset(game)).values())).make
        self.turn = 0
        self.poll()

    def poll(self) -> None:
        """One poll as a host runs it (the page built from it), then the property."""
        sync_once(self.config, opened(self.config), now=NOW)
        assert self.config.web is not None
        assert page_log(self.config.web) == board_log(self.config)
        labels = [w["label"] for w in windows_listed(self.config.web)]
        assert len(set(labels)) == len(labels), labels

    def play(self, windows: int = 1) -> None:
        """Every seat and the judge type a bot's orders and tick Ready, then a poll, ``windows`` times."""
        for _ in range(windows):
            self.turn += 1
            seats = (*self.config.seats, JUDGE)
            type_bot_orders(opened(self.config), self.cls, {s: self.make(f"log/{self.turn}/{s}") for s in seats})
            self.poll()
            self.poll()  # a bot seat's rows typed by the first poll are read by the second

    def gm(self, *words: str, poll: bool = True) -> None:
        """One of the GM's commands, then a poll (none: ``poll`` False, and the page the command built is checked
        as a poll's is, with its standings)."""
        why = [] if words[0] == "resolve" else ["--reason", "a GM's call"]
        assert cli_main([words[0], "-c", str(self.config.path), *words[1:], *why]) == 0
        if poll:
            self.poll()
        else:
            self.check(resolved=words[0] == "resolve")

    def check(self, *, resolved: bool = False) -> None:
        """The page is the board's: its Log line for line, a page for each resolution the match counts and none
        past them, and (``resolved``: just after a resolution) the last one's standings the board's status line
        (each side's figures; the chart draws them)."""
        assert self.config.web is not None
        assert page_log(self.config.web) == board_log(self.config)
        record = read_match(opened(self.config), self.cls).record
        windows = record_of(self.config.web)["windows"]
        assert [w["n"] for w in windows if w["log"]] == list(range(1, record.resolved + 1))
        if resolved:
            status = figures_of(status_line(adapter_of(record.ruleset), record), record.seats)
            assert all(windows[-1]["figures"][side].items() >= values.items() for side, values in status.items())

    def open_key(self) -> str:
        """The key of the window open now (what ``status`` names for ``resolve --force --window``)."""
        record = read_match(opened(self.config), self.cls).record
        window = record.ruleset.window(record.state)
        assert window is not None
        return window.key


def _adjust_options(game: str) -> list[str]:
    import shlex

    gm = get_game(game).gm
    assert gm is not None
    return list(get_game(game).tests.adjust or shlex.split(gm.example.split(" --reason")[0]))


def _walk(game: str, folder: Path, windows: int) -> None:
    """A GM's adjustment, a window, a seat handed to the game's best bot, ``windows`` windows, the seat handed back,
    an undo and a window again: after every poll, the page's Log is the board's."""
    table = _Table(folder, game)
    table.gm("adjust", *_adjust_options(game))
    table.play()
    seat = table.config.seats[-1]
    table.gm("adjust", "--bot", f"{seat}={next(iter(bots_of(create_ruleset(game))))}")
    table.play(windows)
    table.gm("adjust", "--bot", f"{seat}=none")
    table.gm("undo")
    table.play()


def test_the_pages_log_is_the_boards_log_through_the_gms_commands(tmp_path: Path) -> None:
    # Win or Die: the set-up's first-player roll heads the Log, and its stand-in GM's adjustments (a Charge in the
    # fifth window) are logged with the resolution that calls for them
    _walk("winordie", tmp_path, 4)


def test_every_command_that_changes_the_match_builds_its_page(tmp_path: Path) -> None:
    """The class, walked with no poll between the commands: whichever command changes the match (an undo, an
    adjustment, a forced resolution — the path ``undo`` prints —, a sync that resolves), the page it leaves is the
    board's: no page of a resolution taken back, the undo's and the adjustment's lines on it, the resolution made
    again with its own Log and standings."""
    table = _Table(tmp_path, "coalition")
    table.play(2)
    for forced in (True, False):
        table.gm("undo", poll=False)
        table.gm("adjust", *_adjust_options("coalition"), poll=False)
        if forced:
            table.gm("resolve", "--force", "--window", table.open_key(), poll=False)
        else:
            table.play()
        table.check(resolved=True)


@pytest.mark.soak
@pytest.mark.parametrize("game", GAMES)
def test_soak_the_pages_log_is_the_boards_log_in_every_game(tmp_path: Path, game: str) -> None:
    _walk(game, tmp_path, 3)
