"""A roster of seats and members for any ruleset: rows under a header row, from a CSV file or the
Roster tab the GM types in (``roster_tab``).

The columns are ``name`` and ``seat`` (or the ruleset's word for a seat: ``team``, ``player``,
``side``), an optional ``email``, and any columns of the ruleset's own (``faction``, ``role``,
``region``…), which reach it by their lower-case header as ``Member.fields``; the ruleset
checks them when the match is created. When several columns are called by a seat's word, the
ruleset's own word is the seat (Coalition's ``side``; its ``player`` column is the army's
player). A row may name one of the ruleset's roster groups instead of a seat (Coalition's
``mercenary`` bands, which no seat plays). Without a roster, the roster is the seats alone and
the ruleset gives each seat what its rules start it with (or refuses, when it needs members).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

from sheets_gm.engine.name_rule import NAME_RULE, name_problem
from sheets_gm.engine.ruleset import Member, Roster
from sheets_gm.match.bounded_file import FileRefused, read_bounded
from sheets_gm.sheets.layout import CellValue, text_of

SEAT_WORDS = ("seat", "team", "player", "side")


#: The largest roster file read (a roster of a hundred members is a few kilobytes).
MAX_ROSTER_BYTES = 1_000_000
#: What the config's ``roster`` setting (or init's ``--roster``) must name, said when a file is refused.
ROSTER_ACCEPTED = (f"the config's roster setting (or init's --roster) names a CSV file of at most {MAX_ROSTER_BYTES:,} "
                   "bytes, UTF-8, its first line naming the columns name, seat (or team, player, side), email and the "
                   "ruleset's own")


class SeatRosterError(ValueError):
    """A roster that cannot be read; the message names the file or tab, the line and what is accepted."""


def read_seat_roster(path: Path, seats: tuple[str, ...], *, seat_word: str = "",
                     groups: tuple[str, ...] = ()) -> Roster:
    """The roster in the CSV file ``path`` for a match of ``seats`` (matched without regard to case); see
    ``parse_seat_roster`` for ``seat_word`` and ``groups``."""
    return parse_seat_roster(_csv_rows(path), seats, where=str(path), seat_word=seat_word, groups=groups)


def roster_seats(path: Path, *, seat_word: str = "", groups: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The seats the roster CSV ``path`` names, in the order they first appear (a row of one of ``groups``, of no
    seat, left out): what a starter config is written with when ``init --roster`` gives one and no config exists."""
    rows = _csv_rows(path)
    header = [_column(text_of(h)) for h in rows[0]] if rows else []
    words = (seat_word, *SEAT_WORDS) if seat_word else SEAT_WORDS
    seat_col = next((header.index(w) for w in words if w in header), None)
    if seat_col is None:
        return ()
    folded = {g.casefold() for g in groups}
    named = (text_of(row[seat_col]).strip() for row in rows[1:] if len(row) > seat_col)
    return tuple(dict.fromkeys(s for s in named if s and s.casefold() not in folded))


def _csv_rows(path: Path) -> list[list[str]]:
    """The rows of the roster CSV ``path``; SeatRosterError for a file that is missing, too large or no UTF-8 CSV."""
    try:
        text = read_bounded(path, MAX_ROSTER_BYTES, what="a roster is a few kilobytes").decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text)))
    except FileNotFoundError:
        raise SeatRosterError(f"no roster file at {path}") from None
    except FileRefused as exc:
        raise SeatRosterError(f"{exc}: {ROSTER_ACCEPTED}") from None
    except UnicodeDecodeError as exc:
        raise SeatRosterError(f"{path} cannot be read as a CSV file: it is not UTF-8 text (byte {exc.start}); "
                              f"{ROSTER_ACCEPTED}") from None
    except csv.Error as exc:
        raise SeatRosterError(f"{path} cannot be read as a CSV file ({exc}); {ROSTER_ACCEPTED}") from None
    return rows


def _delimiter(text: str) -> str:
    """The separator of a CSV file: ``;`` when its header line has more of them than commas (what a
    spreadsheet saves in a locale whose decimal mark is the comma), else ``,``.

    >>> _delimiter("name;team;role\\nAnn;red;dps"), _delimiter("name,team\\n")
    (';', ',')
    """
    header = text.split("\n", 1)[0]
    return ";" if header.count(";") > header.count(",") else ","


def _column(header: str) -> str:
    """A header cell as the column it names: lower case, ``e-mail`` and ``mail`` are ``email``."""
    word = header.lower()
    return "email" if word in ("e-mail", "mail") else word


def parse_seat_roster(rows: Sequence[Sequence[CellValue]], seats: tuple[str, ...], *, where: str,
                      line_word: str = "line", seat_word: str = "", groups: tuple[str, ...] = ()) -> Roster:
    """The roster in ``rows``: a header row naming the columns, then a row per member (blank rows skipped).

    ``where`` names the source in messages (``roster.csv``, ``board.xlsx tab 'Roster'``) and
    ``line_word`` what its lines are called there (``line`` in a file, ``row`` in a tab).
    ``seat_word`` is the ruleset's word for a seat (its column is the seat's, whatever other seat
    words head columns); a row may name one of ``groups`` (members of no seat) instead of a seat."""
    if not rows:
        raise SeatRosterError(f"{where} is empty; its first {line_word} names the columns: name, seat, email and "
                              "the ruleset's own")
    header = [_column(text_of(h)) for h in rows[0]]
    words = (seat_word, *SEAT_WORDS) if seat_word else SEAT_WORDS
    seat_col = next((header.index(w) for w in words if w in header), None)
    if not {"name", "email", *words} & set(header):  # not a roster at all: what it holds is not repeated
        raise SeatRosterError(f"{where} is not a roster: its first {line_word} names none of the columns name, seat "
                              "(or team, player, side) and email (what it holds is not repeated here, in case it "
                              "is a file of another kind)")
    if "name" not in header or seat_col is None:
        raise SeatRosterError(f"{where} {line_word} 1 should name the columns name and seat (or team, player, "
                              f"side), then email and the ruleset's own; it names {', '.join(header) or 'nothing'}")
    name_col = header.index("name")
    email_col = header.index("email") if "email" in header else None
    by_fold = {s.casefold(): s for s in (*seats, *groups)}
    members: list[Member] = []
    seen: dict[str, int] = {}
    for line, row in enumerate(rows[1:], start=2):
        cells = [text_of(c) for c in row] + [""] * (len(header) - len(row))
        if not any(cells):
            continue
        at = f"{where} {line_word} {line}"
        name, seat_text = cells[name_col], cells[seat_col]
        if not name:
            raise SeatRosterError(f"{at}: the name is empty")
        for what, text in (("name", name), (seat_word or "seat", seat_text)):
            problem = name_problem(text)
            if problem:
                raise SeatRosterError(f"{at}: the {what} {text!r} is refused: {problem}; {NAME_RULE}")
        seat = by_fold.get(seat_text.casefold())
        if seat is None:
            also = f"; a row may also say {' or '.join(groups)} (no seat's)" if groups else ""
            raise SeatRosterError(f"{at}: {name} is in {seat_text or 'no seat'!r}; the seats are "
                                  f"{', '.join(seats)} (as in the match config){also}")
        if name.casefold() in seen:
            raise SeatRosterError(f"{at}: {name} is already on {line_word} {seen[name.casefold()]}")
        seen[name.casefold()] = line
        email = cells[email_col] if email_col is not None else ""
        if email and ("@" not in email or " " in email):
            raise SeatRosterError(f"{at}: {email!r} is not an e-mail address (write one such as ann@example.org, "
                                  "or leave the cell empty)")
        fields = {h: cells[i] for i, h in enumerate(header) if h and i not in (name_col, seat_col, email_col)}
        members.append(Member(name, seat, fields, email))
    return Roster(seats, tuple(members))


def member_emails(roster: Roster) -> dict[str, tuple[str, ...]]:
    """Each member's e-mail address by name (members without one left out): who may type in a row that is
    the member's own."""
    return {m.name: (m.email,) for m in roster.members if m.email}


def seat_emails(roster: Roster) -> dict[str, tuple[str, ...]]:
    """The e-mail addresses of each seat's members (who may type in its cells), each once."""
    out: dict[str, tuple[str, ...]] = {}
    for seat in roster.seats:
        out[seat] = tuple(dict.fromkeys(m.email for m in roster.of(seat) if m.email))
    return out
