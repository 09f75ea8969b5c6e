"""doctor's capacity figures for every game: saves an hour from the seats and windows, matches per account, and
how many matches resolve together in one deadline minute (figures worked out by hand in each row's comment)."""

from __future__ import annotations

import pytest

from sheets_gm.doctor.quota import played_match, savers_per_window, windows_per_hour
from sheets_gm.match.schedule import DeadlineSchedule
from sheets_gm.rulesets.registry import get_ruleset

NO_DEADLINES = DeadlineSchedule()


@pytest.mark.parametrize(("game", "seats", "spreadsheets", "fewest", "saves", "matches", "together"), [
    # 16 players save together: 16 a window, a window every 2 hours: 8 an hour, 16-32 realistically; reads an hour
    # 18/6 + saves + 18/2 = 28 or 44: 60 / (28/60) = 128, 60 / (44/60) = 81; a resolution 18 reads: 60 // 18 = 3
    ("champions", 16, 18, 8, (16, 32), (128, 81), 3),
    # 2 teams together: 1 an hour, 2-4; 4/6 + 2 + 2 = 4.67 → 771, 4/6 + 4 + 2 = 6.67 → 540; 60 // 4 = 15
    ("gvg", 2, 4, 1, (2, 4), (771, 540), 15),
    # 2 sides, then the judge alone: 1.5 a window, 0.75 an hour, 1.5-3; 5/6 + 1.5 + 2.5 → 744, 5/6 + 3 + 2.5 → 568
    ("coalition", 2, 5, 0.75, (1.5, 3), (744, 568), 12),
    # one seat at a time: 0.5 an hour, 1-2; 5/6 + 1 + 2.5 → 830, 5/6 + 2 + 2.5 → 675
    ("wesnoth", 3, 5, 0.5, (1, 2), (830, 675), 12),
    # two alternate, the other reacting: as the guild game
    ("winordie", 2, 4, 1, (2, 4), (771, 540), 15),
])
def test_each_game_s_capacity_comes_from_its_seats_and_windows(game: str, seats: int, spreadsheets: int,
                                                               fewest: float, saves: tuple[float, float],
                                                               matches: tuple[int, int], together: int) -> None:
    load = played_match(get_ruleset(game).traits, seats, spreadsheets, NO_DEADLINES)
    lighter, heavier = load.realistic
    assert load.saves_per_hour(1) == pytest.approx(fewest)
    assert (lighter.changes_per_hour, heavier.changes_per_hour) == pytest.approx(saves)
    assert (lighter.matches_per_account(), heavier.matches_per_account()) == matches
    assert load.per_deadline_minute == together


def test_a_bigger_table_saves_more_and_fits_fewer_matches() -> None:
    champions = get_ruleset("champions").traits
    eight, sixteen = (played_match(champions, n, n + 2, NO_DEADLINES) for n in (8, 16))
    assert sixteen.saves_per_hour(1) == 2 * eight.saves_per_hour(1)
    assert sixteen.realistic[1].matches_per_account() < eight.realistic[1].matches_per_account()
    assert sixteen.per_deadline_minute < eight.per_deadline_minute


def test_deadlines_set_the_pace_of_the_windows() -> None:
    daily = DeadlineSchedule.parse(["20:00"])
    twice_on_weekdays = DeadlineSchedule.parse(["12:00", "20:00"], ["mon", "tue", "wed", "thu", "fri"])
    assert windows_per_hour(daily) == pytest.approx(1 / 24)
    assert windows_per_hour(twice_on_weekdays) == pytest.approx(10 / (7 * 24))
    load = played_match(get_ruleset("champions").traits, 16, 18, daily)
    assert load.saves_per_hour(1) == pytest.approx(16 / 24)
    assert load.per_deadline_minute == 3  # however slow the pace, a deadline minute holds 3


def test_a_judge_s_window_is_hers_alone() -> None:
    coalition = get_ruleset("coalition").traits
    assert savers_per_window(coalition, 4) == 2.5  # four sides, then the judge
