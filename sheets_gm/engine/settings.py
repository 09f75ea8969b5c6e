"""Named settings (house rules): read from a mapping or from ``key=value`` text, checked.

A ruleset's settings are a frozen dataclass whose fields carry defaults and a ``doc``
in their metadata; this module turns user input into one, with messages that name the
key and say what is accepted.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterable, Mapping
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


#: How a path setting that names nothing is shown, and may be written.
NO_PATH = "none"


class SettingError(ValueError):
    """A setting key that does not exist or a value it cannot take."""


def setting(default: Any, doc: str, *, minimum: int | None = None, maximum: int | None = None,
            path: bool = False, only_when: tuple[str, Any] | None = None, optional: bool = False,
            live: bool = False) -> Any:
    """A dataclass field for a setting, with its documentation and optional integer bounds.

    ``path``: the setting names a file or folder (a ``str``, empty for none), which ``parse_settings``
    resolves against the folder it is given (a match config's own), so the match holds where it is.
    ``only_when``: ``(other setting, value)`` under which alone this one changes anything (Win or Die's
    advanced-mode settings), so a GM who sets it without is told (``idle_settings``).
    ``optional``: a text setting that may be left empty (the Coalition's ``strategies_to``).
    ``live``: a setting that changes no rule, only what the sheets say or when the judge's window closes (the
    Coalition's ``strategies_to`` and ``judge_hours``):
    the match config's value is taken in a running match, where every other setting is fixed at its creation."""
    meta = {"doc": doc, "minimum": minimum, "maximum": maximum, "path": path, "only_when": only_when,
            "optional": optional, "live": live}
    if isinstance(default, list | dict | set):
        raise TypeError("settings defaults must be immutable (use a tuple)")
    return dataclasses.field(default=default, metadata=meta)


def live_settings(cls: type[Any]) -> frozenset[str]:
    """The names of the settings of ``cls`` marked ``live``: a running match takes the config's value."""
    return frozenset(f.name for f in dataclasses.fields(cls) if f.metadata.get("live"))


def describe_type(tp: Any) -> str:
    """A person's description of what a setting accepts."""
    if isinstance(tp, type) and issubclass(tp, Enum):
        return " or ".join(repr(m.value) for m in tp)
    if tp is bool:
        return "true or false"
    if tp is int:
        return "a whole number"
    if tp is str:
        return "text"
    origin = typing.get_origin(tp)
    if origin is tuple:
        (inner, *_rest) = typing.get_args(tp)
        single = describe_type(inner).removeprefix("a ")
        return f"{single}s separated by commas"
    return getattr(tp, "__name__", str(tp))


def _coerce(key: str, tp: Any, value: Any, meta: Mapping[str, Any], folder: Path | None = None) -> Any:
    accepted = describe_type(tp)
    if meta.get("path") and tp is str:
        if isinstance(value, list | dict | bool | int | float):
            raise SettingError(f"setting {key!r}: {value!r} is not accepted; use the path of a file or folder")
        text = str(value).strip()
        if not text or text.lower() == NO_PATH:
            return ""
        where = Path(text).expanduser()
        return str(folder / where if folder is not None and not where.is_absolute() else where)
    if isinstance(tp, type) and issubclass(tp, Enum):
        text = str(value).strip().lower()
        for member in tp:
            if member.value == text:
                return member
        raise SettingError(f"setting {key!r}: {value!r} is not accepted; use {accepted}")
    if tp is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
        raise SettingError(f"setting {key!r}: {value!r} is not accepted; use {accepted}")
    if tp is int:
        if isinstance(value, bool):
            raise SettingError(f"setting {key!r}: {value!r} is not accepted; use {accepted}")
        try:
            number = int(str(value).strip()) if not isinstance(value, int) else value
        except ValueError:
            raise SettingError(f"setting {key!r}: {value!r} is not accepted; use {accepted}") from None
        low, high = meta.get("minimum"), meta.get("maximum")
        if (low is not None and number < low) or (high is not None and number > high):
            if high is None:
                span = f"{low} or more"
            elif low is None:
                span = f"{high} or less"
            else:
                span = f"{low} to {high}"
            raise SettingError(f"setting {key!r}: {number} is out of range; use {span}")
        return number
    if tp is str:
        text = str(value).strip()
        if not text and meta.get("optional") and not isinstance(value, list | dict):
            return ""
        if not text or isinstance(value, list | dict):
            raise SettingError(f"setting {key!r}: {value!r} is not accepted; use {accepted} (not empty)")
        return text
    if typing.get_origin(tp) is tuple:
        (inner, *_rest) = typing.get_args(tp)
        items = value if isinstance(value, list | tuple) else [
            part for part in str(value).replace(";", ",").split(",") if part.strip()
        ]
        return tuple(_coerce(key, inner, item, meta) for item in items)
    raise TypeError(f"unsupported setting type {tp!r}")  # a programming error, not user input


_FIELDS: dict[type, tuple[dict[str, Any], dict[str, dataclasses.Field[Any]]]] = {}


def _fields_of(cls: type) -> tuple[dict[str, Any], dict[str, dataclasses.Field[Any]]]:
    """The type of each field of the settings dataclass ``cls`` and the fields by name, found once per process for
    each class (``typing.get_type_hints`` evaluates every annotation, and every read of a match's record parses its
    settings)."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = (typing.get_type_hints(cls), {f.name: f for f in dataclasses.fields(cls)})
    return found


def parse_settings(cls: type[T], values: Mapping[str, Any], *, where: str = "settings",
                   folder: Path | None = None) -> T:
    """Build the settings dataclass ``cls`` from user values, rejecting unknown keys and bad values; a relative
    path setting is resolved against ``folder`` (when given)."""
    hints, fields = _fields_of(cls)
    chosen: dict[str, Any] = {}
    for key, value in values.items():
        name = str(key).strip().replace("-", "_")
        if name not in fields:
            known = ", ".join(sorted(fields))
            raise SettingError(f"{where}: unknown setting {key!r}; known settings: {known}")
        chosen[name] = _coerce(name, hints[name], value, fields[name].metadata, folder)
    return cls(**chosen)


def idle_settings(settings: Any, names: Iterable[str]) -> list[str]:
    """Why each of the named settings changes nothing with the others as ``settings`` has them, in the order
    given: ``zoc_morale only matters when mode is 'advanced' (it is 'basic' here)``."""
    fields = {f.name: f for f in dataclasses.fields(settings)}
    out = []
    for name in names:
        found = fields.get(str(name).strip().replace("-", "_"))
        condition = found.metadata.get("only_when") if found is not None else None
        if found is None or condition is None:
            continue
        other, wanted = condition
        actual = getattr(settings, other)
        if actual != wanted:
            out.append(f"{found.name} only matters when {other} is {_shown(wanted)!r} (it is {_shown(actual)!r} here)")
    return out


def _shown(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def parse_assignments(pairs: list[str], *, where: str = "--set") -> dict[str, str]:
    """Read ``key=value`` texts (from the command line) into a mapping."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise SettingError(f"{where} {pair!r}: write key=value, e.g. movement=rook")
        out[key.strip()] = value.strip()
    return out


def settings_table(cls: type[Any]) -> list[tuple[str, str, str, str]]:
    """(name, default, accepted values, doc) for every setting of ``cls``, for the rules page."""
    hints = typing.get_type_hints(cls)
    rows = []
    for f in dataclasses.fields(cls):
        default = f.default
        if isinstance(default, Enum):
            shown = str(default.value)
        elif isinstance(default, tuple):
            shown = ",".join(str(v) for v in default)
        elif isinstance(default, bool):
            shown = str(default).lower()
        elif f.metadata.get("path") and not default:
            shown = NO_PATH
        else:
            shown = str(default)
        accepts = "a path (relative to the match config)" if f.metadata.get("path") else describe_type(hints[f.name])
        rows.append((f.name, shown, accepts, f.metadata.get("doc", "")))
    return rows


def settings_markdown(cls: type[Any]) -> str:
    """The rules page's settings table of ``cls``: a row per setting, its name and default as code (the form
    ``tests/conformance/test_rules_pages.py`` looks for), what it accepts and what it changes."""
    rows = [f"| `{name}` | `{default}` | {accepts} | {doc.rstrip('.')}. |"
            for name, default, accepts, doc in settings_table(cls)]
    return "\n".join(["| Setting | Default | Accepts | What it changes |", "|---|---|---|---|", *rows]) + "\n"


def settings_to_mapping(settings: Any) -> dict[str, Any]:
    """The settings as plain JSON-ready values (enums by value, tuples as lists)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(settings):
        value = getattr(settings, f.name)
        if isinstance(value, Enum):
            value = value.value
        elif isinstance(value, tuple):
            value = [v.value if isinstance(v, Enum) else v for v in value]
        out[f.name] = value
    return out


def settings_rows(settings: Any, deadlines: str = "") -> list[list[str]]:
    """The settings tab: every setting with its value in this match, its default and what it does.

    The last row is the deadline schedule (``deadlines``, in words), which the match config sets."""
    values = settings_to_mapping(settings)
    rows: list[list[str]] = []
    for name, default, _accepts, doc in settings_table(type(settings)):
        value = values[name]
        shown = ",".join(str(v) for v in value) if isinstance(value, list) else str(value).lower() \
            if isinstance(value, bool) else str(value)
        rows.append([name, shown, default, doc])
    rows.append(deadlines_row(deadlines))
    return rows


def deadlines_row(deadlines: str) -> list[str]:
    """The settings tab's last row: the deadline schedule in words (``none`` without one). The sync writes it again
    when the GM changes the match config's ``[deadlines]`` in a running match."""
    return ["deadlines", deadlines or "none", "none",
            "When each turn's orders close (the match config's [deadlines]: a change applies from the next sync)"]
