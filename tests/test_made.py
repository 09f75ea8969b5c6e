"""``tests/made.py``'s ``made_into``: a match made once and copied for each test; made ``shared``, once a run for all
its processes (pytest-xdist's workers), the first to ask building it for the others."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests import made
from tests.made import SHARED_VARIABLE, made_into


@pytest.fixture
def run_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The run's folder of shared matches, as the process that starts the workers makes it; this process's own
    made matches forgotten, as a process that made none."""
    folder = tmp_path / "run"
    folder.mkdir()
    monkeypatch.setenv(SHARED_VARIABLE, str(folder))
    monkeypatch.setattr(made, "_BUILT", {})
    return folder


def _maker(calls: list[str], text: str) -> Callable[[Path], object]:
    def make(into: Path) -> None:
        calls.append(text)
        (into / "gm").mkdir()
        (into / "gm" / "match.toml").write_text(text, encoding="utf-8")
    return make


def test_a_shared_match_made_by_one_process_is_copied_by_another(run_folder: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    made_into(tmp_path / "first", ("made test", 1), _maker(calls, "made first"), shared=True)
    monkeypatch.setattr(made, "_BUILT", {})  # another process: nothing made in it yet
    made_into(tmp_path / "second", ("made test", 1), _maker(calls, "made again"), shared=True)
    assert calls == ["made first"]
    assert (tmp_path / "second" / "gm" / "match.toml").read_text(encoding="utf-8") == "made first"
    (tmp_path / "second" / "gm" / "match.toml").write_text("changed by its test", encoding="utf-8")
    made_into(tmp_path / "third", ("made test", 1), _maker(calls, "made again"), shared=True)
    assert (tmp_path / "third" / "gm" / "match.toml").read_text(encoding="utf-8") == "made first"
    # another key, and a match not made shared, are each made by the process that asks for them
    made_into(tmp_path / "fourth", ("made test", 2), _maker(calls, "key 2"), shared=True)
    monkeypatch.setattr(made, "_BUILT", {})
    made_into(tmp_path / "fifth", ("made test", 1), _maker(calls, "mine"))
    assert calls == ["made first", "key 2", "mine"]


def test_a_shared_make_that_fails_leaves_nothing_and_the_next_process_makes_it(run_folder: Path,
                                                                               tmp_path: Path) -> None:
    def fails(into: Path) -> None:
        (into / "half.xlsx").write_bytes(b"half")
        raise OSError("No space left on device")

    with pytest.raises(OSError):
        made_into(tmp_path / "first", ("made test", "fails"), fails, shared=True)
    assert [p.name for p in run_folder.iterdir() if p.is_dir()] == []
    calls: list[str] = []
    made_into(tmp_path / "second", ("made test", "fails"), _maker(calls, "made"), shared=True)
    assert calls == ["made"] and not (tmp_path / "second" / "half.xlsx").exists()


def test_without_a_run_folder_each_process_makes_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SHARED_VARIABLE, raising=False)
    monkeypatch.setattr(made, "_BUILT", {})
    calls: list[str] = []
    made_into(tmp_path / "first", ("made test", "alone"), _maker(calls, "one"), shared=True)
    monkeypatch.setattr(made, "_BUILT", {})
    made_into(tmp_path / "second", ("made test", "alone"), _maker(calls, "two"), shared=True)
    assert calls == ["one", "two"]
