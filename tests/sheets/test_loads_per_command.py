"""A command on a local match loads each version of each workbook once (``running/connect.py``'s tidy reads the
workbook the command then reads, ``sheets/local/backend.py`` keeps it): the links to other files are looked for in
the very load the command's own reads use, never by a second parse of the same bytes."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.cli import main
from sheets_gm.host.polls import poll_config
from sheets_gm.match.config import load_config
from sheets_gm.sheets.local.backend import LocalWorkbookBackend
from sheets_gm.sheets.marks import file_mark
from tests.matchfiles import turn_two_typed


def test_status_verify_and_a_poll_load_each_version_of_a_workbook_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A host's poll, ``status`` and ``verify`` of a private match (four workbooks) each load every workbook once: no
    version of a file (its path and stamp) is loaded twice in one command (``sync`` right after the poll loads none:
    nothing changed). It fails with the tidy's look for links to other files loading the workbook afresh."""
    config = turn_two_typed(tmp_path)
    loads: Counter[tuple[str, str]] = Counter()
    load = LocalWorkbookBackend._load

    def counted(backend: LocalWorkbookBackend) -> tuple[Any, Any]:
        wb, stamp = load(backend)
        loads[(backend.path.name, repr(stamp))] += 1
        return wb, stamp

    monkeypatch.setattr(LocalWorkbookBackend, "_load", counted)
    now = datetime(2030, 1, 1, tzinfo=UTC)
    poll_config(load_config(config), file_mark(config), lambda: now, quiet=True)
    assert len(loads) == 4 and set(loads.values()) == {1}, loads
    for command in (["status"], ["verify"], ["sync"]):
        loads.clear()
        assert main([*command, "-c", str(config)]) == 0, capsys.readouterr()
        assert len(loads) == (0 if command == ["sync"] else 4) and set(loads.values()) <= {1}, (command, loads)
