"""Which game each test runs for, so that one game's tests run alone: ``pytest --game NAME`` (``scripts/test_game.sh``).

A test runs for a game when it sits in that game's own folder (``tests/rulesets/NAME/``), or when one of its
parameters names the game: a game's name (the conformance tests' ``name``, their ``rules`` fixture), a table of it
(``wesnoth-batch``) or a file of its scenarios (``tests/scenarios/NAME/``). Each such test also answers to the
keyword ``game_NAME`` (``pytest -k game_salvo``)."""

from __future__ import annotations

import functools
import gc
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from sheets_gm.rulesets.registry import ruleset_names
from tests.match_seeds import SEEDS_VARIABLE, seed_for_test, seed_set
from tests.paths import ROOT, SCENARIOS

if TYPE_CHECKING:
    from tests.fakes.dovecot import Dovecot

# pytest --waits N: where the tests wait (tests/waits.py); its test; the matches the workers make for each other;
# the LibreOffice a worker starts once for the tests that use it
pytest_plugins = ["tests.waits", "pytester", "tests.made", "tests.office.office"]

# A test process makes and drops thousands of workbooks, whose cells outlive many young collections: at Python's
# default pace (a young collection every 700 allocations) the cycle collector kept promoting them into full
# collections, about 14 % of the CPU of the bot-seat and delivery tests. Since the local backend takes apart the
# workbooks it drops (reference counting frees them), a young collection mostly walks workbooks still in use, so
# fewer of them cost less: 60,000 against 20,000, 2 pairs over test_bot_seats.py, test_repair_views.py,
# test_sync_local.py and test_noninterference_files.py, took 2.0-2.1 s of collector against 2.3-2.4 and 63.5-64.3 CPU
# s against 66.2-68.1 (the simulate workers keep 20,000).
gc.set_threshold(60_000, 20, 20)


def pytest_sessionstart(session: pytest.Session) -> None:
    """What is loaded before the first test (pytest, the package, its imports) is left out of every collection;
    ``init`` draws its match seeds from the test's name (``tests/match_seeds.py``). openpyxl is imported first as the
    product imports it, without numpy (``sheets_gm.sheets.xlsx``): a test module's own ``import openpyxl`` (the first
    of them, ``tests/matchfiles.py``) had numpy loaded where it is installed, 4 % of a collection, and hypothesis's
    scan of the modules loaded walked numpy's too."""
    import sheets_gm.init.start  # imports no openpyxl
    import sheets_gm.sheets.xlsx  # openpyxl, without numpy

    sheets_gm.init.start.new_seed = seed_for_test  # type: ignore[attr-defined]  # same signature; a test may patch it again
    gc.freeze()


@pytest.hookimpl(trylast=True)  # after pytest's own, whose collection looks for the run's last unraisable errors
def pytest_unconfigure(config: pytest.Config) -> None:
    """What survived the cycle collection pytest makes at the end of a run is frozen: pytest collects once more in
    its clean-up (``unraisableexception.cleanup``), which walked every object the run left (the collected tests, the
    modules, a worker's made matches) a second time, a third of pytest's collecting at the end of each process; it
    now walks only what the clean-up frees."""
    gc.freeze()


def pytest_report_header(config: pytest.Config) -> str:
    """The set of match seeds the run plays on (``SHEETS_GM_TEST_SEEDS``)."""
    return f"match seeds: {seed_set()} ({SEEDS_VARIABLE})"


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--game NAME``: only the tests that run for that game."""
    parser.addoption("--game", default="", metavar="NAME",
                     help="run only the tests that run for the game NAME (its folder, its conformance tests, its "
                          "scenarios)")


def games_of(item: pytest.Item, games: set[str]) -> set[str]:
    """The games of ``games`` that ``item`` runs for."""
    found: set[str] = set()
    parts = _test_parts(Path(item.path))
    if len(parts) > 2 and parts[0] == "rulesets" and parts[1] in games:
        found.add(parts[1])
    callspec = getattr(item, "callspec", None)
    for value in callspec.params.values() if callspec is not None else ():
        if isinstance(value, Path) and (scenario := _scenario_parts(value)):
            found.add(scenario[0])
        elif isinstance(value, str) and (value in games or value.split("-")[0] in games):
            found.add(value if value in games else value.split("-")[0])
    return found & games


@functools.cache
def _test_parts(path: Path) -> tuple[str, ...]:
    """The parts of a test file's path under ``tests/`` (none outside it): resolved once per file, not per test."""
    resolved = path.resolve()
    return resolved.relative_to(ROOT / "tests").parts if resolved.is_relative_to(ROOT / "tests") else ()


@functools.cache
def _scenario_parts(path: Path) -> tuple[str, ...]:
    """The parts of a scenario file's path under ``tests/scenarios/`` (none for another path)."""
    resolved = path.resolve()
    return resolved.relative_to(SCENARIOS).parts if resolved.is_relative_to(SCENARIOS) else ()


def pytest_itemcollected(item: pytest.Item) -> None:
    """With ``--game NAME``, a shared test's example of the game NAME runs whatever its parameter's ``soak`` mark:
    the quick lists (``tests/quick.py``) name the games the test command plays each costly walk with, and a game's
    own command must walk every shared check for it, whichever games those lists name. A whole test marked ``soak``
    (a long property run) stays in the soak run; the game's own tests (``tests/rulesets/NAME/``) keep their marks."""
    wanted = str(item.config.getoption("--game")).strip().lower()
    callspec = getattr(item, "callspec", None)
    if not wanted or callspec is None or _test_parts(Path(item.path))[:1] == ("rulesets",):
        return
    if wanted in games_of(item, {wanted}):
        lifted = [mark for mark in callspec.marks if mark.name == "soak"]
        item.own_markers[:] = [mark for mark in item.own_markers if not any(mark is soak for soak in lifted)]


@pytest.hookimpl(trylast=True)  # after pytest-xdist's own hook, which ``_group_ids`` completes
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each test's ``game_NAME`` keywords; with ``--game``, the tests of other games (and of none) deselected; under
    ``--dist loadgroup``, the ids of the tests of an ``xdist_group`` (``_group_ids``)."""
    _group_ids(config, items)
    games = set(ruleset_names())
    wanted = str(config.getoption("--game")).strip().lower()
    if wanted and wanted not in games:
        raise pytest.UsageError(f"--game {wanted!r}: no such game; this build knows {', '.join(sorted(games))}")
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        mine = games_of(item, games)
        item.extra_keyword_matches.update(f"game_{name}" for name in mine)
        (kept if not wanted or wanted in mine else dropped).append(item)
    if wanted:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def _group_ids(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under ``--dist loadgroup``, each test of an ``xdist_group`` given the group's name at the end of its id, by
    which the scheduler sends the group's tests to one worker (they share a costly module fixture). pytest-xdist
    3.8 writes the name into ``item._nodeid``, which pytest 9.2 no longer reads (it keeps the id in ``item._id``):
    there every test of a group went alone, and each worker built the group's fixture (pytest-xdist issue #1386,
    its fix pending upstream). Where xdist's own write took, the id already ends with the name and is left alone."""
    if not getattr(config.option, "loadgroup", False):  # set on the workers of a --dist loadgroup run alone
        return
    for item in items:
        names = {str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                 for mark in item.iter_markers("xdist_group")}
        suffix = "@" + "_".join(sorted(names))
        if names and not item.nodeid.endswith(suffix):
            item._id = type(item._id).parse(item.nodeid + suffix)


_HOSTS = itertools.count()


@pytest.fixture(autouse=True)
def _host_folders(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test its own host: its environment file (``XDG_CONFIG_HOME``) and its channels' shared backoff
    (``XDG_STATE_HOME``) in folders of its own, never the machine's (a test's failing server must not hold back
    another's, and no secret of the machine reaches a test)."""
    # named by a count, not numbered by pytest (which lists the whole folder again for each new number): a test's
    # name never holds a '-', so no test's own tmp_path takes the name
    host = tmp_path_factory.mktemp(f"host-{next(_HOSTS)}", numbered=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(host / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(host / "state"))


@pytest.fixture(scope="module")
def dovecot() -> Iterator[Dovecot]:
    """A real IMAP server (Debian's Dovecot, ``tests/fakes/dovecot.py``) on 127.0.0.1 for the test module: each
    test takes a mailbox of its own (``dovecot.add_user()``). Skips where Dovecot is not installed."""
    from tests.fakes.dovecot import DOVECOT, MISSING, running_dovecot

    if not DOVECOT.exists():
        pytest.skip(MISSING)
    with running_dovecot() as server:
        yield server
