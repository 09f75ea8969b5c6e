"""The players' side of the war by mail (``rehearse_war_by_mail.py``): a Coalition war of armies side by side, each
army played by a player with her own address, and the mail those players write to the judge as people write it:
greetings, signatures, quoted replies, HTML, charsets other than UTF-8, subjects encoded, names misspelt, labels on
strategies. Everything is made from a seeded random source: the same seed, the same war and the same mail."""

from __future__ import annotations

import datetime as dt
import html
import random
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import format_datetime

#: The default map's planes: (plane, columns, rows). Each Coalition army stands at an odd column, its Phyrexian foe
#: beside it.
PLANES = (("Dominaria", 24, "ABCDEFGHI"), ("Phyrexia", 24, "ABCDEFGHI"), ("Mirrodin", 18, "ABCDEFGH"))
GREETINGS = ("Hi judge,", "Hello!", "Dear Judge,", "Salut l'arbitre,", "Hallo Schiedsrichter,", "Hey,", "")
SIGN_OFFS = ("Thanks!", "Cheers", "Merci beaucoup, à bientôt", "Grüße aus Köln", "Best regards", "")
#: The Date players' programs write (never read: a mail counts at its arrival).
_DATE = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
#: The labels a strategy's title may carry (rulings "Strategies by mail").
LABELS = ("", "", "[Kill Attempt]", "- Contingency", "(kill attempt)", "[Joint Engage]")


@dataclass(frozen=True)
class Army:
    """One army of the war: its number, side, square and its player's address."""

    number: int
    side: str
    plane: str
    column: int
    row: str

    @property
    def name(self) -> str:
        """``Coal 007`` or ``Phyr 007``."""
        return f"{'Coal' if self.side == 'coalition' else 'Phyr'} {self.number:03d}"

    @property
    def address(self) -> str:
        """Its player's address."""
        return f"{self.side[0]}{self.number:03d}@example.org"

    @property
    def player(self) -> str:
        """Its player's name."""
        return f"{'Ann' if self.side == 'coalition' else 'Bo'} {self.number:03d}"


def war(armies: int) -> list[Army]:
    """``armies`` armies a side, each Coalition army beside its Phyrexian foe (past the map's 288 pairs, the pairs
    start again: two allied armies share a square)."""
    squares = [(plane, c, r) for plane, width, rows in PLANES for r in rows for c in range(1, width, 2)]
    out: list[Army] = []
    for n in range(1, armies + 1):
        plane, c, r = squares[(n - 1) % len(squares)]
        out += [Army(n, "coalition", plane, c, r), Army(n, "phyrexia", plane, c + 1, r)]
    return out


def roster_rows(armies: Sequence[Army]) -> list[list[object]]:
    """The roster's rows (name, side, rank, at, units, factions, primary, player, email)."""
    return [[a.name, a.side, 3 if a.side == "coalition" else 1, f"{a.plane} {a.column}{a.row}",
             "5000/2500/1500/1000" if a.side == "coalition" else "500/250/150/100",
             "white blue" if a.side == "coalition" else "", "white" if a.side == "coalition" else "", a.player,
             a.address] for a in armies]


def order_line(army: Army, *, corrected: bool = False) -> str:
    """The army's order as the forum writes it: the Coalition army engages its foe beside it, the Phyrexian one
    holds (``corrected``: a second thought, the Phyrexian army intercepting and the Coalition's written again)."""
    if army.side == "coalition":
        return f"{army.name}: {army.plane}; {army.column}{army.row} > {army.column + 1}{army.row} - engage " \
               f"Phyr {army.number:03d}"
    return f"{army.name}: {army.plane}; {army.column}{army.row} - {'intercept' if corrected else 'none'}"


def misspelt(line: str, rng: random.Random) -> str:
    """``line`` with its army's name misspelt as a hurried player does (a letter dropped or doubled)."""
    name, rest = line.split(":", 1)
    at = rng.randrange(1, 4)
    return (name[:at] + name[at + 1:] if rng.random() < 0.5 else name[:at] + name[at] + name[at:]) + ":" + rest


class MailWriter:
    """The players' mail: each message's bytes as a mail program sends it, its kind of mail drawn from ``rng``."""

    def __init__(self, rng: random.Random, judge: str) -> None:
        self.rng = rng
        self.judge = judge
        self.count = 0

    def movement(self, army: Army, lines: Sequence[str], *, subject: str = "") -> bytes:
        """A movement mail from ``army``'s player holding ``lines`` among what people write around them."""
        rng = self.rng
        subject = subject or rng.choice(("Turn 1 moves", "Re: Turn 1 · orders are open", "movement", "Ordres — tour 1",
                                         f"Orders for {army.name}", ""))
        body = [rng.choice(GREETINGS), "", *lines, "", rng.choice(SIGN_OFFS)]
        return self._message(army, subject, body)

    def strategy(self, army: Army, title: str, text: str) -> bytes:
        """A strategy mail from ``army``'s player: ``title`` (a battle named as the announcements name it) and a
        plan in words."""
        body = [self.rng.choice(GREETINGS), "", text, "", self.rng.choice(SIGN_OFFS)]
        return self._message(army, title, body)

    def stranger(self, line: str) -> bytes:
        """A mail from an address of no player."""
        return self._message(None, "my orders", ["Hi,", line])

    def _message(self, army: Army | None, subject: str, body: list[str]) -> bytes:
        rng = self.rng
        self.count += 1
        message = EmailMessage()
        message["From"] = f"{army.player} <{army.address}>" if army else "Eve <eve@example.net>"
        message["To"] = self.judge
        message["Subject"] = subject
        message["Message-ID"] = f"<war{self.count}.{rng.randrange(10**9)}@example.org>"
        message["Date"] = format_datetime(_DATE)
        style = rng.random()
        if style < 0.15:  # a reply quoting the judge's notice under an attribution line
            body += ["", "On Sun, 22 Nov 2026 at 12:00, Judge <judge@example.org> wrote:", "> Turn 1 orders are open.",
                     "> Coal 001: Dominaria; 1A > 2A - engage Phyr 001"]
        if style < 0.55:  # a signature
            body += ["-- ", army.player if army else "Eve", "sent from my phone"]
        text = "\n".join(body)
        charset = rng.choice(("utf-8", "utf-8", "iso-8859-1", "windows-1252"))
        try:
            text.encode(charset)
        except UnicodeEncodeError:
            charset = "utf-8"
        if style < 0.75:
            message.set_content(text, charset=charset, cte=rng.choice(("quoted-printable", "base64", "8bit")))
        else:  # HTML, alone or beside its text
            page = "".join(f"<p>{html.escape(line) or '&nbsp;'}</p>" for line in body if not line.startswith(">"))
            page = f"<html><body>{page}<blockquote>Older mail</blockquote></body></html>"
            if style < 0.9:
                message.set_content(text, charset=charset)
                message.add_alternative(page, subtype="html")
            else:
                message.set_content(page, subtype="html")
        return message.as_bytes()
