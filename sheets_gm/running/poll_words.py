"""What a poll of a match says: the line of its report, the rows it refused, and the warnings every poll repeats
until the GM mends them. ``sync`` and ``sync --watch`` print them, ``status`` some of them, and the gate keeps
them for the next idle poll to say again (:func:`said_of`)."""

from __future__ import annotations

import re
from dataclasses import replace

from sheets_gm.engine.settings import SettingError
from sheets_gm.engine.words import counted
from sheets_gm.match.config import MatchConfig, settings_drift
from sheets_gm.poll_gate.state import Said
from sheets_gm.running.bot_drift import bot_drift, bots_fix
from sheets_gm.sync.poll import WindowReport


def window_summary(report: WindowReport) -> str:
    """One line saying what a poll of a match on the generic sync did."""
    if report.resolved:
        grown = (f" More rows were laid out for {', '.join(report.tables_grown)}'s tables." if report.tables_grown
                 else "")
        then = f"; {report.then}" if report.then else ""
        return (f"{report.window[:1].upper()}{report.window[1:]} resolved ({report.reason}){then}.{grown} "
                f"{report.result}")
    if report.finished:
        return f"Nothing to do: {report.result}"
    waiting = (f"waiting for {', '.join(report.waiting_for)}" if report.waiting_for else "every seat is ready")
    fed = f"; {counted(report.feedback_written, 'feedback cell')} updated" if report.feedback_written else ""
    return f"{report.window[:1].upper()}{report.window[1:]}: {waiting}{fed}."


def describe_report(report: WindowReport) -> str:
    """One line saying what a poll did, for the terminal and cron's mail (and which workbooks a player saved while
    the sync was writing them: read again, nothing written over)."""
    said = [f"Completed first: {report.completed}." if report.completed else "", window_summary(report)]
    said = [s for s in said if s]
    if report.schedule_change:  # the GM's new [deadlines], applied by this poll
        said.append(report.schedule_change)
    if report.judging:  # the judge's window: the players' deadline passed, hers is open (``sync.judge_part``)
        said.append(f"{report.judging}.")
    if report.stuck:  # due, but a resolution would change nothing: it waits
        said.append(f"{report.stuck}.")
    raced = list(dict.fromkeys(report.saved_meanwhile))
    if raced:
        said.append(f"Saved while the sync was writing it, so read again and nothing written over: {', '.join(raced)}.")
    if report.older_copies:
        said.append(older_copies_line(report))
    said += [f"Not the match's: {line}." for line in report.log_lines_cleared]
    if report.drawn_again:
        said.append(f"Drawn again, typed over by hand: {', '.join(report.drawn_again)}.")
    return " ".join(said)


def report_line(report: WindowReport) -> str:
    """The poll's line with what Drive let it skip, as ``sync --watch`` and ``serve`` say it on one line."""
    return " ".join(p for p in (describe_report(report), report.drive, report.told_once) if p)


def older_copies_line(report: WindowReport, *, done: bool = True) -> str:
    """The warning that a seat's file was saved over the sync's write from an older copy, and what the sync did
    (``done``) or will do with it."""
    what = ("drawn again for the open window, its Archive and View given back" if done else
            "the next sync draws it again for the open window and gives its Archive and View back")
    return (f"Warning: the file of {', '.join(report.older_copies)} was saved from a copy older than the sync's last "
            f"write (open in an office program while the sync wrote it): {what}; "
            + "; ".join(report.older_copy_fates) + f". {'This' if done else 'That'} sync resolves nothing; the "
            "Archive tab says what was not read again and why.")


#: Rejected rows of one kind (one seat's, answered alike but for their numbers) listed before the rest are counted.
SHOWN_OF_A_KIND = 3
#: Rejected rows listed in all before the rest are counted (every one is answered in its own feedback cell).
SHOWN_IN_ALL = 40


def _kind(who: str, why: str) -> tuple[str, str]:
    """What rejected rows are alike by: their seat ("red · row 24" is red's) and their answer, numbers aside."""
    return who.partition(" · ")[0], re.sub(r"\d[\d,]*", "#", why)


def rejected_lines(report: WindowReport) -> list[str]:
    """The rows the poll refused or could not read, each with why (what ``sync`` and ``status`` list): the first
    :data:`SHOWN_OF_A_KIND` of a kind, then how many more of that kind (the rows of one seat
    answered alike are three lines and a count), and no more than :data:`SHOWN_IN_ALL` rows in all."""
    if not report.rejected:
        return []
    kinds: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for who, why in report.rejected:
        kinds.setdefault(_kind(who, why), []).append((who, why))
    lines = [f"Rejected ({len(report.rejected):,}):"]
    shown, untold, other_kinds = 0, 0, 0
    for (seat, _), rows in kinds.items():
        room = min(SHOWN_OF_A_KIND, SHOWN_IN_ALL - shown)
        if room <= 0:
            untold, other_kinds = untold + len(rows), other_kinds + 1
            continue
        lines += [f"  {who}: {why}" for who, why in rows[:room]]
        shown += min(room, len(rows))
        if len(rows) > room:
            lines.append(f"  … and {counted(len(rows) - room, 'more row')} of {seat} like these, each answered in "
                         "its feedback cell")
    if untold:
        lines.append(f"  … and {counted(untold, 'more row')} of {counted(other_kinds, 'other kind')}, each answered "
                     "in its feedback cell")
    return lines


def settings_warning(config: MatchConfig, report: WindowReport) -> str:
    """A warning when ``[settings]`` no longer says what the match plays with ('' when it does)."""
    if report.settings is None:
        return ""
    try:
        changed = settings_drift(config, report.settings)
    except SettingError as exc:
        return f"Warning: {exc}; the match keeps the house rules it was created with."
    if not changed:
        return ""
    return (f"Warning: {'; '.join(changed)}. House rules are fixed when a match is created: this match keeps its "
            f"own, and the change in {config.path} is ignored. Make [settings] say what the match uses (the "
            "Settings tab shows them), or create a new match to play with the new rules.")


def bots_warning(config: MatchConfig, report: WindowReport) -> str:
    """A warning when ``[bots]`` no longer says who the match's bots play, with the ``adjust`` that applies the
    edit ('' when it does: ``running/bot_drift.py`` says why a poll never applies it itself)."""
    if report.facts is None:
        return ""
    said, changes = bot_drift(config, report.facts.record.bots)
    if not said:
        return ""
    return (f"Warning: {'; '.join(said)}. [bots] is read when the match is created: this sync did not apply the "
            f"edit; {bots_fix(config, changes)}.")


def tables_warning(config: MatchConfig, report: WindowReport) -> str:
    """A warning naming each table with fewer rows than the match gives it ('' when every row has its own)."""
    if not report.short_tables:
        return ""
    return (f"Warning: {'; '.join(report.short_tables)}. Run sheets-gm repair -c {config.path}: it lays the tabs out "
            "with a row for each and keeps what was typed (the next resolution would too, too late for this window).")


def notify_warning(config: MatchConfig) -> str:
    """A warning while ``[notify]`` has bad options: the match is polled, but no notice is sent ('' otherwise)."""
    if not config.notify_problems:
        return ""
    return ("Warning: notices are off until [notify] is mended (the polls go on; what the notices would say is "
            "not kept): " + " · ".join(config.notify_problems))


def poll_warnings(config: MatchConfig, report: WindowReport) -> list[str]:
    """The warnings a poll of the match gives, each until the GM mends its cause: house rules changed in the
    config, ``[bots]`` edited, tables short of rows, bad ``[notify]`` options, a match page not written."""
    return [w for w in (settings_warning(config, report), bots_warning(config, report), tables_warning(config, report),
                        notify_warning(config), report.page) if w]


def said_of(config: MatchConfig, report: WindowReport) -> Said:
    """What a poll says that an idle poll after it repeats: never a resolution, nor feedback written now; and the
    warnings every poll repeats."""
    warning = "\n".join(poll_warnings(config, report))
    summary = "\n".join([describe_report(replace(report, feedback_written=0, resolved=False, drawn_again=[],
                                                         schedule_change="", completed="", log_lines_cleared=[])),
                         *rejected_lines(report)])
    if report.resolved and not report.finished:  # the next window's line needs a read
        summary = ""
    return Said(summary, warning)
