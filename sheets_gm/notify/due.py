"""What an idle poll must do about notices, told without loading the outbox when nothing waits in it.

Cron's idle poll asks here first (``running.idle_poll``): a match without notices has no outbox folder, and one whose
outbox holds no letter needs only its reminder's file read. Only when letters wait does it load the outbox
(``notify.outbox.due``), which alone can tell which of them may be tried now. Standard library only, and only
what an idle poll needs: no ``dataclasses``.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from sheets_gm.engine.plain import Plain


class Due(Plain):
    """What an idle poll must do about notices: ``letters`` waiting that may be tried now, and whether the
    open window's reminder fell due (then it goes past the gate, as for a deadline)."""

    __slots__ = ("letters", "reminder")

    def __init__(self, letters: int = 0, reminder: bool = False) -> None:
        self.letters = letters
        self.reminder = reminder


def outbox_path(config_path: Path) -> Path:
    """The outbox folder of the match configured by ``config_path``."""
    return config_path.parent / ".sheets-gm" / f"{config_path.stem}.outbox"


def reminder_at(path: Path) -> datetime | None:
    """When the reminder kept in the file ``path`` (the outbox's ``reminder.json``) falls due, if one is."""
    try:
        return datetime.fromisoformat(json.loads(path.read_text(encoding="utf-8"))["at"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def due_without_letters(config_path: Path, now: datetime) -> Due | None:
    """What an idle poll of the match configured by ``config_path`` must do about notices when no letter waits in
    its outbox (or it has none: a match without notices); None when letters wait: ask ``notify.outbox.due``."""
    folder = outbox_path(config_path)
    if not folder.is_dir():
        return Due()
    try:
        if any((folder / "letters").glob("*.json")):
            return None
    except OSError:
        pass  # no letters folder: nothing waits
    reminder = reminder_at(folder / "reminder.json")
    return Due(0, reminder is not None and now >= reminder)
