"""``sheets-gm repair``: rebuild a match's layout around its saved state, keeping every typed order."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sheets_gm.commands.base import command, program_name
from sheets_gm.commands.matchargs import add_config_option, load, say_tidied, user_errors
from sheets_gm.engine.words import counted


def run(args: argparse.Namespace) -> int:
    """Repair the configured match under the sync lock and say what was kept."""
    from sheets_gm.match.match_roster import editor_emails
    from sheets_gm.match.team_check import row_emails
    from sheets_gm.rulesets.registry import get_ruleset
    from sheets_gm.running.mailroom.judge_view import lay_out_for_judge
    from sheets_gm.running.run import gm_change
    from sheets_gm.sync.life.repair import repair_match
    from sheets_gm.upkeep.backups import REPAIRS_KEPT, backup_workbooks
    from sheets_gm.upkeep.repair_prepare import prepare_repair

    config = load(args)
    with user_errors(), gm_change(config) as change:
        # copies first (no write to the match); then one transaction, its journal kept before the first write
        kept, copies, pruned = backup_workbooks(config, datetime.now(UTC).strftime("%Y%m%d-%H%M%S"))
        prepared = prepare_repair(config)
        if not (prepared.settled or prepared.swapped or prepared.moved):  # (else files it opened apart were written)
            change.watch(prepared.sheets)
        say_tidied(prepared.sheets)
        fixed = repair_match(prepared.sheets, get_ruleset(config.ruleset),
                             emails=editor_emails(config, prepared.roster), member_emails=row_emails(prepared.roster),
                             title=config.title, schedule_text=config.schedule.describe())
        judged = lay_out_for_judge(config, prepared.sheets, datetime.now(UTC))
    if kept is not None:
        what = "workbook as it was" if len(copies) == 1 else f"{len(copies)} workbooks as they were"
        print(f"Kept a copy of the {what} in {_shown(kept, config.folder)}/ "
              f"(the last {REPAIRS_KEPT} repairs' copies are kept in {_shown(kept.parent, config.folder)}/"
              f"{'; removed the oldest: ' + ', '.join(p.name for p in pruned) if pruned else ''}).")
    if prepared.settled:
        print(f"Note: {prepared.settled}.")
    for line in prepared.swapped:
        print(f"Swapped back: {line}.")
    if prepared.moved:
        print(f"{prepared.moved}.")
    for note in [*fixed.notes, *([judged] if judged else [])]:
        print(f"Note: {note}.")
    resolved, seed = counted(fixed.record.resolved, "window"), fixed.record.seed_hash[:12]
    if fixed.upgraded:
        print(f"Moved the match from the old {fixed.upgraded} layout onto the new one: its state, seed (hash "
              f"{seed}…, unchanged), history ({resolved} resolved) and log are kept, verify and undo read them; "
              f"{counted(fixed.rows_kept, 'row')} typed for the open window "
              f"{'is' if fixed.rows_kept == 1 else 'are'} carried into the new tabs.")
    else:
        print(f"Repaired: every tab is laid out again around the match ({resolved} resolved, seed hash {seed}…, "
              f"unchanged); {counted(fixed.rows_kept, 'typed row')} {'is' if fixed.rows_kept == 1 else 'are'} back "
              "in their cells.")
    print(f"Check it with {program_name()} doctor -c {args.config}, then sync as before.")
    return 0


def _shown(path: Path, folder: Path) -> str:
    """``path`` relative to the match's folder when it is in it (as the GM finds it from there)."""
    try:
        return str(path.relative_to(folder))
    except ValueError:
        return str(path)


def register(sub: Any) -> None:
    """Add ``repair`` to the command line."""
    p = command(sub, "repair", run, "rebuild an edited layout around the match, keeping every typed order",
                "When a header was moved, or a tab renamed or deleted, the sync stops and names the cell or the tab "
                "(a Log line typed over is found by verify -c, which names its cell). repair reads the engine tab "
                "(the match itself), keeps a copy of every local workbook, finds the rows players typed (by header "
                "and row subject), lays every tab out again, "
                "redraws the board and writes the typed cells back. "
                "The seed, the state, the history and the log are never rewritten.",
                "sheets-gm repair -c match.toml")
    add_config_option(p)
