"""A 576-army war's turn mailed in through a real IMAP server (issue 89), under ``-m soak``: 288 armies a side, 306
movement mails as players write them (greetings, signatures, quoted replies, accents) and 80 corrections, filed by
the poll cron runs; every mail is typed (the Forum tabs grow) and finished, none waits; ``resolve --force`` goes
through (its record runs past a cell) and ``verify`` replays it. The quick forms of each point are in
``test_mail_door.py`` and ``tests/sync/test_pending_spread.py``."""

from __future__ import annotations

import datetime as dt
import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from sheets_gm.cli import main
from sheets_gm.host.polls import poll_config
from sheets_gm.match.config import load_config
from sheets_gm.rulesets.registry import get_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.mailroom.record import MailRecord
from sheets_gm.running.mailroom.status import mail_status_lines
from sheets_gm.sheets.marks import file_mark
from sheets_gm.sync.read import read_match
from tests.fakes.dovecot import Dovecot
from tests.mailbox.mails import plain
from tests.paths import SCRIPTS
from tests.rulesets.coalition.helpers import ROSTER_COLUMNS, local_match, looking

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
CLS = get_ruleset("coalition")
ARMIES = 288  # a side
GREETINGS = ("Hi judge,", "Hello!", "Dear judge,", "", "Yo judge — ça va ?")
SIGNATURES = ("Thanks,\nAnn", "-- \nSent from my phone", "Cheers\n\nOn Fri, 20 Nov 2026, the judge wrote:\n> last "
              "turn's results\n> are up", "")


def _war(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """``scripts/war_mail.py``: the war's armies side by side, and its roster."""
    spec = importlib.util.spec_from_file_location("war_mail", SCRIPTS / "war_mail.py")
    assert spec is not None and spec.loader is not None
    war = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "war_mail", war)  # its dataclasses look their module up
    spec.loader.exec_module(war)
    return war


def _body(words: random.Random, line: str) -> str:
    return "\n".join([words.choice(GREETINGS), "", line, "", words.choice(SIGNATURES)])


@pytest.mark.soak
def test_a_576_army_war_mailed_in_with_corrections_resolves_every_mail_typed(
        tmp_path: Path, dovecot: Dovecot, monkeypatch: pytest.MonkeyPatch) -> None:
    war = _war(monkeypatch)
    armies = war.war(ARMIES)
    local_match(tmp_path, war.roster_rows(armies), b"mail war", NOW, (*ROSTER_COLUMNS, "player", "email"))
    user = dovecot.add_user()
    (tmp_path / "mailbox.password").write_text(user.password, encoding="utf-8")
    with (tmp_path / "match.toml").open("a", encoding="utf-8") as f:
        f.write(f'\n[mailbox]\nhost = "{dovecot.host}"\nport = {dovecot.port}\nsecurity = "none"\n'
                f'user = "{user.name}"\npassword_file = "mailbox.password"\nfolder = "INBOX"\n')
    config = load_config(tmp_path / "match.toml")
    words = random.Random(89)
    pairs = [(a.plane, a.row, a.column, f"{a.column + 1}{a.row}") for a in armies if a.side == "coalition"]
    moves = [(f"c{n:03d}@example.org", f"Coal {n:03d}: {plane}; {c}{r} > {nxt} - engage Phyr {n:03d}")
             for n, (plane, r, c, nxt) in enumerate(pairs, start=1)]
    moves += [(f"p{n:03d}@example.org", f"Phyr {n:03d}: {plane}; {c + 1}{r} > {c + 1}{r}")
              for n, (plane, r, c, _nxt) in enumerate(pairs[:306 - ARMIES], start=1)]
    fixes = [(f"c{n:03d}@example.org", f"Coal {n:03d}: {pairs[n - 1][0]}; {pairs[n - 1][2]}{pairs[n - 1][1]} > "
                                       f"{pairs[n - 1][3]} - engage Phyr {n:03d} (sorry, this one counts)")
             for n in words.sample(range(1, ARMIES + 1), 80)]
    for n, (sender, line) in enumerate([*moves, *fixes]):
        dovecot.deliver(user, plain(_body(words, line), sender=sender, subject=words.choice(
            ("moves", "Turn 1 movement", "Re: orders", "correction!!"))), received=NOW + dt.timedelta(seconds=n))
    poll_config(config, file_mark(config.path), lambda: NOW + dt.timedelta(hours=1), quiet=True)
    entries = MailRecord.of(config.path).entries
    assert len(entries) == len(moves) + len(fixes) == 386
    assert not [e.key for e in entries.values() if e.untyped()]  # every mail typed: none waits
    assert not any("Mail waiting" in line for line in mail_status_lines(config, open_match_sheets(config)))
    forum = read_match(looking(config), CLS).seats["coalition"].tab.table("post")
    assert forum.rows > 2 * ARMIES + 20  # grown from its 596 rows
    assert main(["resolve", "-c", str(config.path), "--force", "--window", "1"]) == 0
    assert main(["verify", "-c", str(config.path)]) == 0
    state = read_match(looking(config), CLS).record.state
    assert len([b for b in state.battles if b.announced]) >= ARMIES // 2
