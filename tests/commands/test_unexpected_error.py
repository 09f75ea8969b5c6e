"""No command ends in a traceback: the ``sheets-gm`` program says an error nobody foresaw in words, what to do next
and where its details were kept; ``--debug`` shows the traceback instead."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

import sheets_gm.cli as cli


def broken(args: object) -> int:
    """A command whose code has a defect nobody foresaw."""
    raise KeyError("a key nobody foresaw")


def run_entry(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *argv: str) -> int:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(sys, "argv", ["sheets-gm", *argv])
    monkeypatch.setattr(cli, "idle_sync_by_hand", lambda words: None)
    debug = "--debug" in argv

    class Parsed:
        def parse_args(self, argv: object = None) -> argparse.Namespace:
            return argparse.Namespace(func=broken, debug=debug)

    monkeypatch.setattr(cli, "build_parser", lambda argv=None: Parsed())
    return cli.entry()


def test_an_unforeseen_error_is_said_in_words_and_its_details_kept(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code = run_entry(monkeypatch, tmp_path, "status")
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert "stopped on an error it did not expect (KeyError: 'a key nobody foresaw')" in err
    assert "sheets-gm repair" in err
    kept = next((tmp_path / "state" / "sheets-gm").glob("sheets-gm-error-*.txt"))
    assert str(kept) in err
    text = kept.read_text(encoding="utf-8")
    assert "Traceback" in text and "def broken" not in text and "a key nobody foresaw" in text


def test_debug_shows_the_traceback(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with pytest.raises(KeyError):
        run_entry(monkeypatch, tmp_path, "--debug", "status")


def test_the_installed_program_is_the_entry_that_says_it() -> None:
    """The console script runs :func:`cli.entry` (``main`` lets an error through, as the tests' crashes need)."""
    done = subprocess.run([sys.executable, "-c", "import importlib.metadata as m; print([e.value for e in "
                           "m.entry_points(group='console_scripts') if e.name == 'sheets-gm'])"],
                          capture_output=True, text=True, check=True)
    assert "sheets_gm.cli:entry" in done.stdout
