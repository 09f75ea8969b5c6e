"""Who sent a mail, by the roster: the sides and players whose rows carry its address, the side's leader, and which
armies she may order or send a strategy for.

The roster's rows are armies: ``side``, ``player`` (who plays it) and ``email`` (her address). A side's **leader**
is the player of the army whose ``leader`` column is filled (``yes``, ``x``…); where no row of a side says so,
the player of the side's highest-ranked army (rank 6, General / Chief Praetor, down), the first in roster order on
a tie. An army may be ordered only by an address of its side and, where the roster names the army's player, by hers
or the side leader's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sheets_gm.engine.words import possessive
from sheets_gm.rulesets import kit

#: What a ``leader`` cell says when it marks its row's player the side's leader.
_NO = ("", "no", "n", "false", "0", "-")


def address_of(text: str) -> str:
    """An address as compared: trimmed, lower case."""
    return text.strip().lower()


def _rank(member: kit.Member) -> int:
    try:
        return int(str(member.fields.get("rank", "") or "1").strip())
    except ValueError:
        return 1


@dataclass(frozen=True)
class SideLeader:
    """A side's leader: her name (the ``player`` of her army's row) and her addresses; ``how`` says how the roster
    made her the leader."""

    side: str
    player: str
    addresses: frozenset[str]
    how: str


def side_leader(roster: kit.Roster, side: str) -> SideLeader | None:
    """The leader of ``side`` by the roster (see the module notes), or None when no row of the side names a player."""
    rows = [m for m in roster.of(side) if m.fields.get("player", "").strip()]
    if not rows:
        return None
    marked = [m for m in rows if str(m.fields.get("leader", "")).strip().lower() not in _NO]
    if marked:
        chosen, how = marked[0], f"the roster's leader column on {possessive(marked[0].name)} row"
    else:
        chosen = max(rows, key=_rank)  # the first of the highest rank: max keeps the first of equals
        how = f"the player of {side}'s highest-ranked army, {chosen.name} (rank {_rank(chosen)})"
    player = chosen.fields["player"].strip()
    return SideLeader(side, player, frozenset(_addresses_of_player(roster.of(side), player)), how)


def _addresses_of_player(rows: Sequence[kit.Member], player: str) -> set[str]:
    return {address_of(m.email) for m in rows if m.email and m.fields.get("player", "").strip().casefold()
            == player.casefold()}


@dataclass(frozen=True)
class Sender:
    """A mail's sender as the roster knows her: the players whose rows carry her address (``players``: name by
    side) and the sides she leads. Nobody's address: both empty."""

    address: str
    players: tuple[tuple[str, str], ...] = ()
    leads: tuple[str, ...] = ()

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides her address belongs to, in roster order."""
        return tuple(dict.fromkeys([*(s for s, _p in self.players), *self.leads]))

    @property
    def known(self) -> bool:
        """Whether the roster names her address at all."""
        return bool(self.players or self.leads)

    @property
    def name(self) -> str:
        """Her name as the roster gives it (the first player's), else her address."""
        return self.players[0][1] if self.players else self.address


class RosterIndex:
    """The roster as the mail reads it, indexed once for a poll's mail: each address's players and sides, each
    side's leader, each army's row."""

    def __init__(self, roster: kit.Roster) -> None:
        self.roster = roster
        self.leaders = {side: side_leader(roster, side) for side in roster.seats}
        self.rows = {m.name.casefold(): m for m in roster.members}
        self.players: dict[str, dict[tuple[str, str], None]] = {}
        self.by_player: dict[tuple[str, str], set[str]] = {}
        for m in roster.members:
            if m.seat in roster.seats and m.email:
                player = m.fields.get("player", "").strip()
                self.players.setdefault(address_of(m.email), {})[(m.seat, player)] = None
                self.by_player.setdefault((m.seat, player.casefold()), set()).add(address_of(m.email))

    def who_sent(self, address: str) -> Sender:
        """The sender of a mail from ``address`` by the roster's ``email`` column."""
        address = address_of(address)
        leads = tuple(side for side, lead in self.leaders.items() if lead is not None and address in lead.addresses)
        return Sender(address, tuple(self.players.get(address, {})), leads)

    def may_order(self, sender: Sender, army: str) -> str:
        """Why ``sender`` may not order (or send a strategy for) ``army``: '' when she may. Only an address of the
        army's side may; where the roster names the army's player, only hers or the side leader's."""
        row = self.rows.get(army.casefold())
        if row is None or row.seat not in self.roster.seats:
            return f"{army} is no side's army in the roster (a mercenary band is moved by the engine)"
        side = row.seat
        if side not in sender.sides:
            mine = f"your address is {' and '.join(sender.sides)}'s" if sender.sides else \
                "your address is in no row of the roster"
            return f"{army} is an army of {side}, and {mine}: an army is ordered from an address of its own side"
        player = row.fields.get("player", "").strip()
        if not player or side in sender.leads or address_of(sender.address) in self.by_player.get(
                (side, player.casefold()), set()):
            return ""
        lead = self.leaders.get(side)
        boss = f" or {side}'s leader ({lead.player})" if lead is not None else ""
        return f"{army} is {player}'s army: it is ordered by {player}{boss}, from an address the roster gives them"


def who_sent(roster: kit.Roster, address: str) -> Sender:
    """The sender of a mail from ``address`` by the roster's ``email`` column (``RosterIndex.who_sent``)."""
    return RosterIndex(roster).who_sent(address)


def may_order(roster: kit.Roster, sender: Sender, army: str) -> str:
    """``RosterIndex.may_order``."""
    return RosterIndex(roster).may_order(sender, army)
