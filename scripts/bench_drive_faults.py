"""What a Google GM's own command and a slow or hung Drive cost, this tree beside another commit's in one run
(issue 95, items 3 and 4). Prints its figures; exits 0.

``--after-resolve``: cron's real ``sheets-gm sync --quiet`` process after each of the GM's ``--commands`` (her
``resolve --force``, ``adjust``, ``undo``, ``repair``, in turn), each game of ``--games`` made by ``init --create``
on the fake Google over HTTP (``tests/fakes/google_http.py``) and played on the GM's own sign-in (``spreadsheets`` +
``drive.file``), ``--rounds`` rounds each: the Sheets reads and Drive requests of the poll after each command (the
API bars: 0 and 1), the Sheets reads of the command itself, and the poll's process's CPU seconds (median).

``--slow-account N``: the real ``sheets-gm serve`` process on N GvG matches polled before, over ``--accounts``
service accounts, the fake over HTTP; once the host is idle, the first account's Drive change log answers
``--late`` seconds late and the second account's Drive hangs (every request held the client's read timeout, then
closed unanswered), and ``--saves`` rounds each type a save in a match of each of the two and of a third account at
once: the seconds from each save's write to its poll's record (median, and the most), a save not answered within
``--limit`` seconds counted as not answered.

    .venv/bin/python scripts/bench_drive_faults.py --after-resolve [--games gvg,coalition] [--rounds 3]
                                                   [--commands resolve,adjust,undo,repair] [--vs main]
    .venv/bin/python scripts/bench_drive_faults.py --slow-account 100 [--accounts 10] [--saves 4] [--late 30]
                                                   [--limit 110] [--vs main]

With ``--vs COMMIT`` each figure is taken for that commit's tree and this one in turn (which goes first alternating
round by round), in the same run, on the same machine: paired. The load is printed beside each.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench_serve import (  # noqa: E402
    answered_since,
    http_hold,
    locked_fake,
    match_account,
    polled_google,
    source_of,
    type_orders,
)
from bench_typed import compiled  # noqa: E402  (each tree's modules compiled once, as an installed package's are)

from sheets_gm.sheets.google.signin import DRIVE_SIGN_IN_SCOPES, SIGN_IN_SCOPES  # noqa: E402
from tests.commands.test_init_create import starter  # noqa: E402
from tests.fakes.google_api import CHANGES, FILE_GET, READ, START_TOKEN, TOKEN_URL, GoogleApiFake  # noqa: E402
from tests.fakes.google_http import GoogleOverHttp  # noqa: E402

FOLDER = "1MyDriveFolder_bench_faults_0000000000000"


def children_cpu() -> float:
    """CPU seconds of this process's children that ended (a poll's process, once it has)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def load() -> str:
    return Path("/proc/loadavg").read_text().split()[0]


def cli(source: Path | None, server: GoogleOverHttp, folder: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``sheets-gm ARGV`` from ``source`` (None: this tree) in ``folder``, pointed at the fake over HTTP."""
    env = server.environment()
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join([env["PYTHONPATH"], str(source)])
    else:
        env["PYTHONPATH"] = os.pathsep.join([env["PYTHONPATH"], str(ROOT)])
    return subprocess.run([sys.executable, "-m", "sheets_gm.cli", *argv], capture_output=True, text=True, cwd=folder,
                          env=env)


def signed_in(fake: GoogleApiFake, folder: Path, name: str) -> None:
    """The GM's two sign-ins saved in the match's folder, as ``doctor`` and ``init`` save them: Drive's for
    ``init --create``, the narrow one for playing; the fake knows their refresh tokens as hers."""
    state = folder / ".sheets-gm"
    state.mkdir(mode=0o700, parents=True, exist_ok=True)
    for file, scopes in (("oauth-token-drive.json", DRIVE_SIGN_IN_SCOPES), ("oauth-token.json", SIGN_IN_SCOPES)):
        refresh = f"refresh-{name}-{file}"
        fake.users[refresh] = fake.user_email
        (state / file).write_text(json.dumps({"refresh_token": refresh, "client_id": "cid", "client_secret": "secret",
                                              "token_uri": TOKEN_URL, "scopes": list(scopes)}), encoding="utf-8")
        (state / file).chmod(0o600)
    (folder / "client_secret.json").write_text(json.dumps(
        {"installed": {"client_id": "cid", "client_secret": "secret", "token_uri": TOKEN_URL}}), encoding="utf-8")


def made_match(fake: GoogleApiFake, server: GoogleOverHttp, source: Path | None, folder: Path, game: str) -> Path:
    """A match of ``game`` made by ``init --create`` on the GM's own sign-in, then polled until idle."""
    folder.mkdir(parents=True)
    config = starter(folder, game, oauth=True)
    signed_in(fake, folder, folder.name)
    made = cli(source, server, folder, "init", game, "-c", "match.toml", "--create", FOLDER, "--no-email")
    if "No roster yet" in made.stdout:
        engine = tomllib.loads(config.read_text(encoding="utf-8"))["sheets"]["engine"]
        fake.set_values(engine, "'Roster'!A2:E3", [["Ann", "red", "ann@example.org", "dps", "yes"],
                                                    ["Cat", "blue", "cat@example.org", "tank", "yes"]])
        made = cli(source, server, folder, "init", game, "-c", "match.toml", "--create", FOLDER, "--no-email")
    if made.returncode != 0:
        raise SystemExit(f"init {game} failed: {made.stderr}")
    for argv in (("sync",), ("sync", "--quiet")):
        cli(source, server, folder, *argv, "-c", "match.toml")
    return config


def forced(server: GoogleOverHttp, source: Path | None, folder: Path) -> None:
    """The GM forces the window open now, as ``resolve`` tells her to (its window and step named)."""
    told = cli(source, server, folder, "resolve", "-c", "match.toml", "--force")
    command = re.search(r"to resolve it anyway run sheets-gm (resolve .*)$", told.stderr.strip())
    if command is None:
        raise SystemExit(f"resolve did not name the window: {told.stderr}")
    done = cli(source, server, folder, *command.group(1).split())
    if done.returncode != 0:
        raise SystemExit(f"{command.group(1)} failed: {done.stderr}")


#: Each GM command ``--after-resolve`` measures: its arguments after ``-c match.toml``, by game (resolve: ``forced``).
COMMANDS: dict[str, dict[str, tuple[str, ...]]] = {
    "adjust": {"gvg": ("--coins", "red=5"), "coalition": ("--vp", "coalition=3")},
    "undo": {},
    "repair": {},
}


def commanded(server: GoogleOverHttp, source: Path | None, folder: Path, command: str, game: str) -> None:
    """The GM's ``command`` on the match in ``folder`` (``resolve``: the window forced, as ``forced``)."""
    if command == "resolve":
        forced(server, source, folder)
        return
    argv = [command, "-c", "match.toml", *COMMANDS[command].get(game, ())]
    if command in ("adjust", "undo"):
        argv += ["--reason", "the bench"]
    done = cli(source, server, folder, *argv)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr}")


def after_resolve(args: argparse.Namespace, root: Path) -> None:
    """``--after-resolve`` (see the module notes)."""
    fake = locked_fake(hold_here=False)
    fake.create_folder(FOLDER, "My matches")
    server = GoogleOverHttp(fake).start()
    base = source_of(args.vs, root / "base") if args.vs else None
    trees = ((("base", base),) if base is not None else ()) + (("this", None),)
    commands = args.commands.split(",")
    try:
        for game in args.games.split(","):
            made = {name: made_match(fake, server, source, root / f"{name}-{game}", game) for name, source in trees}
            seen: dict[tuple[str, str], list[tuple[int, int, float, int]]] = {
                (name, command): [] for name, _ in trees for command in commands}
            for turn in range(args.rounds):
                for command in commands:
                    for name, source in trees[::-1] if turn % 2 else trees:
                        fake.reset_counters()
                        commanded(server, source, made[name].parent, command, game)
                        own = fake.calls(READ)
                        fake.reset_counters()
                        began = children_cpu()
                        cli(source, server, made[name].parent, "sync", "-c", "match.toml", "--quiet")
                        drive = sum(fake.calls(e) for e in fake.stats if e.startswith("drive."))
                        seen[name, command].append((fake.calls(READ), drive, children_cpu() - began, own))
            for (name, command), runs in seen.items():
                print(f"- {name} {game}: the poll after the GM's {command} read {[r for r, _, _, _ in runs]} "
                      f"spreadsheets and made {[d for _, d, _, _ in runs]} Drive requests over {len(runs)} rounds "
                      f"(the {command} itself read {[o for _, _, _, o in runs]}); median "
                      f"{statistics.median(w for _, _, w, _ in runs):.2f} CPU s of its process "
                      f"({', '.join(f'{w:.2f}' for _, _, w, _ in runs)}); load {load()}", flush=True)
    finally:
        server.stop()
    print(f"  (Drive endpoints counted: {CHANGES}, {FILE_GET}, {START_TOKEN} and the rest)")


def slow_account(args: argparse.Namespace, root: Path) -> None:
    """``--slow-account N`` (see the module notes)."""
    rng = random.Random(args.seed)
    fake = locked_fake(hold_here=False)
    configs = polled_google(fake, root, args.slow_account, args.accounts, rng)
    server = GoogleOverHttp(fake, http_hold(fake)).start()
    accounts = [f"bench{a}@sheets-gm-test.iam.gserviceaccount.com" for a in range(args.accounts)]
    by_account = {a: [c for c in configs if match_account(c, accounts) == a] for a in accounts}
    base = source_of(args.vs, root / "base") if args.vs else None
    trees = ((("base", base),) if base is not None else ()) + (("this", None),)
    answers: dict[str, dict[str, list[float | None]]] = {n: {"late": [], "hung": [], "other": []} for n, _ in trees}
    try:
        for turn in range(args.saves):
            for name, source in trees[::-1] if turn % 2 else trees:
                for kind, seconds in faulted_round(fake, server, root, source, accounts, by_account, rng, args):
                    answers[name][kind].append(seconds)
                print(f"  round {turn + 1} {name}: " + ", ".join(
                    f"{kind} {answers[name][kind][-1]}" for kind in ("late", "hung", "other")) + f"; load {load()}",
                      flush=True)
    finally:
        server.stop()
    for name, _ in trees:
        for kind, what in (("late", f"the account whose change log is {args.late:g} s late"),
                           ("hung", "the account whose Drive hangs"), ("other", "another account")):
            got = [a for a in answers[name][kind] if a is not None]
            print(f"- {name}: a save in {what}: answered {len(got)}/{len(answers[name][kind])} "
                  f"within {args.limit:g} s, median {statistics.median(got) if got else float('inf'):.1f} s, the most "
                  f"{max(got) if got else float('inf'):.1f} s; load {load()}", flush=True)


def faulted_round(fake: GoogleApiFake, server: GoogleOverHttp, root: Path, source: Path | None,
                  accounts: Sequence[str], by_account: dict[str, list[Path]], rng: random.Random,
                  args: argparse.Namespace) -> list[tuple[str, float | None]]:
    """One ``serve`` (from ``source``) started on the matches, idle, then the faults, then a save in a match of the
    late account, of the hung one and of a third, typed at once: each one's answer (None: not within ``--limit``)."""
    log = root / "serve.log"
    env = server.environment()
    env["PYTHONPATH"] = os.pathsep.join([env["PYTHONPATH"], str(source if source is not None else ROOT)])
    with log.open("wb") as written:
        proc = subprocess.Popen([sys.executable, "-m", "sheets_gm.cli", "serve", str(root / "google"), "--workers",
                                 "4", "--interval", "10"], stdout=written, stderr=subprocess.STDOUT, env=env, cwd=root)
    try:
        started = time.monotonic()
        while "Found " not in log.read_text(encoding="utf-8") and time.monotonic() - started < 300:
            time.sleep(0.2)
        time.sleep(40)  # every account asked its change log and Drive's file index: idle
        fake.late_account, fake.late_by = accounts[0], args.late  # type: ignore[attr-defined]
        fake.hung_account = accounts[1]  # type: ignore[attr-defined]
        time.sleep(rng.random() * 10)
        picks = {"late": rng.choice(by_account[accounts[0]]), "hung": rng.choice(by_account[accounts[1]]),
                 "other": rng.choice(by_account[accounts[2]])}
        out: dict[str, float | None] = {}
        threads = [threading.Thread(target=lambda k=kind, c=config: out.__setitem__(k, timed_save(c, args, rng)))
                   for kind, config in picks.items()]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return [(kind, out.get(kind)) for kind in picks]
    finally:
        fake.late_account = fake.hung_account = ""  # type: ignore[attr-defined]
        proc.send_signal(15)
        proc.wait(timeout=180)


def timed_save(config: Path, args: argparse.Namespace, rng: random.Random) -> float | None:
    """A save typed in ``config``: the seconds from the end of its write to its poll's record (None: not within
    ``--limit``)."""
    at = time.time_ns()
    type_orders(config, ready=False, seed=f"{args.seed}/{rng.random()}")
    saved = time.monotonic()
    while not answered_since(config, at):
        if time.monotonic() - saved > args.limit:
            return None
        time.sleep(0.05)
    return round(time.monotonic() - saved, 1)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--after-resolve", action="store_true", help="the poll after the GM's resolve (item 3)")
    parser.add_argument("--games", default="gvg,coalition", help="with --after-resolve: the games (gvg,coalition)")
    parser.add_argument("--rounds", type=int, default=3, help="with --after-resolve: rounds of commands a game (3)")
    parser.add_argument("--commands", default="resolve,adjust,undo,repair",
                        help="with --after-resolve: the GM's commands, in turn each round (resolve,adjust,undo,repair)")
    parser.add_argument("--slow-account", type=int, metavar="N", help="serve on N matches, one account late, one hung")
    parser.add_argument("--accounts", type=int, default=10, help="with --slow-account: service accounts (10)")
    parser.add_argument("--saves", type=int, default=4, help="with --slow-account: rounds of saves a tree (4)")
    parser.add_argument("--late", type=float, default=30.0, help="with --slow-account: the late log's delay (30 s)")
    parser.add_argument("--limit", type=float, default=110.0, help="with --slow-account: a save's limit (110 s)")
    parser.add_argument("--vs", metavar="COMMIT", help="that commit's tree beside this one, in turn")
    parser.add_argument("--seed", default="faults", help="the random seed (faults)")
    args = parser.parse_args(argv)
    compiled(ROOT)  # (the other tree's are compiled as it is unpacked)
    print(f"Load {load()} at the start.", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-faults-") as tmp:
        if args.after_resolve:
            after_resolve(args, Path(tmp))
        if args.slow_account:
            slow_account(args, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
