"""A strategy mail's title read as the Battle Announcements name a battle (rulebook 6, ruling "Strategies by mail"):
``Player: Army attacks Army`` (or ``vs.``, ``intercepts``, ``raids``, ``besieges``; a joint battle by any one of its
armies), with the labels ``Kill Attempt``, ``Joint Engage`` and ``Contingency`` anywhere in it, any case, in
brackets or after a dash or a colon. Army names are matched without regard to case or punctuation, and a near miss
is read as the nearest army when no other is as near (said in the receipt); a name near none is answered with the
armies it may have meant.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from sheets_gm.rulesets.coalition.forum import battle_title
from sheets_gm.rulesets.coalition.sheet.post_line import nearest_names
from sheets_gm.rulesets.coalition.state import Battle

#: The labels a strategy's title may carry, as the receipt and the judge's tab write them.
LABELS = ("Kill Attempt", "Joint Engage", "Contingency")
LABEL_PATTERN = re.compile(r"[\[(]?\s*\b(kill[\s-]*attempt|joint[\s-]*engage(?:ment)?|contingency)\b\s*[\])]?",
                    re.IGNORECASE)
#: The words an announcement puts between the armies (and what a player writes for them).
VERB_PATTERN = re.compile(r"\s+(?:vs\.?|versus|v\.|attacks?|intercepts?|raids?|besieges?)\s+", re.IGNORECASE)
_JOINED = re.compile(r"\s*(?:,|&|\band\b|\+)\s*", re.IGNORECASE)
#: A reply's or a forward's prefix, read past.
_REPLY = re.compile(r"^\s*(?:(?:re|fwd?|aw|tr)\s*:\s*)+", re.IGNORECASE)
#: What a title is to look like, said when none is matched.
TITLE_FORM = ("Player: Army attacks Army (or vs., intercepts, raids), as the Battle Announcements name the battle, "
              "with Kill Attempt, Joint Engage or Contingency anywhere in it where it is one")


def _fold(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def title_labels(title: str) -> tuple[str, ...]:
    """The labels in ``title``, each once, as ``LABELS`` writes them.

    >>> title_labels("Ann: Rabid Cat attacks Puppies [kill attempt] - CONTINGENCY")
    ('Kill Attempt', 'Contingency')
    """
    found = {_fold(m.group(1)).replace("engagement", "engage") for m in LABEL_PATTERN.finditer(title)}
    return tuple(label for label in LABELS if _fold(label) in found)


@dataclass(frozen=True)
class TitleMatch:
    """A title read: the battle it names (None when none), the labels, how a near name was read (``read_as``: the
    title's word and the army), why no battle was found ('' when one was), and what else the title named that is not
    in the battle found (``passed``: an army of another battle or of none, a word near no army), for its receipt."""

    battle: Battle | None
    labels: tuple[str, ...]
    read_as: tuple[tuple[str, str], ...] = ()
    why: str = ""
    passed: tuple[str, ...] = ()


def _pieces(text: str) -> list[str]:
    """The names a title's words give where no army's exact name stands: the words around its battle verb, after the
    player's colon, each side split at ``and``/``,``/``&``; without a verb, the whole title after its last colon."""
    verb = VERB_PATTERN.search(text)
    parts = [text.rsplit(":", 1)[-1]] if verb is None else [
        text[:verb.start()].rsplit(":", 1)[-1], re.split(r"\s[-–—]\s|:|,\s*(?:\w+\s+)?\d{1,2}[A-Za-z]\b",
                                                         text[verb.end():], maxsplit=1)[0]]
    pieces = [p.strip(" -–—:,.|") for part in parts for p in _JOINED.split(part)]
    return [p for p in pieces if len(_fold(p)) >= 3 and not VERB_PATTERN.fullmatch(f" {p} ")]


class BattleIndex:
    """The battles awaiting strategies, indexed once for a poll's mail: their armies and one pattern that finds each
    army's exact name (any case, a whole word, the longest first) in a title."""

    def __init__(self, battles: Sequence[Battle]) -> None:
        self.battles = list(battles)
        self.armies = [a for b in self.battles for a in b.armies]
        names = sorted(dict.fromkeys(self.armies), key=len, reverse=True)
        self.by_fold = {n.casefold(): n for n in names}
        self.pattern = re.compile(r"(?<![\w'’])(" + "|".join(map(re.escape, names)) + r")(?![\w'’])",
                                  re.IGNORECASE) if names else None

    def exact(self, text: str) -> tuple[list[str], str]:
        """The armies whose exact names stand in ``text``, and the text with them taken out."""
        if self.pattern is None:
            return [], text
        found = [self.by_fold[m.group(1).casefold()] for m in self.pattern.finditer(text)]
        return list(dict.fromkeys(found)), self.pattern.sub(" | ", text)

    def match(self, title: str) -> TitleMatch:
        """``match_title`` over these battles."""
        labels = title_labels(title)
        text = LABEL_PATTERN.sub(" ", _REPLY.sub("", title))
        named, rest = self.exact(text)
        read_as: list[tuple[str, str]] = []
        unknown: list[str] = []
        for word in (_pieces(rest) if not named or VERB_PATTERN.search(rest) else []):
            near = nearest_names(self.armies, word, cutoff=0.7)
            if len(near) == 1 or (near and _gap(word, near)):
                named.append(near[0])
                read_as.append((word, near[0]))
            else:
                unknown.append(word)
        scored = [(sum(a in b.armies for a in dict.fromkeys(named)), -n, b) for n, b in enumerate(self.battles)]
        best = max(scored, default=None, key=lambda s: s[:2])
        sure = len(named) > len(read_as) or not unknown  # a near miss beside a name near nothing is no match
        if best is not None and best[0] > 0 and sure:
            passed = (*(a for a in named if a not in best[2].armies), *unknown)
            return TitleMatch(best[2], labels, tuple(read_as), passed=tuple(dict.fromkeys(passed)))
        return TitleMatch(None, labels, (), _why_none(title, [*unknown, *(w for w, _a in read_as)], self.armies,
                                                      self.battles))


def match_title(title: str, battles: Sequence[Battle]) -> TitleMatch:
    """The battle among ``battles`` (those awaiting strategies) that ``title`` names: the one holding the most of
    the armies it names, each name matched exactly (any case) or, where it is a near miss of one army alone (or
    clearly nearer one than any other), read as that army; a title naming armies of no one battle, or none, is
    answered with why and the nearest names (``BattleIndex.match``)."""
    return BattleIndex(battles).match(title)


def _gap(word: str, near: Sequence[str]) -> bool:
    """Whether the nearest of ``near`` is clearly nearer ``word`` than the next."""
    first, second = (SequenceMatcher(None, _fold(word), _fold(n)).ratio() for n in near[:2])
    return first - second >= 0.1


def _why_none(title: str, unknown: Sequence[str], armies: Sequence[str], battles: Sequence[Battle]) -> str:
    if not battles:
        return "no battle awaits strategies now (strategies are sent after the Battle Announcements, before the " \
               "battle deadline)"
    if not unknown:
        return f"the title {title!r} names no army of a battle announced this turn; write {TITLE_FORM}"
    hints = []
    for word in unknown:
        near = nearest_names(armies, word, cutoff=0.5)
        hints.append(f"{word!r}" + (f" (did you mean {' or '.join(near)}?)" if near else ""))
    listed = "; ".join(battle_title(b) for b in battles[:10]) + ("; …" if len(battles) > 10 else "")
    return (f"the title names no army of a battle announced this turn: {', '.join(hints)}; the battles are: "
            f"{listed}; write {TITLE_FORM}")
