"""Check that two trees make the same match workbooks: every game's match made (``init``'s ``create_match``, as
the demo makes it, same seed) by this tree and by another commit, and each part of each .xlsx compared.

A layout made cheaper must save the same cells, styles, widths, heights, merges, protections and properties. Each
tree makes the matches in a fresh process of its own (its ``sheets_gm``); the workbooks are unzipped and every XML
part compared byte for byte, except the times in ``docProps/core.xml`` (when the file was made). Prints one line a
game and each part that differs; exits 1 if any does.

    .venv/bin/python scripts/check_made_matches.py --vs main
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


def parts(folder: Path) -> dict[str, str]:
    """Each part of each workbook under ``folder`` (``file!part``) -> its digest, docProps' times left out."""
    out: dict[str, str] = {}
    for book in sorted(folder.rglob("*.xlsx")):
        with zipfile.ZipFile(book) as z:
            for name in sorted(z.namelist()):
                data = z.read(name)
                if name == "docProps/core.xml":
                    data = _TIMES.sub(b"", data)
                out[f"{book.relative_to(folder)}!{name}"] = hashlib.sha256(data).hexdigest()
    return out


def made(tree: Path, game: str, into: Path) -> dict[str, str]:
    """The parts of ``game``'s match as ``tree`` makes it in ``into``."""
    env_path = f"{tree}"
    subprocess.run([sys.executable, "-c", _MAKE, game, str(into)], check=True, cwd=tree,
                   env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin", "HOME": str(into)})
    return parts(into)


def main(argv: Sequence[str] | None = None) -> int:
    """Compare each game's made match between this tree and ``--vs``; 1 if any part differs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vs", metavar="COMMIT_OR_PATH", default="main", help="the tree compared (default main)")
    parser.add_argument("--game", choices=(*GAMES, "all"), default="all")
    args = parser.parse_args(argv)
    here = Path(__file__).resolve().parent.parent
    games = GAMES if args.game == "all" else (args.game,)
    differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(args.vs) if Path(args.vs).is_dir() else exported(args.vs, Path(tmp) / "other")
        for game in games:
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
