"""The strategies of a turn's battles as the judge reads them (ruling "Strategies by mail"): per battle and side,
every strategy received, the one that counts (the latest that is no contingency; a contingency only when no other
came), those replaced, a kill attempt flagged for the kill roll, and at the battle deadline each side that sent none
marked stratless (both: the judge decides)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sheets_gm.rulesets.coalition.forum import battle_title
from sheets_gm.rulesets.coalition.state import Battle, CoalitionState
from sheets_gm.rulesets.parts.mail import Sealed

KILL = "Kill Attempt"
CONTINGENCY = "Contingency"


def sides_of(state: CoalitionState, battle: Battle) -> list[str]:
    """The sides fighting ``battle``, the first-named army's first."""
    side = {a.name: a.side.value for a in state.armies}
    return list(dict.fromkeys(side.get(a, "") for a in battle.armies if side.get(a)))


def counting(found: Sequence[Sealed]) -> Sealed | None:
    """The strategy that counts among one side's for one battle (``found``, in the order they were read): the latest
    that is no contingency, else the latest contingency; of two received in the same second (the server's arrival
    time is to the second), the one read last, which the server received last."""
    plain = [s for s in found if CONTINGENCY not in s.labels]
    pick = plain or list(found)
    return max(reversed(pick), key=lambda s: s.received) if pick else None


@dataclass(frozen=True)
class BattleStrategies:
    """One battle's strategies: by side, those received (oldest first) and the one that counts; the sides with
    none."""

    battle: Battle
    by_side: dict[str, list[Sealed]]
    counts: dict[str, Sealed]
    stratless: tuple[str, ...]


def battle_strategies(state: CoalitionState, sealed: Sequence[Sealed]) -> list[BattleStrategies]:
    """Every battle awaiting results in ``state`` with its strategies."""
    out = []
    for battle in (b for b in state.battles if b.announced):
        sides = sides_of(state, battle)
        by_side = {side: sorted((s for s in sealed if s.subject == battle.at and s.seat == side),
                                key=lambda s: s.received) for side in sides}
        counts = {side: c for side, found in by_side.items() if (c := counting(found)) is not None}
        out.append(BattleStrategies(battle, by_side, counts, tuple(s for s in sides if s not in counts)))
    return out


def _fate(s: Sealed, counts: Sealed | None) -> str:
    if s is counts:
        return "stands in: no other strategy came (a contingency)" if CONTINGENCY in s.labels else "counts"
    if CONTINGENCY in s.labels:
        return "not used: a contingency, and another strategy came"
    return "replaced by a later strategy"


def strategy_rows(state: CoalitionState, sealed: Sequence[Sealed], closed: bool) -> list[list[str]]:
    """The Strategies tab's rows: a battle's line, then each side's strategies (or its lack of one), a blank row
    between battles."""
    rows: list[list[str]] = []
    for found in battle_strategies(state, sealed):
        b = found.battle
        both = closed and len(found.stratless) >= 2
        note = "both sides stratless: the judge decides" if both else \
            f"stratless: {', '.join(found.stratless)}" if closed and found.stratless else ""
        rows.append([f"{b.at} · {battle_title(b)}", "", "", "", "", note,
                     _stratless_note(found) if closed and found.stratless and not both else ""])
        for side, mine in found.by_side.items():
            if not mine:
                rows.append(["", side, "", "", "", "none: stratless (it loses by default)" if closed else
                             "none yet (stratless at the battle deadline if none comes)", ""])
            for s in mine:
                labels = ", ".join(s.labels)
                if KILL in s.labels and s is found.counts.get(side):
                    labels += " (flag for the kill roll)"
                when = datetime.fromisoformat(s.received).strftime("%a %d %b %H:%M:%S")
                rows.append(["", side, f"{s.player} <{s.sender}>", when, labels, _fate(s, found.counts.get(side)),
                             s.text])
        rows.append([""] * 7)
    if not rows:
        rows.append(["No battle awaits strategies now.", "", "", "", "", "", ""])
    return rows


def _stratless_note(found: BattleStrategies) -> str:
    """What the judge does with a battle one side of which sent no strategy by the deadline (ruling "The players'
    deadline, then the judge"): who did send one, and what her Judge tab holds for her to confirm or change."""
    sent = " and ".join(side for side in found.by_side if side not in found.stratless)
    return (f"{sent} sent a strategy, {found.stratless[0]} none: {found.stratless[0]} is typed as the Stratless side "
            "in your Judge tab (if you left it empty). Confirm it or change it, then tick Results in: nothing is "
            "applied before.")


def stratless_summary(state: CoalitionState, sealed: Sequence[Sealed], closed: bool = False) -> list[str]:
    """A line per battle for the judge's status: how many strategies each side sent, and who is stratless so far
    (``closed``: the players' deadline passed: who is stratless, pending the judge)."""
    out = []
    for found in battle_strategies(state, sealed):
        sent = ", ".join(f"{side} {len(mine)}" for side, mine in found.by_side.items())
        which = "stratless: the players' deadline passed, the judge confirms or changes it" if closed else \
            "stratless so far"
        none = f"; none from {' and '.join(found.stratless)} ({which})" if found.stratless else ""
        out.append(f"{found.battle.at} ({battle_title(found.battle)}): strategies {sent}{none}")
    return out


def stratless_cells(state: CoalitionState, sealed: Sequence[Sealed]) -> dict[str, dict[str, dict[str, str]]]:
    """The Judge tab's Stratless side of each battle one side of which sent no strategy (section 6.5: it loses by
    default), by battle square; none for a battle both sides left without one (the judge decides) or outside the
    results window."""
    cells = {found.battle.at: {"stratless": found.stratless[0]} for found in battle_strategies(state, sealed)
             if len(found.stratless) == 1 and len(found.by_side) == 2}
    return {"results": cells} if cells else {}
