"""The latest results, which the page of the match now opens on: the last resolution's public Log, its battles and
its moves picked out by their Log kind, kept beside that resolution's page (``w3.log.json``) so that a build made
after an adjustment, a change of deadline or an undo shows the resolution the match counts last."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sheets_gm.web.page import LogLine

#: The Log kinds of a battle, every game's (a fight, an attack, its result, a kill, a death, a structure hit).
BATTLE_KINDS = frozenset({
    "battle", "result", "kill", "squad", "siege", "attack", "killed", "counter", "died", "archery duel", "boss hit",
    "boss killed", "knocked down", "structure damaged", "structure destroyed", "champion died", "conquered",
})
#: The Log kinds of a move, every game's (a move, a route, a raid or an intercept, a bump, a deployment, a reveal).
MOVE_KINDS = frozenset({
    "moved", "route", "raid", "intercept", "portal", "transfer", "bump", "teleported", "stayed", "deployed",
    "revealed", "recruited", "mercenary", "called",
})
#: The Log kinds a game writes for something else than a battle, which the others' word for it names: the Coalition's
#: ``counter`` is an army counting its turns in a structure (towards healing, changing its creatures, destroying it or
#: dominating a plane), not a counter-attack. Each is listed apart, under its game's words for it.
OWN_KINDS: dict[str, dict[str, str]] = {"coalition": {"counter": "Turns counted in structures"}}
#: How many lines of moves are shown open; more are folded (a war of 600 armies moves hundreds a turn).
OPEN_MOVES = 30


@dataclass(frozen=True, slots=True)
class Latest:
    """A resolution the match counts: its page's file, its heading, its public Log lines and the index of the Log
    row after its last (where the lines of the GM's adjustments made since start)."""

    file: str
    label: str
    log: tuple[LogLine, ...]
    end: int = 0
    game: str = ""  # the game's registry name (its own kinds: ``OWN_KINDS``)
    #: where the armies it moves stood before it, by name: each one's plane (its index) and place (``orders.moving``)
    starts: Mapping[str, Sequence[Any]] = field(default_factory=dict)

    @property
    def battles(self) -> tuple[LogLine, ...]:
        """Its Log lines of battles."""
        kinds = battle_kinds(self.game)
        return tuple(line for line in self.log if line[1] in kinds)

    @property
    def moves(self) -> tuple[LogLine, ...]:
        """Its Log lines of moves."""
        return tuple(line for line in self.log if line[1] in MOVE_KINDS)

    @property
    def others(self) -> tuple[tuple[str, tuple[LogLine, ...]], ...]:
        """Its Log lines of the game's own kinds (``OWN_KINDS``), each kind's under its title: those it has."""
        own = OWN_KINDS.get(self.game, {})
        listed = ((title, tuple(line for line in self.log if line[1] == kind)) for kind, title in own.items())
        return tuple((title, lines) for title, lines in listed if lines)

    @property
    def battles_open(self) -> bool:
        """Whether its battles are few enough to show unfolded (a war's hundreds are folded under the map)."""
        return len(self.battles) <= OPEN_MOVES

    @property
    def moves_open(self) -> bool:
        """Whether its moves are few enough to show unfolded."""
        return len(self.moves) <= OPEN_MOVES


def battle_kinds(game: str) -> frozenset[str]:
    """The Log kinds of a battle in the game of registry name ``game``: every game's, but its own kinds."""
    return BATTLE_KINDS - OWN_KINDS.get(game, {}).keys()


def sidecar(page_file: str) -> str:
    """The file beside a resolution's page that keeps its Log for the page of the match now (``w3.log.json``)."""
    return page_file.removesuffix(".html") + ".log.json"


def latest_bytes(latest: Latest) -> bytes:
    """The bytes of ``latest``'s sidecar file (written by the caller, as every file of the folder is)."""
    return json.dumps({"label": latest.label, "log": [list(line) for line in latest.log], "end": latest.end,
                       **({"starts": latest.starts} if latest.starts else {})}, ensure_ascii=False).encode()


def read_latest(folder: Path, page_file: str, game: str = "") -> Latest | None:
    """The latest results kept beside ``page_file`` in ``folder`` (of the game of registry name ``game``); None when
    there are none or they cannot be read (a folder built before they were kept: the page then opens on the window, as
    it did)."""
    try:
        data = json.loads((folder / sidecar(page_file)).read_text(encoding="utf-8"))
        starts = data.get("starts", {})
        return Latest(page_file, str(data["label"]), tuple((str(t), str(k), str(s)) for t, k, s in data["log"]),
                      int(data.get("end", 0)), game, starts if isinstance(starts, dict) else {})
    except (OSError, ValueError, KeyError, TypeError):
        return None

