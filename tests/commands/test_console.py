"""Command output off a terminal: into a pipe whose reader has gone, and into a log file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sheets_gm.cli import main


def _into_a_closed_pipe(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``sheets-gm ARGV`` with its standard output a pipe nobody reads any more, as after
    ``| head -1`` has read its line: every write fails with a broken pipe, deterministically."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", "sheets_gm.cli", *argv], stdout=write_end,
                              stderr=subprocess.PIPE, text=True, cwd=cwd, timeout=300, check=False)
    finally:
        os.close(write_end)


#: Both print through the same console (``CommandConsole``): the quick run pipes simulate, a third of the demo's CPU
#: in its fresh process; the demo under ``-m soak``. A command printing with ``print`` is piped by test_commands.py.
CUT_SHORT = [pytest.param(("demo", "--out", "demo", "--turns", "1"), marks=pytest.mark.soak),
             ("simulate", "gvg", "--matches", "2", "--workers", "1")]


@pytest.mark.parametrize("argv", CUT_SHORT)
def test_a_reader_that_stops_reading_is_not_an_error(tmp_path: Path, argv: tuple[str, ...]) -> None:
    """``sheets-gm demo | head -1`` and ``sheets-gm simulate … | head -1`` end with 0 and say nothing."""
    done = _into_a_closed_pipe(*argv, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")


def test_piped_output_is_not_wrapped_at_80_columns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A log file keeps each printed line whole: the seed hash stays beside its words."""
    assert main(["demo", "--out", str(tmp_path / "a-rather-long-folder-name-for-the-demo"), "--turns", "1"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("Demo ") and "seed hash " in first and first.endswith("…")
