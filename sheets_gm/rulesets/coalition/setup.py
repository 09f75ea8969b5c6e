"""Armies from a roster: each row read and checked against the rulebook's army table.

A roster row (a ``Member`` whose seat is the side, or ``mercenary``: a roster group, no seat) carries the army's
columns as text: ``rank`` (1–6), ``at`` (``Dominaria 3A``), ``factions`` and ``primary``
(Coalition), ``units`` (``5000/2500/1500/1000``) or ``creatures``
(``5000 Llanowar Elves (green 1/1); 2500 Grizzly Bears (green 2/2)``, with ``phyrexian``
in the brackets for the Phyrexian watermark), ``legend``, ``player``, and ``guards`` for a
mercenary. The shipped sample is ``templates/coalition/armies.yaml``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from sheets_gm.rulesets import kit
from sheets_gm.rulesets.coalition.board import Board, PlaceError
from sheets_gm.rulesets.coalition.enums import PLAYER_SIDES, Colour, Phase, Side, StructureKind
from sheets_gm.rulesets.coalition.state import SLOT_CAPACITY, TOP_RANKS, Army, CoalitionState, Creature, rank_name
from sheets_gm.yamlio import YamlError, load_yaml_text

#: The seats: the two sides. The judge is no seat: ``traits.judge`` gives it its own window and tab.
SEATS = (Side.COALITION.value, Side.PHYREXIA.value)
_CREATURE = re.compile(r"^\s*(\d+)\s*[x×]?\s+(.+?)\s*\(([^)]*)\)\s*$")
_PT = re.compile(r"^(\d+)/(\d+)$")
_COLOURLESS = {"colourless", "colorless", "artifact", "eldrazi"}
MAX_UNIQUE = 6
ROSTER_KEYS = ("name", "side", "rank", "at", "units", "factions", "primary", "creatures", "legend", "player",
               "guards", "leader")


class RosterError(ValueError):
    """A roster row that breaks the army rules: the message names the row and what would be accepted."""


def parse_creatures(text: str) -> list[Creature]:
    """Creatures from ``5000 Llanowar Elves (green 1/1); 1000 Steel Golem (colourless 4/3)``; ValueError naming
    the entry."""
    out = []
    for part in [p for p in str(text).split(";") if p.strip()]:
        match = _CREATURE.match(part)
        if match is None:
            raise ValueError(f"creature {part.strip()!r}: write the count, the name and, in brackets, its colours "
                             "and power/toughness, like 5000 Llanowar Elves (green 1/1)")
        colours: list[Colour] = []
        size = None
        phyrexian = False
        for word in match.group(3).replace(",", " ").split():
            w = word.strip().lower()
            pt = _PT.match(w)
            if pt:
                size = max(int(pt.group(1)), int(pt.group(2)))
            elif w == "phyrexian":
                phyrexian = True
            elif w in _COLOURLESS:
                continue
            else:
                try:
                    colours.append(Colour(w))
                except ValueError:
                    raise ValueError(f"creature {match.group(2)!r}: {word!r} is not a colour (white, blue, black, "
                                     "red, green or colourless), a power/toughness like 3/2, or phyrexian") from None
        if size is None:
            raise ValueError(f"creature {match.group(2)!r}: give its power/toughness in the brackets, like 3/2")
        out.append(Creature(match.group(2).strip(), tuple(colours), size, int(match.group(1)), phyrexian))
    return out


def army_problems(army: Army, lost_colours: frozenset[Colour] = frozenset()) -> list[str]:
    """What breaks the rulebook's army table: slot sizes, creature sizes per slot, unique creatures, colours;
    with ``lost_colours`` (the colours of destroyed bases), creatures of those colours alone too."""
    problems = []
    if not 1 <= army.rank <= 6:
        return [f"rank {army.rank}: ranks run from 1 (Lieutenant / Centurion) to 6 (General / Chief Praetor)"]
    for slot, (units, cap) in enumerate(zip(army.units, SLOT_CAPACITY, strict=True), start=1):
        if units < 0 or units > cap:
            problems.append(f"slot {slot} holds {units} units; it holds 0 to {cap}")
    if len({c.name.lower() for c in army.creatures}) > MAX_UNIQUE:
        problems.append(f"{len({c.name.lower() for c in army.creatures})} unique creatures; an army has at most "
                        f"{MAX_UNIQUE}")
    title = rank_name(army.side, army.rank)
    for c in army.creatures:
        slot = c.size - army.rank + 1
        if not 1 <= slot <= 4:
            problems.append(f"{c.name} is {c.size}/{c.size} at most; a {title}'s slots hold {army.rank}/{army.rank} "
                            f"to {army.rank + 3}/{army.rank + 3} creatures")
        if army.side is Side.PHYREXIA and c.colours and set(c.colours) <= {Colour.WHITE, Colour.GREEN} \
                and not c.phyrexian:
            problems.append(f"{c.name} is {'/'.join(x.value for x in c.colours)}: Phyrexia uses no white or green "
                            "creature without the Phyrexian watermark")
        if army.side is Side.COALITION and c.colours and set(c.colours) <= lost_colours:
            problems.append(f"{c.name} is {'/'.join(x.value for x in c.colours)}: that base is destroyed, so its "
                            "colour's creatures are no longer available (a multicolour one with another colour is)")
        if army.side is Side.COALITION and c.colours and not set(c.colours) & set(army.factions):
            problems.append(f"{c.name} is {'/'.join(x.value for x in c.colours)}: the army's factions are "
                            f"{', '.join(f.value for f in army.factions)} (artifacts fit any army)")
    if army.side is Side.COALITION:
        if not army.factions:
            problems.append("a Coalition army names its factions (a primary and up to two secondaries)")
        elif len(army.factions) > 3:
            problems.append("a Coalition army has a primary faction and two secondary ones at most")
        if army.primary is not None and army.primary not in army.factions:
            problems.append(f"the primary faction {army.primary.value} is not among its factions")
    return problems


def slots_of(rank: int, creatures: Sequence[Creature]) -> tuple[int, int, int, int]:
    """Units per slot: each creature counted in the slot its size gives at this rank."""
    units = [0, 0, 0, 0]
    for c in creatures:
        slot = c.size - rank
        if 0 <= slot <= 3:
            units[slot] += c.count
    return units[0], units[1], units[2], units[3]


def army_from_fields(board: Board, name: str, side_text: str, fields: Mapping[str, Any]) -> Army:
    """One army from its roster columns; ValueError saying which column is wrong and what would be accepted."""
    try:
        side = Side(str(side_text).strip().lower())
    except ValueError:
        raise ValueError(f"side {side_text!r}: use coalition, phyrexia or mercenary") from None
    rank_text = str(fields.get("rank", "1" if side is Side.MERCENARY else "")).strip()
    if not rank_text.isdecimal():
        raise ValueError(f"rank {rank_text!r}: a whole number, 1 (Lieutenant / Centurion) to 6 (General / "
                         "Chief Praetor)")
    rank = int(rank_text)
    try:
        at = board.parse(str(fields.get("at", "")))
    except PlaceError as exc:
        raise ValueError(f"at: {exc}") from None
    factions = []
    raw_factions = fields.get("factions", "")
    for word in (raw_factions if isinstance(raw_factions, list) else str(raw_factions).replace(",", " ").split()):
        try:
            factions.append(Colour(str(word).strip().lower()))
        except ValueError:
            raise ValueError(f"factions: {word!r} is not a colour (white, blue, black, red, green)") from None
    primary = None
    if str(fields.get("primary", "") or "").strip():
        try:
            primary = Colour(str(fields["primary"]).strip().lower())
        except ValueError:
            raise ValueError(f"primary: {fields['primary']!r} is not a colour (white, blue, black, red, "
                             "green)") from None
        if primary in factions:
            factions.remove(primary)
        factions.insert(0, primary)
    creatures = parse_creatures(str(fields.get("creatures", "") or ""))
    units_text = str(fields.get("units", "") or "").strip()
    if units_text:
        parts = [p for p in re.split(r"[/,\s\[\]]+", units_text) if p]
        if len(parts) != 4 or not all(p.isdecimal() for p in parts):
            raise ValueError(f"units {units_text!r}: four whole numbers, slot 1 to slot 4, like 5000/2500/1500/1000")
        units = (int(parts[0]), int(parts[1]), int(parts[2]), int(parts[3]))
        if creatures and units != slots_of(rank, creatures):
            raise ValueError(f"units {units_text} do not match the creatures "
                             f"({'/'.join(map(str, slots_of(rank, creatures)))}); give one or the other")
    elif creatures:
        units = slots_of(rank, creatures)
    else:
        units = SLOT_CAPACITY
    guards = str(fields.get("guards", "") or "").strip() or None
    if side is Side.MERCENARY:
        if guards is None or guards.lower() not in board.by_name:
            example = next((f" (like {s.name})" for s in board.structures if s.kind is StructureKind.FEATURE), "")
            raise ValueError(f"guards {guards or ''!r}: a mercenary band guards a structure of the map, named as on "
                             f"the map{example}")
        guards = board.by_name[guards.lower()].name
    elif guards is not None:
        raise ValueError(f"guards {guards!r}: only a mercenary band (side mercenary) guards a structure; leave it "
                         f"empty for a {side.value} army")
    army = Army(name, side, rank, at, units, tuple(factions), primary, str(fields.get("player", "") or ""),
                str(fields.get("legend", "") or ""), tuple(creatures), guards)
    problems = army_problems(army)
    if problems:
        raise ValueError("; ".join(problems))
    return army


def new_match(board: Board, roster: kit.Roster, seed: bytes) -> CoalitionState:
    """The state before the first orders window; RosterError naming the roster row of a bad army."""
    del seed  # nothing is drawn at set-up: the roster places every army
    armies: list[Army] = []
    names: set[str] = set()
    for line, member in enumerate(roster.members, start=1):
        where = f"roster row {line} ({member.name})"
        if not member.name.strip():
            raise RosterError(f"roster row {line}: the army has no name")
        if member.name.lower() in names:
            raise RosterError(f"{where}: the army name is used twice")
        names.add(member.name.lower())
        try:
            armies.append(army_from_fields(board, member.name, member.seat, member.fields))
        except ValueError as exc:
            raise RosterError(f"{where}: {exc}") from None
    sides = {a.side for a in armies}
    for side in PLAYER_SIDES:
        if side not in sides:
            raise RosterError(f"the roster has no {side.value} army; each side needs at least one")
    top = tuple(sorted({a.side.value for a in armies if a.rank in TOP_RANKS and a.side in PLAYER_SIDES}))
    return CoalitionState(turn=1, phase=Phase.ORDERS, armies=tuple(armies), top_ranks_at_start=top)


def roster_from_yaml(text: str, where: str) -> kit.Roster:
    """The roster of an armies file (``templates/coalition/armies.yaml``); ValueError naming the line."""
    try:
        doc = load_yaml_text(text, where)
    except YamlError as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(doc, kit.LinedDict) or not isinstance(doc.get("armies"), list):
        raise ValueError(f"{where}: an armies file is a mapping with armies: a list of armies")
    members = []
    for entry in doc["armies"]:
        if not isinstance(entry, kit.LinedDict):
            raise ValueError(f"{where}: each army is a mapping (name:, side:, rank:, at: ...)")
        unknown = [k for k in entry if k not in ROSTER_KEYS]
        if unknown:
            raise ValueError(f"{where}:{entry.line_of(unknown[0])}: unknown key {unknown[0]!r}; known keys: "
                             f"{', '.join(ROSTER_KEYS)}")
        fields = {k: (", ".join(map(str, v)) if isinstance(v, list) else str(v)) for k, v in entry.items()
                  if k not in ("name", "side")}
        members.append(kit.Member(str(entry.get("name", "")), str(entry.get("side", "")), fields))
    return kit.Roster(SEATS, tuple(members))
