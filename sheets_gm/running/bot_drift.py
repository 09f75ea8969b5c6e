"""A running match's bots beside the config's ``[bots]``: what differs, and the command that applies it.

``[bots]`` (and the roster file's ``bot`` column) is read when the match is created. Once it runs, the match's
bots are part of its record and change only by the GM's logged ``adjust --bot``, between two windows, which
``undo`` takes back with the resolution it follows. A poll never applies an edit of ``[bots]`` itself: the
config would be a second word on the bots beside the log, an ``adjust --bot`` or an ``undo`` would be overturned
at the next poll by a file nobody re-read, and a poll would write a GM event nobody asked for at that moment. So
``sync`` and ``doctor`` say that the edit is not applied and print the ``adjust`` that applies it.

The other way round, a logged ``adjust --bot`` is the GM's newer word on the seats it names: ``[bots]`` still saying
what it said before is not an edit to apply, and no sync asks her to undo the hand-over (``--bot …=none``). The
command keeps what ``[bots]`` said of those seats then (``remember_hand_over``, in the GM's ``.sheets-gm`` folder);
a seat is compared again once ``[bots]`` says something else of it (she edited it since).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterable, Mapping
from pathlib import Path

from sheets_gm.match.config import MatchConfig
from sheets_gm.match.match_roster import roster_bots, roster_file_of
from sheets_gm.sheets.private_files import make_private, private_folder
from sheets_gm.sync.bot_seats import NO_BOT

#: What a ``[bots]`` line may say for a person (``adjust --bot`` takes ``none``).
PERSON = ("", "no", NO_BOT)


def configured_bots(config: MatchConfig) -> dict[str, str]:
    """The bots ``init`` would give the match now: the roster file's ``bot`` column (when the config names a
    roster file that can be read), then ``[bots]`` over it; a person's name maps to ``none``."""
    from sheets_gm.rulesets.registry import get_ruleset

    found: dict[str, str] = {}
    if config.roster is not None:
        try:
            found = roster_bots(get_ruleset(config.ruleset).traits,
                                roster_file_of(get_ruleset(config.ruleset).traits, config.roster, config.seats))
        except (OSError, ValueError):  # SeatRosterError too
            found = {}  # a roster file that cannot be read now is doctor's to name; the bots are [bots]' alone
    found.update(config.bots)
    return {name: NO_BOT if kind.strip().lower() in PERSON else kind.strip() for name, kind in found.items()}


def hand_overs_path(config: MatchConfig) -> Path:
    """Where the command keeps what ``[bots]`` said of the seats the GM's ``adjust --bot`` handed."""
    return config.state_dir / f"{config.path.stem}.hand-overs.json"


def _handed(config: MatchConfig) -> dict[str, str]:
    """What ``[bots]`` said of each seat when the GM last handed it by ``adjust --bot`` (none kept: empty)."""
    try:
        found = json.loads(hand_overs_path(config).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}


def remember_hand_over(config: MatchConfig, names: Iterable[str]) -> None:
    """After the GM's ``adjust --bot`` of ``names``: keep what ``[bots]`` says of them now, so that no sync warns that
    it differs from the match (the hand-over is the newer word) until she edits ``[bots]`` for them."""
    wanted = configured_bots(config)
    kept = {**_handed(config), **{name: wanted.get(name, NO_BOT) for name in names}}
    path = hand_overs_path(config)
    private_folder(path.parent)
    path.write_text(json.dumps(kept, sort_keys=True), encoding="utf-8")
    make_private(path)


def bot_drift(config: MatchConfig, held: Mapping[str, str]) -> tuple[list[str], dict[str, str]]:
    """Each way the configured bots (``configured_bots``) differ from the match's (``held``, its record's), in
    words, and the ``--bot`` changes that would make the match's what the config says (by name). A seat the GM
    handed by ``adjust --bot`` since ``[bots]`` last said something new of it is not named (``remember_hand_over``)."""
    wanted = configured_bots(config)
    handed = _handed(config)
    said: list[str] = []
    changes: dict[str, str] = {}
    for name, kind in wanted.items():
        have = held.get(name)
        if handed.get(name) == kind:  # [bots] unchanged since her hand-over: the logged adjust is the word
            continue
        if kind == NO_BOT and have is not None:
            said.append(f"[bots] has a person play {name}, but the {have} bot plays it in the match")
        elif kind != NO_BOT and have is None:
            said.append(f"[bots] names {name} = {kind!r}, but a person plays {name} in the match")
        elif kind != NO_BOT and have is not None and kind.lower() != have.lower():
            said.append(f"[bots] names {name} = {kind!r}, but the {have} bot plays {name} in the match")
        else:
            continue
        changes[name] = kind
    for name, have in held.items():
        if name not in wanted and handed.get(name) != NO_BOT:
            said.append(f"the {have} bot plays {name} in the match, which [bots] does not name")
            changes[name] = NO_BOT
    return said, changes


def bots_fix(config: MatchConfig, changes: Mapping[str, str]) -> str:
    """The two ways out of a drift: the ``adjust`` that applies the config's bots, or ``[bots]`` made to say the
    match's."""
    bots = " ".join(f"--bot {shlex.quote(f'{name}={kind}')}" for name, kind in changes.items())
    config_name = shlex.quote(str(config.path))
    return (f"to apply it, run `sheets-gm adjust -c {config_name} {bots} --reason \"…\"` between two windows "
            f"(logged; undo takes it back); or make [bots] in {Path(config.path).name} say what the match has "
            "(status names its bots)")
