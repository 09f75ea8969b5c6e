"""A plain ``init`` cut short, settled by the next command's opening of the match (``sync/command_journal.py``).

A plain ``init`` keeps its command journal before its first write: first the workbooks it creates (local), then,
before its first write into the match's spreadsheets, everything it creates the match from (``init.common.made_of``:
the seed, the roster, the e-mails, the deadline). Cut before that second step, it has made no workbook (each is
made by its first save, laid out and drawn, after it) and is rolled back (``sync/life/settle.py`` does it, as for a
cut ``init --overwrite``); cut after, it is completed here: the workbooks it had not made yet are made, and the match
is created again whole from what the journal kept, the same seed and all, as the init run whole would have left it.
That needs the config's rules (its house rules and map), so it is done in the match layer, where every command opens
the match (``complete_cut_commands``), together with a repair cut while it put the files in place
(``repair_prepare.complete_prepare``).
"""

from __future__ import annotations

from typing import Any

from sheets_gm.init.common import create_from, start_missing_workbooks
from sheets_gm.match.config import BackendKind, MatchConfig
from sheets_gm.poll_gate.state import forget_state, state_path
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.run import configured_ruleset
from sheets_gm.sync.command_journal import command_path, end_command, load_command, roll_back_init
from sheets_gm.sync.journal import drop_journal, journal_path
from sheets_gm.sync.lock import match_lock
from sheets_gm.upkeep.repair_prepare import complete_prepare


def _plain_init(journal: dict[str, Any] | None) -> bool:
    """Whether ``journal`` is a plain init's."""
    return journal is not None and journal["kind"] == "init" and bool(journal.get("new"))


def complete_cut_init(config: MatchConfig, *, lock_wait: float = 30.0) -> str:
    """Under the match lock (waited for ``lock_wait`` seconds): a plain init cut short is rolled back (cut before
    its first write into the match: the workbooks it created removed) or completed (after: the match created whole
    from its journal); what the GM is told ('' when none was cut)."""
    path = command_path(journal_path(config.path))
    if not _plain_init(load_command(path)):
        return ""
    with match_lock(config.lock_path, wait_seconds=lock_wait):
        journal = load_command(path)
        if journal is None or not _plain_init(journal):  # settled meanwhile
            return ""
        made = journal.get("made_of")
        if journal.get("phase") != "create" or not isinstance(made, dict):
            return roll_back_init(path, journal)
        sheets = open_match_sheets(config)
        start_missing_workbooks(config, sheets)  # those the init was cut before it made
        record = create_from(config, sheets, configured_ruleset(config), made)
        drop_journal(journal_path(config.path))
        end_command(path)
        forget_state(state_path(config.path))
    unshared = ("; its spreadsheets are not shared yet (init shares them when it runs whole): `sheets-gm doctor` "
                "names who must get each" if config.backend is BackendKind.GOOGLE else "")
    return (f"the init was cut short before the new match was whole: it is now complete, as if it had run whole "
            f"(seed hash {record.seed_hash}: publish it){unshared}")


def complete_cut_commands(config: MatchConfig, *, lock_wait: float = 30.0) -> str:
    """What every command that writes the match completes first, when it opens it: a repair cut while it put the
    files in place (its settle then runs the rest), and a plain init cut short. What the GM is told of the init
    ('' when none was cut)."""
    complete_prepare(config, lock_wait=lock_wait)
    return complete_cut_init(config, lock_wait=lock_wait)
