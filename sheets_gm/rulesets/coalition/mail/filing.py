"""What becomes of one mail to the judge in a Coalition match (rulings "Mail to the judge", "Strategies by mail"):
a pure decision of the state, the roster and the mail's words, which the door carries out.

A mail whose title names a battle (a battle verb: ``attacks``, ``vs.``, ``intercepts``, ``raids``; or a label:
``Kill Attempt``, ``Joint Engage``, ``Contingency``) is a **strategy**; any other is **movement**. Movement is read
in the orders window, before its deadline (the server's arrival time decides): each line naming an army the sender
may order goes to the army's side's Forum tab; a line naming an army she may not order is refused; a line naming no
army is typed too where it looks like an order (the Forum tab answers it: a misspelt name gets "did you mean"), and
passed over where it is chatter. A strategy is read in the results window, before its deadline, for a battle
announced and open, from a player of one of its armies or her side's leader.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sheets_gm.engine.ruleset import Roster
from sheets_gm.rulesets.coalition.enums import Phase
from sheets_gm.rulesets.coalition.forum import battle_title
from sheets_gm.rulesets.coalition.mail.senders import Sender, may_order, who_sent
from sheets_gm.rulesets.coalition.mail.titles import LABEL_PATTERN, VERB_PATTERN, match_title
from sheets_gm.rulesets.coalition.sheet.read import post_line_army, post_line_chatter
from sheets_gm.rulesets.coalition.state import CoalitionState

MOVEMENT = "movement"
STRATEGY = "strategy"


@dataclass(frozen=True)
class Strategy:
    """A battle strategy as the judge's record keeps it: the battle (its square and title), the side it is for, who
    sent it and when the server received it, its labels, its title and its text."""

    battle: str
    title: str
    side: str
    sender: str
    player: str
    received: str
    labels: tuple[str, ...]
    subject: str
    text: str
    read_as: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, object]:
        """The record's form."""
        return {"battle": self.battle, "title": self.title, "side": self.side, "sender": self.sender,
                "player": self.player, "received": self.received, "labels": list(self.labels),
                "subject": self.subject, "text": self.text, "read_as": [list(p) for p in self.read_as]}

    @staticmethod
    def from_json(raw: dict[str, object]) -> Strategy:
        """A strategy from the record."""
        labels = raw.get("labels", [])
        pairs = raw.get("read_as", [])
        return Strategy(str(raw["battle"]), str(raw.get("title", "")), str(raw["side"]), str(raw["sender"]),
                        str(raw.get("player", "")), str(raw["received"]),
                        tuple(str(x) for x in labels) if isinstance(labels, list) else (),
                        str(raw.get("subject", "")), str(raw.get("text", "")),
                        tuple((str(a), str(b)) for a, b in pairs) if isinstance(pairs, list) else ())


@dataclass(frozen=True)
class Filing:
    """What a mail becomes: ``kind`` (movement or strategy), the lines to type by side (``lines``), the lines not
    typed and why (``refused``), the lines passed over as chatter (``chatter``), the ``strategy`` to record, and
    ``unread``: why nothing of it is read ('' when something is)."""

    kind: str
    sender: Sender
    lines: dict[str, tuple[str, ...]] = field(default_factory=dict)
    refused: tuple[tuple[str, str], ...] = ()
    chatter: tuple[str, ...] = ()
    strategy: Strategy | None = None
    unread: str = ""


def mail_kind(subject: str) -> str:
    """``strategy`` for a title that names a battle (a battle verb or a strategy's label), else ``movement``.

    >>> mail_kind("MonkeyMan: Rabid Cat attacks Various Puppies"), mail_kind("Turn 3 moves")
    ('strategy', 'movement')
    """
    return STRATEGY if VERB_PATTERN.search(f" {subject} ") or LABEL_PATTERN.search(subject) else MOVEMENT


def _late(received: datetime, deadline: datetime | None, what: str) -> str:
    if deadline is None or received <= deadline:
        return ""
    return (f"late: it reached the judge's mailbox at {received:%a %d %b %H:%M:%S} UTC, after the {what} deadline "
            f"({deadline.astimezone(received.tzinfo):%a %d %b %H:%M} UTC); it is discarded, as the rulebook says, "
            "and kept in the judge's record")


def file_mail(state: CoalitionState, roster: Roster, *, sender: str, subject: str, lines: Sequence[str],
              text: str, received: datetime, deadline: datetime | None) -> Filing:
    """What becomes of a mail from ``sender`` titled ``subject`` (its new text's ``lines``, all of it ``text``),
    received at ``received``, while the window open in ``state`` closes at ``deadline`` (None: no deadline)."""
    who = who_sent(roster, sender)
    kind = mail_kind(subject)
    if not who.known:
        return Filing(kind, who, unread=f"{sender} is no player's address in the roster: the judge reads mail from "
                                         "the addresses of the armies' players (ask the judge to add yours)")
    if kind == STRATEGY:
        return _strategy(state, roster, who, subject, text, received, deadline)
    if state.phase is not Phase.ORDERS:
        return Filing(kind, who, unread=f"late: the turn {state.turn} orders window is closed (the battles are "
                                        "being judged): movement is read in the orders window only; it is "
                                        "discarded and kept in the judge's record")
    late = _late(received, deadline, f"turn {state.turn} orders")
    if late:
        return Filing(kind, who, unread=late)
    return _movement(state, roster, who, lines)


def _movement(state: CoalitionState, roster: Roster, who: Sender, lines: Sequence[str]) -> Filing:
    typed: dict[str, list[str]] = {}
    refused: list[tuple[str, str]] = []
    chatter: list[str] = []
    side_of = {a.name: a.side.value for a in state.armies}
    for line in lines:
        army = post_line_army(state, line)
        if army is None:
            if post_line_chatter(state, line) and not re.search(r"\bbump\b", line, re.IGNORECASE):
                chatter.append(line)
            else:
                typed.setdefault(who.sides[0], []).append(line)
            continue
        why = may_order(roster, who, army)
        if why:
            refused.append((line, why))
        else:
            typed.setdefault(side_of[army], []).append(line)
    unread = "" if typed else "no line of it names an army you may order" if refused else \
        "no line of it is an army's order (Army Name: Plane; Start > Next > End - Order)"
    return Filing(MOVEMENT, who, {s: tuple(ls) for s, ls in typed.items()}, tuple(refused), tuple(chatter),
                  unread=unread)


def _strategy(state: CoalitionState, roster: Roster, who: Sender, subject: str, text: str, received: datetime,
              deadline: datetime | None) -> Filing:
    battles = [b for b in state.battles if b.announced] if state.phase is Phase.RESULTS else []
    if not battles:
        return Filing(STRATEGY, who, unread="no battle awaits strategies now: strategies are sent after the Battle "
                                            "Announcements, before the battle deadline")
    late = _late(received, deadline, f"turn {state.turn} battle")
    if late:
        return Filing(STRATEGY, who, unread=late)
    found = match_title(subject, battles)
    if found.battle is None:
        return Filing(STRATEGY, who, unread=f"no battle matched: {found.why}")
    battle = found.battle
    whys = {army: may_order(roster, who, army) for army in battle.armies}
    mine = [army for army, why in whys.items() if not why]
    if not mine:
        return Filing(STRATEGY, who, unread=f"refused for {battle_title(battle)} ({battle.at}): only a player of one "
                                            "of its armies, or her side's leader, sends its strategy")
    if not text.strip():
        return Filing(STRATEGY, who, unread="it holds no text: a strategy is written in the body of the mail, not "
                                            "in an attachment")
    side = next(a.side.value for a in state.armies if a.name == mine[0])
    player = next((p for s, p in who.players if s == side and p), who.name)
    return Filing(STRATEGY, who, strategy=Strategy(
        battle.at, battle_title(battle), side, who.address, player, received.isoformat(), found.labels, subject,
        text.strip(), found.read_as))
