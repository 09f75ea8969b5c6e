"""One army's trail over the turns, from what is public alone: a resolution's step of every army or unit, where it
stood on the board before the resolution and on the board after it (the public maps of the two windows, as the pages
show them), the places its move's Log lines name on the way, the Log lines of its battles and what became of it.
Each resolution's page has its steps beside it (``w3.trail.js``), a script the page loads only when a player asks
for a trail (a file of steps per resolution: a build writes its own and reads none). An army is known by its name as
the map writes it, a unit by its id (``Ann-R1`` of ``Ann-R1 Skeleton 34/34 HP``): the same over the turns."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

from sheets_gm.web.latest import battle_kinds
from sheets_gm.web.orders import Positions
from sheets_gm.web.page import LogLine

#: What every trail file starts with: the page's store of the resolutions' steps, by their page's file.
TRAIL_HEAD = "window.SHEETS_GM_TRAILS = window.SHEETS_GM_TRAILS || {};\n"
_ID = re.compile(r"[A-Z]\w*-(?:[A-Z]?\d+|[A-Z])")  # a unit's id by its player: Ann-7, Bo-R4, Ann-L, Bo-C1
_END = re.compile(r"[^\w)]+$")  # signs after a name (GvG's red1▼)
_WORD = re.compile(r"[^\s,;:()]+")
_WINS = re.compile(r": (.+?) wins\b")
_REVEALED = re.compile(r"^(.+?) is revealed\b[^:]*: (\S+)")
#: What a Log line says of one who leaves the map for good, after its name (its type in brackets between), and the
#: word the trail gives it.
_FATES = (("killed", r"(?: \([^)]*\))? (?:is killed|dies)\b"), ("disbanded", r" (?:[^.;]* )?disbands\b"))
_ENDS = re.compile(r"\b(?:is killed|dies|disbands)\b")  # a line that may say one of them


def trail_file(page_file: str) -> str:
    """The file beside a resolution's page that keeps its steps (``w3.trail.js``)."""
    return page_file.removesuffix(".html") + ".trail.js"


def trail_key(name: str) -> str:
    """What a trail knows one on the map by: a unit's id when its name starts with one, else its name without the
    signs after it. The page's script makes the same of a map's line (``page.js``: ``trailKey``)."""
    first = name.split(" ", 1)[0]
    return first if _ID.fullmatch(first) else _END.sub("", name)


def keyed(positions: Positions) -> dict[str, tuple[int, str]]:
    """``positions`` by trail key (a battle's own line is nobody)."""
    out: dict[str, tuple[int, str]] = {}
    for name, (plane, place) in positions.items():
        if not name.startswith("battle ("):
            out.setdefault(trail_key(name), (int(plane), str(place)))
    return out


def _named(text: str, keys: Collection[str], most: int) -> Iterator[str]:
    """The keys ``text`` names, in its order: each run of up to ``most`` words from a word's start that is a key
    (a possessive's ``'s`` or ``'`` after it left out: ``Academy Scouts' route``). A set looked up a few times a
    word, not every key tried: a war's hundreds of armies share their first words."""
    words = list(_WORD.finditer(text))
    for i, first in enumerate(words):
        for last in words[i:i + most]:
            run = text[first.start():last.end()]
            for key in (run, run.removesuffix("'s"), run.removesuffix("'")):
                if key in keys:
                    yield key
                    break


def steps(log: Sequence[LogLine], game: str, before: Positions, after: Positions,
          ways: Mapping[str, Sequence[tuple[int, str]]]) -> dict[str, Any]:
    """A resolution's steps: the Log lines of battles that name one on either map, and the step of each one it
    moved, brought, took off the map or sent to battle (where it stood before, where after, the places its move
    named on the way (``ways``: ``orders.routes``), its battles' lines by index, what became of it). One the step
    leaves out stayed where it stood: the page's script says so."""
    was, now = keyed(before), keyed(after)
    keys = {**was, **now}
    most = max((key.count(" ") + 1 for key in keys), default=1)
    kinds = battle_kinds(game)
    lines: list[LogLine] = []
    fought: dict[str, list[int]] = {}
    for line in log:
        if line[1] in kinds:
            for key in dict.fromkeys(_named(line[2], keys, most)):
                if not lines or lines[-1] is not line:
                    lines.append(line)
                fought.setdefault(key, []).append(len(lines) - 1)
    way = {trail_key(name): list(places) for name, places in ways.items()}
    ends = [text for _, _, text in log if _ENDS.search(text)]
    armies = {key: _step(key, was.get(key), now.get(key), way.get(key, []), fought.get(key, []), lines, ends)
              for key in keys}
    revealed = _revealed(log, was, now)
    for unit, token in revealed.items():  # one trail: the token's steps, then the unit's
        armies[token][1], armies[token][4] = list(now[unit]), f"revealed as {unit}"
        armies[unit][0], armies[unit][4] = list(was[token]), f"revealed (was {token})"
    moved = {key: step for key, step in armies.items() if step[0] != step[1] or any(step[2:])}
    return {"lines": [list(line) for line in lines], "armies": moved, **({"revealed": revealed} if revealed else {})}


def _revealed(log: Sequence[LogLine], was: Mapping[str, Any], now: Mapping[str, Any]) -> dict[str, str]:
    """The units ``log`` reveals, each by the token it was (Win or Die's ``Ann token 4 is revealed (it attacks):
    Ann-7 (Lancer)``): a token on the map before, a unit on it after that was not before."""
    out: dict[str, str] = {}
    for _, kind, text in log:
        found = _REVEALED.match(text) if kind == "revealed" else None
        if found is None:
            continue
        token = next((key for key in was if key == found[1] or key.startswith(found[1] + " ")), None)
        unit = trail_key(found[2])
        if token is not None and unit in now and unit not in was and token not in now:
            out[unit] = token
    return out


def _fate(key: str, ends: Sequence[str]) -> str:
    """What the lines ``ends`` say became of ``key``, who left the map: killed, disbanded, else off the map."""
    said = [text for text in ends if key in text]
    for word, pattern in _FATES:
        found = re.compile(r"(?<![\w-])" + re.escape(key) + pattern)
        if any(found.search(text) for text in said):
            return word
    return "off the map"


def _step(key: str, was: tuple[int, str] | None, now: tuple[int, str] | None, way: list[tuple[int, str]],
          fought: list[int], lines: Sequence[LogLine], ends: Sequence[str]) -> list[Any]:
    """One's step: before, after (None off the map), the way, its battles' lines, what became of it (``ends``: the
    resolution's lines that may say one left the map)."""
    said = [lines[i][2] for i in fought]
    if now is None:
        result = _fate(key, ends)
    elif was is None:
        result = "came on the map"
    else:
        winners = [found.group(1) for text in said for found in _WINS.finditer(text)]
        result = "" if not winners else "won" if winners[-1] == key else "lost"
    return [list(was) if was else None, list(now) if now else None, [list(p) for p in way if p not in (was, now)],
            fought, result]


def gone_of(data: Mapping[str, Any]) -> list[list[Any]]:
    """Of a resolution's steps, those who left the map in it: each one's key, what became of it, its plane and
    place before (what the finder lists of an army no map shows any more)."""
    return [[key, step[4], *step[0]] for key, step in data["armies"].items() if step[1] is None and step[0]]
