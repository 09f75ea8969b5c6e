"""The Coalition's typed rows read as orders, and orders written back as typed cells (its exact inverse).

A side's row per army holds the order in columns (route, end square, order word, target,
transfer units, joint engage bump) or the forum line in one cell, and its Forum tab a pasted post
(a line per row, or the whole post in one cell: each line naming an army is that army's order, and
an army's own row wins over it); the judge's rows hold a
battle's result (a row per battle) and each army's losses (a row per army in a battle). A
cell that cannot be read is a sentence naming the column and what would be accepted, and its
row gives no order; everything else (squares, names, conditions) is the engine's to check, in
the feedback of the same row.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import NamedTuple

from sheets_gm.engine.vocab import choices
from sheets_gm.engine.words import possessive, some_of
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.board import Board, PlaceError
from sheets_gm.rulesets.coalition.enums import KillOutcome, OrderWord, Side
from sheets_gm.rulesets.coalition.orders import FORUM_FORM
from sheets_gm.rulesets.coalition.sheet.mail_heading import MAIL_MARK, arrival_ranks
from sheets_gm.rulesets.coalition.sheet.post_line import (
    CELL_STRUCK,
    Kind,
    army_line,
    cell_struck,
    classify,
    lines_as_read,
    nearest_names,
    unquoted,
)
from sheets_gm.rulesets.coalition.state import ArmyOrder, BattleResult, CoalitionState
from sheets_gm.sheets.struck import joined_lines, lines_with_spans
from sheets_gm.sheets.tables import text_of

SLOT_KEYS = ("slot1", "slot2", "slot3", "slot4")
ORDER_KEYS = ("route", "to", "order", "target", "units", "bump")
#: The order columns as their headers name them, for a message asking to clear some.
COLUMN_NAMES = {"route": "Route", "to": "End square", "order": "Order", "target": "Target army",
                "units": "Transfer units", "bump": "Joint engage bump"}
Cells = dict[str, dict[str, kit.CellValue]]
#: The rulebook's request for the square a joint attacker leaves to (6.1.4): "Joint engage bump: Army > Square".
_BUMP_LINE = re.compile(r"joint\s+engage\s+bump\s*:\s*(.+?)\s*>\s*(\S+)\s*$", re.IGNORECASE)


def _slots(text: str, column: str) -> tuple[int, ...]:
    parts = [p.strip() for p in text.strip("() ").split("/")]
    if len(parts) != 4 or not all(p.isdecimal() for p in parts):
        raise kit.CellError(f"{column} {text!r}: four whole numbers, slot 1 to slot 4, like 100/0/0/0")
    return tuple(int(p) for p in parts)


@dataclass
class ReadRows:
    """What a seat's rows say: orders or results, the unreadable cells by row, what a post's rows read as."""

    orders: dict[str, ArmyOrder] = field(default_factory=dict)
    results: dict[str, BattleResult] = field(default_factory=dict)
    problems: dict[str, list[str]] = field(default_factory=dict)
    read_as: dict[str, list[str]] = field(default_factory=dict)  # a post's row: the armies whose orders it gives
    notes: dict[str, list[str]] = field(default_factory=dict)  # what a row is told that is no refusal


def _route(board: Board, at: str, text: str) -> tuple[str, tuple[str, ...]]:
    """(start, squares on the way) of a Route cell: squares separated by > (or commas); a first square that
    is where the army stands is its start."""
    squares = [s.strip() for s in text.replace(",", ">").split(">")]
    if any(not s for s in squares):
        raise kit.CellError(f"Route {text!r} has an empty step: write the squares on the way separated by >, "
                            "like 3B > 3C (the end square goes in End square)")
    try:
        if at and board.parse(squares[0], at.split(" ")[0]) == at:
            return squares[0], tuple(squares[1:])
    except PlaceError:
        pass  # a square off the plane: the engine's refusal names it
    return "", tuple(squares)


def _same(board: Board, at: str, a: str, b: str) -> bool:
    plane = at.split(" ")[0]
    try:
        return board.parse(a, plane) == board.parse(b, plane)
    except PlaceError:
        return False


def read_army_row(board: Board, state: CoalitionState, row: kit.TypedRow) -> ArmyOrder | None:
    """One army's order from its row (None for an empty row); CellError naming the column it cannot read."""
    texts = {k: row.text(k) for k in (*ORDER_KEYS, "line")}
    if not any(texts.values()):
        return None
    if texts["line"]:
        filled = [k for k in ORDER_KEYS if texts[k]]
        if filled:
            columns = ", ".join(COLUMN_NAMES[k] for k in filled)
            raise kit.CellError("the forum line and the order columns are both filled: write the order once, in "
                                f"the columns or as the forum line (clear {columns}, or the forum line)")
        return ArmyOrder(line=texts["line"])
    word = texts["order"].lower()
    if word and word not in {w.value for w in OrderWord}:
        raise kit.CellError(f"Order {texts['order']!r} is not an order: write one of {choices(OrderWord)}")
    army = state.army(row.subject)
    start, via = _route(board, army.at if army else "", texts["route"]) if texts["route"] else ("", ())
    to = texts["to"]
    if via and not to:  # the whole route in Route: its last square is the end
        via, to = via[:-1], via[-1]
    elif via and army is not None and _same(board, army.at, via[-1], to):  # the end written twice
        via = via[:-1]
    units: tuple[int, ...] = ()
    if texts["units"]:
        if word != OrderWord.TRANSFER.value:
            raise kit.CellError(f"Transfer units {texts['units']!r} are for a transfer: choose the order transfer, or "
                                "clear the cell")
        units = _slots(texts["units"], "Transfer units")
    return ArmyOrder(start=start, via=via, to=to, word=word, target=texts["target"], units=units,
                     bump=texts["bump"])


def army_cells(order: ArmyOrder) -> dict[str, kit.CellValue]:
    """The cells a player would type for ``order`` (``read_army_row`` reads them back as the same order)."""
    if order.line:
        return {"line": order.line}
    route = " > ".join([*([order.start] if order.start else []), *order.via])
    values: dict[str, kit.CellValue] = {"route": route, "to": order.to, "order": order.word, "target": order.target,
                                        "units": "/".join(map(str, order.units)) if order.units else "",
                                        "bump": order.bump}
    return {k: v for k, v in values.items() if v}


#: Rows of the Forum tab beyond two per army of the side (its line and a blank line after it): a post's title,
#: greetings, the joint engage bump requests.
POST_SPARE_LINES = 20


def post_lines(armies: int) -> int:
    """The rows of a side's Forum tab for a side of ``armies`` armies."""
    return 2 * armies + POST_SPARE_LINES


def post_line_name(side: str, number: int) -> str:
    """The subject of ``side``'s Forum tab row ``number`` (1-based): ``coalition line 7`` (a row's subject names it
    in one side's tab alone)."""
    return f"{side} line {number}"


def _row_wins(army: str, pasted_in: str) -> tuple[str, str]:
    """What the post's line for ``army`` (pasted in ``pasted_in``) and ``army``'s own row say when both give it an
    order: the army's row wins."""
    return (f"{possessive(army)} line is not read: {possessive(army)} own row in the orders tab holds an order, and "
            f"an army's row wins over a pasted post; clear the row to use this line, or clear the line",
            f"the pasted post's line for {army} ({pasted_in}) is not read: this row's order wins over the post")


def read_side_rows(board: Board, state: CoalitionState, rows: Sequence[kit.TypedRow],
                   post: Sequence[kit.TypedRow] = (), side: str = "") -> ReadRows:
    """A side's army rows as orders by army. A whole forum post pasted in one row's forum line cell (several
    lines), or in the Forum tab (``post``: a line per row, or the whole post in one of its cells), gives each army
    it names its line, as if typed in that army's row; in the Forum tab a line without an army name before a colon
    (the post's title, a greeting) is passed over. An army with an order in its own row keeps it: its line in a
    post is not read, and both say so. A line naming an army of another side than ``side`` goes nowhere."""
    out = ReadRows()
    posted: list[Posted] = []  # each army's line, and the row the post was pasted in
    bumps: list[tuple[str, str, str, str]] = []  # a post's "Joint engage bump: Army > Square": army, square, row, line
    unread: ReadRows = ReadRows()  # the post's lines that name no army, by the row they were pasted in
    quoting = False
    for row in post:
        text = _line_as_read(row)
        if text.strip().startswith(MAIL_MARK):
            out.notes.setdefault(row.subject, []).append(MAIL_HEADING_NOTE)
            continue
        if text.strip():  # a quote opened in one row of the Forum tab runs on into the next rows
            found, quoting = _split_post(state, row.subject, text, unread, bumps, titles_pass=True, side=side,
                                         quoting=quoting)
            posted += found
            if not found and not {row.subject} & (set(unread.problems) | set(unread.notes)) \
                    and not any(b[2] == row.subject for b in bumps):
                out.notes.setdefault(row.subject, []).append(
                    "passed over: no army's order in this line (a title, a greeting, chatter or a blank line)")
    for row in rows:
        try:
            order = read_army_row(board, state, row)
        except kit.CellError as exc:
            out.problems.setdefault(row.subject, []).append(f"{exc}; {row.subject} holds until it is mended")
            continue
        if order is not None and "\n" in order.line.strip():
            posted += _split_post(state, row.subject, order.line, unread, bumps, side=side)[0]
        elif order is not None:
            out.orders[row.subject] = order
    posted = _retracted(posted, out)
    posted = _latest_mail_wins(posted, [row.subject for row in post], [row.text("line") for row in post], out)
    _posted_orders(out, unread, posted)
    for army, square, pasted_in, line in bumps:
        why = _bumped(out, army, square)
        if why:
            unread.problems.setdefault(pasted_in, []).append(f"the pasted post's line {line!r}: {why}; the other "
                                                             "lines are read")
        elif army not in out.read_as.get(pasted_in, []) and pasted_in != army:  # part of the army's order: its row
            out.read_as.setdefault(pasted_in, []).append(army)  # answers as the army's does (the bump in its words)
            out.notes.setdefault(army, []).append(f"its joint engage bump from the pasted post's line in {pasted_in}")
    for subject, said in unread.problems.items():
        out.problems.setdefault(subject, []).extend(said)
    for subject, said in unread.notes.items():
        out.notes.setdefault(subject, []).extend(said)
    return out


MAIL_HEADING_NOTE = "passed over: the heading of a mail to the judge; its lines are below it"


def _latest_mail_wins(posted: Sequence[Posted], subjects: Sequence[str], texts: Sequence[str],
                      out: ReadRows) -> list[Posted]:
    """The post's lines without those a later mail replaces (ruling "Mail to the judge"): the Forum tab's rows under
    a mail's heading (``MAIL_MARK``) are that mail's, the rows above the first heading the pasted post, and mails
    stand in the order they were received (``arrival_ranks``: a mail typed late stands by its arrival); an army's
    line in a later mail replaces its lines in an earlier mail or the post, which are told so. Lines of one mail (or
    of the post) for one army read as in a post."""
    headings = [i for i, text in enumerate(texts) if text.strip().startswith(MAIL_MARK)]
    ranks = dict(zip(headings, arrival_ranks([texts[i].strip() for i in headings]), strict=True))
    part: dict[str, int] = {}
    heading = 0
    for i, subject in enumerate(subjects):
        heading = ranks.get(i, heading)
        part[subject] = heading
    last: dict[str, tuple[int, str]] = {}
    for found in posted:
        if part.get(found.pasted_in, 0) >= last.get(found.army, (-1, ""))[0]:
            last[found.army] = (part.get(found.pasted_in, 0), found.pasted_in)
    kept = []
    for found in posted:
        latest, where = last[found.army]
        if part.get(found.pasted_in, 0) < latest:
            out.notes.setdefault(found.pasted_in, []).append(
                f"not read: {possessive(found.army)} line in the later mail ({where}) "
                "replaces this one")
        else:
            kept.append(found)
    return kept


def _retracted(posted: Sequence[Posted], out: ReadRows) -> list[Posted]:
    """The post's lines without those an ``ignore my last`` takes back (rulings, "Forum posts as they are pasted"):
    the sender's earlier line for the army it names, or, naming none, her last order line before it. Both rows say
    so; one with nothing before it to take back says that."""
    kept: list[Posted] = []
    for found in posted:
        if not found.retract:
            kept.append(found)
            continue
        earlier = next((i for i in range(len(kept) - 1, -1, -1) if not found.army or kept[i].army == found.army), None)
        if earlier is None:
            out.notes.setdefault(found.pasted_in, []).append(
                f"passed over: {found.line!r} has no earlier line{f' for {found.army}' if found.army else ''} "
                "to take back")
            continue
        taken = kept.pop(earlier)
        out.notes.setdefault(found.pasted_in, []).append(f"{found.line!r} takes back {taken.line!r}")
        out.notes.setdefault(taken.pasted_in, []).append(f"not read: taken back by {found.line!r} "
                                                         f"({found.pasted_in}): {taken.army} holds unless "
                                                         "another line orders it")
    return kept


def post_line_army(state: CoalitionState, line: str) -> str | None:
    """The army a post's ``line`` gives an order to (its exact name at the line's start, any case), else None."""
    named = army_line({a.name.lower(): a.name for a in state.armies}, line.strip())
    return named[0] if named is not None else None


@lru_cache(maxsize=8)
def _names_in(names: tuple[str, ...]) -> re.Pattern[str]:
    """What finds any of ``names`` in a text, any case (made once for a window's fighting armies)."""
    return re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)), re.IGNORECASE)


@lru_cache(maxsize=4)
def _by_lower(names: tuple[str, ...]) -> dict[str, str]:
    """The armies' ``names`` by their names in lower case (made once for a match's armies, not once a row)."""
    return {name.lower(): name for name in names}


def post_lines_of(state: CoalitionState, post: str, armies: Collection[str]) -> tuple[str, dict[str, str]]:
    """``post`` (a pasted post's text, one line or many) without its lines that give ``armies`` an order (an army's
    order, or its order withdrawn, as ``_split_post`` reads them; a quoted or struck-out line is no order), the
    struck words of the lines left kept; and those lines by the army each orders ('' and {} when none does)."""
    if not armies or not _names_in(tuple(armies)).search(post):  # most rows: no line names one of them
        return post, {}
    by_lower = _by_lower(tuple(a.name for a in state.armies))
    kept: list[tuple[str, tuple[tuple[int, int], ...]]] = []
    out: dict[str, str] = {}
    quoting = False
    for (whole, marked), spanned in zip(lines_as_read(post), lines_with_spans(post), strict=True):
        raw, quoting, _quoted = unquoted(marked, quoting)
        seen = classify(by_lower, (), raw)
        if seen.army is not None and seen.army in armies and seen.kind in (Kind.ORDER, Kind.WITHDRAWN):
            out.setdefault(seen.army, whole.strip())
        else:
            kept.append(spanned)
    return (joined_lines(kept) if out else post), out


def _posted_orders(out: ReadRows, unread: ReadRows, posted: Sequence[Posted]) -> None:
    """Give each army a post names its line (``out.read_as``: the row it was pasted in reads as that army's order),
    unless its own row holds an order (the row wins, and both rows say so), a line withdraws its order (the army
    holds, and its other lines say why they are not read), or the post names it twice (neither line is read, and
    the army holds)."""
    by_army: dict[str, list[Posted]] = {}
    for found in posted:
        by_army.setdefault(found.army, []).append(found)
    own = set(out.orders) | set(out.problems)
    for army, lines in by_army.items():
        if army in own:
            for found in lines:
                line_said, row_said = _row_wins(army, found.pasted_in)
                unread.problems.setdefault(found.pasted_in, []).append(line_said)
                out.notes.setdefault(army, []).append(row_said)
            continue
        last_withdrawn = max((i for i, found in enumerate(lines) if found.withdrawn), default=None)
        if last_withdrawn is not None and last_withdrawn == len(lines) - 1:
            _withdrawn(out, army, lines)
            continue
        if last_withdrawn is not None:  # withdrawn, then a new order: the later line stands (rulings, forum posts)
            for found in lines[:last_withdrawn + 1]:
                out.notes.setdefault(found.pasted_in, []).append(
                    f"not read: a later line for {army} stands ({lines[-1].pasted_in})")
            lines = lines[last_withdrawn + 1:]
        if len(lines) > 1:
            where = some_of(list(dict.fromkeys(found.pasted_in for found in lines)))  # a line's answer: never O(lines)
            for found in lines:
                unread.problems.setdefault(found.pasted_in, []).append(
                    f"{army} has {len(lines)} lines in the post ({where}): an army gets one order, so none is read "
                    f"and {army} holds; keep one line")
            continue
        line, pasted_in = lines[0].line, lines[0].pasted_in
        out.orders[army] = ArmyOrder(line=line)
        out.read_as.setdefault(pasted_in, []).append(army)
        if pasted_in != army:
            out.notes.setdefault(army, []).append(f"ordered by the pasted post's line in {pasted_in}")


def _withdrawn(out: ReadRows, army: str, lines: Sequence[Posted]) -> None:
    """``army``'s order withdrawn by a line of the post: it holds, and each of its lines (and its own row) says so,
    none of them a refusal."""
    where = ", ".join(dict.fromkeys(found.pasted_in for found in lines if found.withdrawn))
    for found in lines:
        out.notes.setdefault(found.pasted_in, []).append(
            f"{possessive(army)} order is withdrawn: {army} holds this turn" if found.withdrawn else
            f"this line is not read: {possessive(army)} order is withdrawn ({where}), so it holds")
    if army not in {found.pasted_in for found in lines}:
        out.notes.setdefault(army, []).append(f"its order is withdrawn by the pasted post ({where}): it holds")


def _bumped(out: ReadRows, army: str, square: str) -> str:
    """Give ``army``'s order the joint engage bump ``square`` (a post's own line for it, as the forum writes it);
    why it cannot, or ''."""
    order = out.orders.get(army)
    if order is None:
        return (f"{army} has no order this turn: a joint engage bump goes with the army's engage order (its line "
                "in the post, or its row)")
    if order.bump or (order.line and re.search(r"\bbump\b", order.line, re.IGNORECASE)):
        return f"{possessive(army)} order already names a joint engage bump: keep one"
    if not order.line:
        out.orders[army] = replace(order, bump=square)
        return ""
    if not re.search(r"\s[-–—]\s*\S", order.line):
        return (f"{possessive(army)} line has no order after a dash: a joint engage bump goes with an engage order "
                f"({FORUM_FORM})")
    out.orders[army] = replace(order, line=f"{order.line}, bump {square}")
    return ""


def _did_you_mean(state: CoalitionState, name: str) -> str:
    """``; did you mean Urza's Vanguard?`` for the armies nearest ``name`` ('' when none is near)."""
    near = nearest_names([a.name for a in state.armies], name)
    return f"; did you mean {' or '.join(near)}?" if near else ""


class Posted(NamedTuple):
    """An army's line in a pasted post: the army, its line, the row the post was pasted in, and whether the line
    takes the army's order back (``Army: withdrawn``: the army holds), or is ``ignore my last``."""

    army: str
    line: str
    pasted_in: str
    withdrawn: bool = False
    retract: bool = False  # "ignore my last": takes back the sender's line before it (for ``army``, if it names one)


def _split_post(state: CoalitionState, subject: str, post: str, out: ReadRows,
                bumps: list[tuple[str, str, str, str]], titles_pass: bool = False, side: str = "",
                quoting: bool = False) -> tuple[list[Posted], bool]:
    """The lines of a pasted forum post by army; a line that names no army of the match is a problem of the row
    it was pasted in, with the nearest armies' names. Blank lines are passed over, and with ``titles_pass`` chatter
    (a title, a greeting, prose: ``post_line.is_chatter``); a struck-out line is no order (a note says so), and
    ``withdrawn`` takes back the order of the army it names. A line beginning with an army's exact
    name is that army's order, a dash for its colon read as the colon. A line ``Joint engage bump: Army > Square``
    (the rulebook's request, posted beside the moves) is added to ``bumps`` as (army, square, the row, the line).
    A quoted line (someone else's words) is passed over, a note saying so; ``quoting`` says whether a
    ``[quote]`` opened above is still open, and the second value returned whether one is after the post.
    ``ignore my last`` is kept as a line that takes back the one before it (``_retracted``)."""
    found: list[Posted] = []
    by_lower = {a.name.lower(): a.name for a in state.armies}
    planes = {a.at.split(" ")[0].lower() for a in state.armies if a.at}
    for whole, marked in lines_as_read(post):
        raw, quoting, quoted = unquoted(marked, quoting)
        seen = classify(by_lower, planes, raw)
        if quoted or seen.kind is Kind.QUOTED:
            out.notes.setdefault(subject, []).append(f"passed over: {whole.strip()!r} is quoted, someone else's "
                                                     "words, so it is no order")
            if seen.kind is Kind.QUOTED or not raw.strip():
                continue
        if seen.kind is Kind.BLANK or (titles_pass and seen.kind is Kind.CHATTER):
            continue
        if seen.kind is Kind.STRUCK:
            out.notes.setdefault(subject, []).append(
                f"passed over: {whole.strip()!r} is struck through in its cell, so it is no order"
                if CELL_STRUCK[0] in raw else f"passed over: {raw.strip()!r} is struck out, so it is no order")
            continue
        if seen.kind is Kind.RETRACT:
            found.append(Posted(seen.army or "", seen.text, subject, retract=True))
            continue
        line = seen.text
        bump = _BUMP_LINE.match(line)
        if bump:
            army = by_lower.get(bump.group(1).strip().lower())
            if army is None:
                out.problems.setdefault(subject, []).append(
                    f"the pasted post's line {line!r} names no army ({bump.group(1).strip()!r}"
                    f"{_did_you_mean(state, bump.group(1).strip())}): write Joint engage bump: Army name > Square; "
                    "the other lines are read")
            else:
                bumps.append((army, bump.group(2).strip(), subject, line))
            continue
        if seen.army is not None and not seen.as_read.startswith(f"{seen.army}:"):
            out.problems.setdefault(subject, []).append(
                f"the pasted post's line {line!r} begins with {possessive(seen.army)} "
                "name but no colon follows it: write "
                f"{FORUM_FORM}; the other lines are read")
            continue
        if seen.army is None:
            name = re.split(r":|\s[-–—]\s", line, maxsplit=1)[0].strip()
            what = f"names no army ({name!r}{_did_you_mean(state, name)})" if ":" in line or _near_dash(state, line) \
                else "has no army name before a colon"
            out.problems.setdefault(subject, []).append(
                f"the pasted post's line {line!r} {what}: each line is one army's order, {FORUM_FORM}; the other "
                "lines are read")
            continue
        owner = next((a.side.value for a in state.armies if a.name == seen.army), side)
        if side and owner != side:
            out.problems.setdefault(subject, []).append(
                f"the pasted post's line {line!r} names {seen.army}, an army of {owner}, not of {side}: it goes "
                f"nowhere (a side orders its own armies); clear it")
            continue
        found.append(Posted(seen.army, seen.as_read, subject, seen.kind is Kind.WITHDRAWN))
        if cell_struck(raw):
            out.notes.setdefault(subject, []).append(f"the words struck through in its cell are not read: "
                                                     f"{cell_struck(raw)}")
    return found, quoting


def _line_as_read(row: kit.TypedRow) -> str:
    """A Forum tab row's line as read, the words its cell strikes through with it (``sheets.struck``)."""
    value = row.values.get("line")
    return value if isinstance(value, str) else row.text("line")


def _near_dash(state: CoalitionState, line: str) -> bool:
    """Whether ``line`` (no colon in it) begins with a name near an army's, then a dash: ``Tolarian Flet - 10F``, an
    order whose army's name is misspelt, not chatter."""
    dash = re.search(r"\s[-–—]\s", line)
    return dash is not None and bool(nearest_names([a.name for a in state.armies], line[:dash.start()].strip()))


def _choice(row: kit.TypedRow, key: str, column: str, values: Sequence[str]) -> str:
    text = row.text(key).lower()
    if text and text not in values:
        raise kit.CellError(f"{column} {row.text(key)!r} is not one of {', '.join(values)}")
    return text


def _result_row(row: kit.TypedRow) -> BattleResult | None:
    """A battle's row as a result without losses (None for an empty row)."""
    if not row.typed and not any(text_of(row.values.get(k)) for k in ("vp", "kill_bonus", "escape_bonus")):
        return None
    vp = kit.whole_number(row.values.get("vp"), "VP", "leave it empty for the setting, or write 0 or more")
    kill = _choice(row, "kill", "Kill", [k.value for k in KillOutcome])
    bonus = kit.whole_number(row.values.get("kill_bonus"), "Kill bonus", "a whole number added to the d100") or 0
    escape = kit.whole_number(row.values.get("escape_bonus"), "Escape bonus", "a whole number added to the d100") or 0
    stratless = _choice(row, "stratless", "Stratless side", [s.value for s in Side])
    return BattleResult(winner=row.text("winner"), vp=vp, siege=row.ticked("siege"), kill=kill, kill_bonus=bonus,
                        escape_bonus=escape, stratless=stratless, stand_in=row.ticked("stand_in"))


def _loss_row(row: kit.TypedRow) -> tuple[int, ...] | None:
    """An army's losses per slot (None when no slot is filled; an empty slot is 0). The four slots written in the
    first cell as the forum writes them, ``1000/0/200/0``, are read too."""
    cells = [row.values.get(k) for k in SLOT_KEYS]
    if all(c is None or text_of(c) == "" for c in cells):
        return None
    first = text_of(cells[0])
    if "/" in first:
        if any(text_of(c) for c in cells[1:]):
            raise kit.CellError(f"Lost in slot 1 {first!r} holds every slot while the other slot cells are filled too: "
                                "write the four slots in Lost in slot 1 as 1000/0/200/0, or one number per slot cell")
        return _slots(first.replace(",", ""), "Lost in slot 1")
    accepted = "write the units lost in that slot, 0 or more (empty is 0)"
    return tuple(kit.whole_number(c, f"Lost in slot {i}", accepted) or 0 for i, c in enumerate(cells, start=1))


def read_judge_rows(state: CoalitionState, results: Sequence[kit.TypedRow], losses: Sequence[kit.TypedRow]) -> ReadRows:
    """The judge's rows as results by battle square: a battle row's result with the losses of its armies' rows
    (losses alone make a result too, which the engine refuses until it names a winner or a siege)."""
    out = ReadRows()
    battle_of = {name: b.at for b in state.battles for name in b.armies}
    found: dict[str, BattleResult] = {}
    for row in results:
        try:
            result = _result_row(row)
        except kit.CellError as exc:
            out.problems.setdefault(row.subject, []).append(f"{exc}; this battle's result is not read until then")
            continue
        if result is not None:
            found[row.subject] = result
    for row in losses:
        where = battle_of.get(row.subject)
        try:
            lost = _loss_row(row)
        except kit.CellError as exc:
            out.problems.setdefault(row.subject, []).append(str(exc))
            if where:
                out.problems.setdefault(where, []).append(
                    f"{possessive(row.subject)} losses cannot be read yet (see its row)")
            continue
        tried = row.ticked("failed_kill")
        if where is None or (lost is None and not tried):
            continue
        base = found.get(where, BattleResult())
        found[where] = BattleResult(
            base.winner, {**base.losses, **({row.subject: lost} if lost is not None else {})}, base.vp, base.siege,
            base.kill, base.kill_bonus, base.escape_bonus, base.failed_kill + ((row.subject,) if tried else ()),
            base.stratless, base.stand_in)
    out.results = {where: r for where, r in found.items() if where not in out.problems}
    return out


def judge_cells(results: Mapping[str, BattleResult]) -> dict[str, Cells]:
    """The cells the judge would type for ``results`` (``read_judge_rows`` reads them back as the same)."""
    battles: Cells = {}
    losses: Cells = {}
    for where, r in results.items():
        values: dict[str, kit.CellValue] = {"winner": r.winner, "siege": r.siege or "",
                                            "vp": "" if r.vp is None else r.vp,
                                            "kill": r.kill, "kill_bonus": r.kill_bonus or "",
                                            "escape_bonus": r.escape_bonus or "", "stratless": r.stratless,
                                            "stand_in": r.stand_in or ""}
        battles[where] = {k: v for k, v in values.items() if v != ""}
        for army, lost in r.losses.items():
            losses.setdefault(army, {}).update(dict(zip(SLOT_KEYS, lost, strict=True)))
        for army in r.failed_kill:
            losses.setdefault(army, {})["failed_kill"] = True
    return {"results": battles, "losses": losses}
