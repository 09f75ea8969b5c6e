"""``sheets-gm doctor`` on a Google match from a machine that cannot reach Google, this tree against another (issue 94).

A GvG config on four spreadsheets and a service-account key (made here; nothing is sent anywhere) is checked by
``doctor`` with Google's names unresolvable: the real path, no fake. The machine must have no route to Google, or
``--proxy`` points every request at a port nothing listens on (the proxy's refusal instead of DNS). Each round runs
COMMIT's tree (``git archive`` unpacked in a temporary folder) and this one, one after the other, and prints the
seconds to doctor's first line and to its end, and how many lines failed.

    .venv/bin/python scripts/bench_doctor_offline.py --vs main --rounds 2 [--proxy]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.fakes.google_api import write_service_account_key  # noqa: E402

KEYS = {role: f"1{n}bCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg" for n, role in enumerate(("board", "engine", "red",
                                                                                           "blue"))}


def _config(folder: Path) -> Path:
    """A Google GvG match's config and key in ``folder``."""
    write_service_account_key(folder / "key.json", "gm@bench.iam.gserviceaccount.com")
    config = folder / "match.toml"
    config.write_text(
        'ruleset = "gvg"\nteams = ["red", "blue"]\n[sheets]\nbackend = "google"\n'
        f'board = "{KEYS["board"]}"\nengine = "{KEYS["engine"]}"\n'
        f'orders = {{ red = "{KEYS["red"]}", blue = "{KEYS["blue"]}" }}\n[google]\nservice_account = "key.json"\n',
        encoding="utf-8")
    return config


def _doctor(tree: Path, config: Path, proxy: bool) -> tuple[float, float, int]:
    """Seconds to doctor's first line and to its end, and its failed lines, with ``tree``'s code."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    if proxy:
        env["HTTPS_PROXY"] = "http://127.0.0.1:9"
    start = time.monotonic()
    first = 0.0
    lines = []
    with subprocess.Popen([sys.executable, "-c", "import sys; from sheets_gm.cli import main; sys.exit(main())",
                           "doctor", "-c", str(config)], cwd=config.parent, stdout=subprocess.PIPE, text=True,
                          env=env) as process:
        assert process.stdout is not None
        for line in process.stdout:
            first = first or time.monotonic() - start
            lines.append(line)
    return first, time.monotonic() - start, sum(line.startswith("✘") for line in lines)


def main() -> int:
    """Print each round's figures for both trees, with the load."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vs", default="main", help="the commit to compare with (default main)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--proxy", action="store_true", help="point requests at a proxy nothing listens on")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        base.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.vs, "sheets_gm", "templates"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        (Path(tmp) / "match").mkdir()
        config = _config(Path(tmp) / "match")
        for _ in range(args.rounds):
            for name, tree in ((args.vs, base), ("this tree", ROOT)):
                first, total, failed = _doctor(tree, config, args.proxy)
                load = Path("/proc/loadavg").read_text(encoding="utf-8").split()[0]
                print(f"{name}: first line {first:.1f} s, done {total:.1f} s, {failed} failed lines (load {load})",
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
