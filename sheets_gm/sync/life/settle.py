"""The next command of any kind settles a ``repair``, an ``export`` or an ``init`` cut short
(``sync/command_journal.py``): the repair is run again whole, with what its journal kept of it; the export is rolled
back or completed; an ``init --overwrite``, or a plain ``init`` cut before its first write into the match, rolled
back. A plain ``init`` cut after that is completed by the command's opening of the match (``init/settle.py``:
it needs the config's rules), before this runs. What the GM is told says which."""

from __future__ import annotations

from typing import Any

from sheets_gm.rulesets.registry import AnyRuleset
from sheets_gm.sync.command_journal import command_path, load_command, roll_back_init, settle_export
from sheets_gm.sync.history import HistoryError
from sheets_gm.sync.life.repair import repair_match
from sheets_gm.sync.sheets import MatchSheets


def settle_cut_command(sheets: MatchSheets, ruleset_class: type[AnyRuleset], *, dry_run: bool = False) -> str:
    """Complete or roll back the repair or export the match's command journal shows cut short; what the GM is told
    ('' when none was). ``dry_run`` (``status``, ``doctor``: they write nothing): a cut repair is refused with
    HistoryError saying the next command completes it; a cut export is left for the next command."""
    path = command_path(sheets.journal)
    journal = load_command(path)
    if journal is None:
        return ""
    if journal["kind"] == "export":
        return "" if dry_run else settle_export(path, journal)
    if journal["kind"] == "init":
        what = str(journal.get("what") or "the init")
        if journal.get("phase") == "create":  # a plain init cut after its first write: completed in the match layer
            raise HistoryError(f"{what} was cut short before the new match was whole (its journal kept): the next "
                               "sync, or any command that writes the match (init again too), completes it and says "
                               "so")
        if dry_run:
            raise HistoryError(f"{what} was cut short before the new match was whole (its journal kept): the next "
                               "sync, or any command that writes the match, rolls it back and says so")
        return roll_back_init(path, journal)
    if journal["kind"] == "repair":
        what = str(journal.get("what") or "repair")
        if dry_run:
            raise HistoryError(f"{what} was cut short before its last write (its journal kept): the next sync, or "
                               "any command that writes the match, runs it again whole and says so")
        if journal.get("phase"):  # cut while it put the files in place: the command's opening of the match was not
            raise HistoryError(f"{what} was cut short while it put the match's files in place (its journal kept): "
                               "run repair again, or any command from the command line, which completes it")
        report = repair_match(sheets, ruleset_class, **_repair_args(journal))
        done = [str(line) for line in journal.get("done", [])] + report.notes
        kept = f"; {'; '.join(done)}" if done else ""
        return f"{what} was cut short before its last write: it is now complete, run again whole{kept}"
    return ""


def _repair_args(journal: dict[str, Any]) -> dict[str, Any]:
    """What a cut repair was given (its editors' e-mails, its members' and the title), from its journal."""
    def emails(found: object) -> dict[str, list[str]] | None:
        if not isinstance(found, dict):
            return None
        return {str(k): [str(e) for e in v] for k, v in found.items() if isinstance(v, list)}

    return {"emails": emails(journal.get("emails")) or {}, "member_emails": emails(journal.get("member_emails")),
            "title": str(journal.get("title") or "")}
