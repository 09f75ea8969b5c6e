"""The leak scan, for every game and every layout ``init`` can produce: no secret in a file a seat can open.

Each layout is a config as a GM would write it (the shipped starter, ``init --private``, one workbook,
one workbook with the engine under ``gm/``, one orders file shared by every seat). ``init`` either
refuses it, naming the file and the secret, or creates the match in real workbooks; then a few
windows are played through the real sync, the bots typing their orders into their cells
(``typed_cells``), and after every poll each file a seat can open (the board, and each seat's orders
file) is unzipped and searched (``leak_scan``) for: the seed, in any form; another seat's typed
orders while they are still secret (a game that is not of perfect information, and the window
not resolved yet); what only another seat may see (``secrets``: hidden units, a bag); and another
seat's members' e-mails. Every notice the poll would send (by chat to every seat, by e-mail to one) is
searched for the same secrets its readers may not know (``scan_notices``).
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import re
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from sheets_gm.commands.init import private_config, starter_config
from sheets_gm.engine.ruleset import JUDGE, Information, Roster
from sheets_gm.init.start import init_match
from sheets_gm.match.config import MatchConfig, load_config, toml_key
from sheets_gm.match.roster_tab import roster_columns
from sheets_gm.notify.announce import seen_of
from sheets_gm.notify.notices import CHANNEL, Notice, NoticeRules, poll_notices
from sheets_gm.privacy.secrets import ExposedSecretError
from sheets_gm.rulesets.registry import (
    AnyRuleset,
    bots_of,
    create_ruleset,
    get_game,
    get_ruleset,
    ruleset_names,
    sheet_of,
)
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sheets.layout import a1
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sync.autoplay import type_bot_orders
from sheets_gm.sync.life.create import create_match
from sheets_gm.sync.match_record import MatchRecord, history_rows, joined_cells
from sheets_gm.sync.poll import WindowReport, poll
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import MatchSheets, seat_backend
from tests.conformance.leak_scan import (
    Hit,
    NoticeHit,
    count_parts,
    count_texts,
    find_in_notice,
    find_seed,
    find_texts,
    xml_parts,
)
from tests.quick import soak_but

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
SEED = b"leak-scan seed \x00\x01\x02 of the match"
WINDOWS = 2
GAMES = [n for n in ruleset_names() if get_game(n).sheet is not None]


def _sheets_section(text: str, lines: str) -> str:
    """The starter config with its ``[sheets]`` keys replaced by ``lines`` (the backend stays local)."""
    head, _, rest = text.partition("\n[sheets]\n")
    body = rest.split("\n[", 1)
    tail = "\n[" + body[1] if len(body) > 1 else ""
    return f'{head}\n[sheets]\nbackend = "local"\n{lines}\n{tail}'


def layouts(game: str) -> dict[str, str]:
    """Every layout a GM gets from ``init`` or writes in a line or two, as a whole config text."""
    starter = starter_config(game).read_text(encoding="utf-8")
    data = tomllib.loads(starter)
    shared = ", ".join(f'{toml_key(s)} = "orders.xlsx"' for s in data.get("seats") or data["teams"])
    return {
        "starter": starter,
        "private": private_config(_sheets_section(starter, 'board = "match.xlsx"')),
        "one workbook": _sheets_section(starter, 'board = "match.xlsx"'),
        "one workbook, engine under gm/": _sheets_section(starter, 'board = "match.xlsx"\nengine = "gm/engine.xlsx"'),
        "one orders file for every seat": _sheets_section(
            starter, f'board = "board.xlsx"\nengine = "gm/engine.xlsx"\norders = {{ {shared} }}'),
        "the judge's tabs in the board": starter.replace('judge = "gm/judge.xlsx"', 'judge = "board.xlsx"'),
    }


def roster_csv(rules: AnyRuleset, path: Path, seats: tuple[str, ...]) -> Roster:
    """The sample roster's members of ``seats`` (and of no seat: a roster group), each with an e-mail, as the
    CSV ``init --roster`` reads."""
    sample = rules.sample_roster()
    roster = Roster(seats, tuple(m for m in sample.members if m.seat in seats or m.seat not in sample.seats))
    columns = roster_columns(rules)
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(columns)
        for m in roster.members:
            values = {"name": m.name, columns[1]: m.seat, "email": email_of(m.name), **m.fields}
            writer.writerow([values.get(c, "") for c in columns])
    return roster


def email_of(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower()) + "@leak-scan.example"


def openers(config: MatchConfig) -> dict[Path, set[str]]:
    """Each file a seat can open, with the seats who open it: the board (everyone) and each orders file."""
    out: dict[Path, set[str]] = {config.local_path(config.board).resolve(): set(config.seats)}
    for seat, where in zip(config.seats, config.orders, strict=True):
        out.setdefault(config.local_path(where).resolve(), set()).add(seat)
    return out


def archived_copies(sheets: MatchSheets, cls: type[AnyRuleset]) -> dict[str, set[str]]:
    """The sync's copies of what each seat typed, as the cells hold them: the rows each resolution read (the
    engine's history rows, ``archived``) and the copies of its Archive lines (its hidden Copies tab)."""
    read = read_match(sheets, cls)
    out: dict[str, set[str]] = {seat: set() for seat in read.seats}
    if read.record.resolved:
        (grid,) = sheets.engine.read([history_rows(read.tabs.spec.tabs.engine, read.record.resolved)])
        for row in grid:
            entry = json.loads(joined_cells(row, 1)) if len(row) > 1 else {}
            for seat, text in (entry.get("archived") or {}).items():
                out[seat].add(str(text))
    for seat in read.seats:
        (grid,) = seat_backend(sheets, read.tabs, seat).read([read.tabs.copies_lines_range(seat, 0, 400)])
        out[seat] |= {str(v) for row in grid for v in row if v not in (None, "")}
    # A copy naming no row ('{"resolution":2,…,"rows":[]}' of a window the seat did not type in) tells nothing, and
    # is the same for every seat.
    shared = {t for seat, mine in out.items() for t in mine if any(t in o for s, o in out.items() if s != seat)}
    return {seat: {t for t in mine - shared if '"rows":[]' not in t and t != "[]"} for seat, mine in out.items()}


def scan(config: MatchConfig, record: MatchRecord, emails: dict[str, str], typed: dict[str, set[str]],
         copies: dict[str, set[str]] | None = None) -> list[Hit]:
    """Every secret in a file a seat can open. ``emails``: each member's e-mail → her seat; ``typed``: each
    seat's typed strings while they are secret (``typed_strings``: no file held them before); ``copies``: the
    sync's copies of each seat's archived rows (``archived_copies``), in a game that is not of perfect
    information: in no file another seat opens, hidden tab or not."""
    hits: list[Hit] = []
    for path, readers in openers(config).items():
        hits += find_seed(path, record.seed)
        for seat in (*config.seats, JUDGE):
            if not readers - {seat}:
                continue
            wanted = {text: f"what only {seat} may see" for text in record.ruleset.secrets(record.state, seat)
                      if seat != JUDGE}
            wanted |= {email: f"the e-mail of a member of {seat}" for email, s in emails.items() if s == seat}
            wanted |= {text: f"the sync's copy of what {seat} typed" for text in (copies or {}).get(seat, set())}
            hits += find_texts(path, wanted)
            hits += [Hit(path, part, f"{seat}'s typed orders, not resolved yet", text)
                     for (part, text), n in count_texts(path, typed.get(seat, set())).items() if n]
    return hits


def typed_strings(record: MatchRecord, orders: dict[str, Any],
                  before: dict[Path, dict[str, bytes]]) -> dict[str, set[str]]:
    """What each seat typed that tells its orders apart: the strings of its cells (3 characters or more) that
    no other seat typed this window and that no file held before (a dropdown's words, a tile's name on
    the board are not the seat's secret). A shorter order (a square, ``B2``) is too common a text to search for:
    the twin matches of ``test_noninterference_orders.py`` find it by difference."""
    window = record.ruleset.window(record.state)
    adapter = sheet_of(record.ruleset)
    assert window is not None and adapter is not None
    out: dict[str, set[str]] = {}
    for seat, seat_orders in orders.items():
        cells = adapter.typed_cells(record.state, window, seat, seat_orders)
        out[seat] = {v for table in cells.values() for row in table.values() for v in row.values()
                     if isinstance(v, str) and len(v.strip()) >= 3}
    shared = {t for seat, mine in out.items() for t in mine if any(t in o for s, o in out.items() if s != seat)}
    held = {t for parts in before.values() for (_, t), n in count_parts(parts, set().union(*out.values())).items()
            if n} if out else set()
    return {seat: mine - shared - held for seat, mine in out.items()}


def play_and_scan(config: MatchConfig, sheets: MatchSheets, emails: dict[str, str],
                  windows: int = WINDOWS) -> list[Hit | NoticeHit]:
    """Play ``windows`` windows with the bots, scanning after each seat typed (a poll gives feedback) and after
    each resolution: every file a seat opens, and every notice the poll would send (``scan_notices``)."""
    cls = get_ruleset(config.ruleset)
    rules: AnyRuleset = create_ruleset(config.ruleset)
    make = next(iter(bots_of(rules).values())).make
    bots = {seat: make(f"leak/{seat}") for seat in (*config.seats, JUDGE)}
    private = rules.traits.information is not Information.PERFECT
    hits: list[Hit | NoticeHit] = []
    for _ in range(windows):
        record = read_match(sheets, cls).record
        if record.ruleset.window(record.state) is None:
            break
        before = {path: xml_parts(path) for path in openers(config)}
        typed = typed_strings(record, type_bot_orders(sheets, cls, bots, ready=False), before)
        report = poll(sheets, cls, now=NOW)
        secret = typed if private and not report.resolved else {}
        hits += scan(config, read_match(sheets, cls).record, emails, secret)
        hits += scan_notices(report, emails, secret)
        type_bot_orders(sheets, cls, bots, ready=True)
        report = poll(sheets, cls, now=NOW)
        copies = archived_copies(sheets, cls) if private else {}
        hits += scan(config, read_match(sheets, cls).record, emails, {}, copies)
        hits += scan_notices(report, emails, {})
    return hits


def scan_notices(report: WindowReport, emails: dict[str, str], typed: dict[str, set[str]]) -> list[NoticeHit]:
    """Every secret in a notice the poll of ``report`` would send (every kind, the deadline near): the channel's
    are read by every seat, a seat's e-mail by that seat; none may hold what only another seat may see, another
    seat's typed orders while secret, another seat's members' e-mails, or the seed before the match is over.
    The judge's notices go to the GMs, who may read everything."""
    assert report.facts is not None
    record = report.facts.record
    notices = poll_notices(report.facts, seen_of(report), NoticeRules(lead=dt.timedelta(days=365)), NOW)
    assert notices or report.finished, "a poll of an open window has at least its opening to tell"
    hits: list[NoticeHit] = []
    for notice in notices:
        hits += notice_hits(notice, record, emails, typed, report.finished)
    return hits


def notice_hits(notice: Notice, record: MatchRecord, emails: dict[str, str], typed: dict[str, set[str]],
                finished: bool) -> list[NoticeHit]:
    """The secrets in ``notice`` that one of its readers may not know (see ``scan_notices``)."""
    if notice.recipient == JUDGE:
        return []
    readers = set(record.seats) if notice.public else {notice.recipient}
    wanted: dict[str, str] = {}
    for seat in record.seats:
        if not readers - {seat}:
            continue
        wanted |= {text: f"what only {seat} may see" for text in record.ruleset.secrets(record.state, seat)}
        wanted |= {email: f"the e-mail of a member of {seat}" for email, s in emails.items() if s == seat}
        wanted |= {text: f"{seat}'s typed orders, not resolved yet" for text in typed.get(seat, set())}
    return find_in_notice(notice.key, f"{notice.subject}\n{notice.body}", wanted, None if finished else record.seed)


def _config(tmp_path: Path, text: str) -> MatchConfig:
    path = tmp_path / "match.toml"
    path.write_text(text, encoding="utf-8")
    return load_config(path)


LAYOUTS = ("starter", "private", "one workbook", "one workbook, engine under gm/", "one orders file for every seat",
           "the judge's tabs in the board")
#: The layouts a game's init refuses cost nothing; those it lays out play a match: Wesnoth's (which accepts most)
#: but its private one, and Champions' private one (hidden information: the layout's own case) in the test command,
#: the others in the soak run.
QUICK_LAYOUTS = (*((g, layout) for g in GAMES for layout in LAYOUTS if layout not in ("starter", "private")),
                 ("wesnoth", "starter"), ("champions", "private"))


@pytest.mark.parametrize(("game", "layout"), soak_but([(g, layout) for g in GAMES for layout in LAYOUTS],
                                                      *QUICK_LAYOUTS))
def test_no_file_a_seat_opens_holds_a_secret(game: str, layout: str, tmp_path: Path) -> None:
    """init refuses the layout naming the file and the secret, or no file a seat opens holds one."""
    rules: AnyRuleset = create_ruleset(game)
    if layout == "the judge's tabs in the board" and not rules.traits.judge:
        pytest.skip(f"{game} has no judge")
    config = _config(tmp_path, layouts(game)[layout])
    roster = roster_csv(rules, tmp_path / "roster.csv", config.seats)
    try:
        init_match(config, now=NOW, roster_file=tmp_path / "roster.csv", share=False, seed=SEED)
    except ExposedSecretError as exc:
        assert layout not in ("starter", "private"), f"init refuses the {layout} layout: {exc}"
        leaking = "orders.xlsx" if layout == "one orders file for every seat" else config.board
        assert f"- {leaking} would hold" in str(exc), str(exc)
        assert any(secret in str(exc) for secret in ("the seed", "orders", "the judge's tabs")), str(exc)
        assert not (tmp_path / leaking).exists(), "a refused layout writes nothing"
        return
    assert layout in ("starter", "private") or rules.traits.information is Information.PERFECT, \
        f"init accepted the {layout} layout for a game with hidden information"
    emails = {email_of(m.name): m.seat for m in roster.members}
    hits = play_and_scan(config, open_match_sheets(config), emails)
    assert not hits, "\n".join(str(h) for h in hits)


def test_the_scan_finds_the_secrets_of_a_match_in_one_workbook(tmp_path: Path) -> None:
    """A GvG match laid out as the old default (everything in match.xlsx, as init made it before): the scan
    finds the seed in the hidden engine tab, the e-mails of the roster, and each team's typed orders."""
    text = _sheets_section(starter_config("gvg").read_text(encoding="utf-8"), 'board = "match.xlsx"')
    config = _config(tmp_path, text)
    rules: AnyRuleset = create_ruleset("gvg")
    roster = roster_csv(rules, tmp_path / "roster.csv", config.seats)
    path = tmp_path / "match.xlsx"
    openpyxl.Workbook().save(path)
    sheets = MatchSheets.single(config.seats, LocalWorkbookBackend(path))
    create_match(sheets, rules, roster, seed=SEED)
    from sheets_gm.match.roster_tab import lay_out_roster_tab  # the Roster tab as the old init left it
    from sheets_gm.rulesets.registry import sheet_spec
    lay_out_roster_tab(sheets.engine, sheet_spec("gvg"), roster_columns(rules), config.seats, config.title)
    sheets.engine.write([RangeWrite(a1("Roster", "A2"), [[m.name, m.seat, email_of(m.name)] for m in roster.members])])
    scanned = play_and_scan(config, sheets, {email_of(m.name): m.seat for m in roster.members}, windows=2)
    hits = [h for h in scanned if isinstance(h, Hit)]
    assert [h for h in scanned if isinstance(h, NoticeHit)] == [], "the notices never held what the file did"
    found = {h.what for h in hits}
    assert any(h.what.startswith("the seed") and h.part.startswith("xl/worksheets/") for h in hits), found
    assert {"the e-mail of a member of red", "the e-mail of a member of blue"} <= found, found
    assert any(h.what.endswith("typed orders, not resolved yet") for h in hits), found
    assert {"the sync's copy of what red typed", "the sync's copy of what blue typed"} <= found, found
    assert all(h.file == path for h in hits)


def test_the_notice_scan_finds_a_seats_own_news_sent_to_the_channel(tmp_path: Path) -> None:
    """Win or Die hides units: a seat's e-mail tells it of its own hidden units, which the scan accepts for it
    and finds when the same notice goes to the channel (so the notice scan is no scan that cannot fail)."""
    config = _config(tmp_path, layouts("winordie")["starter"])
    rules: AnyRuleset = create_ruleset("winordie")
    roster_csv(rules, tmp_path / "roster.csv", config.seats)
    init_match(config, now=NOW, roster_file=tmp_path / "roster.csv", share=False, seed=SEED)
    sheets = open_match_sheets(config)
    cls = get_ruleset("winordie")
    make = next(iter(bots_of(rules).values())).make
    bots = {seat: make(f"leak/{seat}") for seat in config.seats}
    leaked: list[NoticeHit] = []
    for _ in range(6):
        type_bot_orders(sheets, cls, bots, ready=True)
        report = poll(sheets, cls, now=NOW)
        assert report.facts is not None
        record = report.facts.record
        for notice in poll_notices(report.facts, seen_of(report), NoticeRules(), NOW):
            if notice.public:
                continue
            assert notice_hits(notice, record, {}, {}, report.finished) == [], notice.key
            leaked += notice_hits(replace(notice, recipient=CHANNEL), record, {}, {}, report.finished)
        if leaked:
            break
    assert any(h.what.startswith("what only ") for h in leaked), "no seat's news named its hidden units"
