"""Teams nobody can play: what ``init`` and ``doctor`` say about a roster's captains and e-mails.

On Google a seat's cells are protected for its members' e-mails (and the GMs), so a team or side
without a single e-mail in the roster cannot type an order or tick Ready: each of its windows
waits for the deadline. A team game has a captain's row (command skills, then Ready): the
roster's ``captain`` column marks who holds it. The captain's row is then protected for the
captain's e-mail alone (``captain_emails``); a team without a captain leaves it to every member.
"""

from __future__ import annotations

from sheets_gm.engine.ruleset import Member, Roster, SeatKind
from sheets_gm.match.seat_roster import member_emails

#: What a ``captain`` cell may say for yes; anything in CAPTAIN_NO (or nothing) is no.
CAPTAIN_YES = frozenset({"yes", "y", "x", "true", "1", "captain", "✓", "✔", "☑"})
CAPTAIN_NO = frozenset({"", "no", "n", "false", "0", "-"})


def is_captain(member: Member) -> bool:
    """Whether the roster marks ``member`` as its team's captain (``captain`` = yes, x, ✓…)."""
    return member.fields.get("captain", "").strip().casefold() in CAPTAIN_YES


def captain_emails(roster: Roster) -> dict[str, tuple[str, ...]]:
    """Each team's captains' e-mails by team (teams without a captain with an e-mail left out): who may
    type in the team's captain's row, the row whose subject is the team itself."""
    out: dict[str, tuple[str, ...]] = {}
    for seat in roster.seats:
        emails = tuple(dict.fromkeys(m.email for m in roster.of(seat) if is_captain(m) and m.email))
        if emails:
            out[seat] = emails
    return out


def row_emails(roster: Roster) -> dict[str, tuple[str, ...]]:
    """Who may type in each row that is someone's own, by the row's subject: a player's row is hers
    (``member_emails``), a team's captain's row its captain's (``captain_emails``)."""
    return member_emails(roster) | captain_emails(roster)


def team_warnings(seat_kind: SeatKind, roster: Roster, *, google: bool) -> list[str]:
    """What a GM must know about the teams (or sides) of ``roster``: one without any e-mail (on Google
    nobody can play it), a team without a captain, a captain nobody can sign in as, a captain cell not
    understood. Games of single players, and rosters of seats alone, have nothing to say.

    >>> roster = Roster(("red", "blue"), (Member("Ann", "red", {"captain": "maybe"}, "ann@example.org"),
    ...                                   Member("Cat", "blue", {"captain": "x"})))
    >>> for line in team_warnings(SeatKind.TEAM, roster, google=True):
    ...     print(line.split(":")[0])
    Ann's captain cell says 'maybe'
    team red has no captain
    team blue has no e-mail in the roster
    """
    if seat_kind is SeatKind.PLAYER or not roster.members:
        return []
    word = seat_kind.value
    members = "players" if seat_kind is SeatKind.TEAM else "members"
    out = [f"{m.name}'s captain cell says {m.fields['captain']!r}: write yes (or x) for the captain, or leave it "
           "empty" for m in roster.members
           if m.fields.get("captain", "").strip().casefold() not in CAPTAIN_YES | CAPTAIN_NO]
    marked = seat_kind is SeatKind.TEAM and any("captain" in m.fields for m in roster.members)
    if seat_kind is SeatKind.TEAM and not marked:
        out.append("the roster has no captain column, so no team has a captain: any of a team's players may buy "
                   "its command skills and tick its Ready box (add a captain column and mark one player per team yes "
                   "to give that row to one player)")
    for seat in roster.seats:
        on_it = roster.of(seat)
        if not on_it:
            continue
        if google and not any(m.email for m in on_it):
            out.append(f"{word} {seat} has no e-mail in the roster: on Google nobody on it can type its orders or "
                       f"tick its Ready box, so each of its turns waits for the deadline (give its {members}' "
                       "e-mails in the email column)")
            continue
        if not marked:
            continue
        captains = [m for m in on_it if is_captain(m)]
        if not captains:
            out.append(f"team {seat} has no captain: mark one of its players captain = yes in the roster, or any of "
                       "them may buy its command skills and tick its Ready box")
        elif google and not any(m.email for m in captains):
            names = " and ".join(m.name for m in captains)
            out.append(f"team {seat}'s captain {names} has no e-mail in the roster: on Google any of its players "
                       "may buy its command skills and tick its Ready box (give the captain's e-mail)")
    return out
