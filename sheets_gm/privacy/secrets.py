"""Which secret each file (or spreadsheet) of a configured match would hold, and who opens it.

A match's files have roles (``docs/sync.md``): the board is opened by every seat; a seat's orders
file by that seat (it is shared with its members); the judge's file by the judge, who is the GM
(``gm_emails`` on Google); the engine's by the GM alone. Several roles may share one file, and a
file is opened by everybody any of its roles lets in. What a role's tabs hold:

- the engine: the seed (from which every future die can be computed), the state and history, the
  GM tab (the full private log, every hidden unit) and the Roster tab (every e-mail): a secret
  from every seat, whatever the game;
- a seat's orders file (its Orders, Archive and View tabs): a secret from the other seats in a game
  that is not of perfect information (``Information``): its orders as typed before they resolve,
  and, with hidden state, what only that seat may see;
- the judge's file (Judge, its archive and View): a secret from the seats in such a game.

:func:`exposures` lists every place where a secret would sit in a file someone else opens; ``init``
refuses such a config and ``doctor`` names each one (``docs/sync.md``, "Who sees what").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from sheets_gm.engine.ruleset import Information
from sheets_gm.match.config import BackendKind, ConfigError, MatchConfig, spreadsheet_id, toml_key
from sheets_gm.rulesets.registry import get_ruleset
from sheets_gm.running.bot_drift import configured_bots
from sheets_gm.sheets.files import orders_file
from sheets_gm.sync.bot_seats import NO_BOT

#: Where the engine goes when it must move out of a file players open (local matches).
GM_ENGINE = "gm/engine.xlsx"
#: Where the judge's tab goes when it must move out of a file players open (local matches).
GM_JUDGE = "gm/judge.xlsx"


@dataclass(frozen=True, slots=True)
class Exposure:
    """One secret in a file that someone who may not see it opens, with what to write instead."""

    where: str  # the file or spreadsheet, as the config names it
    role: str  # which role's tabs are exposed: "engine", "judge", or "orders"
    secret: str  # what it would hold, for people
    readers: str  # who can open it and why, for people
    fix: str  # what to write in the config instead

    def describe(self, *, created: bool = False) -> str:
        """One sentence: the file, the secret and who can open it (``created``: the match already runs so)."""
        return f"{self.where} {'holds' if created else 'would hold'} {self.secret}; {self.readers}"


@dataclass
class _File:
    """One distinct file or spreadsheet of the match and the roles it plays."""

    where: str
    board: bool = False
    engine: bool = False
    judge: bool = False
    seats: list[str] = field(default_factory=list)  # the seats whose orders file it is

    def readers(self, all_seats: tuple[str, ...]) -> set[str]:
        """The seats who open it (the GM opens everything)."""
        return set(all_seats) if self.board else set(self.seats)


def _identity(config: MatchConfig, where: str) -> str:
    """What makes two ``[sheets]`` entries the same file: the resolved path, or the spreadsheet key."""
    if config.backend is BackendKind.LOCAL:
        return str(config.local_path(where).expanduser().resolve())
    return spreadsheet_id(where)


def _files(config: MatchConfig) -> list[_File]:
    """The distinct files of the match with their roles (the judge's defaults to the engine's)."""
    files: dict[str, _File] = {}

    def at(where: str) -> _File:
        return files.setdefault(_identity(config, where), _File(where))

    at(config.board).board = True
    for seat, where in zip(config.seats, config.orders, strict=True):
        at(where).seats.append(seat)
    at(config.engine).engine = True
    if config.judge is not None and get_ruleset(config.ruleset).traits.judge:
        at(config.judge).judge = True
    return list(files.values())


def _names(seats: list[str] | set[str], order: tuple[str, ...]) -> str:
    ordered = [s for s in order if s in seats]
    return ordered[0] if len(ordered) == 1 else ", ".join(ordered[:-1]) + " and " + ordered[-1]


def _who(file: _File, leak: set[str], config: MatchConfig, word: str) -> str:
    """Who opens ``file`` although they may not see the secret, and why."""
    if file.board:
        return f"every {word} can open it (it is the public board)"
    return f"{_names(leak, config.seats)} can open it (it is their orders file)"


def place(config: MatchConfig, where: str) -> str:
    """A ``[sheets]`` entry as people read it: the file, or ``spreadsheet KEY``."""
    return where if config.backend is BackendKind.LOCAL else f"spreadsheet {where}"


def exposures(config: MatchConfig) -> list[Exposure]:
    """Every secret the configured layout would put in a file someone who may not see it opens."""
    traits = get_ruleset(config.ruleset).traits
    word = traits.seat_kind.value
    private = traits.information is not Information.PERFECT
    local = config.backend is BackendKind.LOCAL
    out: list[Exposure] = []
    for file in _files(config):
        readers = file.readers(config.seats)
        where = place(config, file.where)
        if file.engine and readers:
            fix = (f'write engine = "{GM_ENGINE}" under [sheets] in {config.path} (a file only you open: keep gm/ to '
                   "yourself)" if local else
                   f"create a spreadsheet that only you (and the config's gm_emails) open and name its key as engine "
                   f"under [sheets] in {config.path}")
            gm_tab = "every hidden unit, bag and private log" if traits.information is Information.HIDDEN_STATE else \
                "the full private log"
            out.append(Exposure(where, "engine", "the engine: the seed (whoever unhides the tab computes every future "
                                f"die), the state and history, the GM tab ({gm_tab}) and the Roster tab (every "
                                "e-mail)", _who(file, readers, config, word), fix))
        if file.judge and readers and private:
            fix = (f'write judge = "{GM_JUDGE}" under [sheets] in {config.path}, or drop the judge line (the judge\'s '
                   "tabs then go with the engine)" if local else
                   f"give the judge a spreadsheet of its own (no {word} opens it) under [sheets] in {config.path}")
            out.append(Exposure(where, "judge", "the judge's tabs (entries not yet resolved and the judge's View)",
                                _who(file, readers, config, word), fix))
        if not private:
            continue
        leaked = [s for s in file.seats if readers - {s}]
        if leaked:
            what = ("orders as typed (private until resolved), archive and View" if traits.information is
                    Information.PRIVATE_ORDERS else "orders, archive and View (what only each may see)")
            out.append(Exposure(where, "orders", f"the {what} of {_names(leaked, config.seats)}",
                                _who(file, readers if file.board else set(file.seats), config, word),
                                _orders_fix(config, leaked, word)))
    return out


def _orders_fix(config: MatchConfig, seats: list[str], word: str) -> str:
    """What to write so that each of ``seats`` has an orders file of its own."""
    if config.backend is not BackendKind.LOCAL:
        return (f"give each {word} a spreadsheet of its own under [sheets] orders in {config.path} (one key per "
                f"{word}, shared with that {word} alone)")
    pairs = [f'{toml_key(seat)} = "{orders_file(seat)}"' for seat in seats]
    return (f"give each {word} a file of its own: under [sheets] in {config.path}, list "
            f"{', '.join(pairs)} in orders = {{ … }} (share each with its {word} alone)")


@dataclass(frozen=True, slots=True)
class SharedFolder:
    """A GM file of a local match in a folder that also holds a file players open: no player's file holds the
    secret, but whoever is given that folder (a shared drive, a synced folder) opens it."""

    problem: str  # the file, its secret, and the players' file beside it
    fix: str  # what to share instead, and where to move it

    def describe(self) -> str:
        """One sentence: the problem, then the fix."""
        return f"{self.problem}; {self.fix}"


def shared_folders(config: MatchConfig) -> list[SharedFolder]:
    """Every GM file (the engine; the judge's in a game that hides something) of a local match that sits in the
    folder of a file players open (``SharedFolder``). A seat a bot plays (``[bots]``, as ``init`` reads it) opens
    no file: a practice match keeps the bots' workbooks under gm/ beside the engine, and that folder is the GM's."""
    if config.backend is not BackendKind.LOCAL:
        return []
    traits = get_ruleset(config.ruleset).traits
    bots = configured_bots(config)
    people = [w for seat, w in zip(config.seats, config.orders, strict=True) if bots.get(seat, NO_BOT) == NO_BOT]
    players = {config.local_path(w).expanduser().resolve().parent: w for w in (config.board, *people)}
    gm_files = [("engine", config.engine, "the seed, the state, the GM tab and the Roster tab", GM_ENGINE)]
    if config.judge is not None and traits.judge and traits.information is not Information.PERFECT:
        gm_files.append(("judge", config.judge, "the judge's tabs", GM_JUDGE))
    out: list[SharedFolder] = []
    for key, where, secret, move_to in gm_files:
        folder = config.local_path(where).expanduser().resolve().parent
        if folder not in players:
            continue
        shown = "the config's folder" if folder == config.folder.expanduser().resolve() else str(folder)
        out.append(SharedFolder(
            f"{where} (the {key}: {secret}) is in the same folder as {players[folder]}, a file players open, so that "
            f"folder ({shown}) must never be shared: whoever is given it opens the {key}",
            f"give each player their own files one by one, or write {key} = \"{move_to}\" under [sheets] in "
            f"{config.path} (then `sheets-gm repair -c {config.path}` moves a match already created there) and keep "
            f"{Path(move_to).parent}/ to yourself"))
    return out


class ExposedSecretError(ConfigError):
    """A config whose layout would put a secret in a file someone who may not see it opens."""


def refuse_exposures(config: MatchConfig) -> None:
    """ExposedSecretError naming each exposure and what to write instead, when there is any."""
    found = exposures(config)
    if not found:
        return
    lines = [f"{config.path}: this layout would let players read secrets, so no match is created:"]
    lines += [f"- {e.describe()}; fix: {e.fix}" for e in found]
    raise ExposedSecretError("\n".join(lines))
