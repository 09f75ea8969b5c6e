"""What one slow client does to the match pages, measured as issue 90 names it: a war's page folder (the Coalition's
war of ``--armies`` armies a side, ``--windows`` windows, built as a host builds it) served by ``sheets-gm serve --web``
of this checkout, of ``--vs COMMIT`` (``git archive`` unpacked in a temporary folder, run with this checkout's
interpreter) and, where Debian's nginx is installed, by nginx with the configuration docs/hosting.md gives; each in
turn, the same requests: real requests of the page of now (gzip accepted) every ``--every`` seconds for
``--seconds`` seconds, first alone, then while ``--slow`` connections each send a header line every 5 s and never end
their request. Printed: each server's median and largest latency of the real requests, how many went unanswered
within 10 s, and the bytes of the page of now as sent (gzipped where the server does) against its size; the load
average beside them. With ``--loads N``, first the page of now loaded and drawn in headless chromium (Debian's, as
``tests/web`` drives it: navigation to the load event and two frames, ``bench_page.drawn_seconds``) N times through
each server, the servers taken in turn at each round (paired: the machine's load shared alike); printed, each one's
median and largest against the bar of 1 s, the median time an army's trail takes after each load (a click on
its square's trail button: its files fetched, its path drawn, its steps listed), and the load average before and
after.

    .venv/bin/python scripts/bench_page_server.py [--armies 320] [--windows 1] [--vs main] [--slow 70] [--loads 0]
    .venv/bin/python scripts/bench_page_server.py --beside 10000 --slow 0 --vs main   # a host of 10,001 matches
"""

from __future__ import annotations

import argparse
import http.client
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "scripts"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from bench_page import _browser, _match, drawn_seconds, play, trail_seconds  # noqa: E402

NGINX = """user root; worker_processes 1; daemon off; pid {root}/nginx.pid; error_log {root}/error.log;
events {{ worker_connections 1024; }}
http {{ include /etc/nginx/mime.types; access_log off; client_header_timeout 10s; keepalive_timeout 15s;
  gzip on; gzip_types text/css text/javascript application/javascript application/json image/svg+xml;
  client_body_temp_path {root}/body; proxy_temp_path {root}/proxy; fastcgi_temp_path {root}/fcgi;
  uwsgi_temp_path {root}/uwsgi; scgi_temp_path {root}/scgi;
  server {{ listen 127.0.0.1:{port}; location /match/ {{ alias {pages}/; }}
           location ~ /\\. {{ return 404; }} }} }}
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for(port: int, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing listens on port {port}")


@contextmanager
def _serve(tree: Path, matches: Path, port: int) -> Iterator[None]:
    """``sheets-gm serve --web`` of the code in ``tree`` over ``matches``, on ``port``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    with (matches.parent / f"serve-{port}.log").open("wb") as log:  # its "Found N matches" line: search ended
        process = subprocess.Popen([sys.executable, "-m", "sheets_gm.cli", "serve", "--web", f"127.0.0.1:{port}",
                                    "--status-file", str(matches / f"status-{port}.json"), str(matches)],
                                   env=env, cwd=tree, stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_for(port)
        yield
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


@contextmanager
def _nginx(pages: Path, port: int) -> Iterator[None]:
    root = Path(tempfile.mkdtemp(prefix="nginx-"))
    (root / "nginx.conf").write_text(NGINX.format(root=root, port=port, pages=pages), encoding="utf-8")
    process = subprocess.Popen(["nginx", "-c", str(root / "nginx.conf"), "-p", str(root)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for(port)
        yield
    finally:
        process.terminate()
        process.wait(timeout=30)
        shutil.rmtree(root, ignore_errors=True)


def _real(port: int, seconds: float, every: float) -> tuple[list[float], int, int]:
    """Real requests of the page of now, one every ``every`` seconds for ``seconds``: each answered one's seconds, how
    many were not answered within 10 s, and the bytes the last answer sent."""
    took: list[float] = []
    lost = sent = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.monotonic()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", "/match/index.html", headers={"Accept-Encoding": "gzip"})
            answer = connection.getresponse()
            sent = len(answer.read())
            connection.close()
            took.append(time.monotonic() - start) if answer.status == 200 else None
            lost += answer.status != 200
        except OSError:
            lost += 1
        time.sleep(max(0.0, every - (time.monotonic() - start)))
    return took, lost, sent


def _slow(port: int, count: int, stop: threading.Event, held: list[socket.socket]) -> None:
    """``count`` connections (``held``), each sending a header line every 5 s, never ending its request."""
    for _ in range(count):
        try:
            held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
            held[-1].sendall(b"GET /match/index.html HTTP/1.1\r\nHost: x\r\n")
        except OSError:
            pass
    while not stop.wait(5):
        for n, connection in enumerate(list(held)):
            try:
                connection.sendall(f"X-Slow-{n}: a line\r\n".encode())
            except OSError:  # closed by the server: open another, as an attacker would
                held.remove(connection)
                try:
                    held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
                    held[-1].sendall(b"GET /match/index.html HTTP/1.1\r\nHost: x\r\n")
                except OSError:
                    pass
    for connection in held:
        connection.close()


def _first_answer(port: int, limit: float) -> str:
    """Requests of the page of now until one is answered (the host's first search found the war), at most ``limit``
    seconds: how long that took, in words."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        took, _, _ = _real(port, 0.01, 0.5)
        if took:
            return f"first answered {time.monotonic() - start:.1f} s after the port opened"
    return f"not answered within {limit:g} s of the port opening"


def _searched(log: Path, limit: float) -> str:
    """Waits (at most ``limit`` seconds) for the host's first search to end, as its log says: its words."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        found = [line for line in log.read_text(encoding="utf-8", errors="replace").splitlines()
                 if line.startswith("Found ")]
        if found:
            return f"its first search ended {time.monotonic() - start:.0f} s later ({found[0][:60]}…)"
        time.sleep(0.5)
    return f"its first search had not ended {limit:g} s later"


def _measure(label: str, port: int, args: argparse.Namespace, size: int) -> None:
    if args.beside:  # the host's first search must find the war among the others first
        print(f"{label}: the page of now {_first_answer(port, 300)}", flush=True)
        print(f"{label}: {_searched(args.work / f'serve-{port}.log', 600)}", flush=True)
    _real(port, 5, args.every)  # (the host's start: its first search, its polls' server; the templates loaded)
    calm, calm_lost, sent = _real(port, args.seconds / 3, args.every)
    stop = threading.Event()
    held: list[socket.socket] = []
    attack = threading.Thread(target=_slow, args=(port, args.slow, stop, held), daemon=True)
    attack.start()
    end = time.monotonic() + 20
    while len(held) < args.slow and time.monotonic() < end:  # every one of them connected (or 20 s gone)
        time.sleep(0.2)
    opened = len(held)
    took, lost, _ = _real(port, args.seconds, args.every)
    stop.set()
    attack.join(timeout=30)

    def said(values: list[float]) -> str:
        return f"median {statistics.median(values) * 1000:.0f} ms, largest {max(values) * 1000:.0f} ms" \
            if values else "none answered"
    print(f"{label}: alone {said(calm)} ({calm_lost} unanswered); with {args.slow} slow connections ({opened} open) "
          f"{said(took)}, {lost} of {len(took) + lost} unanswered within 10 s; the page of now sent in {sent:,} bytes "
          f"({size:,} on disk)", flush=True)


def _loaded(servers: list[tuple[str, int]], loads: int) -> None:
    """The page of now loaded and drawn in chromium ``loads`` times through each of ``servers`` (label, port), the
    servers in turn at each round; each one's median and largest printed against the bar of 1 s."""
    driver = _browser()
    took: dict[str, list[float]] = {label: [] for label, _ in servers}
    trails: dict[str, list[float]] = {label: [] for label, _ in servers}
    try:
        for _, port in servers:  # (each server's first load: its templates and the browser's start)
            drawn_seconds(driver, f"http://127.0.0.1:{port}/match/index.html", 1)
        for _ in range(loads):
            for label, port in servers:
                took[label].append(drawn_seconds(driver, f"http://127.0.0.1:{port}/match/index.html", 1))
                trails[label].append(trail_seconds(driver))
    finally:
        driver.quit()
    for label, values in took.items():
        median = statistics.median(values)
        trail = statistics.median(trails[label])
        print(f"{label}: the page of now loaded and drawn in chromium, median {median * 1000:.0f} ms, largest "
              f"{max(values) * 1000:.0f} ms of {len(values)} ({'under' if median < 1 else 'OVER'} the bar of 1 s); "
              + (f"an army's trail (its files fetched, drawn, listed) median {trail * 1000:.0f} ms" if trail >= 0 else
                 "no trail (that tree's page has none)"), flush=True)


def _loaded_in_turn(trees: list[tuple[str, Path]], matches: Path, loads: int) -> None:
    """Every tree's ``serve --web`` over ``matches`` at once, the page of now loaded in chromium through each in
    turn (``_loaded``), the load average before and after. Another tree than this checkout serves a copy of the
    folder holding its own script and style (``page.js``, ``page.css``): the page's HTML is this checkout's build
    of the war, what the page's shared files do to its load is that tree's."""
    with ExitStack() as servers:
        ports = [(label, _free_port()) for label, _ in trees]
        for (_, tree), (_, port) in zip(trees, ports, strict=True):
            served = matches
            if tree != ROOT:
                served = matches.parent / f"matches-{port}"
                shutil.copytree(matches, served)
                for name in ("page.js", "page.css"):
                    shutil.copy(tree / "sheets_gm" / "web" / "assets" / name, served / "web" / name)
            servers.enter_context(_serve(tree, served, port))
        print(f"load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])} before the loads", flush=True)
        _loaded(ports, loads)
        print(f"load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])} after them", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--armies", type=int, default=320)
    parser.add_argument("--windows", type=int, default=1)
    parser.add_argument("--vs", metavar="COMMIT", help="also serve with this commit's code (git archive of it)")
    parser.add_argument("--slow", type=int, default=70)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--every", type=float, default=0.5)
    parser.add_argument("--beside", type=int, default=0, metavar="N",
                        help="N local matches served beside the war (polled before, the five games in turn, as "
                        "scripts/bench_serve.py makes them): the page of a host of N + 1 matches")
    parser.add_argument("--loads", type=int, default=0, help="first load the page of now in chromium this many "
                        "times through each server, in turn (their median against the bar of 1 s)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        war, roster, settings = _match("war", args.armies)
        played = play(war, roster, args.windows, work, settings, 0)
        matches = work / "matches"
        matches.mkdir()
        args.work = work
        (matches / "match.toml").write_text('ruleset = "coalition"\ntitle = "The war"\nseats = ["coalition", '
                                            '"phyrexia"]\n[sheets]\nbackend = "local"\nboard = "war.xlsx"\n',
                                            encoding="utf-8")
        shutil.copytree(played.folder, matches / "web")
        (matches / "web" / ".address").write_text("match\n", encoding="utf-8")  # its address, as a host kept it
        if args.beside:
            from bench_serve import polled_copies

            polled_copies(matches, args.beside, linked=True)
        size = (matches / "web" / "index.html").stat().st_size
        print(f"load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])}; a war of "
              f"{2 * args.armies} armies, {args.windows} window(s), {args.beside:,} other matches beside it",
              flush=True)
        trees = [("this checkout's serve --web", ROOT)]
        if args.vs:
            base = work / "base"
            base.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.vs], check=True, capture_output=True)
            subprocess.run(["tar", "-x", "-C", str(base)], input=archive.stdout, check=True)
            trees.append((f"{args.vs}'s serve --web", base))
        if args.loads:
            _loaded_in_turn(trees, matches, args.loads)
        for label, tree in trees:
            port = _free_port()
            with _serve(tree, matches, port):
                _measure(label, port, args, size)
        if shutil.which("nginx"):
            port = _free_port()
            with _nginx(matches / "web", port):
                _measure("nginx (docs/hosting.md)", port, args, size)
        else:
            print("nginx: not installed (apt-get install nginx), not measured")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
