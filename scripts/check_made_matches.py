"""Check that two trees make the same match workbooks: every game's match made (``init``'s ``create_match``, as
the demo makes it, same seed) by this tree and by another commit, and each part of each .xlsx compared.

A layout made cheaper must save the same cells, styles, widths, heights, merges, protections and properties. Each
tree makes the matches in a fresh process of its own (its ``sheets_gm``); the workbooks are unzipped and every XML
part compared byte for byte, except the times in ``docProps/core.xml`` (when the file was made). Prints one line a
game and each part that differs; exits 1 if any does.

With ``--commands`` each tree instead drives a practice match of each game through the GM's commands as
``scripts/count_match_io.py`` does (``init`` with the same seed, ``status``, ``sync``, ``adjust --bot``, ``undo``,
``repair``, ...: this script's steps, that tree's ``sheets_gm``), and the workbooks are compared after each command.
The times a command writes (a resolution's, ISO, to the second) are left out of the comparison, and so are the
copies ``repair`` keeps in a folder named by the time.

    .venv/bin/python scripts/check_made_matches.py --vs main
    .venv/bin/python scripts/check_made_matches.py --vs main --commands --game gvg
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path

from bench_engine import exported

GAMES = ("gvg", "wesnoth", "coalition", "champions", "winordie")
_TIMES = re.compile(rb"<dcterms:(created|modified)[^>]*>[^<]*</dcterms:\1>")
_WRITTEN_TIMES = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?")

# Run in a fresh interpreter with the tree on sys.path: the demo's workbooks made and its match created, then stopped.
_MAKE = """
import io, sys
from pathlib import Path
from rich.console import Console
import sheets_gm.demo.match as demo

class Made(Exception):
    pass

def stop(*args, **kwargs):
    raise Made
demo.poll = stop
try:
    demo.run_demo(sys.argv[1], Path(sys.argv[2]), seed="check", console=Console(file=io.StringIO()), max_windows=1)
except Made:
    pass
"""


# Run in a fresh interpreter with the tree on sys.path: a practice match driven through the GM's commands, the parts
# of its workbooks printed after each (scripts/count_match_io.py's commands, the seed drawn the same).
_COMMANDS = """
import contextlib, io, json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[3])
import check_made_matches, count_match_io
import sheets_gm.init.start as start
start.new_seed = lambda: b"check-made-matches-commands-seed"
folder, out = Path(sys.argv[2]), {}
for name, run in count_match_io.commands(sys.argv[1], folder):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = run()
    out[name] = {"exit": code, "parts": check_made_matches.parts(folder, timed=True)}
print(json.dumps(out))
"""


def parts(folder: Path, *, timed: bool = False) -> dict[str, str]:
    """Each part of each workbook under ``folder`` (``file!part``) -> its digest, docProps' times left out (and,
    ``timed``, the times written in cells and the copies under ``backups/``)."""
    out: dict[str, str] = {}
    for book in sorted(folder.rglob("*.xlsx")):
        if timed and book.relative_to(folder).parts[0] == "backups":
            continue
        with zipfile.ZipFile(book) as z:
            for name in sorted(z.namelist()):
                data = z.read(name)
                if name == "docProps/core.xml":
                    data = _TIMES.sub(b"", data)
                elif timed:
                    data = _WRITTEN_TIMES.sub(b"", data)
                out[f"{book.relative_to(folder)}!{name}"] = hashlib.sha256(data).hexdigest()
    return out


def made(tree: Path, game: str, into: Path) -> dict[str, str]:
    """The parts of ``game``'s match as ``tree`` makes it in ``into``."""
    env_path = f"{tree}"
    subprocess.run([sys.executable, "-c", _MAKE, game, str(into)], check=True, cwd=tree,
                   env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin", "HOME": str(into)})
    return parts(into)


def commanded(tree: Path, game: str, into: Path) -> dict[str, dict[str, object]]:
    """Each command's exit code and the parts of ``game``'s match after it, as ``tree`` runs the commands."""
    into.mkdir()
    done = subprocess.run([sys.executable, "-c", _COMMANDS, game, str(into), str(Path(__file__).resolve().parent)],
                          check=True, cwd=tree, capture_output=True, text=True,
                          env={"PYTHONPATH": f"{tree}", "PATH": "/usr/bin:/bin", "HOME": str(into)})
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def compare_commands(here: Path, other: Path, game: str, tmp: Path) -> int:
    """Print, for each command, whether the two trees left the same workbooks; the parts that differ."""
    ours = commanded(here, game, tmp / f"{game}-commands-new")
    theirs = commanded(other, game, tmp / f"{game}-commands-old")
    differ = 0
    for name, got in ours.items():
        was = theirs.get(name, {"exit": None, "parts": {}})
        new, old = dict(got["parts"]), dict(was["parts"])  # type: ignore[call-overload]
        bad = sorted(k for k in new.keys() | old.keys() if new.get(k) != old.get(k))
        exits = "" if got["exit"] == was["exit"] else f", exit {was['exit']} -> {got['exit']}"
        print(f"{game:10} {name:20} {len(new)} parts: " + ("identical" if not bad else f"{len(bad)} differ") + exits)
        for key in bad:
            print(f"    {key}")
        differ += len(bad) + bool(exits)
    return differ


def main(argv: Sequence[str] | None = None) -> int:
    """Compare each game's made match between this tree and ``--vs``; 1 if any part differs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vs", metavar="COMMIT_OR_PATH", default="main", help="the tree compared (default main)")
    parser.add_argument("--game", choices=(*GAMES, "all"), default="all")
    parser.add_argument("--commands", action="store_true", help="compare the workbooks after each GM command")
    args = parser.parse_args(argv)
    here = Path(__file__).resolve().parent.parent
    games = GAMES if args.game == "all" else (args.game,)
    differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(args.vs) if Path(args.vs).is_dir() else exported(args.vs, Path(tmp) / "other")
        for game in games:
            if args.commands:
                differ += compare_commands(here, other, game, Path(tmp))
                continue
            ours = made(here, game, Path(tmp) / f"{game}-new")
            theirs = made(other, game, Path(tmp) / f"{game}-old")
            bad = sorted(k for k in ours.keys() | theirs.keys() if ours.get(k) != theirs.get(k))
            print(f"{game:10} {len(ours)} parts in {len({k.split('!')[0] for k in ours})} workbooks: "
                  + ("identical" if not bad else f"{len(bad)} differ"))
            for key in bad:
                print(f"    {key}")
            differ += len(bad)
    print(json.dumps({"differing_parts": differ}))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
