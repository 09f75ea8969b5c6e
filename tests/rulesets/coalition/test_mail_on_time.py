"""Ruling "Mail to the judge": a mail counts at the time the judge's mailbox received it; movement and strategies
close at the players' deadline. The first poll past that deadline takes what every side typed for the next turn, and
types each side that sent no strategy for a battle into the judge's row (stratless, a proposal). A mail that reached
the mailbox before the deadline but is read only after that poll (the mailbox read late, a restart, a mail that
waited for room, one the judge moved out of her spam folder) counts all the same; one that arrived after it is
discarded.

The class, as a property walked through a real IMAP server (the Dovecot fixture) at a fake clock: a mail's fate
depends only on its arrival time against the deadline, never on when the poll typed it. Each walked mail arrives
just before or just after the players' deadline and is read just before or just after the poll that takes what the
deadline closed. A movement mail corrects an earlier mail of its sender for the same army (or an older one is typed
after its correction): the army goes where the latest mail to arrive in time sends it, and the mail's receipt and
its rows' answers agree. A strategy takes its side out of the stratless proposal exactly when it arrived in time."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.match.config import MatchConfig, load_config
from sheets_gm.notify.outbox import Outbox
from sheets_gm.rulesets.coalition.state import CoalitionState
from sheets_gm.rulesets.registry import get_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.mailroom.door import with_mail
from sheets_gm.running.mailroom.inbox import MailboxInbox
from sheets_gm.running.run import sync_once
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sync.poll import WindowReport
from sheets_gm.sync.read import read_match, read_record
from tests.fakes.dovecot import Dovecot, MailUser
from tests.mailbox.mails import plain
from tests.rulesets.coalition.helpers import MAIL_ARMIES, ROSTER_COLUMNS, local_match, looking

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
PLAYERS = NOW.replace(hour=20)  # the players' deadline of turn 1's judge's window (a daily 20:00 schedule)
TAKEN = PLAYERS + dt.timedelta(minutes=5)  # the first poll past it: it takes what the sides typed for turn 2
LATER = PLAYERS + dt.timedelta(minutes=30)  # the next poll
CLS = get_ruleset("coalition")
EARLY = PLAYERS - dt.timedelta(hours=2)  # a poll well before the deadline
CLOSED_EARLY = NOW - dt.timedelta(minutes=1)  # a mail's arrival just before the GM closes turn 1's movement (at NOW)
JUDGE_DONE = LATER + dt.timedelta(hours=1)  # the poll that closes the judge's window, once she marked it done
#: When a walked mail reaches the judge's mailbox (its server's arrival time).
ARRIVES = {"early": EARLY, "before": PLAYERS - dt.timedelta(minutes=1), "after": PLAYERS + dt.timedelta(minutes=1)}
#: The walk: the Coalition's armies, each with its player, where it stands, and her two mails for it: where each sends
#: it, when it reaches the mailbox, and at which poll it is typed (the first poll past the deadline, ``TAKEN``, types
#: it just before it takes the Forum tab; ``LATER`` just after). The second is a correction of the first, or the
#: first an older mail typed last (it waited: the judge moved it out of her spam folder, the tab was full).
WALK = [("Argive Scouts", "dee", "14H", (("14I", "early", EARLY), ("13H", "before", TAKEN))),
        ("Benalish Guard", "fay", "17H", (("17I", "early", EARLY), ("16H", "before", LATER))),
        ("Keldon Raiders", "gus", "20H", (("20I", "early", EARLY), ("19H", "after", TAKEN))),
        ("Tolarian Wardens", "hal", "23H", (("23I", "early", EARLY), ("22H", "after", LATER))),
        ("Serra Angels", "ida", "11H", (("11I", "early", LATER), ("10H", "before", TAKEN)))]


def where_it_goes(at: str, mails: tuple[tuple[str, str, dt.datetime], ...]) -> str:
    """The ruling's answer: the army goes where the latest mail to reach the mailbox by the deadline sends it (it
    stays without one)."""
    on_time = [(ARRIVES[arrives], to) for to, arrives, _poll in mails if ARRIVES[arrives] <= PLAYERS]
    return max(on_time)[1] if on_time else at

#: The strategies' walk: battles of turn 1, each a Coalition army attacking a Phyrexian one from the square above
#: it (its column), the players, and when the Phyrexian strategy reaches the mailbox and at which poll it is read
#: (just before the first poll past the deadline types the stratless sides into the judge's rows, or just after).
BATTLES = [(4, "Argive Lancers", "jo", "Husk Swarm", "kim", "before", TAKEN),
           (7, "Keldon Axes", "lu", "Vat Horrors", "mo", "before", LATER),
           (15, "Benalish Pikes", "ned", "Rot Hounds", "ora", "after", TAKEN),
           (21, "Tolarian Mages", "pip", "Gloom Priests", "quin", "after", LATER)]
ARMIES = [*MAIL_ARMIES,
          *([army, "coalition", 3, f"Dominaria {at}", "2000/1000/600/600", "white", "white", who.title(),
             f"{who}@example.org"] for army, who, at, _mails in WALK),
          *([name, side, 3, f"Dominaria {column}{row}", "2000/1000/600/600", colour, colour, who.title(),
             f"{who}@example.org"]
            for column, attacker, one, defender, other, _arrives, _read in BATTLES
            for name, who, side, row, colour in ((attacker, one, "coalition", "A", "white"),
                                                 (defender, other, "phyrexia", "B", "")))]
#: Each battle's title, as its strategies name it.
TITLES = {column: f"{attacker} attacks {defender}" for column, attacker, _w, defender, *_rest in BATTLES}


class WarByMail:
    """The match as its players and its judge play it: mail delivered to the judge's real mailbox with the server's
    arrival time, the judge's cells typed in her workbook, cron's polls at a fake clock."""

    def __init__(self, folder: Path, dovecot: Dovecot) -> None:
        local_match(folder, ARMIES, b"mail on time", NOW, (*ROSTER_COLUMNS, "player", "email"))
        self.user: MailUser = dovecot.add_user()
        self.dovecot = dovecot
        (folder / "mailbox.password").write_text(self.user.password, encoding="utf-8")
        path = folder / "match.toml"
        text = path.read_text(encoding="utf-8").replace("times = []", 'times = ["20:00"]', 1)
        path.write_text(text + f'\n[mailbox]\nhost = "{dovecot.host}"\nport = {dovecot.port}\nsecurity = "none"\n'
                               f'user = "{self.user.name}"\npassword_file = "mailbox.password"\nfolder = "INBOX"\n',
                        encoding="utf-8")
        self.config: MatchConfig = load_config(path)

    def mail(self, who: str, subject: str, line: str, *, at: dt.datetime) -> None:
        """A mail from ``who`` reaching the judge's mailbox at ``at`` (its server's arrival time)."""
        self.dovecot.deliver(self.user, plain(line, sender=f"{who.title()} <{who}@example.org>", subject=subject),
                             received=at)

    def sync(self, at: dt.datetime, *, force: bool = False) -> WindowReport:
        """One poll through the judge's mailbox's door, as cron's (``force``: the GM's ``resolve --force``)."""
        config = self.config
        inbox = MailboxInbox(config)
        try:
            return with_mail(config, lambda: at,
                             lambda: sync_once(config, open_match_sheets(config), now=at, force=force), inbox)
        finally:
            inbox.close()

    def judge_types(self, *cells: tuple[str, str, str, str | int | bool]) -> None:
        """Each of ``cells`` (table, subject, column, value) typed in the judge's row of ``subject`` in ``table``,
        as in LibreOffice, and her workbook saved once."""
        sheets = looking(self.config)
        found = read_match(sheets, CLS).seats[JUDGE]
        writes = []
        for table, subject, column, value in cells:
            (row,) = [r for r in found.rows if r.table == table and r.subject == subject]
            placed = found.tab.table(table)
            writes.append(RangeWrite(placed.at(placed.cell(row.row - placed.first_row, column)), [[value]]))
        sheets.judge_sheet().write(writes)

    def state(self) -> CoalitionState:
        """The engine's state as the record keeps it."""
        found: CoalitionState = read_record(looking(self.config), CLS).state
        return found

    def judge_row(self, table: str, subject: str, column: str) -> str:
        """What the judge's row of ``subject`` in ``table`` holds in ``column``."""
        found = read_match(looking(self.config), CLS).seats[JUDGE]
        (row,) = [r for r in found.rows if r.table == table and r.subject == subject]
        return row.text(column)

    def forum(self) -> dict[str, str]:
        """The Coalition's Forum tab: each typed line's answer, by the line."""
        seat = read_match(looking(self.config), CLS).seats["coalition"]
        return {r.text("line"): r.feedback for r in seat.rows if r.table == "post" and r.text("line")}

    def receipt(self, who: str, subject: str) -> str:
        """The receipt of ``who``'s mail titled ``subject``."""
        (body,) = [letter.body for letter in Outbox.of(self.config.path).waiting()
                   if letter.recipient == f"{who}@example.org" and letter.subject == f"Re: {subject}"]
        return body


def test_a_mails_fate_depends_on_its_arrival_never_on_when_the_poll_read_it(tmp_path: Path,
                                                                            dovecot: Dovecot) -> None:
    war = WarByMail(tmp_path, dovecot)
    war.mail("ann", "moves", "Rabid Cat: Dominaria; 3C > 4C - engage Various Puppies", at=NOW)
    for column, attacker, who, defender, *_rest in BATTLES:
        war.mail(who, "turn 1", f"{attacker}: Dominaria; {column}A > {column}B - engage {defender}", at=NOW)
    assert war.sync(NOW, force=True).resolved  # turn 1: the battles are announced, turn 2's movement opens
    # a mail that reached the mailbox while turn 1's movement was open, read only after the GM closed it early
    war.mail("hal", "Tolarian Wardens to 24H", "Tolarian Wardens: Dominaria; 23H > 24H", at=CLOSED_EARLY)
    for column, _attacker, who, *_rest in BATTLES:  # the Coalition's strategies, in good time
        war.mail(who, f"{who.title()}: {TITLES[column]}", "Hold the line.", at=EARLY)
    for poll in (EARLY, TAKEN, LATER):
        for army, who, at, mails in WALK:
            for to, arrives, typed in mails:
                if typed == poll:
                    war.mail(who, f"{army} to {to}", f"{army}: Dominaria; {at} > {to}", at=ARRIVES[arrives])
        for column, _attacker, _who, _defender, them, arrives, read in BATTLES:
            if read == poll:
                war.mail(them, f"{them.title()}: {TITLES[column]}", "Swarm them.", at=ARRIVES[arrives])
        assert not war.sync(poll).resolved
        assert war.state().phase.value == "results"
    _movement_told(war)
    assert "It was not read: it reached the judge's mailbox while turn 1 · orders was open (it closed Sun 22 Nov " \
           "12:00 UTC)" in war.receipt("hal", "Tolarian Wardens to 24H")
    assert "Tolarian Wardens: Dominaria; 23H > 24H" not in war.forum()
    for column, _attacker, _who, _defender, them, arrives, _read in BATTLES:
        receipt = war.receipt(them, f"{them.title()}: {TITLES[column]}")
        assert ("It was filed as phyrexia's strategy" in receipt) == (arrives == "before"), receipt
        assert war.judge_row("results", f"Dominaria {column}B", "stratless") == \
            ("" if arrives == "before" else "phyrexia"), (column, arrives)
    war.judge_types(*(("results", battle, "winner", "coalition")
                      for battle in ("Dominaria 4C", *(f"Dominaria {column}B" for column, *_rest in BATTLES))),
                    ("judge", JUDGE, "ready", True))
    assert war.sync(JUDGE_DONE).resolved  # the judge's window closes: turn 2's movement with it
    where = {a.name: a.at for a in war.state().armies}
    assert {army: where[army] for army, *_rest in WALK} == \
        {army: f"Dominaria {where_it_goes(at, mails)}" for army, _who, at, mails in WALK}
    # a mail in time for turn 2, read only once turn 2 is adjudicated: not read for turn 3 either
    war.mail("dee", "Argive Scouts to 15H", "Argive Scouts: Dominaria; 14H > 15H", at=ARRIVES["before"])
    # one after the players' deadline but before the judge's window closed, read after it closed: late for turn 2
    war.mail("fay", "Benalish Guard to 15H", "Benalish Guard: Dominaria; 16H > 15H", at=JUDGE_DONE - dt.timedelta(
        minutes=10))
    assert not war.sync(LATER + dt.timedelta(hours=2)).resolved
    assert war.state().turn == 3
    assert "It was not read: it reached the judge's mailbox before the deadline of turn 1 · battle results (Sun 22 " \
           "Nov 20:00 UTC)" in war.receipt("dee", "Argive Scouts to 15H")
    assert "Argive Scouts: Dominaria; 14H > 15H" not in war.forum()
    assert "It was not read: it reached the judge's mailbox after the deadline of turn 1 · battle results (Sun 22 " \
           "Nov 20:00 UTC), while turn 1 · battle results was still open: too late for it" in \
           war.receipt("fay", "Benalish Guard to 15H")
    assert "Benalish Guard: Dominaria; 16H > 15H" not in war.forum()


def _movement_told(war: WarByMail) -> None:
    """Each walked movement mail's receipt says what its arrival decides, and quotes its rows' answers: a mail in
    time is read, never answered late; one after the deadline is discarded, never typed."""
    forum = war.forum()
    for army, who, at, mails in WALK:
        for to, arrives, _typed in mails:
            receipt = war.receipt(who, f"{army} to {to}")
            line = f"{army}: Dominaria; {at} > {to}"
            if arrives == "after":
                assert "after the players' (turn 1's strategies and turn 2's movement) deadline" in receipt, receipt
                assert line not in forum, forum
                continue
            assert "read for turn 2's movement" in receipt, receipt
            assert "Late" not in forum[line], (army, forum[line])
            assert f"  {line}\n    {forum[line]}\n" in receipt, (receipt, forum[line])  # it quotes the row's answer
