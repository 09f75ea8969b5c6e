"""The idle local sync: a poll that finds every workbook as the last poll left it parses and writes nothing,
a change by a player (or a due deadline) makes it read, and our own writes do not."""

from __future__ import annotations

import json
import os
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.poll_gate.idle import SAFETY_NET_MINUTES, idle_local_poll, safety_moment
from sheets_gm.poll_gate.state import PollState, iso, load_state, state_path
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sheets.marks import FileMark
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


def test_past_its_safety_moment_an_untouched_match_stays_idle(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The safety net costs a ``stat`` where nothing touched the files: no read, half an hour or a day on."""
    config, _ = local_match(tmp_path)
    sync(capsys, config)
    for later in (timedelta(minutes=SAFETY_NET_MINUTES + 1), timedelta(days=1)):
        assert idle_local_poll(config, datetime.now(UTC) + later) is not None


def test_a_change_its_size_and_time_hid_is_read_at_the_safety_moment(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A workbook written again with its size and modification time set back (a restore, ``touch -r``, a sync tool
    keeping times) looks the same to the quick check; its change time moved, and the safety look reads it."""
    config, _ = local_match(tmp_path)
    sync(capsys, config)
    workbook = tmp_path / "match.xlsx"
    before = workbook.stat()
    workbook.write_bytes(workbook.read_bytes())  # the same size; a new change time
    os.utime(workbook, ns=(before.st_atime_ns, before.st_mtime_ns))
    state = load_state(state_path(config))
    assert state is not None
    moment = safety_moment(state)
    assert moment is not None
    assert idle_local_poll(config, moment - timedelta(seconds=1)) is not None  # the quick check: size and time
    assert idle_local_poll(config, moment) is None


def test_a_record_that_knows_no_identity_reads_at_its_safety_moment(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A record an older version wrote (no inode, no change time) is read in full at its safety moment, as before."""
    config, _ = local_match(tmp_path)
    sync(capsys, config)
    path = state_path(config)
    saved = json.loads(path.read_text(encoding="utf-8"))
    for mark in [saved["config"], *saved["files"].values()]:
        del mark["ino"], mark["ctime_ns"]
    path.write_text(json.dumps(saved), encoding="utf-8")
    state = load_state(path)
    assert state is not None and (moment := safety_moment(state)) is not None
    assert idle_local_poll(config, moment - timedelta(seconds=1)) is not None
    assert idle_local_poll(config, moment) is None


def test_safety_moments_of_matches_read_together_spread_over_the_period() -> None:
    """10,000 matches read at one moment (a restore, a first start) fall due spread over the period, each within it,
    and stay spread read after read: every tenth of the period holds about a tenth of them."""
    period = timedelta(minutes=SAFETY_NET_MINUTES)
    read = datetime(2026, 11, 28, 12, 0, 7, tzinfo=UTC)
    moments = []
    for i in range(10_000):
        state = PollState(FileMark(1, 2, "ab"), full_read_at=iso(read), folder=f"/srv/matches/m{i:05d}")
        first = safety_moment(state)
        assert first is not None and read < first <= read + period
        state.full_read_at = iso(first)
        second = safety_moment(state)
        assert second is not None and second - first == period  # the same place in the next period
        moments.append(first)
    tenths = Counter(int((m - read) / period * 10) for m in moments)
    assert all(800 <= tenths[t] <= 1200 for t in range(10)), tenths


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
