"""Every die and draw the Champions Log names is printed whole, its HMAC message as ``verify`` computes it, and
checks by hand from the seed as the rules page says (issue 54, item 10): a battle action's ``Dice:`` step, the
tile's pairing draw, the shrink dice, a loot draw."""

from __future__ import annotations

import hmac
import re
from typing import Any

from sheets_gm.engine.events import Event
from sheets_gm.engine.ruleset import Resolution
from sheets_gm.rulesets.champions.enums import EventKind
from sheets_gm.rulesets.registry import bots_of, create_ruleset, sheet_of
from sheets_gm.sheets.printed_sizes import cell_lines, printed_points
from sheets_gm.simulate.worker import play_out

_DIE = re.compile(r"d(\d+) (\d+(?:\.\d+)?/[^ =]+) = (\d+)")
_PAIRED = re.compile(r"\[paired by ([^:]+): ([^\]]+)\]")
_LOOT = re.compile(r"\[drawn by (\d+(?:\.\d+)?/loot/[^\]]+)\]")


def _die_by_hand(seed: bytes, message: str, sides: int) -> int:
    """The rules page's one-liner: the first byte of HMAC-SHA256(seed, message) below the largest multiple of
    ``sides``, modulo ``sides``, plus 1."""
    return next(b % sides + 1 for b in hmac.digest(seed, message.encode(), "sha256") if b < 256 - 256 % sides)


def _played(matches: int) -> list[tuple[bytes, str]]:
    """(seed, event text) of every event of ``matches`` bot matches, as the fingerprint plays them."""
    rules = create_ruleset("champions")
    kinds = [k for k in bots_of(rules).values() if not k.tutor]
    texts: list[tuple[bytes, str]] = []
    for i in range(matches):
        seed = f"by-hand/{i}".encode()
        state = rules.new_match(rules.sample_roster(), seed)
        players = {seat: kinds[(i + s) % len(kinds)].make(f"by-hand/{i}/{s}")
                   for s, seat in enumerate(rules.seats(state))}

        def seen(resolution: Resolution[Any], seed: bytes = seed) -> None:
            texts.extend((seed, event.text) for event in resolution.events)

        play_out(rules, state, players, seed, seen)
    return texts


def test_every_die_and_draw_the_champions_log_names_checks_by_hand_from_its_printed_message() -> None:
    texts = _played(2)
    dice = [(seed, int(sides), message, int(value)) for seed, text in texts
            for sides, message, value in _DIE.findall(text)]
    kinds = {message.split("/")[1] for _, _, message, _ in dice}
    assert {"base", "item", "shrink"} <= kinds, kinds
    assert all(_die_by_hand(seed, message, sides) == value for seed, sides, message, value in dice), dice
    pairings = [(seed, message, order.split(", ")) for seed, text in texts for message, order in _PAIRED.findall(text)]
    assert pairings
    for seed, message, order in pairings:
        assert order == sorted(order, key=lambda name: hmac.digest(seed, f"{message}/{name}".encode(), "sha256"))
    battles = [text for _, text in texts if text.startswith("Battle on ")]
    assert all(_PAIRED.search(text.split("\n")[0]) for text in battles)
    # every attack and heal ends on its Dice step
    actions = [line for text in battles for line in text.split("\n") if line.startswith("  → ")]
    steps = [line for text in battles for line in text.split("\n") if line.startswith("  Dice: ")]
    assert len(steps) == len(actions) > 0
    looted = [text for _, text in texts if "'s looting action" in text and " takes " in text]
    assert looted and all(_LOOT.search(text) for text in looted), looted[:3]


def test_a_battle_reports_dice_fit_the_view_logs_sentence_column_row_by_row() -> None:
    """Laid out in a View log (the GM's too), an action's dice are rows of their own in the sentence column, cut
    between dice: a Dice step in a step cell ran far right of the table, and LibreOffice shrank the printed View to
    fit it (seen printed). Every die of the report is in those rows, none in a step cell, and each row prints on one
    line of its column (issue 78, item 5): cut at 76 characters for a column of 85, a row of 60 to 76 characters
    printed on two lines of the 360-pixel column (a 16-seat war's GM tab 26 pages, 44 % of its height dice rows).
    Checked to fail with the 76-character cut put back (rows of 288 points in a column holding 279)."""
    battles = [text for _, text in _played(1) if text.startswith("Battle on ")]
    assert battles
    sheet = sheet_of(create_ruleset("champions"))
    column = printed_points(sheet.spec.view_widths[2])
    for text in battles:
        rows = sheet.log_entry_rows(Event(1, EventKind.BATTLE, text))
        assert rows is not None
        dice_rows = [row for row in rows if str(row[0]).startswith(("Dice: ", "      d"))]
        assert all(len(row) == 1 and cell_lines(str(row[0]), column) == 1 for row in dice_rows), dice_rows
        assert not [cell for row in rows for cell in row[1:] if "Dice" in str(cell)]
        assert sorted(_DIE.findall("\n".join(str(row[0]) for row in dice_rows))) == sorted(_DIE.findall(text))
