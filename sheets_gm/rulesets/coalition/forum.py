"""The forum's posts as pure functions of the state: Battle Announcements, Movement Results and
Battle Results, ready to paste (the judge's sheet and the turn report tab show them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.board import Board
from sheets_gm.rulesets.coalition.enums import BattleType, EventKind, Phase, ResultCode, Side
from sheets_gm.rulesets.coalition.state import Battle, CoalitionState, MoveReport

_PLURAL = {"attacks": "attack", "raids": "raid", "intercepts": "intercept", "besieges": "besiege"}


def reported_turn(state: CoalitionState) -> int:
    """The turn the posts describe: the one waiting for results, else the one just ended."""
    return max(1, state.turn - 1) if state.phase is Phase.ORDERS else state.turn


def battle_title(b: Battle) -> str:
    """``Frank attacks Jeff``; a joint battle names each side's armies: ``Ann and Bo attack Cy``.

    >>> battle_title(Battle(BattleType.ATTACKS, "Dominaria 3C", ("Ann", "Bo", "Cy"), leading=2))
    'Ann and Bo attack Cy'
    >>> battle_title(Battle(BattleType.VS, "Dominaria 3C", ("Ann", "Cy")))
    'Ann vs. Cy'
    """
    if b.type is BattleType.VS:
        return " vs. ".join(b.armies)
    first, rest = list(b.armies[:b.leading]), list(b.armies[b.leading:])
    verb = b.type.verb if len(first) == 1 else _PLURAL[b.type.verb]
    return f"{' and '.join(first)} {verb} {' and '.join(rest)}"


def announcement(b: Battle, board: Board) -> str:
    """One line of the Battle Announcements post: ``Frank attacks Jeff, Dominaria 3C, forest (Light rain)``."""
    return f"{battle_title(b)}, {b.at}, {board.terrain_of(b.at).value} ({b.weather or 'weather to roll'})"


#: A forum post's size at most: its lines and its characters (a forum board's limit, with room to spare). A post
#: longer than that is written in parts, each a whole post of its own: numbered in its title, never cutting a
#: battle's lines apart, each ending with the post's closing lines.
PART_LINES = 100
PART_CHARS = 9000


@dataclass(frozen=True)
class PostItem:
    """A piece of a post that a part never cuts: a battle's lines, an order's line. Items of one ``section``
    stand under its heading (none for ''), which a part continuing the section repeats; ``spaced`` items are
    kept apart by a blank line."""

    lines: tuple[str, ...]
    section: str = ""
    spaced: bool = False


def _render(title: str, items: Sequence[PostItem], tail: Sequence[str], continues: str = "") -> list[str]:
    """A part's lines: its title, each section's heading (``continues``: the section the part goes on with),
    its items, then the closing lines after a blank one."""
    out = [title]
    current: str | None = None
    for item in items:
        if item.section != current:
            heading = f"{item.section} (continued)" if item.section and item.section == continues else item.section
            out += ["", heading] if heading else [""]
            current = item.section
        elif item.spaced:
            out.append("")
        out += item.lines
    if tail:
        out += ["", *tail]
    return out


def in_parts(title: str, items: Sequence[PostItem], tail: Sequence[str] = (), *, max_lines: int = PART_LINES,
             max_chars: int = PART_CHARS) -> list[list[str]]:
    """A post's lines in forum-sized parts: one part (titled ``title``) when it fits, else as many as it takes,
    titled ``title (part 2 of 3)``, each with the ``tail`` (the closing lines) and no item cut. An item too long
    for a part on its own is a part of its own.

    >>> items = [PostItem((f"Army {i} attacks Foe {i}",)) for i in range(5)]
    >>> in_parts("Battle Announcements, turn 2", items, ["Strategies to the judge."], max_lines=6)
    ... # doctest: +NORMALIZE_WHITESPACE
    [['Battle Announcements, turn 2 (part 1 of 3)', '', 'Army 0 attacks Foe 0', 'Army 1 attacks Foe 1', '',
      'Strategies to the judge.'],
     ['Battle Announcements, turn 2 (part 2 of 3)', '', 'Army 2 attacks Foe 2', 'Army 3 attacks Foe 3', '',
      'Strategies to the judge.'],
     ['Battle Announcements, turn 2 (part 3 of 3)', '', 'Army 4 attacks Foe 4', '', 'Strategies to the judge.']]
    """
    whole = _render(title, items, tail)
    if len(whole) <= max_lines and len("\n".join(whole)) <= max_chars:
        return [whole]
    numbered = f"{title} (part 99 of 99)"  # room for the longest number a part's title takes
    groups: list[list[PostItem]] = [[]]
    starts: list[str] = [""]  # the section each part goes on with
    for item in items:
        trial = _render(numbered, [*groups[-1], item], tail, starts[-1])
        if groups[-1] and (len(trial) > max_lines or len("\n".join(trial)) > max_chars):
            starts.append(item.section if item.section == groups[-1][-1].section else "")
            groups.append([])
        groups[-1].append(item)
    return [_render(f"{title} (part {n} of {len(groups)})", group, tail, start)
            for n, (group, start) in enumerate(zip(groups, starts, strict=True), start=1)]


def _strategies_line(state: CoalitionState, strategies_to: str, deadline: str) -> list[str]:
    """Where the sides send their strategies and by when, always a line (the judge's guide promises one): the
    results window's ``deadline`` while it is open (a date and time, as the forum's post gave it), else the
    turn's results deadline by name; to ``strategies_to`` when the setting names where."""
    when = deadline if deadline and state.phase is Phase.RESULTS else ""
    due = when or f"the turn {reported_turn(state)} results deadline (the status line says when)"
    if strategies_to:
        return [f"Send your battle strategies to {strategies_to} before {due}."]
    return [f"Battle strategies are due before {due}."]


#: The heading of the battles a post announced before and still waiting for a result.
STILL_OPEN = "Still open from an earlier turn (no result accepted yet; the weather as announced)"


def _announcement_items(state: CoalitionState, board: Board) -> list[PostItem]:
    """The post's battles: this adjudication's, a line each, then every battle announced earlier that is still
    open (its result refused, or never entered), which the judge still judges this turn."""
    fresh = {b.at for b in state.announced}
    kept = [b for b in state.battles if b.announced and b.at not in fresh] if state.phase is Phase.RESULTS else []
    return ([PostItem((announcement(b, board),)) for b in state.announced]
            + [PostItem((announcement(b, board),), STILL_OPEN) for b in kept])


def announcement_parts(state: CoalitionState, board: Board, strategies_to: str = "",
                       deadline: str = "") -> list[list[str]]:
    """The Battle Announcements post of the turn in forum-sized parts: every battle announced, a line each (and
    those still open from an earlier turn), and in each part where the sides send their strategies (the
    ``strategies_to`` setting) and by when (``deadline``, the results window's, as the status line writes it)."""
    head = f"Battle Announcements, turn {reported_turn(state)}"
    items = _announcement_items(state, board)
    if not items:
        return [[head, "", "No battles this turn."]]
    return in_parts(head, items, _strategies_line(state, strategies_to, deadline))


def battle_announcements(state: CoalitionState, board: Board, strategies_to: str = "", deadline: str = "") -> str:
    """The Battle Announcements post of the turn as one text (every battle, a line each, then where the sides
    send their strategies and by when); ``announcement_parts`` cuts it to the forum's size."""
    head = f"Battle Announcements, turn {reported_turn(state)}"
    items = _announcement_items(state, board)
    if not items:
        return f"{head}\n\nNo battles this turn."
    return "\n".join(_render(head, items, _strategies_line(state, strategies_to, deadline)))


def end_words(m: MoveReport) -> str:
    """Where an army's order left it, as its Log line and the Movement Results post say it: `` at 3C`` after a
    move; a partial move that could not leave its square says so (`` and stays on 2B``); nothing for an army
    that held."""
    if m.end != m.start:
        return f" at {m.end}"
    return f" and stays on {m.start}" if m.code is ResultCode.PARTIAL else ""


def _movement_items(state: CoalitionState) -> list[PostItem]:
    items: list[PostItem] = []
    for side in ("coalition", "phyrexia", "mercenary"):
        for m in state.movement:
            if m.side.value != side or not (m.order or m.code is not ResultCode.HELD):
                continue
            where = f" -> {m.end}" if m.end != m.start else f", stays on {m.start}" if m.code is ResultCode.PARTIAL \
                else ""
            note = f" ({m.note})" if m.note else ""
            idle = "a mercenary, moved by the engine" if m.side is Side.MERCENARY else "(no order)"
            order = m.order or f"{m.army}: {idle}"
            items.append(PostItem((f"{order} [{m.code.value}{where}]{note}",), side.capitalize()))
    return items


def movement_parts(state: CoalitionState) -> list[list[str]]:
    """The Movement Results post in forum-sized parts: each side's orders with where the army ended and its
    result code."""
    head = f"Movement Results, turn {reported_turn(state)}"
    items = _movement_items(state)
    return in_parts(head, items) if items else [[head, "", "No orders this turn."]]


def movement_results(state: CoalitionState) -> str:
    """The Movement Results post as one text: each side's orders with where the army ended and its result code."""
    head = f"Movement Results, turn {reported_turn(state)}"
    items = _movement_items(state)
    return "\n".join(_render(head, items, ())) if items else f"{head}\n\nNo orders this turn."


def _results_items(state: CoalitionState) -> tuple[list[PostItem], list[str]]:
    items: list[PostItem] = []
    for rep in state.outcomes:
        verb = "win" if " and " in rep.winner else "wins"
        items.append(PostItem((rep.title + (f": {rep.winner} {verb}" if rep.winner else ""),
                               *(f"- {line}" for line in rep.lines)), spaced=True))
    items += [PostItem((f"- {n}",), "End of turn") for n in state.notes]
    score = f"Victory points: Coalition {state.vp.get('coalition', 0)}, Phyrexia {state.vp.get('phyrexia', 0)}"
    return items, [score]


def results_parts(state: CoalitionState) -> list[list[str]]:
    """The Battle Results post in forum-sized parts: per battle the winner, losses, kills, bumps and victory
    points; then the end of the turn (structures, healing, domination); the score closes every part."""
    items, tail = _results_items(state)
    return in_parts(f"Battle Results, turn {reported_turn(state)}", items, tail)


def battle_results(state: CoalitionState) -> str:
    """The Battle Results post as one text: per battle the winner, losses, kills, bumps and victory points; then
    the end of the turn (structures, healing, domination) and the score."""
    items, tail = _results_items(state)
    return "\n".join(_render(f"Battle Results, turn {reported_turn(state)}", items, tail))


def dice_event(turn: int, dice: kit.TurnDice) -> kit.Event | None:
    """One log line with every die rolled and every draw made (key, value or order), or None if none was."""
    if not dice.rolled and not dice.drawn:
        return None
    rolled, drawn = dict(dice.rolled), {k: list(v) for k, v in dice.drawn.items()}

    def text() -> str:
        parts = ([f"{dice.message(k)} = {v}" for k, v in rolled.items()]
                 + [f"{dice.message(k)}: {', '.join(v)}" for k, v in drawn.items()])
        return "Dice and draws: " + "; ".join(parts)
    return kit.Event(turn, EventKind.DICE, text, {"rolled": rolled, "drawn": drawn})
