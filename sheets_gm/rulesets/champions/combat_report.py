"""The arithmetic of one attack or heal, and its lines in a battle report, as the rulebook shows them:

    Attack [4, 2, 1, 10] = 17
    +1d8 Item [5] = 22
    +1d8 Item [3] = 25
    Opponent Defense 1d10 [9] = 16
    Strength Boost [16x1.25] = 20

Pure functions of the rolls: ``attack_lines`` gives the lines and the damage they end on, which
is what the engine deals (``attack_damage``), so the report can never disagree with the health.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sheets_gm.rulesets.champions.enums import EvadeRule
from sheets_gm.rulesets.champions.items import Dice
from sheets_gm.sheets.printed_sizes import line_points


def round_half_up(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded to the nearest whole number, halves up (exact: no floats).

    >>> round_half_up(25, 2), round_half_up(104, 10), round_half_up(-5, 2)
    (13, 10, -2)
    """
    return (2 * numerator + denominator) // (2 * denominator)


def percent_of(value: int, pct: int) -> int:
    """``value × pct / 100``, rounded half up."""
    return round_half_up(value * pct, 100)


def factor(pct: int) -> str:
    """A percentage as the multiplier people write: 125 → ``1.25``, 80 → ``0.8``, 150 → ``1.5``."""
    return f"{pct / 100:g}"


@dataclass(frozen=True, slots=True)
class DieRoll:
    """One item's die and what it showed (its value adds the item's bonus)."""

    dice: Dice
    roll: int

    @property
    def value(self) -> int:
        """The roll plus the bonus."""
        return self.roll + self.dice.bonus

    @property
    def shown(self) -> str:
        """``5`` or ``5+2``."""
        return f"{self.roll}+{self.dice.bonus}" if self.dice.bonus else str(self.roll)


@dataclass(frozen=True, slots=True)
class Bonus:
    """Dice added as one amount, multiplied (``pct``, 100 for none) and rounded: a Heal's items, a Support."""

    label: str  # "Item", "Support"
    rolls: tuple[DieRoll, ...]
    pct: int = 100

    @property
    def raw(self) -> int:
        """The dice's sum before the multiplier."""
        return sum(r.value for r in self.rolls)

    @property
    def value(self) -> int:
        """What it adds."""
        return percent_of(self.raw, self.pct)

    def line(self, before: int) -> str:
        """``+1d6 Support [4x1.25 = 5] = 22`` (the running total goes from ``before`` to the line's end)."""
        dice = "+".join(str(r.dice) for r in self.rolls)
        parts = "+".join(r.shown for r in self.rolls)
        rolls = parts if parts == str(self.raw) else f"{parts} = {self.raw}"
        if self.pct != 100:
            rolls = f"{rolls}x{factor(self.pct)} = {self.value}"
        return f"+{dice} {self.label} [{rolls}] = {before + self.value}"


@dataclass(frozen=True, slots=True)
class AttackRolls:
    """Everything one attack's damage depends on."""

    base: tuple[int, ...]  # the class's base dice
    base_sides: int
    items: tuple[DieRoll, ...] = ()  # the attacker's physical and magical items
    support: Bonus | None = None  # the partner's Support
    defence: DieRoll | None = None  # the target's defensive item
    pct: int = 100  # the additive multiplier, in percent
    critical: bool = False
    evade: EvadeRule | None = None  # how the target evades this round, if it does


def attack_lines(a: AttackRolls) -> tuple[list[str], int]:
    """The report lines of one attack and the damage it deals."""
    total = sum(a.base)
    lines = [f"Attack [{', '.join(map(str, a.base))}] = {total}"]
    for item in a.items:
        total += item.value
        lines.append(f"+{item.dice} Item [{item.shown}] = {total}")
    if a.support is not None:
        lines.append(a.support.line(total))
        total += a.support.value
    if a.defence is not None:
        total = max(0, total - a.defence.value)
        lines.append(f"Opponent Defense {a.defence.dice} [{a.defence.shown}] = {total}")
    if a.pct != 100:
        after = percent_of(total, a.pct)
        label = "Strength Boost" if a.pct > 100 else "Strength Penalty"
        lines.append(f"{label} [{total}x{factor(a.pct)}] = {after}")
        total = after
    if a.critical:
        lines.append(f"Critical Hit [{total}x2] = {total * 2}")
        total *= 2
    if a.evade is EvadeRule.HALF:
        lines.append(f"Evade [{total}/2] = {total // 2}")
        total //= 2
    elif a.evade is EvadeRule.ALL:
        lines.append(f"Evade [{total}x0] = 0")
        total = 0
    return lines, total


def attack_damage(a: AttackRolls) -> int:
    """The damage of one attack (what ``attack_lines`` ends on)."""
    return attack_lines(a)[1]


def is_critical(base: Sequence[int], sides: int, all_dice: bool) -> bool:
    """Whether the base dice make a critical hit: any (or, with ``all_dice``, every) die on its highest face."""
    tops = [r == sides for r in base]
    return all(tops) if all_dice else any(tops)


@dataclass(frozen=True, slots=True)
class HealRolls:
    """Everything one heal's amount depends on."""

    roll: int
    sides: int
    items: Bonus | None = None  # the Healer's magical and support items, × her affinity
    support: Bonus | None = None  # the partner's Support


def heal_lines(h: HealRolls) -> tuple[list[str], int]:
    """The report lines of one heal and the health it restores."""
    total = h.roll
    lines = [f"Heal 1d{h.sides} [{h.roll}] = {total}"]
    for bonus in (h.items, h.support):
        if bonus is not None:
            lines.append(bonus.line(total))
            total += bonus.value
    return lines, total


#: Cells a laid-out report row has for an action's steps, right of the action itself (a View log has 8 columns:
#: turn, kind, the action, then these).
STEP_CELLS = 5


def report_rows(text: str, dice_points: float) -> list[list[str]]:
    """A battle report laid out over rows for a sheet: the header, then a row per action (``Round 1 · Di's Rogue
    attacks Ann's Rogue:``) with each step of its arithmetic in a cell of its own (steps beyond
    :data:`STEP_CELLS` go on in the row under it), its dice in rows of their own that each print on one line of
    ``dice_points`` (``_dice_rows``), then a row per champion's health. It reads the report as
    ``fight`` writes it: ``Round N`` lines, an action's steps indented under it, ``Health`` and its indented lines.

    >>> report_rows("Battle on A1: Di (Rogue) vs Ann (Rogue)\\nRound 1\\nDi's Rogue attacks Ann's Rogue:\\n"
    ...             "  Attack [5, 7, 4] = 16\\n  → 16 damage to Ann's Rogue\\nAnn's Rogue evades.\\nHealth\\n"
    ...             "  Ann's Rogue: 85 − 8 = 77", 280)  # doctest: +NORMALIZE_WHITESPACE
    [['Battle on A1: Di (Rogue) vs Ann (Rogue)'],
     ["Round 1 · Di's Rogue attacks Ann's Rogue:", 'Attack [5, 7, 4] = 16', "→ 16 damage to Ann's Rogue"],
     ["Round 1 · Ann's Rogue evades."],
     ["Health · Ann's Rogue: 85 − 8 = 77"]]
    """
    lines = text.split("\n")
    rows: list[list[str]] = [[lines[0]]]
    section = ""
    for line in lines[1:]:
        if line.startswith(DICE_STEP):  # an action's dice: rows of their own under it, in the sentence's column
            rows += [[part] for part in _dice_rows(line.strip(), dice_points)]
        elif line.startswith("  ") and rows[-1][0].startswith(f"{section} · ") and section != "Health":
            rows[-1].append(line.strip())
        elif line.startswith("  "):
            rows.append([f"{section} · {line.strip()}"])
        elif line.startswith("Round ") or line == "Health":
            section = line
        else:
            rows.append([f"{section} · {line}" if section else line])
    return [line for row in rows for line in _wrapped(row)]


#: How an action's Dice step starts in a battle report (``combat._Battle.dice_line``).
DICE_STEP = "  Dice: "
def _dice_rows(step: str, points: float) -> list[str]:
    """An action's ``Dice: …`` step cut between dice into rows that each print on one line of ``points`` (as
    ``printed_sizes.line_points`` measures a line): the View log's sentence column holds them without spilling into the
    next cells (a Dice step in a step cell once ran far right of the table and shrank the printed View to
    unreadable), each a row of one line, not two; one die a row at least, the rows after the first indented under
    the word ``Dice``.

    >>> _dice_rows("Dice: d5 4/base/Ann.mage/1/1 = 4, d5 4/base/Ann.mage/1/2 = 2, d8 4/item/Ann.mage/1/1 = 5", 320)
    ['Dice: d5 4/base/Ann.mage/1/1 = 4, d5 4/base/Ann.mage/1/2 = 2,', '      d8 4/item/Ann.mage/1/1 = 5']
    """
    head, _, listed = step.partition(": ")
    indent = " " * (len(head) + 2)
    out: list[str] = []
    for die in listed.split(", "):
        if out and line_points(f"{head}: {out[-1]}, {die},") <= points:  # measured after the head, the wider
            out[-1] = f"{out[-1]}, {die}"
        else:
            out.append(die)
    rows = [f"{head}: {row}" if i == 0 else f"{indent}{row}" for i, row in enumerate(out)]
    return [f"{row}," if i < len(rows) - 1 else row for i, row in enumerate(rows)]


def _wrapped(row: list[str]) -> list[list[str]]:
    """A row whose steps run past :data:`STEP_CELLS` goes on in the next rows, under the steps (its first cell
    blank), a step a cell: nothing is joined into one cell or cut.

    >>> _wrapped(["Round 1 · Ann's Mage attacks Bo's Rogue:", *"abcdefg"])
    [["Round 1 · Ann's Mage attacks Bo's Rogue:", 'a', 'b', 'c', 'd', 'e'], ['', 'f', 'g']]
    """
    head, steps = row[0], row[1:]
    chunks = [steps[i:i + STEP_CELLS] for i in range(0, len(steps), STEP_CELLS)] or [[]]
    return [[head if i == 0 else "", *chunk] for i, chunk in enumerate(chunks)]
