"""The Win or Die house rules: every reading of the rulings a GM may want otherwise, with its default."""

from __future__ import annotations

from dataclasses import dataclass

from sheets_gm.engine.settings import setting
from sheets_gm.rulesets.winordie.enums import Mode, ResolveMode

ADVANCED = ("mode", Mode.ADVANCED)  # what the advanced-mode settings need to change anything


@dataclass(frozen=True, slots=True)
class WodSettings:
    """The settings of one Win or Die match. Defaults follow the rulebook and rulings/winordie.md."""

    mode: Mode = setting(Mode.BASIC, "'basic' (line-ups from the table, one game) or 'advanced' (own legions "
                                     "within the budget, enhancements, War Council, zone of control, best of three).")
    tokens: int = setting(7, "Command tokens a player recovers at the start of her turn.", minimum=1, maximum=30)
    first_turn_tokens: int = setting(5, "Command tokens of the first player's first turn.", minimum=1, maximum=30)
    unit_tokens: int = setting(3, "Most command tokens on one unit between two recoveries of its owner.",
                               minimum=1, maximum=30)
    resolve: ResolveMode = setting(ResolveMode.STEP, "'step': each ticked row resolves at the next sync; "
                                                     "'batch': the whole list when the player is ready.")
    budget: int = setting(20, "Advanced mode: the crystals a legion is recruited with (unspent ones are kept).",
                          minimum=0, maximum=999, only_when=ADVANCED)
    min_units: int = setting(6, "Advanced mode: the fewest non-leader units of a legion.", minimum=0, maximum=99,
                         only_when=ADVANCED)
    max_units: int = setting(9, "Advanced mode: the most non-leader units of a legion.", minimum=1, maximum=99,
                         only_when=ADVANCED)
    enhancement_cost: int = setting(1, "Crystals per enhancement.", minimum=0, maximum=99)
    enhancement_limit: int = setting(6, "Advanced mode: the most enhancements of one kind in a legion.",
                                     minimum=0, maximum=99, only_when=ADVANCED)
    morale_cap: int = setting(35, "A call for allies that lifts morale above this kills the called unit.",
                              minimum=1, maximum=999)
    zoc_morale: int = setting(12, "Advanced mode: the morale from which a legion's units stop entering enemies.",
                              minimum=0, maximum=999, only_when=ADVANCED)
    fatigue_limit: int = setting(8, "A legion whose fatigue reaches this loses.", minimum=1, maximum=99)
    highland_hit: int = setting(3, "A unit on highland hitting a unit off highland hits on this or more "
                                   "(or its own hit rate if lower).", minimum=1, maximum=6)
    mine_income: int = setting(1, "Crystals per mine one of her units stands on, at the start of her turn.",
                               minimum=0, maximum=99)
    council_cost: int = setting(2, "Advanced mode: crystals to convene the War Council (once per turn).",
                                minimum=0, maximum=99, only_when=ADVANCED)
    best_of: int = setting(3, "Advanced mode: games in a match (the first to win more than half wins it).",
                           minimum=1, maximum=9, only_when=ADVANCED)
    calls: bool = setting(True, "Whether players may call for allies (the rulebook's first game plays without).")
    stand_in_gm: bool = setting(False, "Whether the stand-in GM applies, after each poll, the card effects the cards "
                                       "make mechanical (Charge, Frenzy, Parry, Brace, Drum of Dread, Heaven's "
                                       "Mandate, Fire Volley at an enemy in reach), as the GM's adjustments; the rest "
                                       "waits for a person. A practice match has it on.")
