"""``tests/made.py``'s ``made_on_fake``: a match on the Google fake made once for each state the fake starts from,
then each test a copy of its own, files and fake: nothing one test changes reaches another."""

from __future__ import annotations

from pathlib import Path

from tests.fakes.google_api import GoogleApiFake
from tests.made import made_on_fake

KEY = "1made_on_fake_test_".ljust(44, "0")


def _fake(title: str = "made") -> GoogleApiFake:
    fake = GoogleApiFake()
    fake.create_spreadsheet(KEY, title)
    return fake


def test_each_copy_is_the_made_state_and_its_own_and_a_different_start_is_made_again(tmp_path: Path) -> None:
    makes: list[Path] = []

    def make(into: Path) -> None:
        makes.append(into)
        (into / "match.toml").write_text("made", encoding="utf-8")
        fake_now.set_values(KEY, "Sheet1!A1", [["made"]])

    key = ("made_on_fake test", str(tmp_path))
    fake_now = first = _fake()
    made_on_fake(first, tmp_path / "one", key, make)
    first.set_values(KEY, "Sheet1!A1", [["changed by the first test"]])
    (tmp_path / "one" / "match.toml").write_text("changed", encoding="utf-8")
    fake_now = second = _fake()
    made_on_fake(second, tmp_path / "two", key, make)
    assert len(makes) == 1  # the same start: copied, not made again
    assert second.values(KEY, "Sheet1") == [["made"]]
    assert (tmp_path / "two" / "match.toml").read_text(encoding="utf-8") == "made"
    fake_now = third = _fake("another start")
    made_on_fake(third, tmp_path / "three", key, make)
    assert len(makes) == 2  # another start: made again on it
    assert third.values(KEY, "Sheet1") == [["made"]]


def test_a_fake_with_a_tests_hooks_is_made_on_as_it_is(tmp_path: Path) -> None:
    fake = _fake()
    fake.after_edit.append(lambda key, by: None)
    made: list[Path] = []
    for n in range(2):
        made_on_fake(fake, tmp_path / str(n), ("hooked", str(tmp_path)), made.append)
    assert made == [tmp_path / "0", tmp_path / "1"]
