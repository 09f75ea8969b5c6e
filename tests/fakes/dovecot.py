"""A real IMAP server for the mailbox's tests: Debian's Dovecot, started on 127.0.0.1 at free ports with a throw-away
configuration in a test's folder (passwd-file logins, Maildir, no system path), mail delivered as a mail server
delivers it: a file written into the user's ``Maildir/tmp`` and moved into ``new/``, its modification time the
server's arrival time (IMAP's INTERNALDATE).

One server serves every security of ``[mailbox]``: the plain port (``none``, and ``starttls``) and the TLS port
(``tls``), with the notice tests' throw-away certificate for localhost and 127.0.0.1 (``tests/notify/servers.py``'s
``CERT``, trusted through ``ca_file``). Each session's commands are kept (Dovecot's rawlog, in the user's home), so
a test counts what a poll asked (``commands``). Not a fake: nothing of IMAP is mocked.

Use the ``dovecot`` fixture (``tests/conftest.py``, one server per test module) and ``Dovecot.add_user`` for a
mailbox of a test's own."""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from tests.notify.servers import CERT, KEY, free_port

DOVECOT = Path("/usr/sbin/dovecot")
#: Why the tests that need Dovecot skip where it is missing (the test command installs it as root).
MISSING = "Dovecot is not installed: apt-get install dovecot-imapd (scripts/install.sh does, as root)"
#: The mailboxes a test server has (``add_user`` hands out the next).
USERS = 200
_DELIVERIES = itertools.count(1)


@dataclass(frozen=True, slots=True)
class MailUser:
    """A mailbox of the test server: its login, password and home (``Maildir`` and ``rawlog`` in it)."""

    name: str
    password: str
    home: Path

    @property
    def maildir(self) -> Path:
        """The user's INBOX, as Dovecot keeps it."""
        return self.home / "Maildir"


def _ids() -> tuple[str, str, int, int]:
    """The accounts Dovecot runs as: its own services and the login processes (never root, which it refuses), and
    the uid and gid mail is kept under (never 0, which it refuses too)."""
    if os.getuid() != 0:
        me = pwd.getpwuid(os.getuid()).pw_name
        return me, me, os.getuid(), os.getgid()
    mail = pwd.getpwnam("dovecot")
    return "dovecot", "dovenull", mail.pw_uid, mail.pw_gid


class Dovecot:
    """A running Dovecot of a test's own: ``port`` (plain and STARTTLS), ``tls_port`` (TLS from the first byte)."""

    host = "127.0.0.1"
    ca_file = CERT

    def __init__(self, root: Path) -> None:
        self.root = root
        self.port = free_port()
        self.tls_port = free_port()
        self.internal, self.login, self.uid, self.gid = _ids()
        for sub in ("run", "state", "home"):
            (root / sub).mkdir(parents=True, exist_ok=True)
        # every login there will be, written before the server starts (Dovecot reads the file again only when it
        # sees it changed, to the second): a test takes the next with ``add_user``
        (root / "passwd").write_text("".join(f"{_name(n)}:{{PLAIN}}{_password(n)}\n" for n in range(1, USERS + 1)),
                                     encoding="utf-8")
        (root / "dovecot.conf").write_text(self._config(), encoding="utf-8")
        self.process: subprocess.Popen[bytes] | None = None
        self._users = itertools.count(1)

    def _config(self) -> str:
        root = self.root
        dh = Path("/usr/share/dovecot/dh.pem")
        return "\n".join([
            f"base_dir = {root / 'run'}", f"state_dir = {root / 'state'}", f"instance_name = test-{self.port}",
            f"log_path = {root / 'dovecot.log'}", "listen = 127.0.0.1", "protocols = imap",
            "ssl = yes", f"ssl_cert = <{CERT}", f"ssl_key = <{KEY}", *([f"ssl_dh = <{dh}"] if dh.exists() else []),
            "disable_plaintext_auth = no", "auth_mechanisms = plain login",
            # a refused login answered at once, never held back longer at each try (a test tries on purpose)
            "auth_failure_delay = 0",
            f"default_internal_user = {self.internal}", f"default_internal_group = {self.internal}",
            f"default_login_user = {self.login}", "first_valid_uid = 1", "first_valid_gid = 1",
            "passdb {", "  driver = passwd-file", f"  args = scheme=PLAIN username_format=%u {root / 'passwd'}", "}",
            "userdb {", "  driver = static", f"  args = uid={self.uid} gid={self.gid} home={root / 'home'}/%n", "}",
            "mail_location = maildir:~/Maildir", f"rawlog_dir = {root / 'home'}/%n/rawlog",
            # Dovecot's high-performance mode: login processes kept and reused, an IMAP process ready before
            # the login asks for one (as a busy server runs; a session's cost is then the client's, not a fork's)
            "service imap-login {", "  chroot =", "  service_count = 0", "  process_min_avail = 1",
            "  inet_listener imap {", "    address = 127.0.0.1", f"    port = {self.port}", "  }",
            "  inet_listener imaps {", "    address = 127.0.0.1", f"    port = {self.tls_port}", "    ssl = yes",
            "  }", "}",
            # no penalty for logins refused before (Dovecot's documented way: its socket closed to all)
            "service imap {", "  process_min_avail = 2", "}",
            "service anvil {", "  chroot =", "  unix_listener anvil-auth-penalty {", "    mode = 0", "  }", "}", ""])

    def start(self) -> None:
        """Start the server and wait (a few hundred milliseconds) until it takes logins: its login process greets on
        the plain port (it greets once its authentication process is up) and the TLS port answers. A port that
        merely answers proves nothing: a master that dies at its start (``Socket already exists``) has its ports
        open for a moment before, and a start that returned then left no server at all."""
        log = (self.root / "dovecot.out").open("wb")
        self.process = subprocess.Popen([str(DOVECOT), "-F", "-c", str(self.root / "dovecot.conf")],
                                        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 20
        while not (greets(self.host, self.port) and _answers(self.host, self.tls_port)):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Dovecot did not start: {self.log()}")
            time.sleep(0.02)  # a real server starting: nothing to fake

    def stop(self, *, within: float = 10.0) -> None:
        """Stop the server (its master and every process it started, one process group of their own) and wait until
        every one of them is gone, ``within`` seconds at most (RuntimeError naming those left). They are killed, not
        asked to stop: a test server's mail is thrown away with its folder, and Dovecot's own stop takes a second of
        waiting (a second a test module, for nothing). The master is gone first; the others may take longer (an IMAP
        process that watched a folder for IDLE, tens of milliseconds: the kernel tears its inotify watch down),
        holding the server's sockets meanwhile, and a server started again then finds them taken and stops at once."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            wait_gone(self.process.pid, within)

    def log(self) -> str:
        """What the server wrote to its log so far."""
        parts = [self.root / "dovecot.out", self.root / "dovecot.log"]
        return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in parts if p.exists())

    def add_user(self) -> MailUser:
        """A new mailbox on the server, empty, with its own login (``judge-N@mail.example``)."""
        number = next(self._users)
        if number > USERS:
            raise RuntimeError(f"a test server has {USERS} mailboxes; start another")
        name = _name(number)
        home = self.root / "home" / name.split("@")[0]
        for sub in ("Maildir/new", "Maildir/cur", "Maildir/tmp", "rawlog"):
            (home / sub).mkdir(parents=True, exist_ok=True)
        self._own(home)
        return MailUser(name, _password(number), home)

    def add_folder(self, user: MailUser, folder: str) -> Path:
        """A folder of ``user``'s beside INBOX (Maildir++: ``.<folder>``), empty; its path, to deliver into."""
        path = user.maildir / f".{folder}"
        for sub in ("new", "cur", "tmp"):
            (path / sub).mkdir(parents=True, exist_ok=True)
        self._own(path)
        return path

    def deliver(self, user: MailUser, raw: bytes, *, received: datetime | None = None,
                folder: Path | None = None) -> Path:
        """Deliver the message ``raw`` into ``user``'s INBOX (or ``folder``) as a mail server does; ``received``
        (aware) is when the server received it (its INTERNALDATE), now when None."""
        box = folder or user.maildir
        name = f"{int(time.time())}.M{next(_DELIVERIES)}P{os.getpid()}.test"
        tmp = box / "tmp" / name
        tmp.write_bytes(raw)
        if received is not None:
            os.utime(tmp, (received.timestamp(), received.timestamp()))
        self._own(tmp)
        final = box / "new" / name
        os.replace(tmp, final)
        return final

    def commands(self, user: MailUser) -> list[str]:
        """Every command ``user``'s sessions sent after their login, in order, by name (``STATUS``, ``UID FETCH``),
        from the server's own record of each session (rawlog)."""
        found: list[str] = []
        for path in sorted((user.home / "rawlog").glob("*.in")):
            for line in path.read_bytes().splitlines():
                words = line.decode("ascii", "replace").split()[1:]  # each line: its time, a tag, the command
                if len(words) >= 2:
                    name = words[1].upper()
                    found.append(f"UID {words[2].upper()}" if name == "UID" and len(words) > 2 else name)
        return found

    def forget_commands(self, user: MailUser) -> None:
        """Clear ``user``'s record of commands (to count those of what follows alone)."""
        for path in (user.home / "rawlog").iterdir():
            path.unlink()

    def _own(self, path: Path) -> None:
        """Give ``path`` (and what is under it) to the account mail is kept under, as a mail server would."""
        if os.getuid() != 0:
            return
        for where in [path, *(path.rglob("*") if path.is_dir() else [])]:
            os.chown(where, self.uid, self.gid)


def _name(number: int) -> str:
    return f"judge-{number}@mail.example"


def _password(number: int) -> str:
    return f"judge {number}'s secret"


def _answers(host: str, port: int) -> bool:
    """Whether something listens on ``host``:``port``."""
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.2):
        return True
    return False


def greets(host: str, port: int) -> bool:
    """Whether an IMAP server greets on ``host``:``port`` (``* OK``)."""
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5) as sock, \
            sock.makefile("rb") as reader:
        return reader.read(4) == b"* OK"
    return False


def living(group: int) -> dict[int, str]:
    """The processes of the process group ``group`` not yet gone, by id: their names (a zombie has closed its files:
    gone)."""
    found: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            name, _, rest = (entry / "stat").read_text().partition(" (")[2].rpartition(") ")
        except OSError:  # gone meanwhile
            continue
        state, _parent, process_group = rest.split()[:3]
        if int(process_group) == group and state not in "ZX":
            found[int(entry.name)] = name
    return found


def wait_gone(group: int, within: float) -> None:
    """Wait until no process of the process group ``group`` is left; RuntimeError naming them after ``within`` s."""
    deadline = time.monotonic() + within
    while left := living(group):
        if time.monotonic() > deadline:
            names = ", ".join(sorted(left.values()))
            raise RuntimeError(f"Dovecot's processes {names} outlived their kill by {within} s")
        time.sleep(0.005)  # real processes dying: nothing to fake


@contextlib.contextmanager
def running_dovecot() -> Iterator[Dovecot]:
    """A Dovecot started for the time of the ``with`` in a folder of its own (under the system's temporary folder,
    which the accounts Dovecot runs as may enter, where a test's own folder is its owner's alone); stopped and
    removed after, whatever happens."""
    root = Path(tempfile.mkdtemp(prefix="sheets-gm-dovecot-"))
    os.chmod(root, 0o755)
    server = Dovecot(root)
    try:
        server.start()
        yield server
    finally:
        try:
            server.stop()
        finally:
            shutil.rmtree(root, ignore_errors=True)
