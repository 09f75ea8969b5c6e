"""The outbox's ledger (``notify.ledger_file``): a change is a line added, never the whole ledger written again; any
holder reads what another wrote; a line a crash cut is read as nothing; the lines are folded into the file when they
outweigh it, and read the same after."""

from __future__ import annotations

from pathlib import Path

import pytest

import sheets_gm.notify.ledger_file as ledger_file
from sheets_gm.notify.ledger_file import LedgerFile


def big(tmp_path: Path, keys: int) -> LedgerFile:
    ledger = LedgerFile(tmp_path / "box")
    with ledger.held() as entries:
        entries.update({f"turn/{n}/receipt/p{n}@example.org": "sent 2026-11-28T12:00:00+00:00" for n in range(keys)})
    return ledger


def test_marking_one_key_writes_one_line_not_the_ledger(tmp_path: Path) -> None:
    ledger = big(tmp_path, 20_000)
    whole = ledger.path.stat()
    assert whole.st_size > 1_000_000
    for n in range(200):
        with ledger.held() as entries:
            entries[f"next/{n}"] = "queued"
        with ledger.held() as entries:
            entries[f"next/{n}"] = f"sent 2026-11-28T12:{n % 60:02d}:00+00:00"
    assert ledger.path.stat().st_mtime_ns == whole.st_mtime_ns and ledger.path.stat().st_ino == whole.st_ino
    assert ledger.lines_path.stat().st_size < 400 * 80
    again = LedgerFile(tmp_path / "box").read()
    assert len(again) == 20_200 and again["next/7"] == "sent 2026-11-28T12:07:00+00:00"


def test_every_holder_reads_what_another_wrote_and_a_fold_reads_the_same(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ledger_file, "FOLD_AT", 2_000)
    one, two = LedgerFile(tmp_path / "box"), LedgerFile(tmp_path / "box")
    expected: dict[str, str] = {}
    for n in range(300):
        writer = (one, two)[n % 2]
        with writer.held() as entries:
            entries[f"k{n % 40}"] = f"v{n}"
        expected[f"k{n % 40}"] = f"v{n}"
        assert one.read() == two.read() == expected
    assert one.lines_path.stat().st_size < 2_000 and one.path.exists()  # folded, more than once
    assert LedgerFile(tmp_path / "box").read() == expected


def test_a_line_a_crash_cut_is_read_as_nothing_and_the_next_change_is_kept(tmp_path: Path) -> None:
    ledger = LedgerFile(tmp_path / "box")
    with ledger.held() as entries:
        entries["a"] = "queued"
    with ledger.lines_path.open("ab") as lines:
        lines.write(b'["b", "sen')  # a crash mid-line
    assert LedgerFile(tmp_path / "box").read() == {"a": "queued"}
    with ledger.held() as entries:
        entries["c"] = "queued"
    assert LedgerFile(tmp_path / "box").read() == {"a": "queued", "c": "queued"}


def test_a_ledger_that_cannot_be_read_is_never_guessed(tmp_path: Path) -> None:
    ledger = big(tmp_path, 10)
    ledger.path.write_text("{not json", encoding="utf-8")
    with pytest.raises(OSError, match="cannot be read"):
        LedgerFile(tmp_path / "box").read()
