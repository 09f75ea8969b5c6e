"""The Coalition game's house rules: every setting the rulings name, with its default and its sentence."""

from __future__ import annotations

from dataclasses import dataclass

from sheets_gm.rulesets import kit

#: The shipped weather table: one die, a face per entry.
DEFAULT_WEATHER = ("Clear", "Overcast", "Fog", "Light rain", "Heavy rain", "Storm")


@dataclass(frozen=True, slots=True)
class CoalitionSettings:
    """The match's settings (see docs/rules-coalition.md)."""

    max_steps: int = kit.setting(3, "most squares an army may move in a turn", minimum=1, maximum=6)
    max_raids_per_side: int = kit.setting(2, "raids that work per side and turn (the others hold)", minimum=0)
    raid_min_squad: int = kit.setting(500, "units a raider needs in its highest slot", minimum=0)
    raid_target_max: int = kit.setting(5000, "a raided army has fewer units than this in all", minimum=1)
    joint_max_armies: int = kit.setting(4, "most armies in a joint engagement (both sides)", minimum=2)
    battle_win_vp: int = kit.setting(5, "victory points a battle win gives, unless the judge enters others",
                                     minimum=0)
    raid_kill_bonus: int = kit.setting(20, "added to a raider's kill roll (d100)", minimum=0)
    squad_loss_chance: int = kit.setting(50, "a failed kill roll loses the kill squad on a d100 at or under this",
                                         minimum=0, maximum=100)
    kill_squad: int = kit.setting(500, "units of the highest slot that make a kill squad", minimum=1)
    kill_vp_per_rank: int = kit.setting(5, "victory points per rank value of a killed army", minimum=0)
    top_kill_vp: int = kit.setting(50, "victory points for killing an army of the top rank", minimum=0)
    destroy_turns: int = kit.setting(4, "turns an army counts in an enemy structure to destroy it", minimum=1)
    destroy_vp: int = kit.setting(50, "victory points for destroying a structure", minimum=0)
    phyrexia_heal_turns: int = kit.setting(2, "turns a Phyrexian army counts in a stronghold before it heals",
                                           minimum=1)
    primary_heal_turns: int = kit.setting(1, "turns a primary member counts in its faction's base before it heals, "
                                         "when it asks (order word heal)", minimum=1)
    coalition_heal_turns: int = kit.setting(2, "turns any other faction member counts in a base before it heals",
                                            minimum=1)
    change_turns: int = kit.setting(2, "turns an army counts where it heals before the judge's army change applies",
                                    minimum=1)
    home_domination_vp: int = kit.setting(5, "victory points a turn for dominating the side's home plane", minimum=0)
    enemy_domination_vp: int = kit.setting(15, "victory points a turn for dominating the enemy's home plane",
                                           minimum=0)
    mirrodin_domination_vp: int = kit.setting(10, "victory points a turn for dominating Mirrodin (a neutral plane)",
                                              minimum=0)
    feature_range: int = kit.setting(3, "steps within which the closest unengaged army controls a free feature",
                                     minimum=0)
    mercenary_turns: int = kit.setting(2, "turns a mercenary may fail to retake its structure before it disbands",
                                       minimum=1)
    victory_vp: int = kit.setting(500, "victory points that win the round", minimum=1)
    max_turns: int = kit.setting(100, "the engine's limit (the rulebook's round has none): after this turn more "
                                  "victory points wins, equal is a draw", minimum=1)
    strategies_to: str = kit.setting("", "where the sides send their battle strategies (an address or a forum thread), "
                                     "quoted at the end of the Battle Announcements post with the deadline; "
                                     "empty: the post gives the deadline alone; may change in a running match",
                           optional=True, live=True)
    judge_hours: int = kit.setting(0, "the judge's deadline of her own, in hours after the players' deadline (when "
                                   "movement and strategies close): the battle results are applied then, whatever "
                                   "she marked; 0: none, they are applied when she ticks Results in; may change in "
                                   "a running match", minimum=0, maximum=24 * 28, live=True)
    weather_table: tuple[str, ...] = kit.setting(DEFAULT_WEATHER, "the weather table: one die with a face per "
                                                              "entry, rolled for each battle announced")
