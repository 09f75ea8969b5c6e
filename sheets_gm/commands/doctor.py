"""``sheets-gm doctor``: check everything a match needs, one line per check, with a fix for each problem."""

from __future__ import annotations

import argparse
from typing import Any

from sheets_gm.commands import base
from sheets_gm.commands.base import command, whole_number
from sheets_gm.commands.matchargs import add_config_option

_MARKS = {"ok": "✔", "warn": "⚠", "fail": "✘"}


def run(args: argparse.Namespace) -> int:
    """Print every check; exit 1 if any failed (warnings pass)."""
    from sheets_gm.doctor import checks as doctor_checks
    from sheets_gm.doctor.checkup import Verdict

    checks = doctor_checks.run_doctor(args.config, now=base.clock(), matches=args.matches, debug=args.debug,
                                      send_test=args.send_test, retry=doctor_checks.DOCTOR_RETRY,
                                      progress=lambda said: print(said, flush=True))
    for check in checks:
        print(f"{_MARKS[check.verdict]} {check.name}: {check.message}")
        if check.verdict is not Verdict.OK:
            print(f"    fix: {check.fix}")
    failed = sum(c.verdict is Verdict.FAIL for c in checks)
    warned = sum(c.verdict is Verdict.WARN for c in checks)
    if failed:
        print(f"{failed} problem{'s' if failed > 1 else ''} to fix" + (f", {warned} warning{'s' if warned > 1 else ''}"
                                                                       if warned else "") + ".")
        return 1
    print("Everything checked is fine" + (f" ({warned} warning{'s' if warned > 1 else ''})." if warned else "."))
    return 0


def register(sub: Any) -> None:
    """Add ``doctor`` to the command line."""
    p = command(sub, "doctor", run, "check a match's config, credentials, spreadsheets, layout, deadlines and quota",
                "Check everything a match needs and print one line per check (✔ fine, ⚠ warning, ✘ problem), "
                "each problem with how to fix it, the notices that wait to be sent among them. Only reads: it never "
                "writes to a spreadsheet. "
                "Exit code 0 when nothing failed (warnings allowed), 1 otherwise.",
                "sheets-gm doctor -c match.toml")
    add_config_option(p)
    p.add_argument("--matches-per-account", dest="matches", type=whole_number("--matches-per-account", 1, 10_000_000),
                   default=1, metavar="N",
                   help="how many matches share this Google account, for the quota figure (default 1)")
    p.add_argument("--matches", dest="matches", type=whole_number("--matches", 1, 10_000_000),
                   help=argparse.SUPPRESS)  # the spelling before --matches-per-account, kept working
    p.add_argument("--send-test", action="store_true",
                   help="send a test notice now through every channel of [notify] (the chat, and an e-mail to "
                        "gm_emails), and say what each did")
