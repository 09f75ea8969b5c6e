"""One picture of each game's match page, as a player sees it in a browser, for the docs.

Each game's page is built from a short bot match (``tests/web/pages.py``), opened in headless chromium (Debian's)
and shot at ``--width`` × ``--height`` pixels (the top of the page: the map and the information area), then kept
in 256 colours to stay small: ``docs/page-<game>.png``.

    .venv/bin/python scripts/page_screenshots.py [--windows 3] [--width 1000] [--height 900]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sheets_gm.rulesets.registry import ruleset_names  # noqa: E402
from tests.web.pages import bot_match, build_pages  # noqa: E402


def shoot(page: Path, picture: Path, width: int, height: int) -> None:
    """A headless chromium's picture of ``page``."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or "chromium"
    subprocess.run([browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--window-size={width},{height}", f"--screenshot={picture}", page.as_uri()],
                   check=True, capture_output=True, timeout=120)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--windows", type=int, default=3)
    parser.add_argument("--width", type=int, default=1000)
    parser.add_argument("--height", type=int, default=900)
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    args = parser.parse_args(argv)
    from PIL import Image

    with tempfile.TemporaryDirectory() as temporary:
        for name in ruleset_names():
            folder = build_pages(Path(temporary) / name, *bot_match(name, args.windows), title=f"Friday {name}")
            raw = Path(temporary) / f"{name}.png"
            shoot(folder / "index.html", raw, args.width, args.height)
            target = args.out / f"page-{name}.png"
            Image.open(raw).convert("RGB").quantize(256).save(target, optimize=True)
            print(f"{target} ({target.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
