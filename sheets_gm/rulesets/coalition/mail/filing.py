"""What becomes of one mail to the judge in a Coalition match (rulings "Mail to the judge", "Strategies by mail"):
a pure decision of the state, the roster and the mail's words, which the door carries out.

A mail whose title names a battle (a battle verb: ``attacks``, ``vs.``, ``intercepts``, ``raids``; or a label:
``Kill Attempt``, ``Joint Engage``, ``Contingency``) is a **strategy**; any other is **movement**. Movement is read
before the players' deadline (the server's arrival time decides): in the orders window for its turn, and while a
turn's battles await strategies, for the next turn (the one deadline closes both; an army in an open battle cannot
move: it fights). Each line naming an army the sender may order goes to the army's side's Forum tab; a line naming
an army she may not order is refused; a line naming no army is typed too where it looks like an order (the Forum tab
answers it: a misspelt name gets "did you mean"), and passed over where it is chatter. A strategy is read in the
results window, before its deadline, for a battle announced and open, from a player of one of its armies or her
side's leader.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.enums import Phase
from sheets_gm.rulesets.coalition.forum import battle_title
from sheets_gm.rulesets.coalition.mail.judging import strategy_rows, stratless_cells, stratless_summary
from sheets_gm.rulesets.coalition.mail.senders import RosterIndex, Sender
from sheets_gm.rulesets.coalition.mail.titles import LABEL_PATTERN, VERB_PATTERN, BattleIndex
from sheets_gm.rulesets.coalition.sheet.mail_heading import MAIL_MARK
from sheets_gm.rulesets.coalition.sheet.post_line import Kind, classify
from sheets_gm.rulesets.coalition.state import CoalitionState
from sheets_gm.rulesets.parts.mail import Filing, Sealed, SealedTab, load_sealed_tab
from sheets_gm.rulesets.registry import template_dir

MOVEMENT = "movement"
STRATEGY = "strategy"


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


class MailReading:
    """The state and the roster as a poll's mail reads them, indexed once: the roster's senders, the battles awaiting
    strategies, and one pattern finding the army a line begins with."""

    def __init__(self, state: CoalitionState, roster: kit.Roster) -> None:
        self.state = state
        self.roster = RosterIndex(roster)
        self.battles = BattleIndex([b for b in state.battles if b.announced] if state.phase is Phase.RESULTS else [])
        self.fighting = {a: b.at for b in self.battles.battles for a in b.armies}  # they cannot move next turn
        self.side_of = {a.name: a.side.value for a in state.armies}
        self.by_lower = {a.name.lower(): a.name for a in state.armies}
        self.planes = {a.at.split(" ")[0].lower() for a in state.armies if a.at}
        names = sorted((a.name for a in state.armies), key=len, reverse=True)
        self.by_fold = {n.casefold(): n for n in names}
        self.start = re.compile(r"\s*(" + "|".join(map(re.escape, names)) + r")(?![^\W_]|['’])",
                                re.IGNORECASE) if names else None

    def army_of(self, line: str) -> str | None:
        """The army ``line`` begins with (its exact name, any case, a whole word), as the Forum tab reads it."""
        found = self.start.match(line) if self.start is not None else None
        return self.by_fold[found.group(1).casefold()] if found else None

    def chatter(self, line: str) -> bool:
        """Whether a line naming no army is passed over as chatter (a title, a greeting, prose: it names no army and
        is not shaped as an order), as the Forum tab reads it (``post_line.classify``)."""
        return classify(self.by_lower, self.planes, line).kind is Kind.CHATTER


def file_mail(state: CoalitionState, roster: kit.Roster, *, sender: str, subject: str, lines: Sequence[str],
              text: str, received: datetime, deadline: datetime | None,
              reading: MailReading | None = None) -> Filing:
    """What becomes of a mail from ``sender`` titled ``subject`` (its new text's ``lines``, all of it ``text``),
    received at ``received``, while the window open in ``state`` closes at ``deadline`` (None: no deadline);
    ``reading``: the state and roster indexed for the poll's mail (made here when None)."""
    reading = reading or MailReading(state, roster)
    who = reading.roster.who_sent(sender)
    kind = mail_kind(subject)
    if not who.known:
        return Filing(kind, who.name, unread=f"{sender} is no player's address in the roster: the judge reads mail "
                                             "from the addresses of the armies' players (ask the judge to add yours)")
    if kind == STRATEGY:
        return _strategy(reading, who, subject, text, received, deadline)
    if state.phase is Phase.OVER:
        return Filing(kind, who.name, unread="the round is over: no orders are read any more; it is kept in the "
                                             "judge's record")
    if state.phase is Phase.RESULTS:  # the next turn's movement, sent with the strategies by the one deadline
        late = _late(received, deadline, f"players' (turn {state.turn}'s strategies and turn {state.turn + 1}'s "
                                          "movement)")
        if late:
            return Filing(kind, who.name, unread=f"{late}; turn {state.turn + 1}'s movement is adjudicated from what "
                                                 "was sent before it")
        filing = _movement(reading, who, lines, reading.fighting)
        return replace(filing, read_for=f"turn {state.turn + 1}'s movement, adjudicated once the judge has posted "
                                        f"turn {state.turn}'s battle results") if not filing.unread else filing
    late = _late(received, deadline, f"turn {state.turn} orders")
    if late:
        return Filing(kind, who.name, unread=late)
    return _movement(reading, who, lines)


def _movement(reading: MailReading, who: Sender, lines: Sequence[str], fighting: Mapping[str, str] = {}) -> Filing:
    """The lines of a movement mail by side (``fighting``: the armies in an open battle, by the battle's square:
    they fight, and cannot move in the next turn)."""
    typed: dict[str, list[str]] = {}
    refused: list[tuple[str, str]] = []
    chatter: list[str] = []
    side_of = reading.side_of
    for line in lines:
        army = reading.army_of(line)
        if army is None:
            if reading.chatter(line) and not re.search(r"\bbump\b", line, re.IGNORECASE):
                chatter.append(line)
            else:
                typed.setdefault(who.sides[0], []).append(line)
            continue
        why = reading.roster.may_order(who, army) or (
            f"{army} fights in the battle at {fighting[army]} this turn: an army in an open battle cannot move in "
            f"turn {reading.state.turn + 1}" if army in fighting else "")
        if why:
            refused.append((line, why))
        else:
            typed.setdefault(side_of[army], []).append(line)
    unread = "" if typed else "no line of it names an army you may order" if refused else \
        "no line of it is an army's order (Army Name: Plane; Start > Next > End - Order)"
    return Filing(MOVEMENT, who.name, {s: tuple(ls) for s, ls in typed.items()}, tuple(refused), tuple(chatter),
                  unread=unread)


def _strategy(reading: MailReading, who: Sender, subject: str, text: str, received: datetime,
              deadline: datetime | None) -> Filing:
    state = reading.state
    if not reading.battles.battles:
        return Filing(STRATEGY, who.name, unread="no battle awaits strategies now: strategies are sent after the "
                                                 "Battle Announcements, before the battle deadline")
    late = _late(received, deadline, f"turn {state.turn} battle")
    if late:
        return Filing(STRATEGY, who.name, unread=late)
    found = reading.battles.match(subject)
    if found.battle is None:
        return Filing(STRATEGY, who.name, unread=f"no battle matched: {found.why}")
    battle = found.battle
    whys = {army: reading.roster.may_order(who, army) for army in battle.armies}
    mine = [army for army, why in whys.items() if not why]
    if not mine:
        return Filing(STRATEGY, who.name, unread=f"refused for {battle_title(battle)} ({battle.at}): only a player "
                                                 "of one of its armies, or her side's leader, sends its strategy")
    if not text.strip():
        return Filing(STRATEGY, who.name, unread="it holds no text: a strategy is written in the body of the mail, not "
                                            "in an attachment")
    side = reading.side_of[mine[0]]
    player = next((p for s, p in who.players if s == side and p), who.name)
    return Filing(STRATEGY, who.name, sealed=Sealed(
        battle.at, battle_title(battle), side, who.address, player, received.isoformat(), found.labels, subject,
        text.strip(), found.read_as, found.passed))


class CoalitionMail:
    """The Coalition's part that reads mail to the judge (``Game.mail``): its lines go to the side's Forum tab."""

    post_table = "post"
    heading_mark = MAIL_MARK

    def sealed_tab(self) -> SealedTab:
        """The Strategies tab (``templates/coalition/strategies.yaml``)."""
        return load_sealed_tab(template_dir("coalition") / "strategies.yaml")

    def sealed_rows(self, state: CoalitionState, sealed: Sequence[Sealed], closed: bool) -> list[list[str]]:
        """``judging.strategy_rows``."""
        return strategy_rows(state, sealed, closed)

    def deadline_cells(self, state: CoalitionState, sealed: Sequence[Sealed]) -> dict[str, dict[str, dict[str, str]]]:
        """``judging.stratless_cells``."""
        return stratless_cells(state, sealed)

    def sealed_summary(self, state: CoalitionState, sealed: Sequence[Sealed], closed: bool = False) -> list[str]:
        """``judging.stratless_summary``."""
        return stratless_summary(state, sealed, closed)

    def __init__(self) -> None:
        self._reading: tuple[CoalitionState, kit.Roster, MailReading] | None = None

    def file(self, state: CoalitionState, roster: kit.Roster, *, sender: str, subject: str, lines: Sequence[str],
             text: str, received: datetime, deadline: datetime | None) -> Filing:
        """``file_mail``, the state and roster indexed once for the mails of one poll (the same objects)."""
        if self._reading is None or self._reading[0] is not state or self._reading[1] is not roster:
            self._reading = (state, roster, MailReading(state, roster))
        return file_mail(state, roster, sender=sender, subject=subject, lines=lines, text=text, received=received,
                         deadline=deadline, reading=self._reading[2])
