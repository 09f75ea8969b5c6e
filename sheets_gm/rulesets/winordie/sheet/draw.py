"""What the Win or Die sheets show, drawn from the engine's views so nothing hidden can slip in:
the public board (from the public view: terrain, exposed units with their damage, face-down
tokens, the effects waiting for the GM, the fallen), the status line with each legion's morale
and fatigue tracks, and a player's own panel (from her view: her units hidden or not, her
barrack, command tokens, crystals and her cards' abilities).

The board draws each hex as two cells of one column, Wesnoth's layout: even columns (B, D…)
one row lower. The hex's name and terrain stand in its upper cell, its unit in the lower. The
map starts on the third row, under the column letters, whose row is tall enough for the status
line that stands to its right.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sheets_gm.engine.grid import column_label
from sheets_gm.engine.hexgrid import Hex
from sheets_gm.rulesets.winordie.board import WodMap
from sheets_gm.rulesets.winordie.enums import Phase, Terrain
from sheets_gm.sheets.adapter import CONFIG_STAND_IN, BoardDrawing
from sheets_gm.sheets.layout import CellValue, Fill, Grid, cells
from sheets_gm.sheets.spec import SheetSpec

PENDING_LINES = 14  # effects listed in the GM's tab; more are counted on the last line
MAP_TOP = 2  # board rows above the map: a free row, then the column letters
STATUS_HEIGHT = 84  # the column letters' row, beside the status line: room for its five lines
HEX_WIDTH = 150
ROW_HEIGHT = 48  # three lines of a unit: name and card, damage and tokens, enhancements
View = Mapping[str, Any]


def hex_rows(h: Hex) -> tuple[int, int]:
    """The 0-based board rows of a hex's upper and lower cells."""
    top = MAP_TOP + 2 * h.row + (h.col & 1)
    return top, top + 1


def _terrain_key(board: WodMap, h: Hex) -> str:
    slot = board.bases.get(h)
    if slot is not None:
        return f"base{slot + 1}"
    terrain = board.terrain[h]
    return "plain" if terrain is Terrain.PLAIN else terrain.value


def _seat_sign(spec: SheetSpec, seats: Sequence[str], owner: str) -> str:
    return spec.symbols.get(f"seat{seats.index(owner) + 1}", "") if owner in seats else ""


def _unit_text(spec: SheetSpec, seats: Sequence[str], entry: Mapping[str, Any]) -> str:
    """A unit's lower cell: owner sign and name (and card), then its damage and command tokens, then an
    exposed unit's enhancements."""
    sign = _seat_sign(spec, seats, str(entry["owner"]))
    tokens = spec.symbols.get("token", "●") * int(entry["tokens"])
    if "token" in entry:  # face down: the public view gives the token and the damage lying beside it
        damage = int(entry.get("damage", 0))
        lines = [f"{sign} {entry['token']}", "face down" + (f" · {damage} damage" if damage else "")]
    else:
        lines = [f"{sign} {entry['id']} {entry['card']}", f"{entry['damage']}/{entry['health']} damage"]
        if entry.get("enhancements"):
            lines.append("+ " + ", ".join(entry["enhancements"]))
    if tokens:
        lines[1] += f" {tokens}"
    return "\n".join(lines)


def draw_board(spec: SheetSpec, board: WodMap, view: View) -> BoardDrawing:
    """The public board from the public view: the map, then the fallen and the effects the GM is to apply."""
    width, height = board.grid.width, board.grid.height
    map_rows = MAP_TOP + 2 * height + 1
    values: Grid = [[""] * width for _ in range(map_rows)]
    values[MAP_TOP - 1] = [column_label(c) for c in range(width)]
    fills: list[Fill] = []
    seats = [p["name"] for p in view["players"]]
    colours = spec.colours.extra
    for h in board.cells():
        top, bottom = hex_rows(h)
        key = _terrain_key(board, h)
        sign = spec.symbols.get(key, "")
        values[top][h.col] = f"{h.label} {sign}".strip()
        fills.append(Fill(cells(h.col, top + 1, h.col, bottom + 1), colours.get(key, "#FFFFFF"), wrap=True,
                          border=True))
    for entry in view["board"]:
        at = board.parse(str(entry["at"]))
        values[hex_rows(at)[1]][at.col] = _unit_text(spec, seats, entry)
    values.append([""] * width)
    dead = ", ".join(f"{d['id']} ({d['card']})" for d in view["dead"])
    values.append(_line(f"Fallen: {dead or 'none yet'}", width))
    waiting = ", ".join(f"#{p['id']} {p['name']} ({p['source']})" for p in view["pending"])
    if view["phase"] == Phase.OVER.value:  # the GM can no longer apply anything (adjust refuses a match over)
        waiting = "nothing: the match is over"
    values.append(_line(f"Waiting for the GM: {waiting or 'nothing'}", width))
    fills.append(Fill(cells(0, len(values), width - 1, len(values)), colours.get("pending", "#FFFFFF")))
    return BoardDrawing(values, tuple(fills), column_widths=dict.fromkeys(range(width), HEX_WIDTH),
                        row_heights={MAP_TOP - 1: STATUS_HEIGHT, **dict.fromkeys(range(MAP_TOP, map_rows), ROW_HEIGHT)},
                        legend=_legend(spec, board, seats), print_fewest=True)


#: The public Cards tab: its name, and its rows, fixed so that its size tells nothing of the legions' hidden cards.
CARDS_TAB = "Cards"
CARD_ROWS = 120


def draw_cards(spec: SheetSpec, view: View) -> BoardDrawing:
    """The public Cards tab from the public view: every card a unit has been seen as (exposed, or fallen), its
    numbers and each ability with its text, to look a revealed unit up; a player's own cards are in her View."""
    rows: Grid = []
    for card in view["cards"]:
        about = [card["name"], card["faction"], card["type"], stats({}, card)]
        for i, ability in enumerate(card["abilities"] or [None]):
            said = [f"{ability['name']} ({ability['type']})", ability["text"]] if ability else ["(no ability)", ""]
            rows.append([*(about if i == 0 else [""] * len(about)), *said])
    if len(rows) > CARD_ROWS:
        rows = [*rows[:CARD_ROWS - 1], [f"… {len(rows) - CARD_ROWS + 1} more rows: the tab holds {CARD_ROWS}"]]
    values: Grid = [["Card", "Faction", "Type", "Stats", "Ability", "What it does"], *rows]
    values += [[""] * 6 for _ in range(CARD_ROWS + 1 - len(values))]
    header = Fill(cells(0, 1, 5, 1), spec.colours.header, bold=True)
    return BoardDrawing(values, (header, Fill(cells(0, 2, 5, CARD_ROWS + 1), "#FFFFFF", wrap=True)),
                        column_widths={0: 150, 1: 110, 2: 90, 3: 430, 4: 190, 5: 520},
                        legend=[["Every card a unit has been seen as, in either legion (exposed, or fallen): its "
                                 "numbers and abilities. A face-down token's card stays off this list."]],
                        tab=CARDS_TAB, print_title_rows=1)  # its header on every printed page


def _line(text: str, width: int) -> list[CellValue]:
    """A board row holding one text in its first cell (it runs on over the empty cells to its right)."""
    return [text, *[""] * (width - 1)]


def _legend(spec: SheetSpec, board: WodMap, seats: Sequence[str]) -> Grid:
    last = Hex(board.grid.width - 1, board.grid.height - 1)
    signs = spec.symbols
    out: Grid = [
        [f"Hexes A1 to {last.label}: each is two cells of a column (even columns sit half a hex lower); "
         "its name and terrain above, its unit below."],
        [f"{_seat_sign(spec, seats, seats[0])} {seats[0]}'s units (baseline 1) · "
         f"{_seat_sign(spec, seats, seats[1])} {seats[1]}'s units (baseline 2)"],
        ["A face-down token shows whose it is and any damage dealt to it; an exposed unit shows its id, card, "
         "damage/health and enhancements."],
        [f"{signs.get('token', '●')} a command token on the unit this turn (at most 3)."],
        [" · ".join(signs[k] for k in ("mine", "forest", "mountain", "highland") if signs.get(k))],
        ["A legion loses when its morale falls to its fatigue or below, or its fatigue reaches the limit."],
    ]
    return out


def tracks(view: View, fatigue_limit: int, best_of: int) -> str:
    """Each legion's morale and fatigue tracks, crystals and command tokens (and wins in a best of N)."""
    parts = []
    for p in view["players"]:
        wins = f", {p['wins']} won" if best_of > 1 else ""
        parts.append(f"{p['name']}: morale {p['morale']} · fatigue {p['fatigue']}/{fatigue_limit} · "
                     f"{_count(p['crystals'], 'crystal')} · {_count(p['tokens'], 'command token')}{wins}")
    return " | ".join(parts)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def own_panel(view: View, seat: str, fatigue_limit: int) -> Grid:
    """A player's View panel from her view: her tracks, her units, her barrack and her cards' abilities."""
    me = next(p for p in view["players"] if p["name"] == seat)
    cards = {c["name"]: c for c in view["cards"]}
    council = ", ".join(me["council"]) or "none"
    out: Grid = [
        ["Your legion", f"morale {me['morale']}", f"fatigue {me['fatigue']}/{fatigue_limit} · "
         f"{_count(me['crystals'], 'crystal')} · {_count(me['tokens'], 'command token')} · council: {council}"],
        [],
        ["Your unit", "Card", "Stats", "Hex", "Face", "Damage", "Tokens", "Used"],
    ]
    for u in view["mine"]:  # the long texts stand in column C, the View tab's wide one
        out.append([u["id"], u["card"], stats(u, cards.get(u["card"], {})), u["at"] or "not deployed", face(u),
                    f"{u['damage']}/{u['health']}", u["tokens"], ", ".join(u["used"] + u["ultimates"])])
    out += [[], ["Barrack", "Cost", "Stats"]]
    barrack: dict[str, int] = {}
    for name in view["barrack"]:
        barrack[name] = barrack.get(name, 0) + 1
    for name, count in barrack.items():
        card = cards.get(name, {})
        cost = card.get("cost", "")  # in words, left as the Stats beside it ("4" ran into "speed 3 · …")
        out.append([f"{name} ×{count}", _count(cost, "crystal") if isinstance(cost, int) else cost, stats({}, card)])
    if not barrack:
        out.append(["(empty)"])
    out += [[], ["Card", "Ability", "What it does", "Type"]]
    own = sorted({u["card"] for u in view["mine"]} | set(barrack))
    for name in own:
        for a in cards.get(name, {}).get("abilities", []):
            out.append([name, a["name"], a["text"], a["type"]])
    return out


def gm_panel(pending: Sequence[Mapping[str, Any]], views: Sequence[View]) -> Grid:
    """The GM's tab: the ability and tactic effects to apply (with the command that settles each), then
    every unit, hidden or not, from each player's own view."""
    out: Grid = [[f"Effects to apply ({len(pending)}): sheets-gm adjust -c {CONFIG_STAND_IN} --damage … --reason …, "
                  "then --done N"],
                 ["#", "Source", "What it does", "Ability or tactic", "Aimed at", "Player", "Turn"]]
    lines: Grid = [[p["id"], p["source"], p["text"], p["name"], p["target"], p["player"], p["turn"]]
                   for p in pending]  # the text in column C, the tab's wide one
    if len(lines) > PENDING_LINES:
        lines = [*lines[:PENDING_LINES - 1], [f"… and {len(pending) - PENDING_LINES + 1} more"]]
    out += lines or [["(none)"]]
    out += [[], ["Every unit", "Player", "Card · face", "Hex", "Damage", "Tokens", "Used"]]
    for view in views:
        for u in view["mine"]:
            out.append([u["id"], u["owner"], f"{u['card']} · {face(u)}", u["at"] or "not deployed",
                        f"{u['damage']}/{u['health']}", u["tokens"], ", ".join(u["used"] + u["ultimates"])])
    return out


def face(unit: Mapping[str, Any]) -> str:
    """How a unit of hers stands: face down as which token, exposed, or not deployed yet."""
    if unit["at"] is None:
        return "not deployed"
    return f"face down: {unit['token']}" if unit["hidden"] else "exposed"


def stats(unit: Mapping[str, Any], card: Mapping[str, Any]) -> str:
    """A card's numbers (with the unit's enhancements, when a unit is given) in one line."""
    if not card:
        return ""
    speed = unit.get("speed", card["speed"])
    power = unit.get("power", card["power"])
    counter = unit.get("counter", card["counter"])
    text = (f"speed {speed} · power {power} hits {card['hit']}+ · counter {counter} hits {card['counter_hit']}+ · "
            f"health {unit.get('health', card['health'])} · range {card['range']}")
    if card.get("flying"):
        text += " · flying"
    if unit.get("enhancements"):
        text += " · " + ", ".join(unit["enhancements"])
    return text


def unit_entry(view: View, uid: str) -> Mapping[str, Any] | None:
    """One of her units in her view, by id."""
    return next((u for u in view["mine"] if u["id"] == uid), None)


def unit_cells(view: View, uid: str) -> Mapping[str, CellValue]:
    """The shown cells of her unit's row in the units table."""
    u = unit_entry(view, uid)
    if u is None:
        return {}
    cards = {c["name"]: c for c in view["cards"]}
    return {"card": u["card"], "at": u["at"] or "—", "face": face(u), "damage": f"{u['damage']}/{u['health']}",
            "stats": stats(u, cards.get(u["card"], {}))}
