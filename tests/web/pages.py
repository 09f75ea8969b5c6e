"""Match pages built from bot matches on the pure engine, as a poll's facts would hand them to the page (no
spreadsheet): each resolution's facts (the record after it, the state before, its events), built into a folder."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from sheets_gm.engine.events import Event, kind_words
from sheets_gm.engine.ruleset import JUDGE, Member, Resolution, Roster, Window
from sheets_gm.rulesets.registry import AnyRuleset, bots_of, create_ruleset, sheet_of
from sheets_gm.simulate.worker import play_out
from sheets_gm.sync.match_record import MatchRecord
from sheets_gm.sync.poll_facts import PollFacts
from sheets_gm.web.orders import drawn_kinds
from sheets_gm.web.page import page_input
from sheets_gm.web.site import build_site
from sheets_gm.web.standings import figures_of

SEED = b"match-page/1"
SHEET = "https://docs.google.com/spreadsheets/d/KEY/edit"
DEADLINE = "2026-11-27T20:00+01:00[Europe/Paris]"


@dataclass(frozen=True)
class Step:
    """One resolution of a bot match: the window, the state it started from, the state it led to, its events."""

    window: Window
    before: Any
    after: Any
    events: tuple[Event, ...]


def bot_match(name: str, windows: int, seed: bytes = SEED, roster: Roster | None = None
              ) -> tuple[AnyRuleset, Any, list[Step]]:
    """``windows`` windows of a bot match of the game ``name`` (fewer if it ends; ``roster``, else the game's
    sample roster): its rules, start and steps."""
    rules = create_ruleset(name)
    start = rules.new_match(roster or rules.sample_roster(), seed)
    make = next(iter(bots_of(rules).values())).make
    judge = (JUDGE,) if rules.traits.judge else ()
    bots = {seat: make(f"page/{seat}") for seat in (*rules.seats(start), *judge)}
    steps: list[Step] = []

    def seen(resolution: Resolution[Any]) -> None:
        before = steps[-1].after if steps else start
        window = rules.window(before)
        assert window is not None
        steps.append(Step(window, before, resolution.state, tuple(resolution.events)))

    play_out(rules, start, bots, seed, seen, limit=windows)
    return rules, start, steps


def war_with_players() -> Roster:
    """The Coalition's sample roster, each army played by a player of its own name (``Pl`` and its initials: Urza's
    Vanguard's is Pl UV)."""
    sample = create_ruleset("coalition").sample_roster()
    return Roster(sample.seats, tuple(
        Member(m.name, m.seat, {**m.fields, "player": "Pl " + "".join(w[0] for w in m.name.split())})
        for m in sample.members))


def facts_of(rules: AnyRuleset, state: Any, resolved: int, step: Step | None = None) -> PollFacts:
    """A poll's facts as the page reads them: the record (after ``resolved`` resolutions), and the step it made."""
    record = MatchRecord(ruleset=rules, state=state, seed=b"", seed_hash="5eed" * 16, seats=rules.seats(state),
                         resolved=resolved, deadline=DEADLINE, generation=resolved, history=f"h{resolved}")
    tabs = cast(Any, None)  # the page reads no tab
    if step is None:
        return PollFacts(record, tabs, sheet_of(rules))
    return PollFacts(record, tabs, sheet_of(rules), step.window, step.before, step.events)


def build_pages(folder: Path, rules: AnyRuleset, start: Any, steps: Sequence[Step], *, title: str = "Friday match",
                twin: Callable[[Any], Any] = lambda s: s) -> Path:
    """The page of the match in ``folder``: built at the start, then after each step (each state through
    ``twin``: a state differing only in what nobody sees, for the noninterference test)."""
    build_site(folder, page_input(facts_of(rules, twin(start), 0), title, SHEET))
    for number, step in enumerate(steps, 1):
        shown = Step(step.window, twin(step.before), twin(step.after), step.events)
        build_site(folder, page_input(facts_of(rules, shown.after, number, shown), title, SHEET))
    return folder


def windows_listed(folder: Path) -> list[dict[str, str]]:
    """The windows the page's history steps through (the first statement of ``windows.js``), in order: each one's
    file and label."""
    text = (folder / "windows.js").read_text(encoding="utf-8").split("\n", 1)[0]
    return list(json.loads(text[text.index("["):text.rindex("]") + 1]))


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file of the page, by name."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def nothing_drawn(name: str, steps: Sequence[Step]) -> str:
    """Why the page draws nothing on the map of the game ``name`` over ``steps`` ('' where its Log has a line of a
    kind it draws): a game need not log moves, marks or battles naming its places."""
    kinds = {kind_words(e.kind) for step in steps for e in step.events}
    if kinds & drawn_kinds(name):
        return ""
    return (f"{name}'s Log has no line of a kind the page draws on its map ({', '.join(sorted(drawn_kinds(name)))}); "
            f"it has {', '.join(sorted(kinds)) or 'none'}: nothing to draw")


def no_figures(name: str, rules: AnyRuleset, steps: Sequence[Step]) -> str:
    """Why the page charts no standings for the game ``name`` over ``steps`` ('' where a status line gives a side a
    figure, ``Ann: 3 gold``): a game's status line need not count anything."""
    sheet = sheet_of(rules)
    lines = [sheet.status(s.after, rules.window(s.after), rules.outcome(s.after)) for s in steps]
    if any(figures_of(line, rules.seats(s.after)) for line, s in zip(lines, steps, strict=True)):
        return ""
    return f"{name}'s status line gives no side a figure (as 'Ann: 3 gold'), e.g. {lines[0]!r}: nothing to chart"

