"""The page of the start (``w0.html``) is written by the builds before the first resolution, so that the first
resolution's build draws only its own window: it draws the board before it again only when that board is not the
one the start's page shows (a GM's adjustment since), and the folder after every resolution is, to the byte, the
one a build that saw no start writes (the first resolution drawing the start itself, as the page always did)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from sheets_gm.rulesets.registry import ruleset_names, sheet_of
from sheets_gm.sheets.adapter import BoardDrawing
from sheets_gm.web.page import PageInput, page_input
from sheets_gm.web.site import build_site, record_of
from tests.web.pages import SHEET, Step, bot_match, facts_of, files_of, windows_listed
from tests.web.test_history import _razed


class _Drawn:
    """The boards a build drew besides the one now: the start's (``PageInput.start``) and the board before its
    resolution (``Resolved.before``), counted."""

    def __init__(self) -> None:
        self.count = 0

    def spy(self, draw: Callable[[], Sequence[BoardDrawing]] | None) -> Callable[[], Sequence[BoardDrawing]] | None:
        if draw is None:
            return None

        def counted() -> Sequence[BoardDrawing]:
            self.count += 1
            return draw()
        return counted


def _build(folder: Path, page: PageInput, drawn: _Drawn) -> None:
    done = page.resolution
    build_site(folder, replace(page, start=drawn.spy(page.start),
                               resolution=None if done is None else replace(done, before=drawn.spy(done.before))))


def _page(rules: Any, state: Any, resolved: int, step: Step | None = None) -> PageInput:
    return page_input(facts_of(rules, state, resolved, step), "Friday match", SHEET)


def _alone(folder: Path, rules: Any, step: Step) -> dict[str, bytes]:
    """The folder a build of the first resolution writes when no build came before it."""
    build_site(folder, _page(rules, step.after, 1, step))
    return files_of(folder)


def test_the_first_resolution_draws_no_start_the_builds_before_it_drew(tmp_path: Path) -> None:
    for game in ("gvg", "wesnoth"):
        rules, start, steps = bot_match(game, 2)
        folder, drawn = tmp_path / game, _Drawn()
        _build(folder, _page(rules, start, 0), drawn)
        assert drawn.count == 1 and (folder / "w0.html").exists()
        assert [w["file"] for w in windows_listed(folder)] == ["index.html"]  # not a window yet: the board is now's
        _build(folder, _page(rules, start, 0), drawn)  # a build of the same (its marker forgotten): drawn once only
        assert drawn.count == 1
        _build(folder, _page(rules, steps[0].after, 1, steps[0]), drawn)
        assert drawn.count == 1, "the first resolution drew the start again"
        assert files_of(folder) == _alone(tmp_path / f"{game}-alone", rules, steps[0])
        _build(folder, _page(rules, steps[1].after, 2, steps[1]), drawn)
        assert drawn.count == 1 and "start" not in record_of(folder)


def test_a_gms_adjustment_before_the_first_resolution_shows_on_the_start(tmp_path: Path) -> None:
    """GvG's structures razed by the GM before the first resolution (its ground changes too): adjusted after the
    start's page was written, the start is drawn again, by the build after the adjustment or, when the
    resolution's poll applied it, by the resolution's; either way the page of the start is the razed board's."""
    rules, start, steps = bot_match("gvg", 1)
    razed = Step(steps[0].window, _razed(start), steps[0].after, steps[0].events)
    expected = _alone(tmp_path / "alone", rules, razed)
    for polled in (True, False):  # the adjustment's own poll built the page, or only the resolution's did
        folder, drawn = tmp_path / f"polled-{polled}", _Drawn()
        _build(folder, _page(rules, start, 0), drawn)
        if polled:
            _build(folder, replace(_page(rules, razed.before, 0), marker="adjusted"), drawn)
            assert drawn.count == 2
        _build(folder, _page(rules, razed.after, 1, razed), drawn)
        assert drawn.count == 2, "the start drawn again once, by the build after the adjustment or the resolution's"
        assert files_of(folder) == expected


def test_an_undo_to_the_start_then_an_adjustment_shows_on_the_start(tmp_path: Path) -> None:
    rules, start, steps = bot_match("gvg", 1)
    razed = Step(steps[0].window, _razed(start), steps[0].after, steps[0].events)
    folder, drawn = tmp_path / "page", _Drawn()
    _build(folder, _page(rules, start, 0), drawn)
    _build(folder, _page(rules, steps[0].after, 1, steps[0]), drawn)
    _build(folder, replace(_page(rules, start, 0), marker="undone"), drawn)  # the undo: the start listed still
    assert [w["file"] for w in windows_listed(folder)] == ["w0.html", "index.html"]
    _build(folder, replace(_page(rules, razed.before, 0), marker="adjusted"), drawn)
    _build(folder, _page(rules, razed.after, 1, razed), drawn)
    assert (folder / "w0.html").read_bytes() == _alone(tmp_path / "alone", rules, razed)["w0.html"]


def test_a_start_no_resolution_shows_is_not_left_in_the_folder(tmp_path: Path) -> None:
    """A page built before the first resolution, then first after the third (the host was down): no start."""
    rules, start, steps = bot_match("gvg", 3)
    build_site(tmp_path / "page", _page(rules, start, 0))
    build_site(tmp_path / "page", _page(rules, steps[2].after, 3, steps[2]))
    build_site(tmp_path / "late", _page(rules, steps[2].after, 3, steps[2]))
    assert files_of(tmp_path / "page") == files_of(tmp_path / "late")
    assert "w0.html" not in files_of(tmp_path / "page")


def test_the_gms_adjustment_through_the_sync_shows_on_the_start(tmp_path: Path, monkeypatch: Any) -> None:
    """A match as a table plays it: created, polled (the page of the start written), adjusted by the GM with her
    command (the poll after it draws the start again), then its first window resolved: the page of the start is the
    one a build of the first resolution alone draws of the board before it, and it was not drawn again."""
    import sheets_gm.running.page as running_page
    from tests.web.test_log_match import _Table

    pages: list[PageInput] = []
    drawn = _Drawn()

    def building(folder: Path, page: PageInput) -> bool:
        pages.append(page)
        done = page.resolution
        return build_site(folder, replace(page, start=drawn.spy(page.start), resolution=None if done is None else
                                          replace(done, before=drawn.spy(done.before))))

    monkeypatch.setattr(running_page, "build_site", building)
    table = _Table(tmp_path / "match", "gvg")
    assert table.config.web is not None
    first = (table.config.web / "w0.html").read_bytes()
    table.gm("adjust", "--hp", "C7=0")  # a bulwark of the start destroyed: its square's ground changes
    assert (table.config.web / "w0.html").read_bytes() != first and drawn.count == 2
    table.play()
    resolution = next(page for page in pages if page.resolution is not None)
    assert drawn.count == 2, "the first resolution drew the start again"
    build_site(tmp_path / "alone", resolution)
    assert (table.config.web / "w0.html").read_bytes() == (tmp_path / "alone" / "w0.html").read_bytes()


def test_the_start_is_the_board_now_drawn_once_or_drawn_again_without_its_deadline() -> None:
    """The board the page of the start draws is the game's board without the deadline (``adapter.drawings``), for
    every game: the board now, drawn for the page of now, not drawn a second time where the game draws no deadline
    on it; where it does (the Coalition's Turn report), that tab alone drawn again, the planes' tabs shared."""
    differs: set[str] = set()
    for game in ruleset_names():
        rules, start, steps = bot_match(game, 1)
        for state in (start, *(step.after for step in steps)):  # (the Coalition's second: its post says by when)
            page, alone = _page(rules, state, 0), list(sheet_of(rules).drawings(state))
            assert page.start is not None and list(page.start()) == alone, game
            if list(page.drawings) != alone:
                differs.add(game)
            drawn_again = [a is not b for a, b in zip(page.start(), page.drawings, strict=True)]
            assert drawn_again == [False] * len(alone) if game != "coalition" else \
                drawn_again == [False] * (len(alone) - 1) + [True], game
    assert differs == {"coalition"}
