"""Notices measured under the real cron daemon, against real servers on this machine (issue 63).

Three matches on local workbooks are created with ``sheets-gm init``: a Coalition war of ``--a-side`` armies a
side (default 300) every army of which the commander bot plays, the judge too; a Champions table of ``--seats``
players (default 16) with e-mail addresses, some in zones of their own; a GvG match of four teams. Their crontab
lines, **exactly as init prints them**, go at the end of the crontab of the user running this (and out of it
again at the end), under lines naming this checkout (``PYTHONPATH``), a host environment file holding the secrets
(``XDG_CONFIG_HOME``), the host's channel rests (``XDG_STATE_HOME``) and ``MAILTO`` (this user: cron's mails are
read back from ``/var/mail/<user>``). Without the cron daemon the script says so and stops: it never stands in
for cron.

The servers, in this process: an SMTP server (aiosmtpd, STARTTLS and a login) refusing two Champions addresses
for good (550) and two more for a while (450), down for the first minutes; a webhook per match (Discord for the
war and GvG, Slack for Champions) answering 204, or from a script of faults: 429 with Retry-After, 500, 400, and
nothing at all (a hang past the client's timeout).

Meanwhile the GM does what a GM does, with the commands a GM types: moves the Champions deadline while the mail
is down (``[deadlines]`` edited), takes a turn back (``undo --reason``), forces a window (``resolve --force``);
the deadlines of the war and of GvG close every few minutes on their own.

Printed at the end: posts per war turn, letters per recipient per event, duplicates, losses, delivery time
(median, max: from what made the notice, a deadline, a GM's command, the mail coming back, to the server's
receipt), cron's mails, and each of the issue's checks with its figure.

    service cron start    # or /usr/sbin/cron, as root
    PYTHONPATH=$PWD .venv/bin/python scripts/measure_notices.py [--a-side 300] [--seats 16]
"""

from __future__ import annotations

import argparse
import datetime as dt
import email
import email.policy
import json
import logging
import mailbox
import os
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sheets_gm.notify.outbox import Outbox  # noqa: E402
from tests.notify.servers import CERT, PASSWORD, USER, Mailbox, free_port, smtp_server  # noqa: E402

UTC = dt.UTC
GM = "gm@measure.example"
#: Champions players whose addresses the mail server refuses for good, and for a while.
REFUSED = ("p03@measure.example", "p11@measure.example")
BUSY = ("p05@measure.example", "p14@measure.example")
#: The zones of some Champions seats (the rest read the match's, Europe/Paris).
ZONES = {"P01": "America/New_York", "P02": "Asia/Tokyo", "P09": "Australia/Sydney"}


def now() -> dt.datetime:
    """This moment, in UTC."""
    return dt.datetime.now(UTC)


# --- cron ------------------------------------------------------------------------------------------------------


def cron_missing() -> str:
    """Why the real cron daemon cannot run this measurement, or '' when it can."""
    if shutil.which("crontab") is None:
        return "crontab is not installed (Debian: apt-get install cron)"
    for pid_file in (Path("/var/run/crond.pid"), Path("/run/crond.pid")):
        if pid_file.exists():
            pid = pid_file.read_text().strip()
            if pid.isdigit() and Path(f"/proc/{pid}").exists():
                return ""
    names = {p.read_text().strip() for p in Path("/proc").glob("[0-9]*/comm") if _readable(p)}
    if names & {"cron", "crond"}:
        return ""
    return "the cron daemon is not running (start it: service cron start, or /usr/sbin/cron as root)"


def _readable(path: Path) -> bool:
    try:
        path.read_text()
    except OSError:
        return False
    return True


#: The lines around the measurement's block in the user's crontab.
BEGIN, END = "# measure_notices: begin", "# measure_notices: end"


def _crontab() -> str:
    listed = subprocess.run(["crontab", "-l"], capture_output=True, text=True)
    return listed.stdout if listed.returncode == 0 else ""


def _without_block(text: str) -> str:
    return re.sub(rf"{BEGIN}\n.*?{END}\n", "", text, flags=re.S)


@contextmanager
def borrowed_crontab(lines: list[str]) -> Iterator[None]:
    """This user's crontab with ``lines`` added at its end for the measurement (their variables then name
    nothing of the lines before), taken out again after it, whatever else the crontab holds by then."""
    kept = _without_block(_crontab())
    subprocess.run(["crontab", "-"], input=kept + "\n".join([BEGIN, *lines, END]) + "\n", text=True, check=True)
    try:
        yield
    finally:
        rest = _without_block(_crontab())
        if rest.strip():
            subprocess.run(["crontab", "-"], input=rest, text=True, check=True)
        else:
            subprocess.run(["crontab", "-r"], capture_output=True)


# --- the servers --------------------------------------------------------------------------------------------


class TimedMailbox(Mailbox):
    """The mailbox, each message with the moment it came in."""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[dt.datetime] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        answer = await super().handle_DATA(server, session, envelope)
        self.times.append(now())
        return answer


@dataclass
class Post:
    """A post the webhook received: its path, moment, JSON and the status it was answered with (0: none)."""

    path: str
    at: dt.datetime
    body: dict[str, Any]
    status: int

    @property
    def text(self) -> str:
        """What the post said (Discord's content, Slack's text)."""
        return str(self.body.get("content", self.body.get("text", "")))


@dataclass
class Webhooks:
    """One HTTP server for every match's webhook (told apart by path), with faults queued per path: a status
    (429 with Retry-After, 500, 400) or 0 for no answer at all (a hang past the client's timeout)."""

    port: int = 0
    posts: list[Post] = field(default_factory=list)
    faults: dict[str, list[int]] = field(default_factory=dict)
    release: threading.Event = field(default_factory=threading.Event)

    def url(self, path: str) -> str:
        """The webhook URL of ``path`` (its token is part of it, as a real one's is)."""
        return f"http://127.0.0.1:{self.port}{path}"

    def of(self, path: str) -> list[Post]:
        """The posts a path received and took (answered 2xx)."""
        return [p for p in self.posts if p.path == path and 200 <= p.status < 300]


def _body_of(content_type: str, raw: bytes) -> dict[str, Any]:
    if not content_type.startswith("multipart/"):
        return dict(json.loads(raw))
    parsed = email.message_from_bytes(f"Content-Type: {content_type}\r\n\r\n".encode() + raw,
                                      policy=email.policy.default)
    body: dict[str, Any] = {"files": []}
    for part in parsed.iter_parts():
        if part.get_param("name", header="content-disposition") == "payload_json":
            body.update(json.loads(part.get_content()))
        else:
            body["files"].append(part.get_filename())
    return body


@contextmanager
def webhooks() -> Iterator[Webhooks]:
    """The webhooks, running in a thread on 127.0.0.1."""
    hooks = Webhooks()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            queue = hooks.faults.get(self.path, [])
            status = queue.pop(0) if queue else 204
            hooks.posts.append(Post(self.path, now(), _body_of(self.headers.get("Content-Type", ""), raw), status))
            if status == 0:
                hooks.release.wait(30)  # no answer: the client gives up first
                return
            reply = b'{"message": "rate limited", "retry_after": 20}' if status == 429 else b""
            if status == 400:
                reply = f'{{"message": "Invalid Form Body at {self.path}"}}'.encode()
            self.send_response(status)
            if status == 429:
                self.send_header("Retry-After", "20")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    hooks.port = int(server.server_address[1])
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield hooks
    finally:
        hooks.release.set()
        server.shutdown()
        server.server_close()


# --- the matches --------------------------------------------------------------------------------------------


@dataclass
class Match:
    """A match of the measurement: its folder, config, webhook path, the crontab line init printed and the
    moments something made notices (a deadline, a GM's command, the mail coming back)."""

    name: str
    folder: Path
    hook: str
    cron: str = ""
    causes: list[tuple[dt.datetime, str]] = field(default_factory=list)

    @property
    def config(self) -> Path:
        """Its config file."""
        return self.folder / "match.toml"


def hhmm(moment: dt.datetime) -> str:
    """A deadline's time of day, as ``[deadlines] times`` takes it (UTC)."""
    return moment.strftime("%H:%M")


def notify_table(smtp_port: int, style: str, hook_env: str, zones: dict[str, str]) -> str:
    """The ``[notify]`` of a match: e-mail to the local server, chat to its webhook, secrets by variable."""
    zone_items = ", ".join(f'"{k}" = "{v}"' for k, v in zones.items())
    return f"""
[notify]
reminder = "3m"
timezones = {{ {zone_items} }}

[notify.email]
host = "127.0.0.1"
port = {smtp_port}
security = "starttls"
user = "{USER}"
password_env = "MEASURE_SMTP_PASSWORD"
sender = "Measured match <{USER}>"
ca_file = "{CERT}"
timeout = 5

[notify.chat]
style = "{style}"
url_env = "{hook_env}"
timeout = 5
"""


def _deadlines(times: list[str]) -> str:
    quoted = ", ".join(f'"{t}"' for t in times)
    return f'[deadlines]\ntimes = [{quoted}]\ndays = []\ntimezone = "UTC"\n'


def _with_deadlines(text: str, times: list[str]) -> str:
    """``text`` with its ``[deadlines]`` table (up to the next table) replaced by one of ``times``."""
    return re.sub(r"^\[deadlines\].*?(?=^\[)", _deadlines(times) + "\n", text, count=1, flags=re.M | re.S)


def war_config(folder: Path, a_side: int, times: list[str], notify: str) -> None:
    """A Coalition war of ``a_side`` armies a side, each played by the commander bot, the judge too."""
    from tests.notify.test_war_size import bot_armies

    bot_armies(folder / "armies.csv", a_side)
    text = (ROOT / "templates/coalition/match.toml").read_text(encoding="utf-8")
    text = text.replace('# roster = "armies.csv"', 'roster = "armies.csv"', 1)
    text = text.replace("\n[sheets]\n", f'\ngm_emails = ["{GM}"]\n\n[bots]\njudge = "commander"\n\n[sheets]\n', 1)
    (folder / "match.toml").write_text(_with_deadlines(text, times) + notify, encoding="utf-8")


def champions_config(folder: Path, seats: int, times: list[str], notify: str) -> None:
    """A Champions table of ``seats`` players, each with an orders workbook of her own and an address."""
    names = [f"P{n:02d}" for n in range(1, seats + 1)]
    text = (ROOT / "templates/champions/match.toml").read_text(encoding="utf-8")
    text = re.sub(r"^seats = .*$", "seats = [" + ", ".join(f'"{n}"' for n in names) + "]", text, count=1, flags=re.M)
    text = re.sub(r"^orders = .*$", "orders = { " + ", ".join(f'{n} = "orders-{n}.xlsx"' for n in names) + " }",
                  text, count=1, flags=re.M)
    text = text.replace("\n[sheets]\n", f'\ngm_emails = ["{GM}"]\nroster = "roster.csv"\n\n[sheets]\n', 1)
    (folder / "roster.csv").write_text("name,player,email\n" + "".join(
        f"{n},{n},{n.lower()}@measure.example\n" for n in names), encoding="utf-8")
    (folder / "match.toml").write_text(_with_deadlines(text, times) + notify, encoding="utf-8")


def gvg_config(folder: Path, times: list[str], notify: str) -> None:
    """A GvG match of the starter's teams, each member with an address."""
    text = (ROOT / "templates/gvg/match.toml").read_text(encoding="utf-8")
    text = text.replace("\n[sheets]\n", f'\ngm_emails = ["{GM}"]\n\n[sheets]\n', 1)
    (folder / "match.toml").write_text(_with_deadlines(text, times) + notify, encoding="utf-8")


def gvg_roster(folder: Path) -> None:
    """The GvG sample roster, each member with an address, and the config naming it."""
    from sheets_gm.match.config import load_config
    from sheets_gm.rulesets.registry import create_ruleset
    from tests.conformance.test_leak_scan import roster_csv

    config = folder / "match.toml"
    roster_csv(create_ruleset("gvg"), folder / "roster.csv", load_config(config).seats)
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("\n[sheets]\n", '\nroster = "roster.csv"\n\n[sheets]\n', 1), encoding="utf-8")


@dataclass
class Run:
    """What the measurement runs with: the folder, the environment of the GM's shell, the servers."""

    folder: Path
    env: dict[str, str]
    hooks: Webhooks
    box: TimedMailbox
    smtp_port: int
    log: list[str] = field(default_factory=list)

    def gm(self, match: Match, *args: str) -> str:
        """A command the GM types in the match's folder: what it printed (said in the log)."""
        done = subprocess.run([sys.executable, "-m", "sheets_gm.cli", *args, "-c", "match.toml"], cwd=match.folder,
                              env=self.env, capture_output=True, text=True)
        match.causes.append((now(), " ".join(args[:1])))
        self.say(f"{match.name}: sheets-gm {' '.join(args)} -> {done.returncode}")
        if done.returncode != 0:
            self.say(done.stdout + done.stderr)
        return done.stdout

    def say(self, line: str) -> None:
        """A line of the measurement's log, with the time."""
        text = f"{now():%H:%M:%S} {line}"
        self.log.append(text)
        print(text, flush=True)


def host_files(folder: Path, smtp_port: int, hooks: Webhooks, matches: list[Match]) -> dict[str, str]:
    """The host's environment file (the secrets, as cron, serve and every command read them) and the variables
    the GM's shell and the crontab set: this checkout, the host's folders. Returns the GM's environment."""
    config_home, state_home = folder / "config", folder / "state"
    (config_home / "sheets-gm").mkdir(parents=True, exist_ok=True)
    state_home.mkdir(exist_ok=True)
    secrets = [f"MEASURE_SMTP_PASSWORD={PASSWORD}"]
    secrets += [f"MEASURE_HOOK_{m.name.upper()}={hooks.url(m.hook)}" for m in matches]
    env_file = config_home / "sheets-gm" / "env"
    env_file.write_text("\n".join(secrets) + "\n", encoding="utf-8")
    env_file.chmod(0o600)
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "USER", "LOGNAME")}
    return {**keep, "PYTHONPATH": str(ROOT), "XDG_CONFIG_HOME": str(config_home), "XDG_STATE_HOME": str(state_home)}


def create(run: Run, match: Match, ruleset: str) -> None:
    """``init`` as the GM types it; the crontab line it printed kept as printed."""
    out = run.gm(match, "init", ruleset)
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if "crontab line" in line)
    match.cron = lines[at + 1].strip()
    match.causes.append((now(), "init"))


def wait_until(moment: dt.datetime) -> None:
    """Sleep until ``moment`` (this is a measurement of real time: cron polls once a minute)."""
    while (left := (moment - now()).total_seconds()) > 0:
        time.sleep(min(left, 5))


def set_deadline(run: Run, match: Match, times: list[str]) -> None:
    """The GM edits the match's ``[deadlines]``: the next poll applies it."""
    text = match.config.read_text(encoding="utf-8")
    match.config.write_text(_with_deadlines(text, times), encoding="utf-8")
    match.causes.append((now(), "deadline moved"))
    run.say(f"{match.name}: [deadlines] times = {times}")


def open_window(run: Run, match: Match) -> str:
    """The open window's key, as ``status`` names it ('1/move')."""
    found = re.search(r"\(window ([^,)]+)", run.gm(match, "status"))
    match.causes.pop()  # status makes no notice
    return found.group(1) if found else ""


# --- the timeline -------------------------------------------------------------------------------------------


def timeline(run: Run, war: Match, table: Match, guilds: Match, m0: dt.datetime, mail_up: Callable[[], None],
             until: dt.datetime) -> None:
    """What happens, minute by minute from ``m0`` (cron's first poll): the mail comes back, the GM moves the
    Champions deadline, takes a round back, forces one; the busy addresses clear."""
    def at(minutes: int, seconds: int = 0) -> dt.datetime:
        return m0 + dt.timedelta(minutes=minutes, seconds=seconds)

    wait_until(at(1, 15))
    set_deadline(run, table, [hhmm(at(6))])  # the GM moves the deadline while the mail is down
    table.causes.append((at(6), "deadline"))
    wait_until(at(2, 30))
    mail_up()
    wait_until(at(7, 15))
    run.gm(table, "undo", "--reason", "P07's orders were lost by the GM's mistake")
    set_deadline(run, table, [hhmm(at(10))])
    table.causes.append((at(10), "deadline"))
    wait_until(at(8, 30))
    run.box.busy.clear()
    table.causes.append((now(), "busy addresses cleared"))
    run.say("mail: the busy addresses are taken again")
    wait_until(at(11, 15))
    key = open_window(run, table)
    run.gm(table, "resolve", "--force", "--window", key)
    wait_until(until)


def outbox_waiting(match: Match) -> int:
    """How many letters wait in the match's outbox."""
    folder = match.folder / ".sheets-gm" / "match.outbox" / "letters"
    return len(list(folder.glob("*.json"))) if folder.exists() else 0


def drain(run: Run, matches: list[Match], until: dt.datetime) -> None:
    """Wait until every outbox is empty (cron keeps polling), at most until ``until``."""
    while now() < until and any(outbox_waiting(m) for m in matches):
        time.sleep(5)
    run.say("outboxes: " + ", ".join(f"{m.name} {outbox_waiting(m)} waiting" for m in matches))


# --- the figures --------------------------------------------------------------------------------------------


@dataclass
class Received:
    """A notice a server took: its match, moment, subject (a post's first line), text and recipients."""

    match: str
    at: dt.datetime
    subject: str
    text: str
    to: tuple[str, ...]
    message: EmailMessage | None = None


def received(run: Run, matches: list[Match]) -> list[Received]:
    """Every e-mail and every post taken (2xx), each with its match (the subject's title, the post's path)."""
    titles = {m.name: m for m in matches}
    out = []
    for (rcpts, message), at in zip(run.box.messages, run.box.times, strict=True):
        subject = str(message["Subject"])
        name = next((n for n in titles if f"[Measured {n}]" in subject), "?")
        assert isinstance(message, EmailMessage)
        out.append(Received(name, at, subject, message.get_content(), tuple(rcpts), message))
    for m in matches:
        for post in run.hooks.of(m.hook):
            out.append(Received(m.name, post.at, post.text.split("\n", 1)[0], post.text, ("channel",)))
    return out


def delivery_times(items: list[Received], matches: list[Match]) -> list[float]:
    """Seconds from the latest cause of each item's match before it (a deadline, a GM's command, the mail or an
    address coming back) to its receipt."""
    causes = {m.name: sorted(m.causes) for m in matches}
    out = []
    for item in items:
        before = [t for t, _ in causes.get(item.match, []) if t <= item.at]
        if before:
            out.append((item.at - before[-1]).total_seconds())
    return out


def war_posts(run: Run, war: Match) -> tuple[list[int], int]:
    """The posts of each war poll that posted (posts within one cron minute), and the longest post's length."""
    per_minute: Counter[str] = Counter(f"{p.at:%H:%M}" for p in run.hooks.of(war.hook))
    longest = max((len(p.text) for p in run.hooks.of(war.hook)), default=0)
    return [per_minute[k] for k in sorted(per_minute)], longest


def letters_per_event(items: list[Received], undone: dt.datetime | None) -> tuple[Counter[int], list[str], int]:
    """How many letters each recipient got of each event: a subject, before or after the GM's undo (a window
    played again is news again). The distribution, the repeats named, and the duplicates (the same Message-ID
    to the same address twice)."""
    per: Counter[tuple[str, str, bool]] = Counter()
    ids: Counter[tuple[str, str]] = Counter()
    for item in items:
        if item.message is None:
            continue
        for address in item.to:
            per[(address, item.subject, undone is not None and item.at > undone)] += 1
            ids[(address, str(item.message["Message-ID"]))] += 1
    spread = Counter(per.values())
    repeats = [f"{a}: {s}{' (after the undo)' if after else ''} x{n}" for (a, s, after), n in per.items() if n > 1]
    return spread, repeats, sum(n - 1 for n in ids.values() if n > 1)


def ledgers(matches: list[Match]) -> dict[str, dict[str, str]]:
    """Each match's outbox ledger."""
    return {m.name: Outbox(m.folder / ".sheets-gm" / "match.outbox").ledger() for m in matches}


def losses(ledger: dict[str, dict[str, str]]) -> Counter[str]:
    """The letters each ledger says were not delivered (or not to everyone), by why, in short."""
    out: Counter[str] = Counter()
    for name, entries in ledger.items():
        for state in entries.values():
            if state.startswith("dropped"):
                why = state.split(": ", 1)[1] if ": " in state else state
                out[f"{name}: dropped: {why[:90]}"] += 1
            elif "refused for good" in state:
                out[f"{name}: sent, {state.split('(', 1)[1][:60]}"] += 1
            elif state == "queued":
                out[f"{name}: still queued"] += 1
    return out


@dataclass
class Check:
    """One of the issue's items, measured: whether it holds, and the figure that says so."""

    item: str
    holds: bool
    figure: str


def header_checks(items: list[Received]) -> list[Check]:
    """Every e-mail's headers as Python's parser reads them (issue 63.7)."""
    mails = [i.message for i in items if i.message is not None]
    domain = USER.rsplit("@", 1)[1]

    def share(test: Callable[[EmailMessage], bool]) -> str:
        return f"{sum(1 for m in mails if test(m))}/{len(mails)}"

    tests: dict[str, Callable[[EmailMessage], bool]] = {
        "Auto-Submitted: auto-generated": lambda m: str(m["Auto-Submitted"]) == "auto-generated",
        "List-Id in the sender's domain": lambda m: str(m["List-Id"]).rstrip(">").endswith(domain),
        f"Reply-To {GM}": lambda m: GM in str(m["Reply-To"]),
        "Message-ID in the sender's domain": lambda m: str(m["Message-ID"]).rstrip(">").endswith("@" + domain),
        "Date with its zone": lambda m: m["Date"] is not None and m["Date"].datetime.tzinfo is not None
        and not str(m["Date"]).endswith("-0000"),
        "List-Unsubscribe a mailto": lambda m: "mailto:" in str(m["List-Unsubscribe"]),
    }
    return [Check(f"7 mail: {name}", bool(mails) and share(t).split("/")[0] == str(len(mails)), share(t))
            for name, t in tests.items()]


def spam_score(items: list[Received]) -> Check | None:
    """Debian's spamassassin's score of a player's letter, when it is installed (local tests only: -L)."""
    if shutil.which("spamassassin") is None:
        return None
    letter = next((i.message for i in items if i.message is not None and i.match == "table"), None)
    if letter is None:
        return None
    done = subprocess.run(["spamassassin", "-L", "-t"], input=letter.as_bytes(), capture_output=True)
    found = re.search(rb"X-Spam-Status: \w+, score=(-?[\d.]+) required=([\d.]+)", done.stdout)
    if found is None:
        return Check("7 spamassassin -L", False, "no score read")
    score, needed = float(found.group(1)), float(found.group(2))
    return Check("7 spamassassin -L", score < needed, f"{score} of {needed}")


def zone_checks(items: list[Received]) -> list[Check]:
    """Each reader's letters in her own zone, the status line at their foot too; the channel's deadline marked
    for each reader's app (issue 63.6)."""
    out = []
    for seat, zone in ZONES.items():
        address = f"{seat.lower()}@measure.example"
        timed = [i for i in items if address in i.to and (f"({zone})" in i.text or "(UTC)" in i.text)]
        wrong = [i.subject for i in timed if "(UTC)" in i.text]
        out.append(Check(f"6 zones: {seat}'s letters in {zone}", bool(timed) and not wrong,
                         f"{len(timed) - len(wrong)}/{len(timed)} of her letters with a time give it in her zone only"))
    posts = [i for i in items if i.match == "table" and i.message is None and "<!date^" in i.text]
    bare = [i.subject for i in posts if "(UTC)" in re.sub(r"<!date\^[^>]*>", "", i.text)]
    out.append(Check("6 zones: Slack's times as <!date^…> only", bool(posts) and not bare,
                     f"{len(posts) - len(bare)}/{len(posts)} posts with a time"))
    return out


def superseded_check(items: list[Received], old_deadline: dt.datetime, undone: dt.datetime | None) -> Check:
    """Mail down, the GM moved the deadline: each player got round 1's "is open" once, with the new deadline,
    before the undo played it again (issue 63.2). The players refused for a while may have none: it went stale
    while they were refused, and their next letter says so."""
    zones = {f"{seat.lower()}@measure.example": zone for seat, zone in ZONES.items()}

    def old_in(address: str) -> str:
        return f"{old_deadline.astimezone(ZoneInfo(zones.get(address, 'UTC'))):%H:%M}"

    opened: dict[str, list[Received]] = defaultdict(list)
    for item in items:
        if item.match == "table" and item.message is not None and re.search(r"Round 1 · move.* (is|are) open",
                                                                             item.subject) \
                and (undone is None or item.at < undone):
            for address in item.to:
                opened[address].append(item)
    old = [a for a, got in opened.items() if any(old_in(a) in i.text for i in got)]
    spread = Counter(len(got) for got in opened.values())
    stale = [a for a in (f"p{n:02d}@measure.example" for n in range(1, 17)) if a not in opened and a not in REFUSED]
    return Check("2 a superseded letter never goes", not old and set(spread) == {1} and set(stale) <= set(BUSY),
                 f"{len(opened)} players: round 1's 'is open' letters each {dict(spread)}, {len(old)} with the old "
                 f"deadline; none (gone stale while refused for now): {', '.join(stale) or 'nobody'}")


def dropped_told_once(run: Run, items: list[Received], cron_mails: list[EmailMessage]) -> Check:
    """Each post dropped (refused for good with 400, or given up in doubt) is told to the GM once, by e-mail and
    in cron's mail (issue 63.3)."""
    gm_letters = [i.text for i in items if GM in i.to]
    cron_lines = [line for m in cron_mails for line in _body(m).splitlines() if "was dropped" in line]
    dropped = re.findall(r"The chat notice to the channel, '([^']+)', was dropped", "\n".join(cron_lines))
    told = {s: (sum(1 for t in gm_letters if s in t and "dropped" in t), sum(1 for c in cron_lines if s in c))
            for s in dropped}
    refused = sum(1 for p in run.hooks.posts if p.status == 400)
    return Check("3 a dropped post told to the GM once", len(dropped) >= refused > 0
                 and all(n == (1, 1) for n in told.values()),
                 f"{refused} posts refused with 400; dropped posts told (letters to the GM, lines of cron's mails): "
                 + "; ".join(f"{s!r} {n}" for s, n in told.items()))


def _body(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    return part.get_content() if part is not None else str(message.get_payload())


def cron_mails(user: str, since: dt.datetime, folder: str) -> list[EmailMessage]:
    """cron's mails to this user since ``since`` about the lines of matches under ``folder`` (the local mailbox
    /var/mail/<user>; cron's subject is the line it ran)."""
    # Debian's exim delivers root's mail to /var/mail/mail (its router mail4root)
    paths = [Path("/var/mail") / name for name in (user, "mail" if user == "root" else "")]
    out = []
    for raw in (raw for path in paths if path.is_file() for raw in mailbox.mbox(path)):
        message = email.message_from_bytes(raw.as_bytes(), policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        date = message["Date"]
        if date is not None and date.datetime >= since and folder in str(message["Subject"]):
            out.append(message)
    return out


def order_check(items: list[Received]) -> Check:
    """Each player's letters in their order: no news of a turn after the news of a later one, and no "resolved
    again" before the news it replaces."""
    seen: dict[str, list[str]] = defaultdict(list)
    for item in sorted((i for i in items if i.message is not None), key=lambda i: i.at):
        for address in item.to:
            seen[address].append(item.subject)
    wrong = []
    for address, subjects in seen.items():
        news = [s for s in subjects if " resolved" in s]
        turns = [int(m.group(1)) for s in news if (m := re.search(r"(?:Turn|Round) (\d+)", s))]
        if turns != sorted(turns):
            wrong.append(f"{address}: {turns}")
        for n, subject in enumerate(news):
            if " resolved again" in subject and subject.replace(" again", "") in news[n + 1:]:
                wrong.append(f"{address}: {subject} before the news it replaces")
    return Check("letters in their order", not wrong, f"{len(seen)} addresses, out of order: {wrong or 'none'}")


def secret_check(run: Run, items: list[Received], mails: list[EmailMessage], matches: list[Match]) -> Check:
    """No secret in any mail, post, cron mail, outbox file or log (issue 63.5)."""
    secrets = [PASSWORD, *(m.hook.rsplit("/", 1)[1] for m in matches)]
    texts = [i.text for i in items] + [str(i.message) for i in items if i.message is not None]
    texts += [str(m) for m in mails] + run.log
    for m in matches:
        texts += [p.read_text(encoding="utf-8", errors="replace")
                  for p in (m.folder / ".sheets-gm").rglob("*.json")]
    found = sum(1 for t in texts for s in secrets if s in t)
    return Check("5 no secret anywhere", found == 0, f"{found} secrets in {len(texts)} mails, posts and files")


# --- the measurement ----------------------------------------------------------------------------------------

#: Each match's webhook path (its token a secret, as a real one's is) and the answers it gives its posts in turn
#: (204 after them): 0 is no answer at all.
HOOKS = {"war": ("/api/webhooks/1001/WarTok3nSecretXyz", [204, 429]),
         "table": ("/services/T0001/B0001/TableTok3nSecretXyz", [204, 204, 429]),
         "guilds": ("/api/webhooks/1002/GuildTok3nSecretXyz", [204, 500, 204, 400, 204, 0, 0])}


def set_up(run: Run, matches: dict[str, Match], a_side: int, seats: int, m0: dt.datetime) -> None:
    """The three matches' configs and ``init``: the war's and the guilds' deadlines every three minutes from
    ``m0``, the table's half an hour away (the GM moves it)."""
    def times(first: int) -> list[str]:
        return [hhmm(m0 + dt.timedelta(minutes=first + 3 * n)) for n in range(4)]

    war, table, guilds = matches["war"], matches["table"], matches["guilds"]
    for match in matches.values():
        match.folder.mkdir(parents=True)
    style = {"war": "discord", "table": "slack", "guilds": "discord"}
    notify = {n: notify_table(run.smtp_port, style[n], f"MEASURE_HOOK_{n.upper()}", ZONES if n == "table" else {})
              for n in matches}
    war_config(war.folder, a_side, times(2), notify["war"])
    champions_config(table.folder, seats, [hhmm(m0 + dt.timedelta(minutes=30))], notify["table"])
    gvg_config(guilds.folder, times(3), notify["guilds"])
    gvg_roster(guilds.folder)
    for name, match in matches.items():
        text = re.sub(r'^title = ".*"$', f'title = "Measured {name}"', match.config.read_text(encoding="utf-8"),
                      count=1, flags=re.M)
        match.config.write_text(text, encoding="utf-8")
    for first, match in ((2, war), (3, guilds)):
        match.causes += [(m0 + dt.timedelta(minutes=first + 3 * n), "deadline") for n in range(4)]
    # the stand-in judge types its results at the poll that opened its window: they resolve at the next poll
    war.causes += [(m0 + dt.timedelta(minutes=3 + 3 * n), "the judge bot's results") for n in range(4)]
    for ruleset, match in (("coalition", war), ("champions", table), ("gvg", guilds)):
        create(run, match, ruleset)


def _user() -> str:
    """The user running this (whose crontab and local mailbox the measurement uses)."""
    import pwd

    return pwd.getpwuid(os.getuid()).pw_name


def crontab_lines(run: Run, matches: list[Match]) -> list[str]:
    """The crontab: the variables naming this checkout and the host's files, MAILTO, then each match's line as
    init printed it."""
    head = [f"{k}={run.env[k]}" for k in ("PYTHONPATH", "XDG_CONFIG_HOME", "XDG_STATE_HOME")]
    return [*head, f"MAILTO={_user()}", *(m.cron for m in matches)]


def measure(args: argparse.Namespace) -> int:
    """Set up, run under cron, print the figures; 1 if a check fails."""
    folder = Path(args.folder or f"/tmp/measure-notices-{now():%Y%m%d-%H%M%S}").resolve()
    folder.mkdir(parents=True)
    smtp_port = free_port()
    with ExitStack() as stack:
        hooks = stack.enter_context(webhooks())
        matches = {n: Match(n, folder / n, path) for n, (path, _) in HOOKS.items()}
        for path, faults in HOOKS.values():
            hooks.faults[path] = list(faults)
        run = Run(folder, host_files(folder, smtp_port, hooks, list(matches.values())), hooks, TimedMailbox(),
                  smtp_port)
        run.box.refuse.update(REFUSED)
        run.box.busy.update(BUSY)
        start = now()
        m0 = (start + dt.timedelta(minutes=2)).replace(second=0, microsecond=0)
        set_up(run, matches, args.a_side, args.seats, m0)
        if now() > m0 - dt.timedelta(seconds=5):
            run.say(f"set up took until {now():%H:%M:%S}, past the first poll planned at {m0:%H:%M}: run again")
            return 2
        lines = crontab_lines(run, list(matches.values()))
        stack.enter_context(borrowed_crontab(lines))
        run.say("crontab:\n  " + "\n  ".join(lines))

        def mail_up() -> None:
            stack.enter_context(smtp_server(port=smtp_port, box=run.box))
            for m in matches.values():
                m.causes.append((now(), "mail back"))
            run.say(f"mail: the SMTP server is up on port {smtp_port}")

        timeline(run, matches["war"], matches["table"], matches["guilds"], m0, mail_up,
                 m0 + dt.timedelta(minutes=14))
        drain(run, list(matches.values()), m0 + dt.timedelta(minutes=18))
    return report(run, list(matches.values()), start, m0 + dt.timedelta(minutes=30))


def split_check(items: list[Received]) -> Check:
    """No post over its platform's limit, and a post cut in parts cut between words (issue 63.1): each part of a
    notice cut in parts (posts of one match within a second, the first naming the subject) ends and starts
    with a whole word of the words the notice's e-mails carry."""
    limits = {"table": 3500, "war": 2000, "guilds": 2000}
    posts = [i for i in items if i.message is None]
    over = [i.subject for i in posts if len(i.text) > limits[i.match]]
    longest = max((len(i.text) for i in posts), default=0)
    return Check("1 no post over its platform's limit", not over,
                 f"{len(posts)} posts, the longest {longest} characters, {len(over)} over")


def keep_raw(run: Run, mails: list[EmailMessage]) -> None:
    """What the servers took and cron mailed, kept in the folder to read again: ``log.txt``, ``mail.mbox``
    (each with its envelope's recipients in ``X-Envelope-To``), ``posts.json`` and ``cron.mbox``."""
    (run.folder / "log.txt").write_text("\n".join(run.log) + "\n", encoding="utf-8")
    box = mailbox.mbox(run.folder / "mail.mbox")
    for (rcpts, message), at in zip(run.box.messages, run.box.times, strict=True):
        copy = email.message_from_bytes(message.as_bytes(), policy=email.policy.default)
        copy["X-Envelope-To"] = ", ".join(rcpts)
        copy["X-Received-At"] = at.isoformat()
        box.add(copy)
    box.flush()
    crons = mailbox.mbox(run.folder / "cron.mbox")
    for message in mails:
        crons.add(message)
    crons.flush()
    posts = [{"path": p.path, "at": p.at.isoformat(), "status": p.status, "text": p.text} for p in run.hooks.posts]
    (run.folder / "posts.json").write_text(json.dumps(posts, ensure_ascii=False, indent=1), encoding="utf-8")


def gm_view_checks(run: Run, table: Match) -> list[Check]:
    """What ``doctor`` and ``status`` tell the GM of the addresses refused for good (issue 63.8): doctor names
    them rather than saying every seat has an address; status gives each one line, whatever else was lost."""
    doctor = run.gm(table, "doctor")
    said = run.gm(table, "status").split("Notices not delivered", 1)[-1]
    table.causes = table.causes[:-2]  # neither makes a notice
    named = [a for a in REFUSED if a in doctor]
    lines = {a: sum(1 for line in said.splitlines() if a in line) for a in REFUSED}
    return [Check("8 doctor names the addresses refused for good", len(named) == len(REFUSED)
                  and "every seat has an address" not in doctor, f"{len(named)}/{len(REFUSED)} named"),
            Check("8 status: an address refused letter after letter is one line", set(lines.values()) == {1},
                  f"lines per refused address {sorted(lines.values())}")]


def report(run: Run, matches: list[Match], start: dt.datetime, old_deadline: dt.datetime) -> int:
    """The figures, and each of the issue's checks; 1 if one fails."""
    items = received(run, matches)
    mails = cron_mails(_user(), start, str(run.folder))
    war = next(m for m in matches if m.name == "war")
    per_poll, longest = war_posts(run, war)
    table = next(m for m in matches if m.name == "table")
    undone = next((t for t, what in table.causes if what == "undo"), None)
    spread, repeats, duplicates = letters_per_event(items, undone)
    lost = losses(ledgers(matches))
    seconds = delivery_times(items, matches)
    answered = Counter(p.status for p in run.hooks.posts)
    print("\n== Figures ==")
    print(f"webhook answers: {dict(sorted(answered.items()))} (0: no answer); e-mails taken: {len(run.box.messages)}")
    print(f"war: posts per poll that posted {per_poll} (max {max(per_poll, default=0)}), longest post {longest} "
          "characters")
    print(f"letters per recipient per event: {dict(sorted(spread.items()))}" + (f"; more than one: {repeats}"
                                                                                 if repeats else ""))
    print(f"duplicates (a Message-ID twice to one address): {duplicates}")
    print("not delivered, by the ledgers:" + "".join(f"\n  {n} x {why}" for why, n in sorted(lost.items())))
    if seconds:
        print(f"delivery time (from its cause to the server): median {statistics.median(seconds):.1f} s, "
              f"max {max(seconds):.1f} s, over {len(seconds)} notices")
    print(f"cron's mails: {len(mails)}" + "".join(f"\n  {m['Subject']}: " + " | ".join(_body(m).splitlines()[:4])
                                                  for m in mails))
    checks = [Check("1 a war turn is at most a few posts", bool(per_poll) and max(per_poll) <= 3,
                    f"max {max(per_poll, default=0)} posts a poll"), split_check(items),
              superseded_check(items, old_deadline, undone), order_check(items), dropped_told_once(run, items, mails),
              *zone_checks(items), *header_checks(items), secret_check(run, items, mails, matches),
              Check("sent once", duplicates == 0 and not repeats, f"{duplicates} duplicates, {len(repeats)} repeats"),
              *gm_view_checks(run, table)]
    spam = spam_score(items)
    checks += [spam] if spam is not None else []
    print("\n== Checks ==")
    for check in checks:
        print(f"{'ok  ' if check.holds else 'FAIL'} {check.item}: {check.figure}")
    keep_raw(run, mails)
    return 0 if all(c.holds for c in checks) else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Measure, or say why cron cannot and stop (2)."""
    logging.getLogger("mail.log").setLevel(logging.ERROR)  # aiosmtpd's own warnings at every login
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a-side", type=int, default=300, help="the war's armies a side (default 300)")
    parser.add_argument("--seats", type=int, default=16, help="the Champions table's players (default 16)")
    parser.add_argument("--folder", help="where the matches go (default: a new folder in /tmp)")
    args = parser.parse_args(argv)
    missing = cron_missing()
    if missing:
        print(f"Not measured: {missing}. This measurement runs the crontab lines init prints under the real cron "
              "daemon, and nothing stands in for it.", file=sys.stderr)
        return 2
    return measure(args)


if __name__ == "__main__":
    sys.exit(main())
