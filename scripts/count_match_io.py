"""Count how many times each GM command loads and saves each workbook of a local match, every game.

Each game's practice match (``init GAME --practice``: a board, the engine and the bots' orders under gm/, the
person's orders beside the config) is made and then driven through the GM's commands in this process, in this
order: ``status``, a ``sync`` with the person's seat still to type (the bots type theirs), an idle ``sync``,
``adjust --bot`` (the person's seat handed to a bot), a ``sync`` that resolves the window, ``verify``, ``export``,
``undo``, ``repair``, ``adjust --bot SEAT=none`` (handed back) and one poll of the match as ``serve`` polls it. The
local backend's ``_load`` and ``_save`` (every load and save of a workbook the product makes) are wrapped, and the
script prints, per command, each workbook's loads and saves; a command that loads or saves one workbook more than
once is marked ``*``.

    .venv/bin/python scripts/count_match_io.py                 # every game
    .venv/bin/python scripts/count_match_io.py --game gvg
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

GAMES = ("gvg", "wesnoth", "coalition", "champions", "winordie")


@contextlib.contextmanager
def counted_io() -> Iterator[Counter[tuple[str, str]]]:
    """While open, each load and save of a local workbook counted by (``load`` or ``save``, the workbook's path)."""
    from sheets_gm.sheets.local.backend import LocalWorkbookBackend

    counts: Counter[tuple[str, str]] = Counter()
    real_load, real_save = LocalWorkbookBackend._load, LocalWorkbookBackend._save

    def load(self: LocalWorkbookBackend) -> Any:
        counts["load", str(self.path)] += 1
        return real_load(self)

    def save(self: LocalWorkbookBackend, *args: Any, **kwargs: Any) -> Any:
        counts["save", str(self.path)] += 1
        return real_save(self, *args, **kwargs)

    LocalWorkbookBackend._load = load  # type: ignore[method-assign]
    LocalWorkbookBackend._save = save  # type: ignore[method-assign]
    try:
        yield counts
    finally:
        LocalWorkbookBackend._load = real_load  # type: ignore[method-assign]
        LocalWorkbookBackend._save = real_save  # type: ignore[method-assign]


def _serve_poll(config: Path) -> int:
    """One poll of the match as ``serve``'s worker runs it (``host.visit``)."""
    from sheets_gm.host.visit import visit

    visit(config, None, lambda: datetime.now(UTC))
    return 0


def _cli(*argv: str | Path) -> Callable[[], int]:
    from sheets_gm.cli import main

    return lambda: main([str(a) for a in argv])


def commands(game: str, folder: Path) -> list[tuple[str, Callable[[], int]]]:
    """The commands run on ``game``'s practice match in ``folder``, in order, each with its name."""
    config = folder / "match.toml"

    def seat_bot(to: str) -> Callable[[], int]:
        def run() -> int:
            data = tomllib.loads(config.read_text(encoding="utf-8"))
            seat = str((data.get("seats") or data.get("teams") or [""])[0])
            bot = to or next(iter(data["bots"].values()))
            return _cli("adjust", "-c", config, "--bot", f"{seat}={bot}", "--reason", "counted")()
        return run

    return [("init", _cli("init", game, "--practice", "-c", config)),
            ("status", _cli("status", "-c", config)),
            ("sync (bots type)", _cli("sync", "-c", config)),
            ("sync (idle)", _cli("sync", "-c", config)),
            ("adjust --bot", seat_bot("")),
            ("sync (resolves)", _cli("sync", "-c", config)),
            ("verify", _cli("verify", "-c", config)),
            ("export", _cli("export", "-c", config, "--reveal-early")),
            ("undo", _cli("undo", "-c", config, "--reason", "counted")),
            ("repair", _cli("repair", "-c", config)),
            ("adjust --bot =none", seat_bot("none")),
            ("serve's poll", lambda: _serve_poll(config))]


def count_game(game: str, folder: Path) -> list[tuple[str, int, Counter[tuple[str, str]]]]:
    """Each command's name, exit code and counts of loads and saves by workbook, on ``game``'s match in ``folder``."""
    out: list[tuple[str, int, Counter[tuple[str, str]]]] = []
    for name, run in commands(game, folder):
        with counted_io() as counts, contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()):
            code = run()
        out.append((name, code, Counter({(kind, str(Path(p).relative_to(folder))): n
                                         for (kind, p), n in counts.items()})))
    return out


def table(game: str, rows: list[tuple[str, int, Counter[tuple[str, str]]]]) -> list[str]:
    """The lines printed for one game: a line a command, ``workbook load/save`` for each workbook it touched."""
    lines = [f"{game}:"]
    for name, code, counts in rows:
        books = sorted({p for _, p in counts})
        cells = [f"{p} {counts['load', p]}/{counts['save', p]}"
                 + ("*" if counts["load", p] > 1 or counts["save", p] > 1 else "") for p in books]
        status = "" if code == 0 else f" (exit {code})"
        lines.append(f"  {name:20}{status} loads {sum(n for (k, _), n in counts.items() if k == 'load'):2}, "
                     f"saves {sum(n for (k, _), n in counts.items() if k == 'save'):2}: {', '.join(cells) or '-'}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Print the table of each game asked for."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=(*GAMES, "all"), default="all", help="one game, or all (default)")
    args = parser.parse_args(argv)
    print("loads/saves per workbook and command (* more than once)")
    for game in GAMES if args.game == "all" else (args.game,):
        with tempfile.TemporaryDirectory(prefix="count-io-") as tmp:
            print("\n".join(table(game, count_game(game, Path(tmp)))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
