"""The idle local sync: a poll that finds every workbook as the last poll left it parses and writes nothing,
a change by a player (or a due deadline) makes it read, and our own writes do not."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.poll_gate.idle import idle_local_poll
from sheets_gm.poll_gate.state import load_state, state_path
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sync.deadline import stamp_deadline
from sheets_gm.sync.sheets import MatchSheets
from tests.matchfiles import TEAMS, local_match, type_orders


class Reads:
    """Counts the workbook reads of the local backend."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = LocalWorkbookBackend.read

        def counting(backend: LocalWorkbookBackend, ranges: object) -> object:
            self.count += 1
            return real(backend, ranges)  # type: ignore[arg-type]

        monkeypatch.setattr(LocalWorkbookBackend, "read", counting)


def sync(capsys: pytest.CaptureFixture[str], config: Path, *more: str) -> str:
    assert main(["sync", "-c", str(config), *more]) == 0
    return capsys.readouterr().out


def fresh(sheets: MatchSheets) -> MatchSheets:
    """The same workbook through a new backend (as a player's program would see it: no cache)."""
    return MatchSheets.single(TEAMS, LocalWorkbookBackend(sheets.board.name))


def test_an_idle_sync_reads_nothing_writes_nothing_and_says_what_the_last_poll_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    config, _ = local_match(tmp_path)
    first = sync(capsys, config)
    assert "Turn 1: waiting for red, blue." in first
    workbook = tmp_path / "match.xlsx"
    before = workbook.stat().st_mtime_ns
    reads = Reads(monkeypatch)
    assert sync(capsys, config) == first
    assert sync(capsys, config, "--quiet") == ""
    assert reads.count == 0 and workbook.stat().st_mtime_ns == before


def test_a_players_save_is_read_and_answered_and_our_answer_does_not_count_as_typing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    config, sheets = local_match(tmp_path)
    sync(capsys, config)
    type_orders(fresh(sheets), ready=False)  # a player types and saves; nobody is ready
    reads = Reads(monkeypatch)
    out = sync(capsys, config)
    assert reads.count == 1 and "feedback cells updated" in out  # read, and answered in the workbook
    after_answer = load_state(state_path(config))
    assert after_answer is not None and "feedback" not in after_answer.summary
    assert sync(capsys, config) == "Turn 1: waiting for red, blue.\n"
    assert reads.count == 1  # our own save of the feedback is not taken for a player's


def test_a_copy_of_the_same_bytes_is_not_a_change_but_a_touched_config_is_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    config, _ = local_match(tmp_path)
    sync(capsys, config)
    workbook = tmp_path / "match.xlsx"
    workbook.write_bytes(workbook.read_bytes())  # a new modification time, the same content
    reads = Reads(monkeypatch)
    sync(capsys, config)
    assert reads.count == 0
    config.write_text(config.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    sync(capsys, config)
    assert reads.count == 1


def test_a_due_deadline_is_seen_without_reading(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deadline = datetime.now(UTC) + timedelta(minutes=20)
    config, _ = local_match(tmp_path, deadline=stamp_deadline(deadline, "UTC"))
    sync(capsys, config)
    assert idle_local_poll(config, deadline - timedelta(minutes=1)) is not None
    assert idle_local_poll(config, deadline + timedelta(minutes=1)) is None  # the poll must read and resolve


def test_a_deadline_resolves_on_time_through_the_gate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, _ = local_match(tmp_path, deadline=stamp_deadline(datetime.now(UTC) + timedelta(hours=2), "UTC"))
    sync(capsys, config)
    path = state_path(config)
    saved = json.loads(path.read_text(encoding="utf-8"))
    # The deadline as the engine holds it passes (here: the state says it has, as it would two hours later).
    saved["deadline"] = stamp_deadline(datetime.now(UTC) - timedelta(minutes=1), "UTC")
    path.write_text(json.dumps(saved), encoding="utf-8")
    assert idle_local_poll(config, datetime.now(UTC)) is None


def test_a_poll_that_fails_leaves_no_state_so_the_next_one_reads(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    config, sheets = local_match(tmp_path)
    sync(capsys, config)
    type_orders(fresh(sheets))  # both teams ready: the next poll resolves
    lock = tmp_path / ".~lock.match.xlsx#"
    lock.write_text("Ann,host,ann,23.11.2026 16:00,file:///x;", encoding="utf-8")  # open in LibreOffice
    assert main(["sync", "-c", str(config), "--quiet"]) == 1
    capsys.readouterr()
    assert load_state(state_path(config)) is None
    lock.unlink()
    assert "resolved" in sync(capsys, config)


def test_without_a_state_file_a_sync_reads_everything(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    config, _ = local_match(tmp_path)
    sync(capsys, config)
    state_path(config).write_text("{not json", encoding="utf-8")
    reads = Reads(monkeypatch)
    sync(capsys, config)
    assert reads.count == 1 and load_state(state_path(config)) is not None


def test_the_safety_net_reads_every_30_minutes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, _ = local_match(tmp_path)
    sync(capsys, config)
    assert idle_local_poll(config, datetime.now(UTC) + timedelta(minutes=29)) is not None
    assert idle_local_poll(config, datetime.now(UTC) + timedelta(minutes=31)) is None  # a new version, a missed edit


def test_a_match_folder_copied_elsewhere_is_read_at_its_first_poll_there(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The state file keeps each workbook by its absolute path: a copy of the folder (a GM moving a match, or
    restoring a backup beside it) must not judge its own workbooks by the original's, or what a player types in the
    copy waits for the safety net, unanswered, while the original stays untouched."""
    import shutil

    config, _ = local_match(tmp_path / "first")
    sync(capsys, config)
    copy = tmp_path / "copy"
    shutil.copytree(tmp_path / "first", copy)
    moved = copy / "match.toml"
    copied = MatchSheets.single(TEAMS, LocalWorkbookBackend(copy / "match.xlsx"))
    type_orders(copied, ready=False)  # a player types in the copy; the original is not touched
    reads = Reads(monkeypatch)
    out = sync(capsys, moved)
    assert reads.count == 1 and "feedback cells updated" in out, out
