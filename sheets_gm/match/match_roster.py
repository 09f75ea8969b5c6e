"""A configured match's roster: its roster file read for its game, the bots its ``bot`` column names, the roster
``repair`` lays the typed cells out for, and who may type in each seat's cells.

Below ``run`` (init), ``privacy`` and ``bot_drift`` (the configured bots), the doctor's checks and the notices,
which all read the roster the same way; it imports none of them.
"""

from __future__ import annotations

from pathlib import Path

from sheets_gm.engine.ruleset import JUDGE, Roster, RulesetTraits, SeatKind
from sheets_gm.match.config import MatchConfig
from sheets_gm.match.roster_tab import read_roster_tab
from sheets_gm.match.seat_roster import read_seat_roster, seat_emails
from sheets_gm.rulesets.registry import get_ruleset, sheet_spec
from sheets_gm.sync.bot_seats import NO_BOT
from sheets_gm.sync.sheets import MatchSheets


def roster_file_of(traits: RulesetTraits, path: Path, seats: tuple[str, ...]) -> Roster:
    """The roster CSV ``path`` read for the ruleset of ``traits`` (its seat word, its roster groups)."""
    return read_seat_roster(path, seats, seat_word=traits.seat_kind.value, groups=traits.roster_groups)


def roster_bots(traits: RulesetTraits, roster: Roster) -> dict[str, str]:
    """The roster's ``bot`` column: the kind of bot each marked line's seat (a game of players) or member (a team's
    player, a side's army) is played by; a line left empty, ``no`` or ``none`` is a person's."""
    found: dict[str, str] = {}
    for m in roster.members:
        kind = m.fields.get("bot", "").strip()
        if kind and kind.lower() not in ("no", NO_BOT):
            found[m.seat if traits.seat_kind is SeatKind.PLAYER else m.name] = kind
    return found


def repair_roster(config: MatchConfig, sheets: MatchSheets) -> Roster:
    """The roster ``repair`` lays the typed cells out for: the config's roster file, else the Roster tab, else
    the seats alone (a roster given to init with ``--roster`` alone is not known here)."""
    traits = get_ruleset(config.ruleset).traits
    if config.roster is not None:
        roster: Roster | None = roster_file_of(traits, config.roster, config.seats)
    else:
        roster = read_roster_tab(sheets.engine, sheet_spec(config.ruleset), traits, config.seats)
    return roster or Roster(config.seats)


def editor_emails(config: MatchConfig, roster: Roster) -> dict[str, tuple[str, ...]]:
    """Who may type in each seat's cells (its members' e-mails) and in the judge's (the config's GMs)."""
    emails = seat_emails(roster)
    if config.gm_emails:
        emails[JUDGE] = tuple(config.gm_emails)
    return emails
