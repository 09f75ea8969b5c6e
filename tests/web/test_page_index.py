"""The pages ``serve --web`` serves, kept between requests (``running.page.PageIndex``): a request loads no config
the index loaded already (at 10,000 matches, loading every config took seconds a request), a match that comes or
goes is served or not at the next request, a config changed on disk is served as it reads now once the index looks
again, and each match keeps its address. The real ``serve --web`` serves the matches its host finds."""

from __future__ import annotations

import http.client
import re
import subprocess
from datetime import UTC
from pathlib import Path

import pytest

import sheets_gm.running.page as page_module
from sheets_gm.running.page import PageIndex
from tests.host.test_serve_command import command, wait_for
from tests.matchfiles import local_config


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every config the page index reads, in order."""
    from sheets_gm.match.config import read_page as real

    read: list[Path] = []

    def counted(path: Path) -> tuple[str, Path | None]:
        read.append(path)
        return real(path)
    monkeypatch.setattr(page_module, "read_page", counted)
    return read


def _configs(root: Path, names: list[str]) -> list[Path]:
    made = []
    for name in names:
        (root / name / "web").mkdir(parents=True)
        made.append(local_config(root / name))
    return made


def test_a_request_loads_no_config_already_loaded_and_sees_what_came_went_and_changed(
        tmp_path: Path, loads: list[Path]) -> None:
    configs = _configs(tmp_path, ["a", "b", "c"])
    listed: tuple[Path, ...] = tuple(configs[:2])
    clock = _Clock()
    index = PageIndex(lambda: listed, check_seconds=5, clock=clock)
    for _ in range(50):  # requests of one page after another
        assert {n: p.folder.parent.name for n, p in index().items()} == {"match": "a", "match-2": "b"}
        clock.now += 0.01
    assert sorted(loads) == configs[:2]
    listed = tuple(configs)  # a match the host found
    assert index()["match-3"].folder.parent.name == "c" and len(loads) == 3
    listed = tuple(configs[1:])  # one gone: its address is given to nobody
    assert set(index()) == {"match-2", "match-3"} and len(loads) == 3
    text = configs[1].read_text(encoding="utf-8")
    configs[1].write_text(text.replace('title = "Test match"', 'title = "Renamed"'), encoding="utf-8")
    assert index()["match-2"].title == "Test match"  # not looked at again yet
    clock.now += 5
    assert index()["match-2"].title == "Renamed" and len(loads) == 4  # looked at: the changed one alone loaded


def test_a_config_that_stops_loading_takes_its_page_away_until_mended(tmp_path: Path, loads: list[Path]) -> None:
    (config,) = _configs(tmp_path, ["a"])
    clock = _Clock()
    listed = (config,)
    index = PageIndex(lambda: listed, check_seconds=1, clock=clock)
    good = config.read_text(encoding="utf-8")
    assert list(index()) == ["match"]
    config.write_text(good + "\n[[[ broken\n", encoding="utf-8")
    clock.now += 1
    assert index() == {}
    config.write_text(good, encoding="utf-8")
    clock.now += 1
    assert list(index()) == ["match"]


def test_a_match_found_first_in_the_hosts_search_never_takes_the_name_another_kept(
        tmp_path: Path, loads: list[Path]) -> None:
    """A host started again finds its matches a slice at a time: a newcomer found before a match whose folder kept
    its name must not take that name (the kept link would land on another match). Newcomers are named once the
    host lists every match; kept names are served at once."""
    new, kept = _configs(tmp_path, ["a-new", "b-kept"])
    (tmp_path / "b-kept" / "web" / ".address").write_text("match\n", encoding="utf-8")
    listed: tuple[Path, ...] = (new,)
    searched = False
    index = PageIndex(lambda: listed, settled=lambda: searched)
    assert index() == {}  # the newcomer waits: a kept "match" may come
    listed = (new, kept)
    assert {n: p.folder.parent.name for n, p in index().items()} == {"match": "b-kept"}
    searched = True
    assert {n: p.folder.parent.name for n, p in index().items()} == {"match": "b-kept", "match-2": "a-new"}
    assert len(loads) == 2


def _get(port: int, path: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def test_the_pages_are_those_of_the_matches_the_host_serves(tmp_path: Path) -> None:
    """``serve``'s page index asks its host which matches it serves: the same list while none comes or goes."""
    from datetime import datetime

    from tests.host.hosting import Clock, new_host

    _configs(tmp_path, ["a", "b"])
    host = new_host(tmp_path, Clock(datetime(2026, 11, 28, 12, tzinfo=UTC)), [])
    index = PageIndex(host.hosted_configs)
    assert index() == {}
    host.step()  # its first search finds both
    assert host.hosted_configs() is host.hosted_configs()
    assert {n: p.folder.parent.name for n, p in index().items()} == {"match": "a", "match-2": "b"}
    (tmp_path / "a" / "match.toml").unlink()
    host.step()
    assert {n: p.folder.parent.name for n, p in index().items()} == {"match-2": "b"}


@pytest.mark.soak
def test_serve_web_serves_the_matches_its_host_finds_and_one_copied_in_while_it_runs(tmp_path: Path) -> None:
    """The real ``serve --web`` on a folder of one match: its page served; a match copied in meanwhile is served
    once the host finds it (its file events, or the search every second here)."""
    league = tmp_path / "league"
    for name in ("one", "two"):
        (tmp_path / name / "web").mkdir(parents=True)
        local_config(tmp_path / name)
        (tmp_path / name / "web" / "index.html").write_text(f"<p>{name}</p>", encoding="utf-8")
    league.mkdir()
    (tmp_path / "one").rename(league / "one")
    log = tmp_path / "serve.log"
    with log.open("ab") as out:
        proc = subprocess.Popen(command("serve", league, "--web", "127.0.0.1:0", "--interval", "1", "--rescan", "1",
                                        "--status-file", tmp_path / "status.json"),
                                stdout=out, stderr=subprocess.STDOUT, cwd=league)
    try:
        wait_for(lambda: "http://127.0.0.1:" in log.read_text(encoding="utf-8"), "serve says its address")
        port = int(re.findall(r"http://127\.0\.0\.1:(\d+)/", log.read_text(encoding="utf-8"))[0])
        wait_for(lambda: _get(port, "/match/")[0] == 200, "the first match's page served")
        assert _get(port, "/match/")[1] == b"<p>one</p>"
        (tmp_path / "two").rename(league / "two")
        wait_for(lambda: _get(port, "/match-2/")[0] == 200, "the match copied in served")
        assert _get(port, "/match-2/")[1] == b"<p>two</p>" and _get(port, "/match/")[1] == b"<p>one</p>"
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def test_newcomers_of_one_file_name_take_the_numbers_left_in_turn(tmp_path: Path) -> None:
    """Every config is ``match.toml``: the newcomers take ``match``, then the next number no match kept, each once."""
    from sheets_gm.running.page import PageNames

    configs = _configs(tmp_path, ["a", "b", "c", "d", "e"])
    (tmp_path / "b" / "web" / ".address").write_text("match-2\n", encoding="utf-8")
    names = PageNames()
    first = names.names_of([(c, c.parent / "web") for c in configs[:4]])
    assert [first[c] for c in configs[:4]] == ["match", "match-2", "match-3", "match-4"]
    assert names.names_of([(configs[4], configs[4].parent / "web")]) == {configs[4]: "match-5"}


def test_newcomers_are_named_a_few_a_request_once_settled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Naming 10,000 newcomers at once held a request for tens of seconds: a request names a few, the next more."""
    monkeypatch.setattr(page_module, "NEWCOMERS_A_REQUEST", 2)
    configs = tuple(_configs(tmp_path, ["a", "b", "c", "d", "e"]))
    index = PageIndex(lambda: configs)
    assert [len(index()) for _ in range(4)] == [2, 4, 5, 5]
    assert {p.folder.parent.name for p in index().values()} == {"a", "b", "c", "d", "e"}
