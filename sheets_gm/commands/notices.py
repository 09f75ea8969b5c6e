"""``sheets-gm notices``: what waits in a match's outbox and what was not delivered; ``--drop`` takes letters out."""

from __future__ import annotations

import argparse
from typing import Any

from sheets_gm.commands import base
from sheets_gm.commands.base import UserError, command
from sheets_gm.commands.matchargs import add_config_option, load


def run(args: argparse.Namespace) -> int:
    """List the letters waiting (numbered) and the notices not delivered; with ``--drop``, drop those named."""
    from sheets_gm.notify.announce import describe_letter, describe_note, redact
    from sheets_gm.notify.outbox import Outbox

    config = load(args)
    box = Outbox.of(config.path)
    now = base.clock()
    if args.mute or args.unmute:
        muted = box.mute(args.mute, args.unmute)
        print("Muted (no more notices by e-mail): " + (", ".join(sorted(muted)) if muted else "nobody") + ".")
    if args.drop:
        with box.sending() as mine:
            if not mine:
                raise UserError("a sync is sending the notices now: run this again in a moment")
            waiting = box.waiting()
            chosen = _chosen(args.drop, len(waiting))
            for number in chosen:
                letter = waiting[number - 1]
                box.drop(letter, "dropped by the GM (sheets-gm notices --drop)", now)
                print(redact(f"Dropped {number}: {describe_letter(letter, now)}", config.notify))
    waiting = box.waiting() if box.folder.is_dir() else []
    print(f"Waiting ({len(waiting)}):" if waiting else "Nothing waits to be sent.")
    for number, letter in enumerate(waiting, 1):
        print(redact(f"  {number}. {describe_letter(letter, now)}", config.notify))
    notes = box.notes() if box.folder.is_dir() else []
    if notes:
        print(f"Not delivered ({len(notes)} kept):")
        for note in notes:
            print(redact(f"  {describe_note(note)}", config.notify))
    return 0


def _chosen(words: list[str], count: int) -> list[int]:
    """The letters ``--drop`` names (``all`` or their numbers as listed), each once; UserError naming a bad one."""
    if any(w.strip().lower() == "all" for w in words):
        return list(range(1, count + 1))
    chosen: list[int] = []
    for word in words:
        try:
            number = int(word)
        except ValueError:
            number = 0
        if not 1 <= number <= count:
            raise UserError(f"--drop {word}: not a letter waiting; give a number from 1 to {count} as "
                            "`sheets-gm notices` lists them, or all" if count else
                            f"--drop {word}: nothing waits to be dropped")
        chosen.append(number)
    return sorted(set(chosen))


def register(sub: Any) -> None:
    """Add ``notices`` to the command line."""
    p = command(sub, "notices", run, "the notices waiting in the outbox and those not delivered; --drop some",
                "List the letters waiting to be sent (numbered, each with its tries, last error and next try) and the "
                "notices not delivered and why (an address or post refused for good, a post in doubt, a notice gone "
                "stale). With --drop, take letters out of the outbox for good (the ledger says so, and they are "
                "never built again): a notice the GM knows is no longer wanted.",
                "sheets-gm notices -c match.toml --drop 2")
    add_config_option(p)
    p.add_argument("--drop", action="append", metavar="N", default=[],
                   help="drop letter N as listed (repeat it for more), or all of them")
    p.add_argument("--mute", action="append", metavar="ADDRESS", default=[],
                   help="send this e-mail address no more notices of the match (a player who asked, by the "
                        "unsubscribe link of a notice, which mails the GM); the chat channel is not muted")
    p.add_argument("--unmute", action="append", metavar="ADDRESS", default=[],
                   help="send this address the match's notices again")
