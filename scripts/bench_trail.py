"""What an army's trail over the turns costs the match page (issue 90): for the Coalition's war of ``--armies``
armies a side (default 320: 640 armies) played by its bots for ``--windows`` windows, each resolution's build made
``--replay`` times with its steps (``web/trail.py``) and as many without them, alternated on copies of the folder as
it stood (``bench_page.replay_once``); printed per window, the least CPU of each and their ratio, the resolution's
own CPU, and the trail file's bytes; then the median ratio and the bytes a trail loads (every window's file), with
the load average.

    .venv/bin/python scripts/bench_trail.py [--armies 320] [--windows 5] [--replay 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "scripts"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from bench_page import _match, replay_once, steps  # noqa: E402

from sheets_gm.web import site  # noqa: E402
from sheets_gm.web.page import PageInput  # noqa: E402
from sheets_gm.web.site import build_site  # noqa: E402


def _least(folder: Path, page: PageInput, times: int) -> tuple[float, float]:
    """The least CPU of ``times`` builds of ``page`` with the trail's steps and as many without, alternated."""
    with_trail: list[float] = []
    without: list[float] = []
    for k in range(times):
        with_trail.append(replay_once(folder, page, 2 * k))
        with mock.patch.object(site, "steps", lambda *_: {"lines": [], "armies": {}}), \
                mock.patch.object(site, "routes", lambda *_: {}):
            without.append(replay_once(folder, page, 2 * k + 1))
    return min(with_trail), min(without)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--armies", type=int, default=320)
    parser.add_argument("--windows", type=int, default=5)
    parser.add_argument("--replay", type=int, default=5)
    args = parser.parse_args(argv)
    ratios: list[float] = []
    with tempfile.TemporaryDirectory() as temporary:
        name, roster, settings = _match("war", args.armies)
        print(f"load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])}; a war of "
              f"{2 * args.armies} armies, {args.windows} window(s)", flush=True)
        folder = Path(temporary)
        for step in steps(name, roster, args.windows, Path(temporary), settings):
            folder = step.folder
            if step.resolved and (folder / site.INDEX).exists():
                with_trail, without = _least(folder, step.page, args.replay)
                ratios.append(with_trail / without)
                done = step.page.resolution
                trail = folder / f"w{done.number}.trail.js" if done is not None else folder
                build_site(folder, step.page)
                print(f"window {done.number if done else '?'}: build {with_trail * 1000:.1f} ms CPU with its "
                      f"steps, {without * 1000:.1f} without ({with_trail / without:.3f}); the resolution "
                      f"{step.took_cpu * 1000:.0f} ms CPU; its trail file {trail.stat().st_size:,} bytes", flush=True)
            else:
                build_site(folder, step.page)
        files = sorted(folder.glob("w*.trail.js"))
        print(f"median ratio {statistics.median(ratios):.3f}; a trail loads {len(files)} files, "
              f"{sum(f.stat().st_size for f in files):,} bytes; load average "
              f"{' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
