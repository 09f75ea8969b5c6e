"""The benchmarks of a command as typed (``scripts/bench_typed.py``, ``scripts/bench_simulate.py``): each tree
runs in turn, the command at a terminal draws what a user sees, and the simulate benchmark reads the command's
own figure and tables back from what it printed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[3]


def _script(name: str) -> ModuleType:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "scripts"))


def test_the_trees_take_turns_going_first() -> None:
    typed = _script("bench_typed")
    order: list[tuple[int, str, str]] = []
    runs = typed.paired({"old": ROOT, "new": ROOT}, ["a", "b"], 2, lambda name, _tree, key: f"{name}{key}",
                        lambda pair, name, key, _got: order.append((pair, name, key)))
    assert order == [(1, "old", "a"), (1, "new", "a"), (1, "old", "b"), (1, "new", "b"),
                     (2, "new", "a"), (2, "old", "a"), (2, "new", "b"), (2, "old", "b")]
    assert runs["old", "b"] == ["oldb", "oldb"]


def test_simulate_at_a_terminal_draws_its_bar_and_its_figures_are_read_back(tmp_path: Path) -> None:
    """The command run as typed at a (pseudo-)terminal: the progress bar is drawn (the terminal's control codes),
    the files are written, and the benchmark reads the seconds it says it played for and its tables."""
    typed, bench = _script("bench_typed"), _script("bench_simulate")
    got = typed.command(ROOT, ["simulate", "gvg", "--matches", "2", "--workers", "1", "--out", "out"], tmp_path,
                        terminal=True)
    assert "Playing matches" in got.said and "\x1b[" in got.said, got.said
    assert all((tmp_path / "out" / name).is_file() for name in bench.FILES)
    assert bench.played_seconds(got) >= 0  # read back (not NaN); two matches may take under the 0.05 s it rounds to
    shown = bench.tables(got)
    assert "Playing matches" not in shown and "Played 2 matches" not in shown and "\x1b" not in shown
    assert "objective" in shown
    piped = typed.command(ROOT, ["simulate", "gvg", "--matches", "2", "--workers", "1"], tmp_path)
    assert "Playing matches" not in piped.said  # off a terminal, no bar
    assert bench.tables(piped).split() == shown.split()
