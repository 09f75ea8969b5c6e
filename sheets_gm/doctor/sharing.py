"""Doctor's ``sharing`` check of a Google match: for each spreadsheet, whether its editors may share it on, and who
can open it besides those ``init`` shared it with (the roster's e-mails by role, the GMs, the account itself).

A team member who may share the team's orders spreadsheet can hand it to the enemy; an address the match does not
know, a whole domain or "anyone with the link" can read what the file holds. Only reads (Drive's files.get and
permissions.list, one each per spreadsheet): the fixes are said, never made.
"""

from __future__ import annotations

from sheets_gm.doctor.checkup import Checkup
from sheets_gm.match.config import BackendKind, MatchConfig
from sheets_gm.sheets.backend import SheetAccessError, http_status
from sheets_gm.sync.life.share import ROLE_WORDS, lock_by_hand, sharing_plan
from sheets_gm.sync.sheets import MatchSheets


def lock_fix(owner: str) -> str:
    """How to lock a spreadsheet by hand (doctor never writes), and by whom: its owner (``owner``, her address)."""
    return f"{lock_by_hand(owner)}; init does it itself where these credentials own the spreadsheet"


def check_sharing(config: MatchConfig, sheets: MatchSheets, report: Checkup) -> None:
    """A ``sharing`` line per spreadsheet of a Google match: ✔ naming who can open it; ⚠ when its editors may
    share it on, when someone the match does not share it with can open it, or when someone it shares it with
    cannot (init could not share it: its owner had locked it)."""
    if config.backend is not BackendKind.GOOGLE:
        return
    from sheets_gm.match.match_roster import editor_emails, repair_roster
    from sheets_gm.sheets.google.backend import GoogleSheetBackend

    emails = editor_emails(config, repair_roster(config, sheets))
    expected: dict[int, set[str]] = {}
    wanted: dict[int, dict[str, str]] = {}  # by spreadsheet: each address the match shares it with -> its role
    for grant in sharing_plan(sheets, emails, config.gm_emails):
        expected.setdefault(id(grant.backend), set()).update(e.casefold() for e in grant.emails)
        wanted.setdefault(id(grant.backend), {}).update(dict.fromkeys(grant.emails, grant.role))
    for backend in sheets.write_order():
        inner = getattr(backend, "inner", backend)  # doctor's read-only wrapper
        if not isinstance(inner, GoogleSheetBackend):
            continue
        try:
            state = inner.sharing()
        except SheetAccessError as exc:
            if inner.account is not None or exc.__cause__ is None or http_status(exc.__cause__) != 404:
                raise
            # The GM's own sign-in for playing reaches in Drive only what sheets-gm made (drive.file).
            report.warn("sharing", f"{backend.name}: Drive shows your sign-in for playing (which reaches only the "
                                   "spreadsheets sheets-gm made) no such file, so who can open it is not checked",
                        "in Google Drive, open its Share dialog: click the gear (Settings) and check that \"Editors "
                        "can change permissions and share\" is unticked, and remove anyone the match does not share "
                        "it with")
            continue
        mine = {e.casefold() for e in (inner.account,) if e}
        known = expected.get(id(backend), set()) | mine
        others = [p for p in state.people if p.role != "owner" and p.email.casefold() not in known]
        who = "; ".join(f"{p.who} ({p.role})" for p in state.people) or "nobody but its owner"
        if state.writers_can_share:
            owner = next((p.email for p in state.people if p.role == "owner" and p.email), "")
            report.warn("sharing", f"{backend.name}: its editors can share it on with anyone (a team member could "
                                   f"hand it to the enemy); it can be opened by {who}", lock_fix(owner))
        if others:
            report.warn("sharing", f"{backend.name} can also be opened by "
                                   f"{', '.join(f'{p.who} ({p.role})' for p in others)}, whom the match does not "
                                   "share it with", "remove them in the spreadsheet's Share dialog, unless you mean "
                                                    "them to read it")
        opened = {p.email.casefold() for p in state.people if p.email}
        missing = [f"{e} ({ROLE_WORDS.get(role, role)})" for e, role in wanted.get(id(backend), {}).items()
                   if e.casefold() not in opened]
        if missing:
            owner = next((p.email for p in state.people if p.role == "owner" and p.email), "its owner")
            report.warn("sharing", f"{backend.name} is not shared with {', '.join(missing)}, whom the match shares "
                                   "it with: they cannot open it",
                        f"{owner} shares it in its Share dialog (an editor may share it only while \"Editors can "
                        "change permissions and share\" is ticked)")
        if not state.writers_can_share and not others and not missing:
            who_shares = ("only its owner can share it on" if state.writers_can_share is False else
                          "it is in a shared drive, whose own settings say who may share it on")
            report.ok("sharing", f"{backend.name}: opened by {who}; {who_shares}")
