"""Every form of window label the five games give (each ruleset's ``window``), and the checks that a line naming a
window reads as English: the label in its own words, no ``s's``, no word said twice, the verb it takes."""

from __future__ import annotations

import re
from functools import cache

from sheets_gm.rulesets.champions.enums import Phase
from sheets_gm.rulesets.registry import create_ruleset, ruleset_names
from sheets_gm.rulesets.wesnoth.state import TIMES_OF_DAY

#: The plural nouns a game's window label ends with (Coalition's "turn 1 · orders", "turn 1 · battle results").
PLURAL_ENDS = ("orders", "results")


@cache
def window_labels() -> tuple[str, ...]:
    """Each game's first window, from a match of its sample roster, then the forms its later windows take, as the
    rulesets' ``window`` declare them: Champions' two phases, Coalition's orders and results, GvG's turn, Wesnoth's
    round, time of day and player, Win or Die's deployment and turn of a first and a later game."""
    first = []
    for name in ruleset_names():
        rules = create_ruleset(name)
        window = rules.window(rules.new_match(rules.sample_roster(), b"window labels"))
        assert window is not None
        first.append(window.label)
    later = [*(f"round 3 · {phase.display}" for phase in Phase),
             "turn 2 · orders", "turn 2 · battle results",
             "turn 12",
             *(f"round {n} · {tod} · {who}" for n, tod in enumerate(TIMES_OF_DAY, 1) for who in ("Ann", "Bors")),
             "deployment · Ann", "turn 4 · Bors", "game 2 · deployment · Bo", "game 3 · turn 1 · Ann"]
    return tuple(dict.fromkeys([*first, *later]))


def english_problems(label: str, line: str) -> list[str]:
    """What is wrong with ``line``, which names the window ``label``: the label not in its own words, an ``s's``,
    a word doubled (side by side, or a word of the label said again outside it); [] when it reads well."""
    problems = []
    if label not in line and label[:1].upper() + label[1:] not in line:
        problems.append(f"the label {label!r} is not in its own words")
    if "s's" in line:
        problems.append("an s's")
    doubled = re.search(r"\b(\w+) \1\b", line, re.IGNORECASE)
    if doubled:
        problems.append(f"{doubled.group(1)!r} twice in a row")
    rest = re.sub(re.escape(label), " ", line, count=1, flags=re.IGNORECASE).lower()
    again = [w for w in re.findall(r"[a-z]{4,}", label.lower()) if re.search(rf"\b{w}\b", rest)]
    if again:
        problems.append(f"{', '.join(again)} said again outside the label")
    return problems


def verb_after(label: str, line: str, one: str, many: str) -> str:
    """'' when the verb after ``label`` in ``line`` agrees with it (``many`` after a plural end), else what is wrong."""
    want = many if label.rsplit(" ", 1)[-1] in PLURAL_ENDS else one
    rest = re.sub(re.escape(label), "\0", line, count=1, flags=re.IGNORECASE)
    return "" if f"\0 {want} " in rest else f"{label!r} wants {want!r}: {line!r}"
