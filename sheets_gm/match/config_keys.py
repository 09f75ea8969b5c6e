"""The spreadsheets a match's ``[sheets]`` layout needs, each named after the match and its role, and the config
text with their Google keys written in (for ``init --create``), the GM's comments and layout kept.

The config is edited line by line (the project reads TOML with ``tomllib``, which cannot write): each ``board``,
``engine``, ``judge`` and ``backend`` line of ``[sheets]`` gets its new value and keeps its comment, the ``orders``
table is written again on its line, and the result is read back to check that it says what was meant."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass

from sheets_gm.match.config import MatchConfig, toml_key


class ConfigKeysError(ValueError):
    """The config's ``[sheets]`` could not be rewritten in place; the message says what to paste by hand."""


@dataclass(frozen=True, slots=True)
class NeededSpreadsheet:
    """One spreadsheet of the match: the roles it holds (``board``, ``engine``, ``orders Ann``, ``judge``), the
    name it is created under, and what the config names it now (a local workbook, a key, or a URL)."""

    roles: tuple[str, ...]
    name: str
    where: str


def needed_spreadsheets(config: MatchConfig) -> list[NeededSpreadsheet]:
    """Every distinct spreadsheet the config's ``[sheets]`` names, in the order board, engine, orders by seat,
    judge; roles the config gives one file share one spreadsheet (a game with nothing hidden may keep every seat's
    tabs in the board's file), and its name lists them: ``Friday GvG · orders red``."""
    places: dict[str, list[str]] = {}
    named = [(config.board, "board"), (config.engine, "engine"),
             *((where, f"orders {seat}") for seat, where in zip(config.seats, config.orders, strict=True)),
             *([(config.judge, "judge")] if config.judge else [])]
    for where, role in named:
        places.setdefault(where, []).append(role)
    return [NeededSpreadsheet(tuple(roles), f"{config.title} · {', '.join(roles)}", where)
            for where, roles in places.items()]


_STRING = r'"(?:[^"\\]|\\.)*"'
#: A ``key = value`` line: a bare or quoted key, a string or a one-line inline table, then any comment.
_LINE = re.compile(rf"^(?P<key>[A-Za-z0-9_-]+|{_STRING})(?P<eq>\s*=\s*)(?P<value>{_STRING}|\{{[^}}]*\}})(?P<rest>.*)$")


def _value(line: str, key: str) -> re.Match[str] | None:
    """``line`` split around its value when it sets ``key`` to a string or an inline table on one line."""
    found = _LINE.match(line)
    return found if found and found["key"] == key else None


def with_sheet_keys(text: str, keys: Mapping[str, str], seats: tuple[str, ...]) -> str:
    """The config ``text`` with ``backend = "google"`` and each role's key of ``keys`` (``board``, ``engine``,
    ``judge``, ``orders <seat>``) under ``[sheets]``, every other line and every comment as it was. ConfigKeysError
    when a line to change is not there on one line of its own (a multi-line ``orders`` table, a missing key): the
    message gives the lines to paste.

    >>> text = ('title = "T"\\n[sheets]\\nbackend = "local"   # where\\nboard = "board.xlsx"  # public\\n'
    ...         'engine = "gm/engine.xlsx"\\norders = { red = "r.xlsx", blue = "b.xlsx" }  # one each\\n')
    >>> print(with_sheet_keys(text, {"board": "K1", "engine": "K2", "orders red": "K3", "orders blue": "K4"},
    ...                       ("red", "blue")), end="")
    title = "T"
    [sheets]
    backend = "google"   # where
    board = "K1"  # public
    engine = "K2"
    orders = { red = "K3", blue = "K4" }  # one each
    """
    wanted = {"backend": json.dumps("google")}
    for role in ("board", "engine", "judge"):
        if role in keys:
            wanted[role] = json.dumps(keys[role])
    if any(f"orders {seat}" in keys for seat in seats):
        pairs = ", ".join(f"{toml_key(seat)} = {json.dumps(keys[f'orders {seat}'])}" for seat in seats)
        wanted["orders"] = f"{{ {pairs} }}"
    lines = text.splitlines()
    section = ""
    done: set[str] = set()
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("["):
            section = stripped.split("]")[0].strip("[ ")
            continue
        if section == "sheets.orders":  # orders written as a table of their own: a line per seat
            for seat in seats:
                found = _value(line, toml_key(seat))
                if found and f"orders {seat}" in keys:
                    lines[i] = f"{found['key']}{found['eq']}{json.dumps(keys[f'orders {seat}'])}{found['rest']}"
                    done.add("orders")
            continue
        if section != "sheets":
            continue
        for key, value in wanted.items():
            found = _value(line, key)
            if found:
                lines[i] = f"{found['key']}{found['eq']}{value}{found['rest']}"
                done.add(key)
    missing = [key for key in wanted if key not in done]
    paste = "\n".join(f"{key} = {wanted[key]}" for key in wanted)
    if missing:
        raise ConfigKeysError(f"[sheets] has no one-line {', '.join(missing)} to write the new key into; put these "
                              f"lines under [sheets] yourself:\n{paste}")
    result = "\n".join(lines) + ("\n" if text.endswith("\n") else "")
    sheets = tomllib.loads(result).get("sheets", {})
    expected = {key: tomllib.loads(f"v = {value}")["v"] for key, value in wanted.items()}
    if any(sheets.get(key) != value for key, value in expected.items()):
        raise ConfigKeysError(f"[sheets] did not read back as written; put these lines under [sheets] yourself:\n"
                              f"{paste}")
    return result
