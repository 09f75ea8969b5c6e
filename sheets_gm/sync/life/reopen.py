"""An undo of a match's end: the end published the seed (the "match is over" notice, the export), so every die it
would deal from then on is known to all. The undo draws a fresh seed and commits it (its hash in the Log's line of
the undo, on the match page and in the reopened window's notices, as the first seed's hash was published at the
start); every window resolved after it is dealt from that seed, and the resolution the undo took back stays in the
record (``Reseed.ended``) for ``verify`` to check with the old seed, now public. A second undo of an end draws
another: the chain (``MatchRecord.reseeds``) holds any length.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from sheets_gm.engine.dice import new_seed, seed_hash
from sheets_gm.engine.events import Event
from sheets_gm.engine.gm_events import BY_GM
from sheets_gm.sync.life.own_lines import SyncEvent
from sheets_gm.sync.match_record import MatchRecord, Reseed

#: What ``Reseed.ended`` keeps of the history row of a resolution that ended the match: what its replay needs.
_ENDED_KEYS = ("resolution", "window", "orders", "state_before", "deal", "kept_dice", "seed", "log_from")


def ended_resolution(record: MatchRecord, entry: Mapping[str, Any]) -> dict[str, Any]:
    """What an undo of the resolution ``entry`` records (the one that ended the match at ``record``) keeps of it for
    ``verify``: its orders, the state it started from, its deal and seed, the GM events applied after it (a
    practice match's stand-in GM's), the state the match ended at, and the Log rows its lines went to (from its
    ``log_from`` to ``log_end``, indexes: ``verify -c`` checks their words too)."""
    ruleset = record.ruleset
    return {**{key: entry[key] for key in _ENDED_KEYS if key in entry},
            "gm_events_after": list((record.gm_events or {}).get("events") or []),
            "state_after": ruleset.state_codec.to_json(record.state), "log_end": record.log_rows}


def reseeded(record: MatchRecord, reason: str, ended: Mapping[str, Any], seed: bytes | None = None) -> MatchRecord:
    """``record`` dealing from a fresh seed (``seed``, drawn now when None), committed with ``reason`` and what the
    undo took back (``ended``): every later die comes from it. No roll is kept from an earlier deal (``kept_dice``):
    those were dealt from the seed the end published."""
    fresh = new_seed() if seed is None else seed
    return replace(record, reseeds=(*record.reseeds, Reseed(fresh, seed_hash(fresh), reason, dict(ended))),
                   kept_dice={})


def reseed_words(reason: str, committed: str) -> str:
    """The Log's line of an undo of the match's end, for the players (and the notices' reason of it).

    >>> reseed_words("wrong concession", "ab12")[:60]
    'The GM undid the end of the match (wrong concession): the di'
    """
    return (f"The GM undid the end of the match ({reason}): the dice from now on come from a new seed, committed as "
            f"{committed}; the old seed stays published so the ended turn can be checked.")


def reseed_event(logged_turn: int, reason: str, committed: str) -> Event:
    """The undo of the match's end as the Log says it (``reseed_words``), a line of the sync's own."""
    return Event(logged_turn, SyncEvent.UNDO, reseed_words(reason, committed),
                 {"reason": reason, "seed_hash": committed, BY_GM: True})
