"""The war by mail, rehearsed (issue 89): a Coalition war of ``--armies`` armies a side (288: the issue's 576) whose
players mail the judge through a real IMAP server (Debian's Dovecot) and get their receipts through a real SMTP
server (aiosmtpd, STARTTLS and a login), both started on 127.0.0.1 as the tests start them (``tests/fakes/dovecot.py``,
``tests/notify/servers.py``). The judge runs the program's own commands (``sync`` as cron does, ``status``,
``resolve``), in this process on a clock of the rehearsal's (``commands.base.clock``): nothing waits for a deadline.

The turn, as a war plays it (the players' mail: ``war_mail.py``):

1. the orders window (deadline 18:00): each army's player mails its order among greetings, signatures, quoted
   replies, HTML, charsets and encoded subjects, some names misspelt (every fourth pair holds: no battle);
   ``--corrections`` players send a second mail that corrects the first; a stranger mails too; the mail comes in
   waves, each polled by cron's ``sync``;
2. ``--late`` mails arrive after the deadline; the poll after it resolves the movement (the battles announced);
3. the judge's window, its players' part: the players of each battle mail strategies titled as the announcements
   name the battle, with labels (Kill Attempt, Contingency…), a few sides none; the players of the pairs that held
   mail turn 2's movement (one deadline closes both, rulebook 2.3 and 6.5), one of them for an army that fights; a
   few of each arrive after the players' deadline;
4. the poll after the players' deadline, ``status``, then the judge types a result per battle (the side that sent no
   strategy losing by default) and ticks Results in; the next poll applies them and adjudicates turn 2's movement
   from what came before the players' deadline (its battles announced): each held pair met, or the rule that kept
   it apart is named (``war_meetings.py``).

Printed: the mail delivered, handled, typed (or told why not) and told (receipts the SMTP server received), the CPU
and wall of each poll, of filing a mail (the polls that filed mail, per mail filed) and of each resolution.

``--bench PAIRS``: the issue's comparison instead, the same order lines (one per army) pasted into the sides' Forum
tabs or mailed (a mail per army, through Dovecot), each followed by ``sync`` and ``resolve --force``, in pairs whose
order alternates, from copies of one match; the medians and the ratio mail / pasted (the bar: 2).

    .venv/bin/python scripts/rehearse_war_by_mail.py [--armies 288] [--corrections 80] [--late 10] [--seed war]
    .venv/bin/python scripts/rehearse_war_by_mail.py --bench 3 [--armies 288]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import io
import logging
import multiprocessing
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for where in (ROOT, ROOT / "scripts"):
    if str(where) not in sys.path:
        sys.path.insert(0, str(where))

from war_mail import Army, MailWriter, misspelt, order_line, roster_rows, war  # noqa: E402
from war_meetings import Meeting, meetings, summary  # noqa: E402

import sheets_gm.commands.base as command_base  # noqa: E402
from sheets_gm.cli import main as cli  # noqa: E402
from sheets_gm.engine.ruleset import JUDGE  # noqa: E402
from sheets_gm.init.start import init_match  # noqa: E402
from sheets_gm.match.config import load_config  # noqa: E402
from sheets_gm.notify.outbox import Outbox  # noqa: E402
from sheets_gm.rulesets.coalition.enums import Phase  # noqa: E402
from sheets_gm.rulesets.coalition.forum import battle_title  # noqa: E402
from sheets_gm.rulesets.coalition.state import BattleResult, CoalitionOrders, CoalitionState  # noqa: E402
from sheets_gm.rulesets.registry import TEMPLATES, get_ruleset  # noqa: E402
from sheets_gm.running.connect import open_match_sheets  # noqa: E402
from sheets_gm.running.mailroom.door import strategies_of  # noqa: E402
from sheets_gm.running.mailroom.record import MailRecord  # noqa: E402
from sheets_gm.sheets.backend import RangeWrite  # noqa: E402
from sheets_gm.sync.autoplay import type_bot_orders  # noqa: E402
from sheets_gm.sync.read import read_match, read_record  # noqa: E402
from tests.fakes.dovecot import Dovecot, MailUser, running_dovecot  # noqa: E402
from tests.notify.servers import CERT, PASSWORD, USER, smtp_server  # noqa: E402

CLS = get_ruleset("coalition")
#: The turn's first day: the orders close at 18:00, the battles' strategies the next day at 18:00.
START = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
ORDERS_DEADLINE = START.replace(hour=18)
RESULTS_DEADLINE = ORDERS_DEADLINE + dt.timedelta(days=1)
COLUMNS = ("name", "side", "rank", "at", "units", "factions", "primary", "player", "email")
_SMTP_SECRET = "REHEARSAL_SMTP_PASSWORD"
#: The judge's mail account's recipients a day: a war's (some 1,200 receipts a turn, past a consumer provider's 500;
#: docs/notices.md), so that every receipt goes and each run's costs are alike.
DAILY_LIMIT = 5000


@dataclass
class Run:
    """One command the judge ran: its words, exit code, output, CPU and wall seconds, and the mails it filed."""

    words: tuple[str, ...]
    code: int
    out: str
    cpu: float
    wall: float
    filed: int = 0


@dataclass
class Judge:
    """The judge at the keyboard: runs the program's commands at the rehearsal's clock, keeps each run."""

    config: Path
    now: dt.datetime = START
    runs: list[Run] = field(default_factory=list)

    def run(self, *words: str) -> Run:
        """``sheets-gm WORDS[0] -c CONFIG WORDS[1:]`` now, timed (its output kept, not printed)."""
        before = len(MailRecord.of(self.config).entries)
        command_base.clock = lambda: self.now  # the rehearsal's clock
        out = io.StringIO()
        cpu, wall = time.process_time(), time.perf_counter()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                code = cli([words[0], "-c", str(self.config), *words[1:]])
            except SystemExit as exc:
                code = int(exc.code or 0)
        done = Run(tuple(words), code, out.getvalue(), time.process_time() - cpu, time.perf_counter() - wall,
                   len(MailRecord.of(self.config).entries) - before)
        self.runs.append(done)
        return done


def make_war(folder: Path, armies: Sequence[Army], *, deadlines: bool, seed: bytes) -> Path:
    """The war's match made by ``init`` in ``folder`` (local workbooks), its roster ``armies``; the orders close at
    18:00 each day with ``deadlines``. Its mailbox and notices are set by ``serve_mail``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "armies.csv").write_text("\n".join([",".join(COLUMNS), *(",".join(map(str, r))
                                                                       for r in roster_rows(armies))]) + "\n",
                                       encoding="utf-8")
    text = (TEMPLATES / "coalition" / "match.toml").read_text(encoding="utf-8")
    text = text.replace('# roster = "armies.csv"', 'roster = "armies.csv"', 1)
    if deadlines:
        text = text.replace('times = []', 'times = ["18:00"]', 1)
    # Every pair of armies but a quarter fights in turn 1, so a side wins some 200 battles at once: at the rulebook's
    # 500 points the round would end there, before the turn-2 movement the rehearsal mails is adjudicated.
    text = text.replace("# battle_win_vp = 5", "# battle_win_vp = 5\nvictory_vp = 100000", 1)
    (folder / "match.toml").write_text(text, encoding="utf-8")
    init_match(load_config(folder / "match.toml"), now=START, seed=seed, notify=False)
    return folder / "match.toml"


def serve_mail(config: Path, imap: Dovecot, user: MailUser, smtp_port: int) -> None:
    """Point the match's ``[mailbox]`` at ``user`` on ``imap`` and its receipts at the SMTP server on ``smtp_port``
    (the match's host state its own)."""
    (config.parent / "mailbox.password").write_text(user.password, encoding="utf-8")
    os.environ[_SMTP_SECRET] = PASSWORD
    # the host's state (a mail account's sending budget, kept for every match of the host) is the match's own: a
    # run never spends the budget of another, nor of this machine's real matches
    os.environ["XDG_STATE_HOME"] = str(config.parent / "host-state")
    with config.open("a", encoding="utf-8") as f:
        f.write(f'\n[notify]\nreminder = "off"\n[notify.email]\nhost = "127.0.0.1"\nport = {smtp_port}\n'
                f'security = "starttls"\nuser = "{USER}"\npassword_env = "{_SMTP_SECRET}"\n'
                f'sender = "The judge <{USER}>"\nca_file = "{CERT}"\ntimeout = 10\ndaily_limit = {DAILY_LIMIT}\n'
                f'\n[mailbox]\nhost = "{imap.host}"\nport = {imap.port}\nsecurity = "none"\nuser = "{user.name}"\n'
                'password_file = "mailbox.password"\n')


class Smtp:
    """The SMTP server (``tests/notify/servers.py``) in a process of its own, as a provider's is: its CPU is not the
    judge's. ``port``; ``receipts()``: the receipts it received so far."""

    def __init__(self) -> None:
        self.conn, child = multiprocessing.Pipe()
        self.process = multiprocessing.get_context("fork").Process(target=_smtp_child, args=(child,), daemon=True)
        self.process.start()
        self.port: int = self.conn.recv()

    def receipts(self) -> int:
        """The receipts the server received."""
        self.conn.send("count")
        return int(self.conn.recv())

    def stop(self) -> None:
        """Stop the server and its process."""
        self.conn.send("stop")
        self.process.join(10)


def _smtp_child(conn: Connection) -> None:
    """The SMTP server's process: serves until told to stop, counting the receipts when asked."""
    logging.getLogger("mail.log").setLevel(logging.ERROR)  # aiosmtpd's warning of its own at each login
    with smtp_server() as (box, port):
        conn.send(port)
        while conn.recv() == "count":
            conn.send(sum("reached the judge's mailbox" in str(m.get_body(("plain",)).get_content())  # type: ignore[union-attr]
                          for _r, m in box.messages))


@contextlib.contextmanager
def servers() -> Iterator[tuple[Dovecot, Smtp]]:
    """Dovecot and the SMTP server, running for the ``with``."""
    with running_dovecot() as imap:
        smtp = Smtp()
        try:
            yield imap, smtp
        finally:
            smtp.stop()


def _cpu(runs: Sequence[Run]) -> str:
    return f"{sum(r.cpu for r in runs):.1f} s CPU, {sum(r.wall for r in runs):.1f} s wall"


@dataclass
class Rehearsal:
    """One war played by mail: the judge, the servers, the players' mail and what was delivered, by kind."""

    judge: Judge
    imap: Dovecot
    user: MailUser
    writer: MailWriter
    rng: random.Random
    armies: list[Army]
    delivered: dict[str, int] = field(default_factory=dict)
    polls: dict[str, list[Run]] = field(default_factory=dict)

    def deliver(self, raw: bytes, at: dt.datetime, kind: str) -> None:
        """Deliver ``raw`` into the judge's mailbox as received at ``at``."""
        self.imap.deliver(self.user, raw, received=at)
        self.delivered[kind] = self.delivered.get(kind, 0) + 1

    def poll(self, at: dt.datetime, what: str) -> Run:
        """Cron's ``sync --quiet`` at ``at``, kept under ``what``."""
        self.judge.now = at
        done = self.judge.run("sync", "--quiet")
        self.polls.setdefault(what, []).append(done)
        return done

    def orders(self, corrections: int, late: int) -> None:
        """The orders window: every army's movement mail in four waves (a twentieth misspelt), then ``corrections``
        second mails (the misspelt first) in two more, a stranger's mail, ``late`` mails after the deadline, and
        the poll after it, which resolves the movement."""
        rng = self.rng
        players = list(self.armies)
        rng.shuffle(players)
        typos = set(rng.sample(range(len(players)), len(players) // 20))
        first = [(a, misspelt(_turn_one(a), rng) if n in typos else _turn_one(a)) for n, a in enumerate(players)]
        again = [a for n, a in enumerate(players) if n in typos] + [a for n, a in enumerate(players) if n not in typos]
        waves: list[list[tuple[Army | None, str, str]]] = [[] for _ in range(6)]
        for n, (army, line) in enumerate(first):
            waves[n % 4].append((army, line, "movement"))
        for n, army in enumerate(again[:corrections]):
            line = order_line(army, corrected=army.side == "phyrexia") if not _holds(army) else _turn_one(army)
            waves[4 + n % 2].append((army, line, "correction"))
        waves[0].append((None, order_line(players[0]), "stranger"))
        for n, wave in enumerate(waves):
            at = START + dt.timedelta(minutes=30 + 60 * n)
            for k, (sender, line, kind) in enumerate(wave):
                raw = self.writer.movement(sender, [line]) if sender else self.writer.stranger(line)
                self.deliver(raw, at - dt.timedelta(seconds=len(wave) - k), kind)
            self.poll(at + dt.timedelta(minutes=1), "orders")
        for k, army in enumerate(players[-late:] if late else []):
            self.deliver(self.writer.movement(army, [order_line(army)], subject="sorry, late moves"),
                         ORDERS_DEADLINE + dt.timedelta(seconds=10 + k), "late movement")
        self.poll(ORDERS_DEADLINE + dt.timedelta(minutes=1), "orders deadline")

    def strategies(self, late: int) -> set[tuple[str, str]]:
        """The results window: each battle's players mail a strategy (one side in twelve sends none, one player in
        ten a second, and a title in twenty names an army misspelt), in three waves, ``late`` after the players'
        deadline; then the poll after that deadline. Returns the (square, side) pairs that sent one in time."""
        state = _state(self.judge.config)
        by_name = {a.name: a for a in self.armies}
        waves: list[list[tuple[Army, str]]] = [[], [], []]
        sent: set[tuple[str, str]] = set()
        for battle in (b for b in state.battles if b.announced):
            for name in battle.armies:
                army = by_name.get(name)
                if army is None or self.rng.random() < 1 / 12:
                    continue
                title = battle_title(battle)
                if self.rng.random() < 0.05:
                    title = title.replace(name, misspelt(f"{name}:", self.rng)[:-1])
                for n in range(2 if self.rng.random() < 0.1 else 1):
                    label = self.rng.choice(("- Contingency",) if n else tuple(_LABELS))
                    waves[self.rng.randrange(3) if not n else 2].append((army, f"{army.player}: {title} {label}"))
                sent.add((battle.at, army.side))
        for n, wave in enumerate(waves):
            at = ORDERS_DEADLINE + dt.timedelta(hours=15 + 3 * n)
            for k, (army, title) in enumerate(wave):
                self.deliver(self.writer.strategy(army, title, _PLAN), at - dt.timedelta(seconds=len(wave) - k),
                             "strategy")
            self.poll(at + dt.timedelta(minutes=1), "strategies")
        for k, (army, title) in enumerate(waves[0][:late]):
            self.deliver(self.writer.strategy(army, title + " (again)", _PLAN),
                         RESULTS_DEADLINE + dt.timedelta(seconds=10 + k), "late strategy")
        self.next_movement(late)
        self.poll(RESULTS_DEADLINE + dt.timedelta(minutes=1), "players' deadline")
        return sent

    def next_movement(self, late: int) -> None:
        """Turn 2's movement, mailed in the judge's window before its players' deadline by the players of the pairs
        that held in turn 1 (the Coalition army engages its foe now), one for an army that fights (refused), and the
        last ``late`` of them again after the deadline (late: not read)."""
        holding = [a for a in self.armies if _holds(a)]
        self.rng.shuffle(holding)
        at = ORDERS_DEADLINE + dt.timedelta(hours=20)
        fighting = next((a for a in self.armies if not _holds(a)), None)
        for k, army in enumerate([*holding, *([fighting] if fighting else [])]):
            self.deliver(self.writer.movement(army, [order_line(army)], subject="turn 2 moves"),
                         at + dt.timedelta(seconds=k), "turn 2 movement")
        self.poll(at + dt.timedelta(minutes=30), "strategies")
        for k, army in enumerate(holding[-late:] if late else []):
            self.deliver(self.writer.movement(army, [_turn_one(army)], subject="turn 2: hold after all"),
                         RESULTS_DEADLINE + dt.timedelta(seconds=30 + k), "late turn 2 movement")

    def judge_results(self) -> str:
        """The judge types a result per battle waiting (the side that sent no strategy loses by default) and ticks
        Results in; the next poll applies them. Says what became of the window."""
        config = load_config(self.judge.config)
        sheets = open_match_sheets(config)  # the judge's workbook, as she types in it
        if read_record(sheets, CLS).state.phase is not Phase.RESULTS:
            return "the battle results window had closed before the judge typed a result"
        sent = {(s["subject"], s["seat"]) for s in strategies_of(config)}
        typed = type_bot_orders(sheets, CLS, {JUDGE: _JudgesHand(sent)})
        self.judge.now = RESULTS_DEADLINE + dt.timedelta(minutes=30)
        self.polls.setdefault("the judge's results", []).append(self.judge.run("sync", "--quiet"))
        results = typed.get(JUDGE)
        return f"the judge typed {len(results.results) if results else 0} results; the poll after it: " + \
            (self.polls["the judge's results"][-1].out.strip().splitlines() or ["(nothing said)"])[0]


_LABELS = ("", "", "[Kill Attempt]", "- Contingency", "(kill attempt)")
_PLAN = ("Hold the river crossing with the pikemen; the cavalry waits behind the hill until the enemy commits,\n"
         "then flanks left. If we lose the first clash, fall back to the ford.")


@dataclass
class _JudgesHand:
    """The judge's results as she types them: per battle the side that sent a strategy wins (the Coalition when
    both or neither did), the other side stratless when it sent none; 10% of the winners' units lost, 25% of the
    losers'."""

    sent: set[tuple[str, str]]

    def orders(self, state: CoalitionState, seat: str, dice: object) -> CoalitionOrders:
        armies = state.by_name()
        results = {}
        for battle in (b for b in state.battles if b.announced):
            fighting = [armies[n] for n in battle.armies if n in armies]
            sides = sorted({a.side.value for a in fighting})
            if len(sides) < 2:
                continue
            planned = [s for s in sides if (battle.at, s) in self.sent]
            winner = planned[0] if len(planned) == 1 else "coalition"
            stratless = next((s for s in sides if s not in planned), "") if len(planned) == 1 else ""
            results[battle.at] = BattleResult(winner=winner, stratless=stratless, losses={
                a.name: tuple(u * (10 if a.side.value == winner else 25) // 100 for u in a.units) for a in fighting})
        return CoalitionOrders(results=results)


def _holds(army: Army) -> bool:
    """Whether the army's pair holds in turn 1 (every fourth pair: no battle), to move in turn 2."""
    return army.number % 4 == 0


def _turn_one(army: Army) -> str:
    """The army's order of turn 1: ``order_line``'s, or holding for a pair that holds."""
    return f"{army.name}: {army.plane}; {army.column}{army.row} - none" if _holds(army) else order_line(army)


def _state(config: Path) -> CoalitionState:
    found = read_record(open_match_sheets(load_config(config)), CLS).state
    assert isinstance(found, CoalitionState)
    return found


def report(rehearsal: Rehearsal, smtp: Smtp) -> list[str]:
    """The rehearsal's figures (see the module notes)."""
    config = rehearsal.judge.config
    entries = list(MailRecord.of(config).entries.values())
    placed = [p for e in entries for p in e.placed.values()]
    typed = sum(1 for e in entries if any(p.get("lines") for p in e.placed.values()))
    full = sum(1 for p in placed if p.get("full"))
    waiting = len(Outbox.of(config).waiting())
    out = [f"mail delivered: {sum(rehearsal.delivered.values())} ("
           + ", ".join(f"{n} {kind}" for kind, n in rehearsal.delivered.items()) + ")",
           f"mail handled: {len(entries)} (each once: {len({e.key for e in entries})} keys); typed into a Forum tab: "
           f"{typed}; could not be typed: {full}; strategies filed: {sum(1 for e in entries if e.sealed)}; "
           f"not read, each told why: {sum(1 for e in entries if e.unread)}",
           f"told: {smtp.receipts()} receipts received by the SMTP server, {waiting} letters waiting in the outbox"]
    filing = [r for what in ("orders", "strategies") for r in rehearsal.polls.get(what, []) if r.filed]
    mails = sum(r.filed for r in filing)
    if mails:
        out.append(f"filing a mail (the {len(filing)} polls that filed the {mails} mails of the windows, the read "
                   f"and answers of their polls included): {1000 * sum(r.cpu for r in filing) / mails:.0f} ms CPU, "
                   f"{1000 * sum(r.wall for r in filing) / mails:.0f} ms wall a mail")
    for what, runs in rehearsal.polls.items():
        for run in runs:
            said = run.out.strip().splitlines()
            out.append(f"  {what}: {' '.join(run.words)} -> {run.code}, {run.filed} mails filed, {run.cpu:.1f} s CPU, "
                       f"{run.wall:.1f} s wall{': ' + said[0][:150] if said else ''}")
    return out


def rehearse(armies: int, corrections: int, late: int, seed: str) -> int:
    """The rehearsal (see the module notes); 0 when every mail was handled once and typed or told."""
    print(f"load before: {_load()}")
    with servers() as (imap, smtp), tempfile.TemporaryDirectory(prefix="war-by-mail-") as folder:
        started = time.perf_counter()
        army_list = war(armies)
        config = make_war(Path(folder) / "war", army_list, deadlines=True, seed=seed.encode())
        user = imap.add_user()
        serve_mail(config, imap, user, smtp.port)
        print(f"a war of {len(army_list)} armies made in {time.perf_counter() - started:.1f} s")
        rehearsal = Rehearsal(Judge(config), imap, user, MailWriter(random.Random(seed), user.name),
                              random.Random(seed), army_list)
        rehearsal.poll(START, "first poll")
        rehearsal.orders(corrections, late)
        status = rehearsal.judge.run("status")
        sent = rehearsal.strategies(late)
        print(f"battles with a strategy from at least one side: {len({at for at, _s in sent})}")
        deadline_status = rehearsal.judge.run("status")
        judged = rehearsal.judge_results()
        print(judged)
        after = _state(config)
        foes = {a.number: a.name for a in army_list if a.side == "phyrexia"}
        pairs = [(a.name, foes[a.number]) for a in army_list if _holds(a) and a.side == "coalition"]
        found = meetings(after, pairs) if (after.turn, after.phase) == (2, Phase.RESULTS) else \
            [Meeting(c, p, met=False) for c, p in pairs]
        print("turn 2's movement, adjudicated in the sync that applied the judge's results (the held pairs' "
              "movement mailed before the players' deadline; the late changes not read): "
              + "\n".join(summary(after, found)))
        lines = report(rehearsal, smtp)
        print("\n".join(lines))
        for when, said in (("the orders deadline", status), ("the players' deadline", deadline_status)):
            print(f"status after {when}: {_status_words(said.out)}")
        entries = MailRecord.of(config).entries.values()
        answered = [e for e in entries if e.answer]
        typed = all(not p.get("full") for e in entries for p in e.placed.values())
        all_told = all(e.placed or e.sealed or e.unread for e in answered) and smtp.receipts() == len(answered)
    print(f"load after: {_load()}")
    handled = sum(rehearsal.delivered.values()) == len(entries)
    print(f"every mail handled once: {'yes' if handled else 'NO'}; every mail's lines typed: "
          f"{'yes' if typed else 'NO'}; every mail typed, filed or told why not, and its receipt received: "
          f"{'yes' if all_told else 'NO'}; the judge typed her results after the players' deadline: "
          f"{'no (the deadline closed her window: issue 89, point 3)' if 'had closed' in judged else 'yes'}")
    return 0 if handled and typed and all_told and all(m.met or m.why for m in found) else 1


def _status_words(out: str) -> str:
    """What ``status`` said of the mailbox and of the battles awaiting strategies."""
    lines = out.strip().splitlines()
    mailbox = next((line for line in lines if line.startswith("Judge's mailbox")), "no mailbox line")
    return f"{mailbox} {sum(line.startswith('Strategies:') for line in lines)} battles listed awaiting strategies"


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text(encoding="utf-8").split()[:3]) + f" ({os.cpu_count()} cores)"


def _pasted(judge: Judge, lines: dict[str, list[str]]) -> None:
    """Each side's lines pasted into its Forum tab, a line a row, as a player pastes a post."""
    sheets = open_match_sheets(load_config(judge.config))
    read = read_match(sheets, CLS)
    for side, side_lines in lines.items():
        table = read.seats[side].tab.table("post")
        sheets.of(side).write([RangeWrite(table.at(table.cell(0, "line")), [[line] for line in side_lines])])


def _turn(judge: Judge) -> tuple[float, float]:
    """``sync`` and ``resolve --force`` of the orders window, as the judge runs them: their CPU and wall."""
    runs = [judge.run("sync", "--quiet"), judge.run("resolve", "--force", "--window", "1", "--step", "1")]
    if any(r.code for r in runs) or not _state(judge.config).battles:
        raise SystemExit("the turn did not resolve:\n" + "\n".join(r.out for r in runs))
    return sum(r.cpu for r in runs), sum(r.wall for r in runs)


def bench(armies: int, pairs: int, seed: str) -> int:
    """The paired benchmark (see the module notes); 0 when mail costs at most twice the paste (CPU)."""
    print(f"load before: {_load()}")
    army_list = war(armies)
    lines = {side: [order_line(a) for a in army_list if a.side == side] for side in ("coalition", "phyrexia")}
    times: dict[str, list[tuple[float, float]]] = {"pasted": [], "mail": []}
    with servers() as (imap, smtp), tempfile.TemporaryDirectory(prefix="war-bench-") as folder:
        base = make_war(Path(folder) / "base", army_list, deadlines=False, seed=seed.encode())
        Judge(base).run("sync", "--quiet")
        writer = MailWriter(random.Random(seed), "judge@example.org")
        mails = [writer.movement(a, [order_line(a)]) for a in army_list]
        for n in range(pairs):
            for kind in ("pasted", "mail") if n % 2 == 0 else ("mail", "pasted"):
                shutil.copytree(base.parent, Path(folder) / f"{kind}{n}")
                judge = Judge(Path(folder) / f"{kind}{n}" / "match.toml", START + dt.timedelta(minutes=5))
                user = imap.add_user()
                serve_mail(judge.config, imap, user, smtp.port)
                if kind == "mail":
                    for raw in mails:
                        imap.deliver(user, raw, received=START + dt.timedelta(minutes=1))
                else:
                    _pasted(judge, lines)
                times[kind].append(_turn(judge))
            print(f"pair {n + 1}: pasted {times['pasted'][-1][0]:.1f} s CPU ({times['pasted'][-1][1]:.1f} s wall), "
                  f"mail {times['mail'][-1][0]:.1f} s CPU ({times['mail'][-1][1]:.1f} s wall)", flush=True)
    medians = {kind: (statistics.median(t[0] for t in runs), statistics.median(t[1] for t in runs))
               for kind, runs in times.items()}
    cpu = medians["mail"][0] / medians["pasted"][0]
    print(f"medians of {pairs} pairs, {2 * armies} order lines ({2 * armies} mails), sync + resolve: pasted "
          f"{medians['pasted'][0]:.1f} s CPU ({medians['pasted'][1]:.1f} s wall), mail {medians['mail'][0]:.1f} s "
          f"CPU ({medians['mail'][1]:.1f} s wall); mail / pasted = {cpu:.2f} CPU, "
          f"{medians['mail'][1] / medians['pasted'][1]:.2f} wall (bar: 2.00)")
    print(f"load after: {_load()}")
    return 0 if cpu <= 2 else 1


def main(argv: Sequence[str] | None = None) -> int:
    """The rehearsal, or with ``--bench`` the paired benchmark."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--armies", type=int, default=288, help="armies a side (default 288: a 576-army war)")
    parser.add_argument("--corrections", type=int, default=80, help="players who mail a correction (default 80)")
    parser.add_argument("--late", type=int, default=10, help="mails after each deadline (default 10)")
    parser.add_argument("--seed", default="war", help="the war's seed and the players' (default 'war')")
    parser.add_argument("--bench", type=int, metavar="PAIRS", help="the paired benchmark of mail against the paste")
    args = parser.parse_args(argv)
    if args.bench:
        return bench(args.armies, args.bench, args.seed)
    return rehearse(args.armies, args.corrections, args.late, args.seed)


if __name__ == "__main__":
    sys.exit(main())
