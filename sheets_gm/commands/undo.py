"""``sheets-gm undo``: take back the last resolved window, logged, its orders back in their cells (before the first
resolution: the GM's last adjustment)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sheets_gm.commands import base
from sheets_gm.commands.base import UserError, command
from sheets_gm.commands.matchargs import add_config_option, load, open_match, user_errors

if TYPE_CHECKING:
    from sheets_gm.sync.life.adjust_undo import DealtDie


def run(args: argparse.Namespace) -> int:
    """Undo the last resolved window under the sync lock, and say what happened."""
    from sheets_gm.rulesets.registry import get_ruleset
    from sheets_gm.running.page import publish_page
    from sheets_gm.running.run import gm_change, layout_owners
    from sheets_gm.sync.life.adjust_undo import undo_window

    if not (args.reason or "").strip():
        raise UserError('--reason is required, e.g. --reason "wrong orders typed"; it is written to the log')
    config = load(args)
    sheets = open_match(config)
    with user_errors(config), gm_change(config, sheets):
        back = undo_window(sheets, get_ruleset(config.ruleset), args.reason,
                           owners=lambda: layout_owners(config, sheets), window_key=args.window)
        page = publish_page(config, back.facts)  # the pages it took back, gone; its line on the page of now
    said = back.events[:2] if back.committed else back.events[:1]  # the fresh seed's line, then the undo's
    print("\n".join(line for line in (*(e.text for e in said), page) if line))
    from sheets_gm.notify.announce import remember_undo

    # the reopened window's notices say why, and the hash of a fresh seed where the first one's was published
    remember_undo(config, args.reason, back.undone, base.clock(), committed=back.committed)
    if back.open_now:  # an adjustment taken back: no window reopened, no die dealt afresh
        print(f"Open now: {back.open_now}; the match plays on from there.")
        return 0
    _print_dice(back.dice, back.fresh_prefix, "new seed" if back.committed else "seed")
    if back.set_aside:
        rows = "1 row typed since was" if back.set_aside == 1 else f"{back.set_aside} rows typed since were"
        print(f"{rows} set aside: each seat's Archive tab lists them in a line "
              "that nothing writes over, and its View tab says so; they type them again when their window opens.")
        from sheets_gm.running.mailroom.aside import tell_set_aside

        told = tell_set_aside(config, back.aside, args.reason, back.undone, base.clock()) if back.undone else 0
        if told:
            print(f"{told} {'mail' if told == 1 else 'mails'} to the judge had lines among them: each sender is told "
                  "by e-mail (hers alone) which of her lines were set aside, and to mail them again.")
    print("Fix what you need (adjust, or the rows), then tick Ready again, or force the window with "
          f"`sheets-gm resolve -c {args.config} --force --window KEY` (status names the key).")
    return 0


def _print_dice(dice: Sequence[DealtDie], prefix: str, seed: str) -> None:
    """Every die of the reopened window with its deal and the message its value comes from, so that anyone holding
    the seed (``seed``: its name; revealed at the end) can check it by hand: a die's value is the first byte b < 252
    of HMAC-SHA256(seed, message), as b mod 6 + 1."""
    kept = [d for d in dice if d.kept]
    fresh = [d for d in dice if not d.kept]
    if kept:
        print("Kept, as the sheets showed them before anyone typed orders (the same roll, the same deal):")
        for die in kept:
            print(f'  {die.key} = {die.value}: deal {die.deal}: HMAC-SHA256({seed}, "{die.message}")')
    if fresh:
        print("Dealt afresh, as the undone resolution revealed them (new values when the window resolves again):")
        for die in fresh:
            print(f'  {die.key}: deal {die.deal}: HMAC-SHA256({seed}, "{die.message}")')
    print(f'Every other die of this window is dealt afresh too: HMAC-SHA256({seed}, "{prefix}<key>"). A d6 is the '
          f"first byte b < 252 of its HMAC, as b mod 6 + 1; the {seed} is revealed at the end of the match.")


def register(sub: Any) -> None:
    """Add ``undo`` to the command line."""
    p = command(sub, "undo", run, "take back the last resolved window (logged; its orders come back)",
                "Restore the state before the last resolved window, put that window's orders back in their rows, "
                "and log it. The log keeps every row. The window is resolved again with dice dealt afresh (the "
                "undone dice are public in the log, so they are never used again): the same orders may roll "
                "otherwise. Run it twice to go back two windows. Before the first window resolves, it takes back the "
                "GM's last adjustment instead, and so it does in a match an adjustment ended (a concession). A "
                "finished match is reopened with a new seed, its hash logged at once (its end published the old "
                "one, which still checks every die dealt before).",
                'sheets-gm undo -c match.toml --window 2 --reason "blue ticked Ready too early"')
    add_config_option(p)
    p.add_argument("--reason", default="", metavar="TEXT", help="why (required); written to the log")
    p.add_argument("--window", metavar="KEY",
                   help="undo only if the last window resolved is KEY (the key status gave it while it was open, "
                        "as resolve --force --window takes it): a window a sync resolved while you typed the command "
                        "is never taken back in its place; the refusal names the window that is last")
