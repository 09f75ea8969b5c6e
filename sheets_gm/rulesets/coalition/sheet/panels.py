"""What each View tab of the Coalition game shows beyond the public board.

The state is public (only orders are private, and they never enter it), so a side's panel is
a working list of its own armies (slots, colour bonus, turns counted in a structure); the
judge's (and the GM's) is the battles to judge with every army's slots, then the Battle
Announcements post to paste; the GM's adds the army changes waiting to apply.
"""

from __future__ import annotations

from sheets_gm.engine.words import counted
from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.board import Board
from sheets_gm.rulesets.coalition.enums import Side
from sheets_gm.rulesets.coalition.forum import battle_announcements, battle_title
from sheets_gm.rulesets.coalition.state import Army, CoalitionState, Creature, rank_text
from sheets_gm.sheets.spec import TabNames

#: Rows a View tab's panel holds (the sync's ``VIEW_PANEL_ROWS``): a longer panel ends with a line saying so.
PANEL_ROWS = 40


def slots_text(army: Army) -> str:
    """``5000/2500/1500/1000``."""
    return "/".join(map(str, army.units))


def _cut(rows: kit.Grid, rest: str) -> kit.Grid:
    """``rows`` cut to the panel's rows, the last one then saying how many more there are and where they are
    (``rest``: a tab that has them all)."""
    if len(rows) <= PANEL_ROWS:
        return rows
    return [*rows[:PANEL_ROWS - 1], [f"… {len(rows) - PANEL_ROWS + 1} more rows: {rest}"]]


def _army_text(a: Army) -> str:
    """An army's square, rank, slots and colour bonus in one phrase."""
    bonus = " · colour bonus +1" if a.colour_bonus else ""
    return f"{a.at} · {rank_text(a.side, a.rank)} · units {slots_text(a)} ({a.total}){bonus}"


def creature_text(c: Creature) -> str:
    """``5000 Elves (green, size 2)``: a creature of an army with its count, colours and size."""
    colours = "/".join(x.value for x in c.colours) or "colourless"
    return f"{c.count} {c.name} ({colours}, size {c.size}){' Phyrexian' if c.phyrexian else ''}"


def full_strength_label(a: Army) -> str:
    """``'at full strength:'`` when the army's slots no longer hold its creatures' counts (it has lost units: the
    counts are its design's), else ``''``."""
    return "at full strength:" if a.creatures and sum(c.count for c in a.creatures) != a.total else ""


def makeup_text(a: Army) -> str:
    """What an army is made of, as the seed's map showed it on a click: its legend, each creature with its
    count, colours and size, its factions and whether its colours give the bonus.

    >>> from sheets_gm.rulesets.coalition.enums import Colour
    >>> from sheets_gm.rulesets.coalition.state import Creature
    >>> elves = Creature("Elves", (Colour.GREEN,), 2, 5000)
    >>> makeup_text(Army("Ann", Side.COALITION, 2, "Dominaria 3C", (5000, 0, 0, 0), legend="Freyalise",
    ...                  creatures=(elves,), factions=(Colour.GREEN,)))
    'legend Freyalise · 5000 Elves (green, size 2) · factions green · colour bonus +1'
    """
    label = full_strength_label(a)
    creatures = f"{label + ' ' if label else ''}{'; '.join(creature_text(c) for c in a.creatures)}"
    parts = [f"legend {a.legend}" if a.legend else "", creatures or "creatures not given",
             f"factions {'/'.join(c.value for c in a.factions)}" if a.factions else "",
             "colour bonus +1" if a.colour_bonus else "no colour bonus"]
    return " · ".join(p for p in parts if p)


def side_panel(state: CoalitionState, side: Side, orders_tab: str = "orders") -> kit.Grid:
    """A side's armies (square, rank, slots, colour bonus, turns counted in a structure, battle), then the score.
    The View tab's first column is the army, the third (its wide one) the rest. Past the panel's rows, the last
    says so: every army has its row in the side's ``orders_tab``."""
    fighting = {name: b.at for b in state.battles for name in b.armies}
    rows: kit.Grid = [[f"{side.display}'s armies, turn {state.turn}"],
                      ["Army", "Rank", "Square · rank · units per slot 1/2/3/4 (total) · what it is doing"]]
    for a in sorted((a for a in state.armies if a.side is side), key=lambda a: (-a.rank, a.name)):
        notes = []
        if a.name in fighting:
            notes.append(f"in the battle at {fighting[a.name]}")
        if state.counters.get(a.name):
            notes.append(f"{counted(state.counters[a.name], 'turn')} counted in its structure")
        if a.name in state.heal_requests:
            notes.append("asked to heal")
        rows.append([a.name, a.rank, " · ".join([_army_text(a), *notes])])
    rows.append([])
    rows.append(["Victory points", "", f"Coalition {state.vp.get('coalition', 0)}, "
                                       f"Phyrexia {state.vp.get('phyrexia', 0)}"])
    return _cut(rows, f"every army has its row in the {orders_tab} tab (square, rank and units), and the score is "
                      "in its status line")


def judge_panel(state: CoalitionState, board: Board, *, gm: bool = False, judge_tab: str = "Judge",
                report_tab: str = "Turn report", strategies_to: str = "") -> kit.Grid:
    """The battles to judge, each with its armies (side, rank, slots, colour bonus, and under each what it is made
    of: legend, creatures, colours), then the announcements post.
    When that is longer than the panel, every battle gets one row (its armies on it) and the post is left to the
    ``report_tab``; past the panel's rows, the last names the battles left out and the ``judge_tab`` rows that
    have them all."""
    armies = state.by_name()
    waiting = [b for b in state.battles if b.announced]
    later = [b for b in state.battles if not b.announced]
    rows: kit.Grid = [[f"Battles to judge, turn {state.turn}" if waiting else "No battle to judge now"]]
    if waiting:
        rows.append(["Square", "Side", "The battle, then each army: square, rank, units per slot 1/2/3/4 (total)"])
    detailed: kit.Grid = []
    for b in waiting:
        detailed.append([b.at, "", f"{battle_title(b)} · {board.terrain_of(b.at).value} · {b.weather}"])
        for a in (armies.get(n) for n in b.armies):
            if a is not None:
                detailed += [["", a.side.value, f"{a.name}: {_army_text(a)}"], ["", "", f"   {makeup_text(a)}"]]
    tail: kit.Grid = []
    if later:
        tail.append(["Next turn", "", "Announced at the next deadline (made by a bump): "
                                      + ", ".join(f"{battle_title(b)}, {b.at}" for b in later)])
    post: kit.Grid = [[line] for line in battle_announcements(state, board, strategies_to).split("\n")]
    changes: kit.Grid = []
    if gm and state.changes:
        changes.append([])
        changes.append(["Army changes waiting (applied once the army has counted its turns where it heals):"])
        changes += [[name, "", "; ".join(f"{c.count} {c.name}" for c in creatures)]
                    for name, creatures in sorted(state.changes.items())]
    whole: kit.Grid = [*rows, *detailed, *tail, [], ["To paste on the forum:"], *post, *changes]
    if len(whole) <= PANEL_ROWS:
        return whole
    # A row per battle, each army in a cell of its own right of it with its legend and creatures, so that as
    # many battles as the rows hold show whole; the post is in the report tab.
    compact: kit.Grid = [[b.at, "", f"{battle_title(b)} · {board.terrain_of(b.at).value} · {b.weather}",
                          *(f"{a.name} ({a.side.value}): {_army_text(a)} · {makeup_text(a)}"
                            for a in (armies.get(n) for n in b.armies) if a is not None)]
                         for b in waiting]
    header: kit.Grid = [rows[0], ["Square", "Side", "The battle", "Each army: square, rank, units per slot (total), "
                                                                "legend, creatures"]]
    note: kit.Grid = [[f"The Battle Announcements post to paste is in the {report_tab} tab."]]
    fitted: kit.Grid = [*header, *compact, *tail, *note, *changes]
    if len(fitted) <= PANEL_ROWS:
        return fitted
    room = PANEL_ROWS - len(header) - 1
    left = waiting[room:]
    return [*header, *compact[:room], [f"… {len(left)} more battles ({', '.join(b.at for b in left)}): every battle "
                                       f"has its row in the {judge_tab} tab's results table, and each army in one "
                                       "its row in the losses table under it, with its legend and creatures"]]


def panel(state: CoalitionState, board: Board, seat: str, tabs: TabNames | None = None,
          strategies_to: str = "") -> kit.Grid:
    """The View tab of ``seat``: a side's armies, or the judge's (and the GM's) battles; ``tabs`` names the tabs a
    panel too long for its rows sends the reader to."""
    names = tabs or TabNames(board="Turn report")
    if seat in (kit.JUDGE, kit.GM):
        return judge_panel(state, board, gm=seat == kit.GM, judge_tab=names.judge, report_tab=names.board,
                           strategies_to=strategies_to)
    try:
        side = Side(seat)
    except ValueError:
        return []
    return side_panel(state, side, names.orders.format(seat=seat))
