"""The replay of a match on the generic sync: everything needed to recompute every roll and state.

It holds the ruleset, its settings and board, the seed (and the hash published at the start),
the first state, and for every resolution the window, the GM events applied before it, its
orders, the state it was resolved from and its deal (after an undo, see ``TurnDice.dealt``),
then the final state. ``replay_states``
recomputes it all through the ruleset and names the first difference.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sheets_gm.engine.dice import TurnDice, seed_hash
from sheets_gm.engine.diff import first_difference
from sheets_gm.engine.gm_events import apply_gm, gm_event_from_json
from sheets_gm.engine.settings import SettingError, parse_settings, settings_to_mapping
from sheets_gm.rulesets.registry import AnyRuleset, UnknownRulesetError, get_ruleset
from sheets_gm.sheets.backend import SheetError
from sheets_gm.sync.life.own_lines import OWN_LINES, own_lines
from sheets_gm.sync.match_record import MatchRecord, Reseed, history_rows, joined_cells, kept_keys
from sheets_gm.sync.sheets import MatchSheets

WINDOW_REPLAY_FORMAT = "sheets-gm replay v3 (windows)"


class WindowReplayError(ValueError):
    """A replay that is malformed."""


def match_history(sheets: MatchSheets, record: MatchRecord, engine_tab: str) -> list[dict[str, Any]]:
    """Every resolution's history entry (one read of the engine tab's history rows)."""
    if record.resolved < 1:
        return []
    (grid,) = sheets.engine.read([history_rows(engine_tab, record.resolved)])
    entries = []
    for i in range(record.resolved):
        row = grid[i] if i < len(grid) else []
        try:
            entry = json.loads(joined_cells(row, 1))
        except (IndexError, ValueError):  # not JSON, or a packed value damaged
            raise SheetError(f"tab {engine_tab!r}: the history row of resolution {i + 1} is missing or "
                             "unreadable; restore it from an export") from None
        if not isinstance(entry, dict) or entry.get("resolution") != i + 1:
            raise SheetError(f"tab {engine_tab!r}: the history row of resolution {i + 1} holds another record")
        entries.append(entry)
    return entries


def _events(pending: dict[str, Any] | None) -> list[Any]:
    return list(pending["events"]) if pending else []


#: A history entry's key (and the replay's) for a match moved from a ruleset's old layout: the Log rows that layout
#: wrote, in its own words (``log_check`` compares them by their figures).
OLD_LOG_ROWS = "old_log_rows"


def entry_seed(seeds: Sequence[bytes], entry: Mapping[str, Any]) -> bytes:
    """The seed in force when the resolution ``entry`` records (a history row, or the replay's) resolved: the one
    its ``seed`` names by its place in ``seeds`` (``MatchRecord.seeds``), the first when it names none (every
    resolution of a match whose end no undo reopened). ValueError when it names one the chain does not hold."""
    index = entry.get("seed", 0)
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(seeds):
        raise ValueError(f"resolution {entry.get('resolution')} names seed {index!r}, and the match has "
                         f"{len(seeds)} (0 to {len(seeds) - 1})")
    return seeds[index]


def doc_seeds(doc: Mapping[str, Any]) -> tuple[bytes, ...]:
    """Every seed a replay document holds, in order (``MatchRecord.seeds``): its ``seed`` and those its ``reseeds``
    chain (ValueError, KeyError or TypeError when one cannot be read)."""
    return (bytes.fromhex(str(doc["seed"])), *(Reseed.from_json(link).seed for link in doc.get("reseeds") or []))


def entry_dice(rules: AnyRuleset, seeds: Sequence[bytes], state: Any, entry: Mapping[str, Any]) -> TurnDice:
    """The dice a resolution of the replay (or a history row) rolled: from the seed then in force (``entry_seed``),
    its deal, the rolls it kept from an earlier deal (public before the orders of a window an undo reopened) as
    they were shown."""
    window = rules.window(state)
    keep = kept_keys(entry.get("kept_dice"), window.key if window is not None else "")
    return rules.dice(entry_seed(seeds, entry), state).dealt(int(entry.get("deal", 0)), keep)


def replay_document(record: MatchRecord, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The replay of a match from its engine record and history entries."""
    ruleset = record.ruleset
    first_gm = entries[0].get("gm_events") if entries else record.gm_events
    if first_gm:
        initial = first_gm["state_before"]
    else:
        initial = entries[0]["state_before"] if entries else ruleset.state_codec.to_json(record.state)
    return {
        "format": WINDOW_REPLAY_FORMAT,
        "ruleset": record.name,
        "seats": list(record.seats),
        "seed": record.seed.hex(),
        "seed_hash": record.seed_hash,
        **({"reseeds": [link.to_json() for link in record.reseeds]} if record.reseeds else {}),
        "settings": settings_to_mapping(ruleset.settings),
        "board": ruleset.board_text,
        "initial_state": initial,
        "resolutions": [{"resolution": e["resolution"], "window": e["window"], "gm_events": _events(e.get("gm_events")),
                         "orders": e["orders"], "state_before": e["state_before"],
                         **({"deal": e["deal"]} if e.get("deal") else {}),
                         **({"seed": e["seed"]} if e.get("seed") else {}),
                         **({"kept_dice": e["kept_dice"]} if e.get("kept_dice") else {})} for e in entries],
        "gm_events_after": _events(record.gm_events),
        OWN_LINES: own_lines([*(e.get("gm_events") for e in entries), record.gm_events]),
        "final_state": ruleset.state_codec.to_json(record.state),
        **({OLD_LOG_ROWS: max(int(e.get(OLD_LOG_ROWS) or 0) for e in entries)}
           if any(e.get(OLD_LOG_ROWS) for e in entries) else {}),
    }


@dataclass(frozen=True, slots=True)
class ReplayCheck:
    """The outcome of a replay: resolutions replayed, dice rolled, the first difference (None: all equal)."""

    resolutions: int
    rolls: int
    difference: str | None


def replay_rules(doc: dict[str, Any]) -> AnyRuleset:
    """The rules a replay document was played with (WindowReplayError if it cannot say)."""
    try:
        cls = get_ruleset(str(doc["ruleset"]))
        settings = parse_settings(cls.traits.settings_type, doc["settings"], where="replay settings")
        return cls.create(settings, str(doc["board"]))
    except (KeyError, ValueError, TypeError, UnknownRulesetError, SettingError) as exc:
        raise WindowReplayError(f"the replay is malformed: {exc}") from None


def _apply(rules: AnyRuleset, state: Any, events: list[Any], where: str) -> tuple[Any, str | None]:
    for i, data in enumerate(events, start=1):
        try:
            state = apply_gm(rules, state, gm_event_from_json(rules, data)).state
        except (KeyError, ValueError, TypeError, IndexError) as exc:
            return state, f"GM event {i} {where} cannot be applied ({exc})"
    return state, None


def chain_problem(doc: Mapping[str, Any]) -> str | None:
    """Why the seeds of the replay ``doc`` cannot be trusted, or None: the first against the hash published at the
    start of the match, each drawn since (an undo of the match's end) against the hash committed at that undo.

    >>> from sheets_gm.engine.dice import seed_hash
    >>> link = {"seed": "cd", "hash": seed_hash(b"x"), "reason": "oops", "ended": {}}
    >>> chain_problem({"seed": "ab", "seed_hash": seed_hash(bytes.fromhex("ab")), "reseeds": [link]})
    'the seed committed when the GM undid the end of the match (oops) does not match its hash (2d711642b726…)'
    """
    if seed_hash(bytes.fromhex(str(doc["seed"]))) != doc.get("seed_hash"):
        return "the seed does not match the hash published at the start of the match"
    for data in doc.get("reseeds") or []:
        link = Reseed.from_json(data)
        if seed_hash(link.seed) != link.hash:
            return (f"the seed committed when the GM undid the end of the match ({link.reason}) does not match its "
                    f"hash ({link.hash[:12]}…)")
    return None


def _ended_problem(rules: AnyRuleset, seeds: Sequence[bytes], doc: Mapping[str, Any]) -> tuple[int, str | None]:
    """Each resolution that ended the match before an undo reopened it (``Reseed.ended``), recomputed with the seed
    in force then: its dice and the state it ended at. The dice and draws rolled, and the first difference."""
    rolls = 0
    for data in doc.get("reseeds") or []:
        link = Reseed.from_json(data)
        ended = link.ended
        if "orders" not in ended:  # the GM's adjustment ended it: no die
            continue
        where = f"the resolution of window {ended.get('window')} that ended the match before the GM's undo " \
                f"({link.reason})"
        try:
            state = rules.state_codec.from_json(ended["state_before"])
            dice = entry_dice(rules, seeds, state, ended)
            after = rules.resolve(state, rules.orders_codec.from_json(ended["orders"]), dice).state
        except (KeyError, ValueError, TypeError) as exc:
            return rolls, f"{where} cannot be replayed ({exc})"
        rolls += len(dice.rolled) + len(dice.drawn)
        after, problem = _apply(rules, after, list(ended.get("gm_events_after") or []), f"after {where}")
        found = problem or first_difference(ended.get("state_after"), rules.state_codec.to_json(after))
        if found is not None:
            return rolls, problem or f"{where} differs, with the seed then in force: {found}"
    return rolls, None


def replay_states(doc: dict[str, Any]) -> ReplayCheck:
    """Recompute every resolution from the first state, the GM events, the orders and the seeds (each seed checked
    against its hash, each resolution dealt from the seed in force then, and each resolution an undo of the match's
    end took back recomputed too); compare every state with the recorded one."""
    rules = replay_rules(doc)
    try:
        seeds = doc_seeds(doc)
        state = rules.state_codec.from_json(doc["initial_state"])
        entries = list(doc["resolutions"])
        final = doc["final_state"]
        problem = chain_problem(doc)
    except (KeyError, ValueError, TypeError) as exc:
        raise WindowReplayError(f"the replay is malformed: {exc}") from None
    if problem is not None:
        return ReplayCheck(0, 0, problem)
    rolls, problem = _ended_problem(rules, seeds, doc)
    if problem is not None:
        return ReplayCheck(0, rolls, problem)
    for done, entry in enumerate(entries):
        where = f"before resolution {done + 1} (window {entry.get('window')})"
        state, problem = _apply(rules, state, entry.get("gm_events", []), where)
        if problem is None:
            found = first_difference(entry["state_before"], rules.state_codec.to_json(state))
            if found is not None:
                problem = f"the state {where} differs: {found}"
        if problem is not None:
            return ReplayCheck(done, rolls, problem)
        try:
            dice = entry_dice(rules, seeds, state, entry)
        except (ValueError, TypeError) as exc:
            return ReplayCheck(done, rolls, f"the deal of resolution {done + 1} cannot be read ({exc})")
        try:
            orders = rules.orders_codec.from_json(entry["orders"])
        except (KeyError, ValueError, TypeError) as exc:
            return ReplayCheck(done, rolls, f"the orders of resolution {done + 1} cannot be read ({exc})")
        state = rules.resolve(state, orders, dice).state
        rolls += len(dice.rolled) + len(dice.drawn)
    state, problem = _apply(rules, state, doc.get("gm_events_after", []), "after the last resolution")
    if problem is None:
        found = first_difference(final, rules.state_codec.to_json(state))
        if found is not None:
            problem = f"the final state differs from the replayed one: {found}"
    return ReplayCheck(len(entries), rolls, problem)


def stopped_at(doc: dict[str, Any]) -> str | None:
    """Where the match of a replay document stopped, in the words ``status`` uses: its open window's label
    (Wesnoth's ``round 3 · dusk · Ann``, GvG's ``turn 4``) or its end and result; None if it cannot say."""
    try:
        rules = replay_rules(doc)
        state = rules.state_codec.from_json(doc["final_state"])
    except (WindowReplayError, KeyError, ValueError, TypeError):
        return None
    window = rules.window(state)
    if window is not None:
        return window.label
    outcome = rules.outcome(state)
    return f"its end ({outcome.text})" if outcome is not None else "its end"
