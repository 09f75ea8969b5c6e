"""Each Google account's page token in Drive's change log, kept by the host across its restarts
(``serve-drive.json`` beside the status file): a host started again asks each account's log from where the last
one left it, so that the matches whose spreadsheets changed while no host ran are named at its first question
(``accounts.AccountWatcher``)."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

from sheets_gm.sheets.private_files import write_private

#: The file's name, beside the status file.
TOKENS_NAME = "serve-drive.json"


def tokens_path(status_file: Path) -> Path:
    """Where the host whose status file is ``status_file`` keeps its accounts' tokens."""
    return status_file.with_name(TOKENS_NAME)


def read_tokens(path: Path) -> tuple[dict[str, str], str]:
    """The tokens kept at ``path`` (account -> token), and what is wrong with the file ('' when it reads, or there
    is none: a first start). A damaged file keeps nothing: Drive's file index tells what changed meanwhile."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}, ""
    except (OSError, ValueError) as exc:
        return {}, f"{path} does not read ({exc}): each account's change log is asked from now on"
    if not isinstance(raw, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in raw.items()):
        return {}, f"{path} is not an object of accounts and their tokens: each account's change log is asked " \
                   "from now on"
    return raw, ""


def write_tokens(path: Path, tokens: dict[str, str]) -> None:
    """Keep ``tokens`` at ``path`` (atomically, readable by its owner alone). OSError when it cannot be written."""
    write_private(path, json.dumps(tokens, sort_keys=True))


#: What Drive named each GM's sign-in file (``account_set``), beside the status file: a host started again knows
#: each file's account without asking Drive, while the file is the one Drive was asked about.
SIGN_INS_NAME = "serve-sign-ins.json"

#: A sign-in file as Drive named it: the file's device, inode, size and modification time then, and its account.
Named = dict[str, tuple[tuple[int, int, int, int], str]]


def sign_ins_path(status_file: Path) -> Path:
    """Where the host whose status file is ``status_file`` keeps what Drive named its GMs' sign-in files."""
    return status_file.with_name(SIGN_INS_NAME)


def read_sign_ins(path: Path) -> Named:
    """The sign-in files' accounts kept at ``path`` (nothing when it is missing or damaged: each file's account is
    asked of Drive again, once)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    out: Named = {}
    for sign_in, entry in raw.items() if isinstance(raw, dict) else ():
        stamp, account = entry.get("file"), entry.get("account") if isinstance(entry, dict) else None
        if (isinstance(account, str) and isinstance(stamp, list) and len(stamp) == 4
                and all(isinstance(n, int) for n in stamp)):
            out[sign_in] = (stamp[0], stamp[1], stamp[2], stamp[3]), account
    return out


def write_sign_ins(path: Path, named: Named) -> None:
    """Keep ``named`` at ``path`` (atomically, readable by its owner alone). OSError when it cannot be written."""
    write_private(path, json.dumps({sign_in: {"file": list(stamp), "account": account}
                                    for sign_in, (stamp, account) in named.items()}, sort_keys=True))


#: Where each account's matches are (``account_set``'s watcher names), beside the status file: for each account,
#: its matches' spreadsheets and the config of each. A host started again joins one match of each account before
#: it searches the folders (its watcher then asks the log from the kept token at once), and the match of each
#: spreadsheet that log names (a save typed while no host ran) as soon as it is named, before the search of
#: 10,000 folders reaches it (15-20 s).
MATCHES_NAME = "serve-drive-matches.json"

#: Account -> spreadsheet key -> the config of the match it is of.
Where = dict[str, dict[str, str]]


def where_path(status_file: Path) -> Path:
    """Where the host whose status file is ``status_file`` keeps where its accounts' matches are."""
    return status_file.with_name(MATCHES_NAME)


def read_object(path: Path) -> dict[object, object]:
    """The JSON object a kept file at ``path`` holds: empty when it is missing, damaged or not an object (what the
    host keeps for its next start is rebuilt from Drive and the search)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return raw if isinstance(raw, dict) else {}


def read_where(path: Path) -> Where:
    """Where the accounts' matches were (nothing when the file is missing or damaged: the search finds them)."""
    raw = read_object(path)
    return {account: {key: config for key, config in keys.items() if isinstance(key, str) and isinstance(config, str)}
            for account, keys in raw.items() if isinstance(account, str) and isinstance(keys, dict)}


def text_digest(text: str) -> int:
    """A digest of the text of a kept file (the host compares what it would write with what it last wrote)."""
    return zlib.crc32(text.encode("utf-8"))


def where_digest(path: Path) -> int:
    """The digest of the places kept at ``path`` as written (``text_digest``; no places' when it does not read): the
    file's own bytes, not its places parsed and written again (0.04 CPU s at 10,000 matches, at each start)."""
    try:
        return zlib.crc32(path.read_bytes())
    except OSError:
        return text_digest(where_text({}))


def where_text(where: Where) -> str:
    """``where`` as its file holds it (the host compares a digest of it with the last written: at 10,000 matches the
    places themselves would cost half a KiB a match to keep)."""
    return json.dumps(where, sort_keys=True)


def write_where(path: Path, text: str) -> None:
    """Keep ``text`` (``where_text``) at ``path`` (atomically, readable by its owner alone). OSError when it cannot
    be written."""
    write_private(path, text)
