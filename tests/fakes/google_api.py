"""A stateful fake of the Google Sheets v4 and Drive v3 endpoints sheets-gm uses, on ``responses``.

Every request is checked against Google's own discovery documents (``sheets.v4.json`` and
``drive.v3.json`` bundled in google-api-python-client, a test dependency): the route, each
query parameter (known, enum value, type, repetition) and the JSON body, converted to JSON
Schema with ``additionalProperties: false`` so an unknown field or a misspelt enum raises
:class:`SchemaViolation` (an AssertionError: the test fails) instead of passing silently. The
fake's own answers are validated the same way, so it cannot drift from the real shapes.

State: per spreadsheet, its tabs (sheet properties as the API spells them), cells as CellData
(``userEnteredValue``, ``userEnteredFormat``, ``dataValidation``), protected ranges, conditional
format rules (in order; served by spreadsheets.get when its ``fields`` ask for them), column
widths and Drive permissions. Reads trim trailing empty rows and cells like Google; RAW
writes store strings as strings (``'=1+1'`` stays text). spreadsheets.batchUpdate answers with
the updated spreadsheet when asked (``includeSpreadsheetInResponse``: the tabs ``responseRanges``
name, one GridData per range, grid data when ``responseIncludeGridData`` or a field mask asks),
and a ``fields`` mask cuts an answer as Google does.

Edits and Drive: every edit has an author, a player typing through :meth:`GoogleApiFake.set_values`
(``player_email`` unless told otherwise) or the account an API call is signed in as (a service
account by its key's e-mail, a user token as ``user_email``); Drive lists each edit in its change
log ``drive_lag`` after it, with the file's ``modifiedTime`` and ``lastModifyingUser`` as of the
latest edit listed.

Accounting: calls, request bytes (URL + body) and response bytes per endpoint, and a log of
every call, for tests and benchmarks. Faults: :meth:`GoogleApiFake.inject` makes the Nth
matching call from now answer 429 (JSON or HTML body), 408, 500 or 503 (optionally with
Retry-After) or reset the connection, before or after applying the request. A spreadsheet
can be "not shared" (Sheets 403 PERMISSION_DENIED, Drive 404).

Owners: a spreadsheet a test makes (:meth:`GoogleApiFake.create_spreadsheet`) is the GM's own, made by hand in her
My Drive (``user_email``); one files.create makes is the caller's (in a shared drive, the drive's). Every other
account that opens it is an editor, and Drive keeps to its owner what it keeps to owners: the sharing settings
(``writersCanShare``) and, once the owner has turned editors' sharing off, sharing at all (403
``insufficientFilePermissions``). A shared drive's own "who may share" settings are not modelled: any caller may
share its files, and nobody may set ``writersCanShare`` on them (Drive's 403
``teamDrivesSharingRestrictionNotAllowed``).

Usage::

    with GoogleApiFake() as fake:
        fake.create_spreadsheet("KEY", tabs={"Board": (30, 20)})
        backend = GoogleSheetBackend(fake_client(), "KEY", retry=...)
"""

from __future__ import annotations

import base64
import contextlib
import copy
import enum
import functools
import hashlib
import io
import json
import marshal
import os
import pickle
import re
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast
from urllib.parse import parse_qs, unquote, urlsplit

import googleapiclient
import gspread
import jsonschema
import openpyxl
import requests
import responses
from google.auth.crypt import _cryptography_rsa
from google.oauth2.credentials import Credentials as UserCredentials

if TYPE_CHECKING:
    import pytest

DISCOVERY_DIR = Path(googleapiclient.__file__).parent / "discovery_cache" / "documents"

# Endpoint names: the discovery method ids (plus the OAuth token endpoint).
READ = "sheets.spreadsheets.values.batchGet"
WRITE = "sheets.spreadsheets.values.batchUpdate"
GET = "sheets.spreadsheets.get"
BATCH_UPDATE = "sheets.spreadsheets.batchUpdate"
EXPORT = "drive.files.export"
SHARE = "drive.permissions.create"
CHANGES = "drive.changes.list"
START_TOKEN = "drive.changes.getStartPageToken"
FILES = "drive.files.list"
FILE_GET = "drive.files.get"
FILE_UPDATE = "drive.files.update"
PERMISSIONS = "drive.permissions.list"
CREATE = "drive.files.create"
ABOUT = "drive.about.get"
TOKEN = "oauth2.token"
ALLOWED_LOCATIONS = "iamcredentials.allowedLocations"
#: Endpoints of google-auth itself, left out of the API call and byte totals.
AUTH_ENDPOINTS = frozenset({TOKEN, ALLOWED_LOCATIONS})

TOKEN_URL = "https://oauth2.googleapis.com/token"
_ALLOWED_LOCATIONS = re.compile(
    r"^https://iamcredentials\.googleapis\.com/v1/projects/-/serviceAccounts/[^/]+/allowedLocations$"
)
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
SPREADSHEET_MIME = "application/vnd.google-apps.spreadsheet"
FOLDER_MIME = "application/vnd.google-apps.folder"
#: What Drive answers a service account creating a file in a My Drive (403, domain usageLimits).
NO_STORAGE_MESSAGE = ("Service Accounts do not have storage quota. Leverage shared drives "
                      "(https://developers.google.com/workspace/drive/api/guides/about-shareddrives), or use OAuth "
                      "delegation (http://support.google.com/a/answer/7281227) instead.")

SPREADSHEETS = "https://www.googleapis.com/auth/spreadsheets"
DRIVE_FILE = "https://www.googleapis.com/auth/drive.file"
#: Scopes that reach every file of the account in Drive (read, or more: the method's own scopes say which calls).
WHOLE_DRIVE = frozenset({"https://www.googleapis.com/auth/drive", "https://www.googleapis.com/auth/drive.readonly",
                         "https://www.googleapis.com/auth/drive.metadata",
                         "https://www.googleapis.com/auth/drive.metadata.readonly"})
#: Scopes that reach every spreadsheet of the account in Sheets.
WHOLE_SHEETS = frozenset({SPREADSHEETS, "https://www.googleapis.com/auth/spreadsheets.readonly",
                          "https://www.googleapis.com/auth/drive", "https://www.googleapis.com/auth/drive.readonly"})

#: What Drive answers a request only the file's owner may make (403, reason ``insufficientFilePermissions``).
OWNER_ONLY_MESSAGE = "The user does not have sufficient permissions for this file."

CellValue = str | int | float | bool | None


class SchemaViolation(AssertionError):
    """A request Google would reject (or a fake answer Google would never give)."""


class UnexpectedRequest(AssertionError):
    """A request the fake does not serve: a URL outside the fake, or a method it lacks."""


class HttpError(Exception):
    """An error answer from the fake: HTTP status, Google status name, message."""

    def __init__(self, code: int, message: str, status: str = "INVALID_ARGUMENT", reason: str = "badRequest",
                 domain: str = "global"):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.reason = reason
        self.domain = domain  # Drive's error domain (``usageLimits`` for quota refusals)


# --------------------------------------------------------------------------- discovery


def discovery_to_json_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """One discovery-document schema as JSON Schema (refs point into ``#/$defs``); objects
    without ``additionalProperties`` get ``false`` so unknown fields are errors."""
    if "$ref" in schema:
        return {"$ref": f"#/$defs/{schema['$ref']}"}
    kind = schema.get("type")
    out: dict[str, Any]
    if kind == "object":
        out = {"type": "object"}
        if "properties" in schema:
            out["properties"] = {k: discovery_to_json_schema(v) for k, v in schema["properties"].items()}
        if "additionalProperties" in schema:
            out["additionalProperties"] = discovery_to_json_schema(schema["additionalProperties"])
        else:
            out["additionalProperties"] = False
    elif kind == "array":
        out = {"type": "array", "items": discovery_to_json_schema(schema.get("items", {"type": "any"}))}
    elif kind == "string":
        if schema.get("format") in ("int64", "uint64"):
            out = {"type": ["string", "integer"], "pattern": INT64_PATTERN}
        else:
            out = {"type": "string"}
    elif kind == "integer":
        out = {"type": "integer"}
    elif kind == "number":
        out = {"type": "number"}
    elif kind == "boolean":
        out = {"type": "boolean"}
    elif kind in ("any", None):
        out = {}
    else:
        raise ValueError(f"unknown discovery type {kind!r}")
    if "enum" in schema:
        out["enum"] = list(schema["enum"])
    return out


#: What an int64 given as a string matches.
INT64_PATTERN = r"^-?[0-9]+$"

# Rules the discovery format cannot say but Google enforces (proto oneofs, value cells).
_TIGHTEN: dict[str, dict[str, Any]] = {
    "Request": {"minProperties": 1, "maxProperties": 1},  # exactly one kind of request
    "Response": {"maxProperties": 1},
    "ExtendedValue": {"maxProperties": 1},  # one of stringValue, numberValue, ...
}
_SCALAR_CELL = {"type": ["string", "number", "boolean", "null"]}
# What a conditional format may set (BooleanRule.format: "bold, italic, strikethrough, foreground color and,
# background color"), as CellFormat and TextFormat fields.
_CONDITIONAL_CELL_FORMAT = frozenset({"backgroundColor", "backgroundColorStyle", "textFormat"})
_CONDITIONAL_TEXT_FORMAT = frozenset({"bold", "italic", "strikethrough", "foregroundColor", "foregroundColorStyle"})


#: The JSON text of the list items :meth:`Discovery._item_errors` remembers, at most (then it starts afresh).
_CHECKED_CHARS = 50_000_000


@dataclass(frozen=True)
class Method:
    """One REST method of a discovery document."""

    id: str
    http_method: str
    path: str
    pattern: re.Pattern[str]
    parameters: dict[str, Any]
    request: str | None
    response: str | None
    scopes: tuple[str, ...] = ()  # the OAuth scopes any one of which lets a token call it


class Discovery:
    """A discovery document: its routes, its parameters and its schemas as JSON Schema."""

    def __init__(self, path: Path) -> None:
        doc = json.loads(path.read_text(encoding="utf-8"))
        self.name: str = doc["name"]
        self.base: str = doc["rootUrl"] + doc["servicePath"]
        self.global_parameters: dict[str, Any] = doc.get("parameters", {})
        self.schemas: dict[str, Any] = doc["schemas"]
        self.defs = {name: discovery_to_json_schema(s) for name, s in self.schemas.items()}
        for name, extra in _TIGHTEN.items():
            if name in self.defs:
                self.defs[name].update(extra)
        if "ValueRange" in self.defs:
            self.defs["ValueRange"]["properties"]["values"]["items"]["items"] = _SCALAR_CELL
        _no_rule_the_shape_hides(self.defs)  # what _shape relies on
        self.enum_values = frozenset(_enum_values(self.defs))  # the strings _shape keeps
        self.methods: list[Method] = []
        self._collect(doc)
        # Longest literal path first, so `{id}:batchUpdate` wins over `{id}`.
        self.methods.sort(key=lambda m: -len(re.sub(r"\{[^}]+\}", "", m.path)))
        self._validators: dict[tuple[str, bool], jsonschema.protocols.Validator] = {}
        self._lists: dict[str, dict[str, tuple[str, bool]]] = {}  # see _messages
        self._shapes: set[tuple[str, Hashable]] = set()  # see _remembered
        self._valid: set[tuple[str, bytes | str]] = set()  # see _remembered
        self._checked_chars = 0
        self._routes: dict[tuple[str, str], tuple[Method, dict[str, str]] | None] = {}  # see match

    def _collect(self, resource: Mapping[str, Any]) -> None:
        for m in resource.get("methods", {}).values():
            path = m.get("flatPath", m["path"])
            regex = ""
            for part in re.split(r"(\{[^}]+\})", path):
                if part.startswith("{"):
                    name = part.strip("{}+")
                    regex += f"(?P<{name}>[^/]+)" if name == "range" else f"(?P<{name}>[^/:]+)"
                else:
                    regex += re.escape(part)
            self.methods.append(
                Method(
                    id=m["id"],
                    http_method=m["httpMethod"],
                    path=path,
                    pattern=re.compile("^" + re.escape(self.base) + regex + "$"),
                    parameters=m.get("parameters", {}),
                    request=m.get("request", {}).get("$ref"),
                    response=m.get("response", {}).get("$ref"),
                    scopes=tuple(m.get("scopes", ())),
                )
            )
        for sub in resource.get("resources", {}).values():
            self._collect(sub)

    def match(self, http_method: str, url: str) -> tuple[Method, dict[str, str]] | None:
        """The method serving ``http_method url`` and its path parameters, if any (found once for each method and
        path, a few thousand at most: a test's calls go to a few spreadsheets)."""
        key = (http_method.upper(), url.split("?", 1)[0])
        if key not in self._routes:
            if len(self._routes) > 10_000:
                self._routes.clear()
            self._routes[key] = self._route(*key)
        found = self._routes[key]
        return None if found is None else (found[0], dict(found[1]))

    def _route(self, http_method: str, path: str) -> tuple[Method, dict[str, str]] | None:
        for m in self.methods:
            if m.http_method != http_method:
                continue
            hit = m.pattern.match(path)
            if hit:
                return m, {k: unquote(v) for k, v in hit.groupdict().items()}
        return None

    def validator(self, schema_name: str, *, shallow: bool = False) -> jsonschema.protocols.Validator:
        """A JSON Schema validator for the discovery schema ``schema_name``; ``shallow``: one that checks of each
        property holding a message (or a list of them) only that it is there as one (``_errors`` checks the
        messages)."""
        if (schema_name, shallow) not in self._validators:
            defs = self.defs
            if shallow:
                schema = copy.deepcopy(self.defs[schema_name])
                for prop, (_, listed) in self._messages(schema_name).items():
                    schema["properties"][prop] = {"type": "array"} if listed else {}
                defs = {**self.defs, f"{schema_name} (shallow)": schema}
            root = {"$defs": defs, "$ref": f"#/$defs/{schema_name}{' (shallow)' if shallow else ''}"}
            self._validators[(schema_name, shallow)] = jsonschema.Draft202012Validator(root)
        return self._validators[(schema_name, shallow)]

    def validate(self, schema_name: str, instance: Any, what: str, method_id: str | None = None) -> None:
        """Raise SchemaViolation unless ``instance`` is a valid ``schema_name``.

        ``method_id`` also enforces the fields the document marks required for that method."""
        errors = sorted(self._errors(schema_name, instance))
        if errors:
            lines = [f"{'.'.join(str(p) for p in path) or '<root>'}: {message}" for path, message in errors[:5]]
            raise SchemaViolation(f"{what} is not a valid {self.name} {schema_name}:\n  " + "\n  ".join(lines))
        if method_id and isinstance(instance, dict):
            for prop, spec in self.schemas[schema_name].get("properties", {}).items():
                if method_id in spec.get("annotations", {}).get("required", []) and prop not in instance:
                    raise SchemaViolation(f"{what}: {schema_name}.{prop} is required by {method_id}")

    def _errors(self, schema_name: str, instance: Any) -> list[tuple[tuple[str, ...], str]]:
        """Each error of ``instance`` as a ``schema_name``: its path and message. An object's messages are checked
        each on its own, as the whole would be (the discovery schemas tie no property to another): the object
        itself by a shallow schema that leaves its messages' properties unchecked (their kind aside), then each
        message (a batchUpdate's ``updateCells``) and each item of a list of messages (its rows, their cells) on
        its own, an item once a process whatever list it comes in (:meth:`_item_errors`): the same cell formats
        come in every layout, and a validator that walked each request whole took a third of a bench's time."""
        if not isinstance(instance, dict):
            return [(tuple(str(p) for p in e.absolute_path), e.message)
                    for e in self.validator(schema_name).iter_errors(_distinct_items(instance))]
        messages = self._messages(schema_name)
        shallow = {k: v if k not in messages else [] if isinstance(v, list) else
                   v if messages[k][1] else None for k, v in instance.items()}
        found = [*self._remembered(f"{schema_name} (shallow)", shallow, lambda checked: [
            (tuple(str(p) for p in e.absolute_path), e.message)
            for e in self.validator(schema_name, shallow=True).iter_errors(_distinct_items(checked))])]
        for prop, (message, listed) in messages.items():
            value = instance.get(prop)
            if prop not in instance or (listed and not isinstance(value, list)):
                continue  # a list that is none: the shallow check said so
            if isinstance(value, list) and listed:
                seen: dict[int, list[tuple[tuple[str, ...], str]]] = {}  # an item the list holds twice: once
                for i, item in enumerate(value):
                    errors = seen.get(id(item))
                    if errors is None:
                        errors = seen[id(item)] = self._item_errors(message, item)
                    found += [((prop, str(i), *path), why) for path, why in errors]
            else:
                found += [((prop, *path), why) for path, why in self._errors(message, value)]
        return found

    def _item_errors(self, schema_name: str, item: Any) -> list[tuple[tuple[str, ...], str]]:
        """:meth:`_errors` of one item of a list, remembered by its JSON text (a pure function of the two)."""
        return self._remembered(schema_name, item, lambda checked: self._errors(schema_name, checked))

    def _remembered(self, kind: str, instance: Any,
                    check: Callable[[Any], list[tuple[tuple[str, ...], str]]]) -> list[tuple[tuple[str, ...], str]]:
        """What ``check`` finds in ``instance`` as a ``kind``. That it is valid is found once a process for each
        :func:`_shape` of it (a cell's text, a tab's title, a row's index, a grid's size set aside), by checking the
        shape's :func:`_example`, which says it of any instance of that shape; an instance of a shape whose example is
        refused (a string an enum refuses, blanked) is checked as it is, and its errors are never remembered. An
        instance found valid is known by its own text too (:func:`_exact_text`), looked up first: one encoding, where
        its shape is a walk in Python (the same row metadata, formats and replies come again and again, their text and
        all)."""
        exact = (kind, _exact_text(instance))
        if exact in self._valid:
            return []
        shape = (kind, _shape(instance, self.enum_values))
        if shape not in self._shapes:
            if check(_example(shape[1])):
                errors = check(instance)
                if errors:
                    return errors
            else:
                self._shapes.add(shape)
        if self._checked_chars > _CHECKED_CHARS:
            self._shapes.clear()
            self._valid.clear()
            self._checked_chars = 0
        self._valid.add(exact)
        self._checked_chars += len(exact[1])
        return []

    def _messages(self, schema_name: str) -> dict[str, tuple[str, bool]]:
        """The properties of ``schema_name`` that are a message or a list of messages: the message's schema, and
        whether it is a list."""
        if schema_name not in self._lists:
            props = self.schemas.get(schema_name, {}).get("properties", {})
            self._lists[schema_name] = {name: (spec["$ref"], False) for name, spec in props.items() if "$ref" in spec}
            self._lists[schema_name] |= {name: (spec["items"]["$ref"], True) for name, spec in props.items()
                                         if spec.get("type") == "array" and "$ref" in spec.get("items", {})}
        return self._lists[schema_name]

    def validate_query(self, method: Method, query: Mapping[str, list[str]], what: str) -> None:
        """Raise SchemaViolation for an unknown, repeated, ill-typed or out-of-enum parameter."""
        for name, values in query.items():
            spec = method.parameters.get(name) or self.global_parameters.get(name)
            if spec is None or spec.get("location", "query") != "query":
                raise SchemaViolation(f"{what}: unknown query parameter {name!r} for {method.id}")
            if len(values) > 1 and not spec.get("repeated"):
                raise SchemaViolation(f"{what}: query parameter {name!r} given {len(values)} times")
            for v in values:
                if "enum" in spec and v not in spec["enum"]:
                    raise SchemaViolation(f"{what}: {name}={v!r} is not one of {spec['enum']}")
                if spec.get("type") == "boolean" and v.lower() not in ("true", "false"):
                    raise SchemaViolation(f"{what}: {name}={v!r} is not a boolean")
                if spec.get("type") == "integer" and not re.fullmatch(r"-?\d+", v):
                    raise SchemaViolation(f"{what}: {name}={v!r} is not an integer")
        for name, spec in method.parameters.items():
            if spec.get("required") and spec.get("location") == "query" and name not in query:
                raise SchemaViolation(f"{what}: required query parameter {name!r} missing for {method.id}")

    def check_field_mask(self, schema_name: str, fields: str, what: str) -> list[str]:
        """The paths of a field mask, each checked to exist in ``schema_name``."""
        if not fields or not fields.strip():
            raise HttpError(400, f"{what}: At least one field must be specified in 'fields'.")
        if fields.strip() == "*":
            return ["*"]
        if "(" in fields:
            raise UnexpectedRequest(f"{what}: the fake does not parse parenthesised field masks: {fields!r}")
        paths = [p.strip() for p in fields.split(",") if p.strip()]
        for path in paths:
            schema: Mapping[str, Any] = self.schemas[schema_name]
            for part in path.split("."):
                prop = schema.get("properties", {}).get(part)
                if prop is None:
                    raise HttpError(400, f"{what}: Invalid field mask: {path!r} ({part!r} is not a field)")
                schema = self.schemas[prop["$ref"]] if "$ref" in prop else prop
        return paths


def _exact_text(instance: Any) -> bytes | str:
    """The text :meth:`Discovery._remembered` knows an instance valid by: marshal's bytes, which load back into an
    equal value of the same types (so equal bytes are equal instances, valid alike; the bytes of one value may vary
    with what else holds its parts, which costs a check, never a wrong answer), written in C a twentieth of the time
    JSON's sorted text took; JSON's text for what marshal refuses (a subclass of a JSON type, another type)."""
    try:
        return marshal.dumps(instance)
    except ValueError:
        return json.dumps(instance, sort_keys=True, default=str)


# --------------------------------------------------------------------------- state


def _shape(instance: Any, words: frozenset[str]) -> Hashable:
    """What of ``instance`` its validity depends on under the schemas the fake builds, as a hashable value: a string
    kept if it is a value of an enum of the document (``words``), made ``"0"`` if it is digits alone (an int64's),
    else made empty; a number made its kind (an integer, a whole float, another float); an object the set of its
    fields' shapes; a list the set of its items' shapes. :func:`_example` makes an instance of a shape back, and if
    that is valid, every instance of the shape is (:func:`_no_rule_the_shape_hides`): where the empty string is
    valid any string is, where ``"0"`` is any digits are, no rule looks at a number's value but for its type, and
    the documents set no rule on a list as a whole (no ``minItems``, no ``uniqueItems``). Strings, numbers and lengths
    are most of what differs from one request to the next (cells' text, notes, titles, row indexes, a grid's rows):
    one check of a kind of row or cell stands for all of them."""
    kind = type(instance)
    if kind is str:
        return instance if instance in words else "0" if instance.isdecimal() and instance.isascii() else ""
    if kind is dict:
        return frozenset((k, _shape(v, words)) for k, v in instance.items())
    if kind is list:
        return _LIST, frozenset(_shape(v, words) for v in _distinct_scalars(instance))
    if kind is int:
        return _INTEGER
    if kind is float:
        return _WHOLE if instance.is_integer() else _FRACTION
    if instance is None or kind is bool:
        return cast(Hashable, instance)
    return _shape(_plain(instance), words)


def _distinct_scalars(items: list[Any]) -> Iterable[Any]:
    """``items`` each once if they are all strings, numbers, booleans or nulls (a row of values: its shape is its
    distinct values' shapes), by type and value (``1``, ``1.0`` and ``True`` are equal, not alike); else ``items``."""
    if set(map(type, items)) <= _SCALARS:
        return [value for _kind, value in set(zip(map(type, items), items, strict=True))]
    return items


_SCALARS = frozenset({str, int, float, bool, type(None)})


#: The shapes of numbers, and the mark of a list's (no enum value: see :func:`_no_rule_the_shape_hides`).
_INTEGER, _WHOLE, _FRACTION, _LIST = "#integer", "#whole float", "#float", "#list"
_NUMBERS = {_INTEGER: 0, _WHOLE: 0.0, _FRACTION: 0.5}


def _example(shape: Hashable) -> Any:
    """An instance of the :func:`_shape` ``shape``: each list with one item of each shape its items have."""
    if isinstance(shape, frozenset):
        return {k: _example(v) for k, v in shape}
    if isinstance(shape, tuple):
        return [_example(item) for item in shape[1]]
    if isinstance(shape, str):
        return _NUMBERS.get(shape, shape)
    return shape


def _plain(instance: Any) -> Any:
    """``instance`` (of a subclass of a JSON type, or of none) as the plain JSON value it stands for."""
    if isinstance(instance, bool):
        return bool(instance)
    for plain in (str, int, float):
        if isinstance(instance, plain):
            return plain(instance)
    if isinstance(instance, Mapping):
        return dict(instance)
    if isinstance(instance, list | tuple):
        return list(instance)
    return str(instance)  # as json.dumps(default=str) writes it


def _enum_values(schema: Any) -> Iterator[str]:
    """Every string value of every enum in ``schema`` (JSON Schema, walked whole)."""
    if isinstance(schema, dict):
        yield from (v for v in schema.get("enum", ()) if isinstance(v, str))
        for sub in schema.values():
            yield from _enum_values(sub)
    elif isinstance(schema, list):
        for sub in schema:
            yield from _enum_values(sub)


def _no_rule_the_shape_hides(defs: Mapping[str, Any]) -> None:
    """Raise ValueError if a schema of ``defs`` holds a rule :func:`_shape` relies on its not holding: one under
    which the empty string is valid where another string is not (an enum naming it, a pattern it meets, a length, a
    format or a ``const``), one that looks at a number's value (bounds, ``multipleOf``, a number or digits in an
    enum), or one on a list as a whole (its length, its items unique)."""
    def walk(schema: Mapping[str, Any], where: str) -> None:
        if "" in schema.get("enum", ()) or "const" in schema or any(k in schema for k in (
                "minLength", "maxLength", "format")) or re.search(schema.get("pattern", "(?!)"), ""):
            raise ValueError(f"{where}: a rule the empty string meets; _shape would hide what it refuses")
        if any(k in schema for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
                                     "minItems", "maxItems", "uniqueItems", "contains")) or any(
                type(v) in (int, float) or (type(v) is str and v.isdecimal()) for v in schema.get("enum", ())):
            raise ValueError(f"{where}: a rule on a number's value or a list's length; _shape would hide it")
        if schema.get("pattern", INT64_PATTERN) != INT64_PATTERN or any(
                type(v) is str and v.startswith("#") for v in schema.get("enum", ())):
            raise ValueError(f"{where}: a pattern, or an enum value, _shape does not know")
        for name, sub in schema.get("properties", {}).items():
            walk(sub, f"{where}.{name}")
        for key in ("items", "additionalProperties"):
            if isinstance(schema.get(key), dict):
                walk(schema[key], f"{where}[{key}]")

    for name, schema in defs.items():
        walk(schema, name)


def _distinct_items(instance: Any) -> Any:
    """``instance`` with each list cut to its distinct items, in order: the discovery documents set no rule on a list
    as a whole (no ``minItems``, no ``uniqueItems``), so it validates as the whole does, and a grid's 20,000 row
    metadata of one kind are checked once, not 20,000 times (an item's place in an error is its place here)."""
    if isinstance(instance, dict):
        return {k: _distinct_items(v) for k, v in instance.items()}
    if isinstance(instance, list):
        seen: dict[str, Any] = {}
        for item in instance:
            seen.setdefault(json.dumps(item, sort_keys=True, default=str), item)
        return [_distinct_items(item) for item in seen.values()]
    return instance


def col_letters(index: int) -> str:
    """``0`` -> ``A``, ``26`` -> ``AA``."""
    out = ""
    n = index + 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


def _col_index(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n - 1


def _quote(title: str) -> str:
    return title if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", title) else "'" + title.replace("'", "''") + "'"


@dataclass
class FakeSheet:
    """One tab: SheetProperties as JSON, cells as CellData JSON, protections, column sizes.

    A cell's CellData, a column's and a row's DimensionProperties are never changed in place once stored: an edit
    stores a new one (:func:`_stored_cell`). So the fake's staged copy of a spreadsheet (all or nothing) and its
    snapshots share them with the spreadsheet, and the cells one request formats alike share one CellData."""

    properties: dict[str, Any]
    cells: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    protected_ranges: list[dict[str, Any]] = field(default_factory=list)
    conditional_formats: list[dict[str, Any]] = field(default_factory=list)  # ConditionalFormatRule JSON, in order
    columns: dict[int, dict[str, Any]] = field(default_factory=dict)
    rows_meta: dict[int, dict[str, Any]] = field(default_factory=dict)

    @property
    def title(self) -> str:
        """The tab's name."""
        return str(self.properties["title"])

    @property
    def sheet_id(self) -> int:
        """The tab's sheetId."""
        return int(self.properties["sheetId"])

    @property
    def row_count(self) -> int:
        """Rows in the grid."""
        return int(self.properties["gridProperties"]["rowCount"])

    @property
    def column_count(self) -> int:
        """Columns in the grid."""
        return int(self.properties["gridProperties"]["columnCount"])

    def value(self, row: int, col: int) -> CellValue:
        """The value in a cell as FORMULA rendering gives it (None when empty)."""
        ev = self.cells.get((row, col), {}).get("userEnteredValue")
        return _render(ev, "FORMULA")

    def is_formula(self, row: int, col: int) -> bool:
        """Whether the cell holds a formula (as opposed to text that starts with '=')."""
        return "formulaValue" in self.cells.get((row, col), {}).get("userEnteredValue", {})

    def trim(self) -> None:
        """Drop cells outside the grid (after a shrink)."""
        rows, cols = self.row_count, self.column_count
        self.cells = {k: v for k, v in self.cells.items() if k[0] < rows and k[1] < cols}


@dataclass(frozen=True)
class DriveEdit:
    """One edit of a file as Drive's change log lists it: which file, when, by which account, and ``order``, its
    place among all edits as they were made (a test's clock may give two edits the same moment)."""

    key: str
    moment: datetime
    by: str
    order: int = 0
    version: int = 0  # the file's Drive version after this edit


def keep_latest(latest: dict[str, DriveEdit], edits: Iterable[DriveEdit]) -> dict[str, DriveEdit]:
    """``latest`` (each file's latest edit so far) brought up to date with ``edits``, as made (not as listed: an
    edit Drive lists late does not undo a later one it listed already); returned too."""
    for edit in edits:
        known = latest.get(edit.key)
        if known is None or (edit.moment, edit.order) > (known.moment, known.order):
            latest[edit.key] = edit
    return latest


@dataclass
class FakeSpreadsheet:
    """One spreadsheet: properties, tabs in order, Drive permissions, whether we may open it."""

    key: str
    properties: dict[str, Any]
    sheets: list[FakeSheet]
    permissions: list[dict[str, Any]] = field(default_factory=list)
    writers_can_share: bool = True  # Drive's default: an editor may share the file on
    shared: bool = True
    modified_time: datetime | None = None  # the time of the last edit through any route
    # Drive's ``version``: "a monotonically increasing version number for the file", raised by every change
    # whoever makes it; Drive does not promise steps of one, so each edit raises it by a few.
    version: int = 1
    modified_by: str = ""  # the account of the last edit through any route
    drive_id: str = ""  # "" in the owner's My Drive, else the id of the shared drive that holds it
    # Drive's side of the file: its folders, the private properties the app that made it set (``appProperties``),
    # whether it is in the trash, and when it was made (its order).
    parents: list[str] = field(default_factory=list)
    app_properties: dict[str, str] = field(default_factory=dict)
    trashed: bool = False
    created: int = 0
    # The account that owns the file in a My Drive ("": the GM, ``GoogleApiFake.user_email``, who made it by hand);
    # files.create makes the caller its owner. A shared drive's files have none (the drive owns them).
    owner: str = ""
    # Made by sheets-gm (files.create): what a token of the ``drive.file`` scope reaches; one a test makes is the
    # GM's, made in Drive by hand.
    by_app: bool = False
    # The accounts the file is shared with, where a test says so (e-mails, lower case): another account's request
    # finds it as an unshared file (Drive: not found; Sheets: no permission), and its change log and file index
    # leave it out, as Google's do. None (the fake's usual model): every account that may open files opens it.
    readers: frozenset[str] | None = None

    def sheet(self, title: str) -> FakeSheet:
        """The tab called ``title`` (KeyError if none)."""
        for s in self.sheets:
            if s.title == title:
                return s
        raise KeyError(title)

    def by_id(self, sheet_id: int) -> FakeSheet | None:
        """The tab with ``sheet_id``, if any."""
        for s in self.sheets:
            if s.sheet_id == sheet_id:
                return s
        return None

    def renumber(self) -> None:
        """Keep each tab's ``index`` equal to its position."""
        for i, s in enumerate(self.sheets):
            s.properties["index"] = i


@dataclass
class FakeFolder:
    """A Drive folder: in a My Drive (``drive_id`` "") or a shared drive; whether the caller sees it (``shared``)
    and may add files to it (``writable``: an Editor, or a Content manager of a shared drive), and whether it is in
    the trash."""

    id: str
    name: str
    drive_id: str = ""
    shared: bool = True
    writable: bool = True
    trashed: bool = False


_T = TypeVar("_T")


def copied(value: _T) -> _T:
    """A deep copy of the fake's state (JSON: dicts, lists and plain values; the fake's own dataclasses), made by
    hand: ``copy.deepcopy`` spent most of a match's ``init`` in its memo (the fake stages every write on a copy, and
    copies a cell's format into each cell a repeatCell reaches). What is neither goes to ``copy.deepcopy``."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    found: Any = value
    if kind is dict:
        return cast(_T, {k: copied(v) for k, v in found.items()})
    if kind is list:
        return cast(_T, [copied(v) for v in found])
    if kind is tuple:
        return cast(_T, tuple(copied(v) for v in found))
    if kind is FakeSheet:  # the values of its cells and dimensions are never changed in place: shared
        return kind(**{f.name: dict(getattr(found, f.name)) if f.name in _SHARED_VALUES
                       else copied(getattr(found, f.name)) for f in dataclass_fields(found)})
    if kind is FakeSpreadsheet:
        return kind(**{f.name: copied(getattr(found, f.name)) for f in dataclass_fields(found)})
    if kind in _RECORDS:  # records of what happened, never changed: a snapshot's call log is shared, not copied
        return value
    return copy.deepcopy(value)


_PLAIN = frozenset({str, int, float, bool, type(None), datetime, timedelta})
#: The maps of a :class:`FakeSheet` whose values are never changed in place (see there).
_SHARED_VALUES = frozenset({"cells", "columns", "rows_meta"})


#: What an empty cell (or dimension) holds: one object, so the cells one request makes from empty ones are one.
_NO_CELL: Mapping[str, Any] = {}


def _stored_cell(old: Mapping[str, Any], source: Mapping[str, Any], mask: _Mask) -> dict[str, Any]:
    """A new CellData (or DimensionProperties): ``old`` with the field mask ``mask`` of ``source`` applied;
    ``old`` is left as it was (it may be shared: see :class:`FakeSheet`)."""
    out = dict(old)
    if mask.sets_value:
        out.pop("textFormatRuns", None)  # "When writing a new user_entered_value, previous runs are erased"
    _apply_mask(out, source, mask, share=True)
    return out

def _render(ev: Mapping[str, Any] | None, how: str) -> CellValue:
    if not ev:
        return None
    if "formulaValue" in ev:
        return str(ev["formulaValue"])  # the fake does not evaluate formulas
    if "stringValue" in ev:
        return str(ev["stringValue"])
    if "boolValue" in ev:
        b = bool(ev["boolValue"])
        return ("TRUE" if b else "FALSE") if how == "FORMATTED_VALUE" else b
    if "numberValue" in ev:
        n = float(ev["numberValue"])
        num: int | float = int(n) if n.is_integer() and abs(n) < 2**53 else n
        return str(num) if how == "FORMATTED_VALUE" else num
    return None


def _parse_user_entered(value: str | int | float | bool) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int | float):
        return {"numberValue": value}
    if value.startswith("="):
        return {"formulaValue": value}
    if value.startswith("'"):
        return {"stringValue": value[1:]}
    if value.upper() in ("TRUE", "FALSE"):
        return {"boolValue": value.upper() == "TRUE"}
    try:
        return {"numberValue": float(value.replace(",", ""))} if value.strip() else {}
    except ValueError:
        return {"stringValue": value}


#: Google refuses a cell of more characters than this.
MAX_CELL_CHARS = 50_000


def _check_cell_size(ev: Mapping[str, Any]) -> None:
    for v in ev.values():
        if isinstance(v, str) and len(v) > MAX_CELL_CHARS:
            raise HttpError(
                400, f"Your input contains more than the maximum of {MAX_CELL_CHARS} characters in a single cell."
            )


def _raw_value(value: str | int | float | bool) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int | float):
        return {"numberValue": value}
    return {"stringValue": value} if value != "" else {}


@dataclass
class Rect:
    """A resolved A1 range: tab and 0-based half-open bounds (None = to the grid's edge)."""

    sheet: FakeSheet
    r0: int
    c0: int
    r1: int | None
    c1: int | None
    anchor_only: bool  # a single cell or a whole tab: writes may spill past it

    def bounded(self) -> tuple[int, int, int, int]:
        """Bounds with the open ends closed at the grid's edge."""
        r1 = self.sheet.row_count if self.r1 is None else self.r1
        c1 = self.sheet.column_count if self.c1 is None else self.c1
        return self.r0, self.c0, r1, c1

    def a1(self) -> str:
        """The normalised A1 text Google echoes back."""
        r0, c0, r1, c1 = self.bounded()
        start = f"{col_letters(c0)}{r0 + 1}"
        end = f"{col_letters(c1 - 1)}{r1}"
        return f"{_quote(self.sheet.title)}!{start}" + ("" if start == end else f":{end}")


_A1_CELLS = re.compile(r"^\$?([A-Za-z]{1,3})?\$?(\d+)?(?::\$?([A-Za-z]{1,3})?\$?(\d+)?)?$")


def parse_a1(ss: FakeSpreadsheet, text: str) -> Rect:
    """Resolve an A1 range as Google does (a bare name that is a tab means the whole tab)."""
    bad = HttpError(400, f"Unable to parse range: {text}")
    if text.startswith("'"):
        end = 1
        while True:
            end = text.find("'", end)
            if end < 0:
                raise bad
            if text[end : end + 2] == "''":
                end += 2
                continue
            break
        title, rest = text[1:end].replace("''", "'"), text[end + 1 :]
        if rest and not rest.startswith("!"):
            raise bad
        cells = rest[1:]
    elif "!" in text:
        title, _, cells = text.partition("!")
    elif any(s.title == text for s in ss.sheets):
        title, cells = text, ""
    else:
        title, cells = ss.sheets[0].title, text
    try:
        sheet = ss.sheet(title)
    except KeyError:
        raise bad from None
    if not cells:
        return Rect(sheet, 0, 0, None, None, anchor_only=True)
    m = _A1_CELLS.match(cells)
    if not m or not (m.group(1) or m.group(2)):
        raise bad
    c1s, r1s, c2s, r2s = m.groups()
    single = c2s is None and r2s is None and ":" not in cells
    if single and not (c1s and r1s):
        raise bad
    r0 = int(r1s) - 1 if r1s else 0
    c0 = _col_index(c1s) if c1s else 0
    if single:
        rect = Rect(sheet, r0, c0, r0 + 1, c0 + 1, anchor_only=True)
    else:
        rect = Rect(
            sheet,
            r0,
            c0,
            int(r2s) if r2s else None,
            _col_index(c2s) + 1 if c2s else None,
            anchor_only=False,
        )
    if r0 < 0 or (rect.r1 is not None and rect.r1 <= r0) or (rect.c1 is not None and rect.c1 <= c0):
        raise bad
    _check_grid(rect, text)
    return rect


def _check_grid(rect: Rect, text: str) -> None:
    s = rect.sheet
    over = rect.r0 >= s.row_count or rect.c0 >= s.column_count
    over = over or (rect.r1 is not None and rect.r1 > s.row_count) or (rect.c1 is not None and rect.c1 > s.column_count)
    if over:
        raise HttpError(
            400,
            f"Range ({text}) exceeds grid limits. Max rows: {s.row_count}, max columns: {s.column_count}",
        )


class _StagedCells:
    """A tab's cells as a values.batchUpdate writes them, all or nothing: the cells written so far (looked up before
    the tab's), put in the tab in the order written once every range is written (so the tab ends as if each had
    been put at once; a tab's 20,000 cells are not copied for the few a write sets)."""

    def __init__(self, sheet: FakeSheet) -> None:
        self.sheet = sheet
        self.written: dict[tuple[int, int], dict[str, Any] | None] = {}  # None: emptied
        self.order: list[tuple[tuple[int, int], dict[str, Any] | None]] = []

    def get(self, pos: tuple[int, int]) -> dict[str, Any] | None:
        """The cell at ``pos`` as written so far."""
        return self.written[pos] if pos in self.written else self.sheet.cells.get(pos)

    def put(self, pos: tuple[int, int], cell: dict[str, Any] | None) -> None:
        """``cell`` written at ``pos`` (None: the cell emptied)."""
        self.written[pos] = cell
        self.order.append((pos, cell))

    def commit(self) -> None:
        """Every cell written put in the tab."""
        cells = self.sheet.cells
        for pos, cell in self.order:
            if cell is None:
                cells.pop(pos, None)
            else:
                cells[pos] = cell


def _check_row_fits(rect: Rect, text: str, r: int, width: int) -> None:
    """Refuse, as Google does, a row of ``width`` values written at row ``r`` from ``rect`` (the range ``text``) that
    goes past the range (unless it is a single cell or a whole tab) or past the grid: the first cell that does, in
    the order Google checks them."""
    sheet = rect.sheet
    if not rect.anchor_only and rect.r1 is not None and r >= rect.r1:
        raise HttpError(400, f"Requested writing within range [{text}], but tried writing to row [{r + 1}]")
    past_range = rect.c1 - rect.c0 if not rect.anchor_only and rect.c1 is not None else width
    past_grid = 0 if r >= sheet.row_count else sheet.column_count - rect.c0
    if past_range < width and past_range <= past_grid:
        raise HttpError(400, f"Requested writing within range [{text}], but tried writing to column "
                             f"[{col_letters(rect.c0 + past_range)}]")
    if past_grid < width:
        raise HttpError(400, f"Range ({text}) exceeds grid limits. Max rows: {sheet.row_count}, "
                             f"max columns: {sheet.column_count}")


def _trim(rows: list[list[CellValue]]) -> list[list[Any]]:
    out: list[list[Any]] = []
    for row in rows:
        cells = ["" if v is None else v for v in row]
        while cells and cells[-1] == "":
            cells.pop()
        out.append(cells)
    while out and not out[-1]:
        out.pop()
    return out


def _shown_values(sheet: FakeSheet, render: str) -> dict[tuple[int, int], CellValue]:
    """The cells of a tab that show something (a value that renders to neither nothing nor ``""``), rendered: a
    read builds its grid from these, not from every cell of a range (a Log's 20,000 rows are mostly empty)."""
    out: dict[tuple[int, int], CellValue] = {}
    for pos, cell in sheet.cells.items():
        entered = cell.get("userEnteredValue")
        if not entered:
            continue
        text = entered.get("stringValue")  # text, most cells' value: an ExtendedValue holds one value alone
        value = _render(entered, render) if text is None else str(text)
        if value is not None and value != "":
            out[pos] = value
    return out


def _values_grid(shown: Mapping[tuple[int, int], CellValue], r0: int, c0: int, r1: int,
                 c1: int) -> list[list[CellValue]]:
    """The values of rows ``r0:r1`` and columns ``c0:c1`` as a grid, cut after the last row and column that show
    something (what :func:`_trim` would cut anyway: every cell past them is empty)."""
    inside = [(r, c, v) for (r, c), v in shown.items() if r0 <= r < r1 and c0 <= c < c1]
    rows = max((r for r, _c, _v in inside), default=r0 - 1) + 1 - r0
    cols = max((c for _r, c, _v in inside), default=c0 - 1) + 1 - c0
    grid: list[list[CellValue]] = [[None] * cols for _ in range(rows)]
    for r, c, v in inside:
        grid[r - r0][c - c0] = v
    return grid


#: A spreadsheet's default cell format, as Google gives it in a cell's ``effectiveFormat`` (a Color leaves its zero
#: components out: black is ``{}``).
DEFAULT_FORMAT: dict[str, Any] = {
    "backgroundColor": {"red": 1, "green": 1, "blue": 1},
    "backgroundColorStyle": {"rgbColor": {"red": 1, "green": 1, "blue": 1}},
    "padding": {"top": 2, "right": 3, "bottom": 2, "left": 3},
    "verticalAlignment": "BOTTOM",
    "wrapStrategy": "OVERFLOW_CELL",
    "textFormat": {"foregroundColor": {}, "foregroundColorStyle": {"rgbColor": {}}, "fontFamily": "arial",
                   "fontSize": 10, "bold": False, "italic": False, "strikethrough": False, "underline": False},
    "hyperlinkDisplayType": "PLAIN_TEXT",
}
#: Colours Google keeps twice in a format, the plain Color and its ColorStyle: setting either sets both.
_COLOUR_PAIRS = (("backgroundColor", "backgroundColorStyle"), ("foregroundColor", "foregroundColorStyle"))


def _merged(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """``over`` laid over ``base`` key by key (objects merged, each colour with its ColorStyle twin): a new object,
    which shares what it keeps of ``base`` (the fake changes no stored format in place: see :class:`FakeSheet`)."""
    out = dict(base)
    for plain, style in _COLOUR_PAIRS:
        if plain in over and style not in over:
            over = {**over, style: {"rgbColor": over[plain]}}
        elif style in over and plain not in over and "rgbColor" in over[style]:
            over = {**over, plain: over[style]["rgbColor"]}
        if plain in over:
            out.pop(plain, None)
            out.pop(style, None)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping) and key not in dict(_COLOUR_PAIRS).values():
            out[key] = _merged(out[key], value)
        else:
            out[key] = copied(value)
    return out


def _condition_holds(condition: Mapping[str, Any], value: CellValue) -> bool:
    """Whether a conditional format's BooleanCondition holds for a cell's value (the text conditions the layouts
    use; any other type never holds here)."""
    wanted = [str(v.get("userEnteredValue", "")) for v in condition.get("values", [])]
    text = "" if value is None else str(value)
    kind = condition.get("type")
    if kind == "TEXT_STARTS_WITH":
        return text.lower().startswith(wanted[0].lower())
    if kind == "TEXT_ENDS_WITH":
        return text.lower().endswith(wanted[0].lower())
    if kind == "TEXT_CONTAINS":
        return wanted[0].lower() in text.lower()
    if kind == "TEXT_NOT_CONTAINS":
        return wanted[0].lower() not in text.lower()
    if kind == "TEXT_EQ":
        return text.lower() == wanted[0].lower()
    if kind == "NOT_BLANK":
        return text != ""
    if kind == "BLANK":
        return text == ""
    return False


class _EffectiveFormats:
    """The ``effectiveFormat`` of a tab's cells as Google computes it, for one answer: the default format, the cell's
    own over it, and the format of the first conditional format rule over the cell whose condition holds over that;
    made once for each format a cell has and rule that holds (the cells of a layout share a few formats), and
    shared by the cells alike (an answer is written out, never changed)."""

    def __init__(self, sheet: FakeSheet) -> None:
        rows, cols = sheet.row_count, sheet.column_count
        self.sheet = sheet
        self.rules = [([(int(g.get("startRowIndex", 0)), int(g.get("endRowIndex", rows)),
                         int(g.get("startColumnIndex", 0)), int(g.get("endColumnIndex", cols)))
                        for g in rule.get("ranges", [])], rule.get("booleanRule", {}))
                      for rule in sheet.conditional_formats]
        self.made: dict[tuple[int, int], tuple[Any, dict[str, Any]]] = {}  # (own format's id, rule): (it, made)

    def of(self, r: int, c: int, stored: Mapping[str, Any]) -> dict[str, Any]:
        """The effective format of the cell at ``r, c`` holding ``stored``."""
        own = stored.get("userEnteredFormat", _NO_CELL)
        holds = -1
        if self.rules:
            value = _render(stored.get("userEnteredValue"), "FORMULA")
            for i, (bounds, boolean) in enumerate(self.rules):
                if any(r0 <= r < r1 and c0 <= c < c1 for r0, r1, c0, c1 in bounds) and _condition_holds(
                        boolean.get("condition", {}), value):
                    holds = i
                    break
        known = self.made.get((id(own), holds))
        if known is None:
            fmt = _merged(DEFAULT_FORMAT, own)
            if holds >= 0:
                fmt = _merged(fmt, self.rules[holds][1].get("format", {}))
            known = self.made[(id(own), holds)] = (own, fmt)
        return known[1]


def effective_format(sheet: FakeSheet, r: int, c: int) -> dict[str, Any]:
    """A cell's ``effectiveFormat`` as Google computes it (see :class:`_EffectiveFormats`)."""
    return _EffectiveFormats(sheet).of(r, c, sheet.cells.get((r, c), _NO_CELL))


def _cell_data(stored: Mapping[str, Any], effective: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A cell's CellData as Google answers it: what was entered, its format and note, and what it shows: the
    effective value and formatted value (not for a formula: the fake does not evaluate), the effective format
    (``effective``: :func:`effective_format`; without, the cell's own format)."""
    out = dict(stored)  # an answer is written out, never changed: it may share what the cell holds
    entered = out.get("userEnteredValue")
    if entered and "numberValue" in entered:
        entered = out["userEnteredValue"] = {**entered, "numberValue": _render(entered, "FORMULA")}  # 5, not 5.0
    if entered and "formulaValue" not in entered:
        out["effectiveValue"] = entered
        out["formattedValue"] = _render(entered, "FORMATTED_VALUE")
    if effective is not None:
        out["effectiveFormat"] = effective
    elif "userEnteredFormat" in out:
        out["effectiveFormat"] = out["userEnteredFormat"]
    return out


def _grid_data(rect: Rect, *, metadata: bool = False) -> dict[str, Any]:
    """The GridData of one range as Google answers it: rows from the range's first one down to the last that has a
    cell with anything (a value, a format, a note), each row's cells up to its last such cell, ``{}`` for an empty
    cell or row; ``startRow``/``startColumn`` left out when 0, as proto3 JSON leaves a default out. With
    ``metadata``, each cell's effective format and every row's and column's DimensionProperties of the range (its
    pixel size, and ``hiddenByUser`` when hidden). Cells that hold one CellData and show one format are one answer
    (made once: a layout's formatted empty cells are most of a grid)."""
    r0, c0, r1, c1 = rect.bounded()
    sheet = rect.sheet
    stored = sheet.cells
    filled = {(r, c): cell for (r, c), cell in stored.items() if r0 <= r < r1 and c0 <= c < c1}
    ends: dict[int, int] = {}  # each row's end: its last filled cell's column + 1 (one pass, not one a row)
    for r, c in filled:
        ends[r] = max(ends.get(r, c0), c + 1)
    formats = _EffectiveFormats(sheet) if metadata else None
    made: dict[tuple[int, int], tuple[Any, dict[str, Any]]] = {}  # (CellData's id, format's id): (it, answer)

    def answer(r: int, c: int, cell: Mapping[str, Any]) -> dict[str, Any]:
        effective = formats.of(r, c, cell) if formats is not None else None
        known = made.get((id(cell), id(effective)))
        if known is None:
            known = made[(id(cell), id(effective))] = (cell, _cell_data(cell, effective))
        return known[1]

    rows: list[dict[str, Any]] = []
    for r in range(r0, max(ends, default=r0 - 1) + 1):
        cells = [answer(r, c, filled[(r, c)]) if (r, c) in filled else {} for c in range(c0, ends.get(r, c0))]
        rows.append({"values": cells} if cells else {})
    data: dict[str, Any] = {"startRow": r0, "startColumn": c0, "rowData": rows}
    if metadata:
        data["rowMetadata"] = _dimension_metadata(sheet.rows_meta, r0, r1, 21)
        data["columnMetadata"] = _dimension_metadata(sheet.columns, c0, c1, 100)
    return {k: v for k, v in data.items() if v}


def _dimension_metadata(stored: Mapping[int, Mapping[str, Any]], start: int, end: int,
                        pixels: int) -> list[dict[str, Any]]:
    """The DimensionProperties of rows (or columns) ``start:end`` as Google answers them (``pixels`` their size
    unless set): one object for the dimensions that share one (an answer is written out, never changed), so a
    Log's 20,000 rows are 20,000 references to a few, each checked once."""
    plain = {"pixelSize": pixels}
    out = [plain] * (end - start)
    made: dict[int, dict[str, Any]] = {id(_NO_CELL): plain}
    for index, own in stored.items():
        if start <= index < end:
            answer = made.get(id(own))
            if answer is None:
                answer = made[id(own)] = {"pixelSize": pixels, **own}
            out[index - start] = answer
    return out


@dataclass(frozen=True)
class _Mask:
    """A field mask as :func:`_apply_mask` applies it: ``*`` (the whole object), or each path as the keys on its way
    and its leaf; whether it writes a cell's value (which erases the cell's text runs)."""

    whole: bool
    paths: tuple[tuple[tuple[str, ...], str], ...]
    sets_value: bool


@functools.cache
def _mask(paths: tuple[str, ...]) -> _Mask:
    """The field mask ``paths``, split once a process (a request's mask is applied to each cell it writes)."""
    split = tuple(path.split(".") for path in paths)
    return _Mask(list(paths) == ["*"], tuple((tuple(keys[:-1]), keys[-1]) for keys in split),
                 any(keys[0] == "userEnteredValue" for keys in split))


#: The mask of a setDataValidation's cells.
_DATA_VALIDATION = _mask(("dataValidation",))


def _apply_mask(target: dict[str, Any], source: Mapping[str, Any], paths: Sequence[str] | _Mask, *,
                share: bool = False) -> None:
    """Field-mask update: each path is copied from ``source``, or cleared if ``source`` lacks it. The objects on a
    path's way in ``target`` are replaced by changed copies, never changed (``target`` may share them); ``share``:
    what a path names is taken from ``source`` as it is, not copied (a cell's CellData: never changed in place, see
    :class:`FakeSheet`, so a cell may share its format with the request that set it and the cells it set alike)."""
    mask = paths if isinstance(paths, _Mask) else _mask(tuple(paths))
    if mask.whole:
        target.clear()
        target.update(dict(source) if share else copied(dict(source)))
        return
    for way, leaf in mask.paths:
        if not way:  # a field of the object itself (most masks' every path)
            if leaf in source:
                target[leaf] = source[leaf] if share else copied(source[leaf])
            else:
                target.pop(leaf, None)
            continue
        src: Any = source
        for k in way:
            src = src.get(k) if isinstance(src, Mapping) else None
        tgt = target
        for k in way:
            inner = dict(tgt.get(k, {}))
            tgt[k] = inner
            tgt = inner
        if isinstance(src, Mapping) and leaf in src:
            tgt[leaf] = src[leaf] if share else copied(src[leaf])
        else:
            tgt.pop(leaf, None)
    if {} in target.values():  # drop objects the mask left empty
        for k in [k for k, v in target.items() if v == {}]:
            del target[k]


# --------------------------------------------------------------------------- faults and stats


class FaultKind(enum.Enum):
    """What a faulty call does."""

    RATE_LIMIT_JSON = "429-json"
    RATE_LIMIT_HTML = "429-html"
    REQUEST_TIMEOUT = "408"
    INTERNAL = "500"
    UNAVAILABLE = "503"
    CONNECTION_RESET = "reset"
    NAME_NOT_RESOLVED = "dns"  # no answer at all: the machine cannot resolve Google's name (no network, no DNS)


#: Every kind, for parametrised tests.
ALL_FAULTS = tuple(FaultKind)


@dataclass
class Fault:
    """A fault due at the ``at``-th matching call from its injection, ``times`` times in a row
    (None: forever). ``after_apply`` applies the request before failing (the write landed,
    the answer was lost)."""

    kind: FaultKind
    at: int = 1
    endpoint: str | None = None
    times: int | None = 1
    retry_after: float | None = None
    after_apply: bool = False
    seen: int = 0
    fired: int = 0

    def due(self, endpoint: str) -> bool:
        """Count this call; whether the fault strikes it."""
        if self.endpoint is not None and self.endpoint != endpoint:
            return False
        self.seen += 1
        if self.seen < self.at or (self.times is not None and self.fired >= self.times):
            return False
        self.fired += 1
        return True


@dataclass
class EndpointStats:
    """Calls and bytes one endpoint saw (faulted calls included)."""

    calls: int = 0
    request_bytes: int = 0
    response_bytes: int = 0
    faults: int = 0


@dataclass(frozen=True)
class RecordedCall:
    """One request the fake answered."""

    endpoint: str
    http_method: str
    url: str
    query: dict[str, list[str]]
    body: Any
    status: int | None  # None: the connection was reset
    caller: str = ""  # the account the request was signed in as ('' for a faulted call)


#: The fake's frozen records (a call it answered, an edit Drive lists): :func:`copied` shares them.
_RECORDS: frozenset[type] = frozenset({RecordedCall, DriveEdit})

_HTML_429 = (
    "<!DOCTYPE html><html lang=en><meta charset=utf-8><title>Error 429 (Too Many Requests)!!1</title>"
    "<p><b>429.</b> <ins>That's an error.</ins><p>We're sorry, but you have sent too many requests to us "
    "recently. Please try again later. <ins>That's all we know.</ins></html>"
)
_HTML_408 = "<html><head><title>408 Request Timeout</title></head><body><h1>Request Timeout</h1></body></html>"


class _NoProxyForGoogle:
    """``no_proxy`` naming Google's hosts while a fake runs (the first fake to start sets it, the last to stop puts
    back what was there), so that requests, asked for one of them, knows at once it goes through no proxy: else each
    request walks the whole environment twice to look for one (``get_environ_proxies``), a tenth of the CPU of a
    request to the fake in a test process's environment. Nothing reaches a proxy either way: ``responses`` answers
    every request before a connection is made."""

    HOSTS = "googleapis.com"

    def __init__(self) -> None:
        self.running = 0
        self.before: str | None = None

    def enter(self) -> None:
        """A fake starts."""
        self.running += 1
        if self.running == 1:
            self.before = os.environ.get("no_proxy")
            given = self.before or os.environ.get("NO_PROXY")  # requests reads the lower case first, if not empty
            os.environ["no_proxy"] = f"{given},{self.HOSTS}" if given else self.HOSTS

    def leave(self) -> None:
        """A fake stops."""
        self.running -= 1
        if self.running == 0:
            if self.before is None:
                os.environ.pop("no_proxy", None)
            else:
                os.environ["no_proxy"] = self.before


_NO_PROXY = _NoProxyForGoogle()


# --------------------------------------------------------------------------- the fake


class GoogleApiFake:
    """The fake Google: start it (``with GoogleApiFake() as fake``) and every HTTP request made
    through ``requests`` lands here; nothing reaches the network."""

    def __init__(self) -> None:
        self.sheets_api = _discovery("sheets.v4.json")
        self.drive_api = _discovery("drive.v3.json")
        self.spreadsheets: dict[str, FakeSpreadsheet] = {}
        self.folders: dict[str, FakeFolder] = {}
        self.stats: dict[str, EndpointStats] = {}
        self.log: list[RecordedCall] = []
        self.faults: list[Fault] = []
        self.violations: list[str] = []
        self.tokens_issued = 0
        self.reject_tokens = False  # True: the token endpoint answers invalid_grant
        # Addresses with no Google account: Drive refuses to share with them quietly (no e-mail).
        self.no_google_account: set[str] = set()
        self._next_id = 1000
        self._mock: responses.RequestsMock | None = None
        self._signer_loader: Any = None  # google-auth's own key loader, while the fake puts its own in
        # Drive's clock and change log: every edit (a player's through set_values, ours through the API)
        # sets the file's modifiedTime to ``now`` and enters the change log ``drive_lag`` later, as Drive's
        # listing trails its edits. ``now`` None: the real clock.
        self.now: datetime | None = None
        self.drive_lag = timedelta(0)
        # Who edits: a player typing (``set_values``) is ``player_email`` unless told otherwise; an API call is the
        # account its access token was issued to (a service account by its key's e-mail, a user token as
        # ``user_email``). Drive lists each edit with its author.
        self.player_email = "player@example.com"
        self.user_email = "gm@example.com"
        self._accounts: dict[str, str] = {}  # access token -> the service account it was issued to
        # The user each refresh token stands for (many GMs' own sign-ins on one fake); one not named: ``user_email``.
        self.users: dict[str, str] = {}
        self._user_tokens: dict[str, str] = {}  # access token -> the user of the refresh token it was issued for
        # Refresh tokens Google refuses (the GM revoked the sign-in, or it expired): the token endpoint answers
        # invalid_grant, and an access token issued for one is refused (401) as Google refuses it once revoked.
        self.revoked: set[str] = set()
        self._refreshed_from: dict[str, str] = {}  # access token -> the refresh token it was issued for
        self._granted: frozenset[str] | None = None  # the scopes of the request being served (None: not recorded)
        self._calling = ""  # the account of the request being served (``FakeSpreadsheet.readers``)
        self.scopes_granted: dict[str, frozenset[str]] = {}  # access token -> the scopes it was issued for
        self._drive_pending: list[tuple[datetime, DriveEdit]] = []  # (listed from, the edit)
        self._drive_log: list[DriveEdit] = []  # in the order Drive listed them
        self._drive_latest: dict[str, DriveEdit] = {}  # each file's latest edit listed so far (kept as edits are
        # listed: a question costs its page, not the whole log, as Google's does)
        self._edits_made = 0  # edits so far, as made (DriveEdit.order)
        # A player's edit that lands between a poll's read and its write: by spreadsheet key, run (once each) when
        # the next write request reaches that spreadsheet, before Google applies it (see ``save_before_write``).
        self._before_write: dict[str, list[Callable[[], None]]] = {}
        # Called as (key, account) after every edit: a test types "at the same moment" as a write this way.
        self.after_edit: list[Callable[[str, str], None]] = []

    # -- lifecycle -------------------------------------------------------------

    def start(self) -> None:
        """Intercept every request made through ``requests``."""
        mock = responses.RequestsMock(assert_all_requests_are_fired=False)
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"):
            mock.add_callback(method, re.compile(r".*"), callback=self._dispatch, content_type=None)
        mock.start()
        self._mock = mock
        _NO_PROXY.enter()
        self._signer_loader = _cryptography_rsa.RSASigner.__dict__["from_string"]
        _cryptography_rsa.RSASigner.from_string = classmethod(_signer_of_key)  # type: ignore[method-assign,assignment]

    def stop(self) -> None:
        """Stop intercepting."""
        if self._mock is not None:
            self._mock.stop()
            self._mock.reset()
            self._mock = None
            _NO_PROXY.leave()
            _cryptography_rsa.RSASigner.from_string = self._signer_loader  # type: ignore[method-assign]

    #: What :meth:`snapshot` leaves out: the discovery documents (shared, read-only), the interception and the hooks
    #: a test set (callables of that test).
    _NOT_STATE = frozenset({"sheets_api", "drive_api", "_mock", "_signer_loader", "_before_write", "after_edit"})

    def snapshot(self) -> dict[str, Any]:
        """A deep copy of everything Google holds (spreadsheets, Drive's clock and change log, tokens, accounting),
        for :meth:`restore` into another fake: a test that needs many matches made alike makes one once."""
        return copied({k: v for k, v in vars(self).items() if k not in self._NOT_STATE})

    def state_digest(self) -> str | None:
        """A digest of what :meth:`snapshot` would copy: two fakes with the same digest hold the same state. None
        while a test's hooks are set (``save_before_write``, ``after_edit``): they are no state one can compare."""
        if self._before_write or self.after_edit:
            return None
        state = {k: v for k, v in vars(self).items() if k not in self._NOT_STATE}
        return hashlib.sha256(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)).hexdigest()

    def restore(self, saved: Mapping[str, Any]) -> None:
        """Take the state of a :meth:`snapshot` (a copy of it: the snapshot stays as it was)."""
        for key, value in copied(dict(saved)).items():
            setattr(self, key, value)

    def __enter__(self) -> GoogleApiFake:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- setting up state -------------------------------------------------------

    def create_spreadsheet(
        self,
        key: str,
        title: str = "Untitled spreadsheet",
        tabs: Mapping[str, tuple[int, int]] | Sequence[str] = ("Sheet1",),
        *,
        shared: bool = True,
    ) -> FakeSpreadsheet:
        """A new spreadsheet; ``tabs`` maps names to (rows, cols) or lists names (1000 x 26)."""
        sizes = dict(tabs) if isinstance(tabs, Mapping) else {t: (1000, 26) for t in tabs}
        sheets = []
        for i, (name, (rows, cols)) in enumerate(sizes.items()):
            sid = 0 if i == 0 else self._new_id()
            sheets.append(FakeSheet(self._sheet_properties(sid, name, i, rows, cols)))
        ss = FakeSpreadsheet(
            key=key,
            properties={"title": title, "locale": "en_US", "autoRecalc": "ON_CHANGE", "timeZone": "Etc/GMT"},
            sheets=sheets,
            shared=shared,
        )
        self.spreadsheets[key] = ss
        return ss

    def create_folder(self, folder_id: str, name: str = "Matches", *, drive_id: str = "", shared: bool = True,
                      writable: bool = True) -> FakeFolder:
        """A Drive folder the caller sees (unless not ``shared``) and may add files to (unless not ``writable``), in
        the caller's My Drive, or in the shared drive ``drive_id``."""
        folder = FakeFolder(folder_id, name, drive_id, shared, writable)
        self.folders[folder_id] = folder
        return folder

    def trash(self, key: str) -> None:
        """Move a spreadsheet to the trash, as its owner would in Drive (Sheets still opens it; searches skip it)."""
        self.spreadsheets[key].trashed = True

    def set_shared(self, key: str, shared: bool) -> None:
        """Share or unshare a spreadsheet with the caller (unshared: 403 on Sheets, 404 on Drive)."""
        self.spreadsheets[key].shared = shared

    def set_values(self, key: str, a1: str, rows: Sequence[Sequence[CellValue]], *, user_entered: bool = True,
                   by: str | None = None) -> None:
        """Type values into cells as a player would (USER_ENTERED by default: '=' makes a formula); ``by`` is who
        types (default :attr:`player_email`)."""
        ss = self.spreadsheets[key]
        rect = parse_a1(ss, a1)
        self._edited(ss, self.player_email if by is None else by)
        for i, row in enumerate(rows):
            for j, v in enumerate(row):
                pos = (rect.r0 + i, rect.c0 + j)
                cell = {k: v for k, v in rect.sheet.cells.get(pos, {}).items()
                        if k not in ("userEnteredValue", "textFormatRuns")}  # (a new value erases the runs)
                if v is not None and v != "":
                    cell["userEnteredValue"] = _parse_user_entered(v) if user_entered else _raw_value(v)
                if cell:
                    rect.sheet.cells[pos] = cell
                else:
                    rect.sheet.cells.pop(pos, None)

    def rename_tab(self, key: str, title: str, new_title: str) -> None:
        """A player renaming tab ``title`` of spreadsheet ``key`` in Sheets' own window."""
        ss = self.spreadsheets[key]
        self._edited(ss, self.player_email)
        ss.sheet(title).properties["title"] = new_title

    def delete_tab(self, key: str, title: str) -> None:
        """A player deleting tab ``title`` of spreadsheet ``key`` in Sheets' own window."""
        ss = self.spreadsheets[key]
        self._edited(ss, self.player_email)
        ss.sheets.remove(ss.sheet(title))
        ss.renumber()

    def add_tab(self, key: str, title: str, rows: int = 1000, cols: int = 26) -> None:
        """A player adding a tab ``title`` (the last) to spreadsheet ``key`` in Sheets' own window."""
        ss = self.spreadsheets[key]
        self._edited(ss, self.player_email)
        ss.sheets.append(FakeSheet(self._sheet_properties(self._new_id(), title, len(ss.sheets), rows, cols)))

    def hide(self, key: str, title: str, *, rows: Sequence[int] = (), columns: Sequence[int] = (),
             tab: bool = False) -> None:
        """A player hiding rows or columns (0-based) of tab ``title``, or the tab itself, in Sheets' own window."""
        ss = self.spreadsheets[key]
        self._edited(ss, self.player_email)
        sheet = ss.sheet(title)
        for r in rows:
            sheet.rows_meta[r] = {**sheet.rows_meta.get(r, {}), "hiddenByUser": True}
        for c in columns:
            sheet.columns[c] = {**sheet.columns.get(c, {}), "hiddenByUser": True}
        if tab:
            sheet.properties["hidden"] = True

    def set_format(self, key: str, a1: str, fmt: Mapping[str, Any]) -> None:
        """A player giving the cells of ``a1`` the CellFormat ``fmt`` (its fields over theirs), in Sheets' own
        window."""
        ss = self.spreadsheets[key]
        self._edited(ss, self.player_email)
        rect = parse_a1(ss, a1)
        r0, c0, r1, c1 = rect.bounded()
        for r in range(r0, r1):
            for c in range(c0, c1):
                cell = rect.sheet.cells.get((r, c), {})
                merged = _merged(cell.get("userEnteredFormat", {}), fmt)
                rect.sheet.cells[(r, c)] = {**cell, "userEnteredFormat": merged}

    def strike_words(self, key: str, a1: str, spans: Sequence[tuple[int, int]]) -> None:
        """A player selecting words of cell ``a1``'s text and striking them through, in Sheets' own window: the
        cell's ``textFormatRuns`` as Google keeps them (a run from each span's start, in UTF-16 code units, struck,
        and one from its end keeping the cell's format; a run at 0 leaves its ``startIndex`` out, as proto3 JSON
        leaves a default out)."""
        ss = self.spreadsheets[key]
        self._edited(ss, self.player_email)
        rect = parse_a1(ss, a1)
        cell = rect.sheet.cells[(rect.r0, rect.c0)]
        text = str(cell["userEnteredValue"]["stringValue"])

        def unit(i: int) -> int:
            return len(text[:i].encode("utf-16-le")) // 2

        runs: list[dict[str, Any]] = [] if spans and spans[0][0] == 0 else [{"format": {}}]
        for start, end in spans:
            runs.append({"startIndex": unit(start), "format": {"strikethrough": True}} if start else
                        {"format": {"strikethrough": True}})
            if end < len(text):
                runs.append({"startIndex": unit(end), "format": {}})
        rect.sheet.cells[(rect.r0, rect.c0)] = {**cell, "textFormatRuns": runs}

    def add_conditional_format(self, key: str, a1: str, condition: Mapping[str, Any], fmt: Mapping[str, Any]) -> None:
        """A player adding a conditional format rule over ``a1`` (its BooleanCondition and CellFormat) in Sheets'
        own window, after the tab's others."""
        ss = self.spreadsheets[key]
        self._edited(ss, self.player_email)
        rect = parse_a1(ss, a1)
        r0, c0, r1, c1 = rect.bounded()
        grid = {"sheetId": rect.sheet.sheet_id, "startRowIndex": r0, "endRowIndex": r1, "startColumnIndex": c0,
                "endColumnIndex": c1}
        boolean: dict[str, Any] = {"condition": dict(condition), "format": dict(fmt)}
        self._check_conditional(boolean)
        rect.sheet.conditional_formats.append({"ranges": [grid], "booleanRule": boolean})

    def insert_column(self, key: str, title: str, at: int) -> None:
        """A player inserting an empty column before column ``at`` (0 is A) of tab ``title``, as Sheets does: the
        cells, column sizes, protected ranges and conditional formats right of it move one column right."""
        ss = self.spreadsheets[key]
        self._edited(ss, self.player_email)
        sheet = ss.sheet(title)
        sheet.cells = {(r, c + (c >= at)): v for (r, c), v in sheet.cells.items()}
        sheet.columns = {c + (c >= at): v for c, v in sheet.columns.items()}
        sheet.properties["gridProperties"]["columnCount"] = sheet.column_count + 1
        ranges = [p.get("range", {}) for p in sheet.protected_ranges]
        ranges += [grid for pr in sheet.protected_ranges for grid in pr.get("unprotectedRanges", [])]
        ranges += [r for rule in sheet.conditional_formats for r in rule.get("ranges", [])]
        for grid in ranges:
            for edge in ("startColumnIndex", "endColumnIndex"):
                if edge in grid and (grid[edge] > at or (edge == "startColumnIndex" and grid[edge] == at)):
                    grid[edge] += 1

    def save_before_write(self, key: str, a1: str, rows: Sequence[Sequence[CellValue]], *,
                          when: str | None = None) -> None:
        """A player typing ``rows`` at ``a1`` of spreadsheet ``key`` (as :meth:`set_values`) just as the next write
        request to the spreadsheet ``when`` (default: ``key``) arrives, after whatever was read: the edit lands
        first, then the write is applied."""
        self._before_write.setdefault(when or key, []).append(lambda: self.set_values(key, a1, rows))

    def _player_edits_before_write(self, key: str) -> None:
        for edit in self._before_write.pop(key, []):
            edit()

    def values(self, key: str, tab: str) -> list[list[Any]]:
        """A tab's values as FORMULA rendering gives them, trimmed like Google."""
        sheet = self.spreadsheets[key].sheet(tab)
        return _trim(_values_grid(_shown_values(sheet, "FORMULA"), 0, 0, sheet.row_count, sheet.column_count))

    def cell(self, key: str, tab: str, a1: str) -> dict[str, Any]:
        """A cell's CellData (userEnteredValue, userEnteredFormat, dataValidation): a copy."""
        rect = parse_a1(self.spreadsheets[key], f"{_quote(tab)}!{a1}")
        return copied(rect.sheet.cells.get((rect.r0, rect.c0), {}))

    # -- faults and accounting ----------------------------------------------------

    def clock(self) -> datetime:
        """Drive's time now (``now`` if a test set it, else the real clock)."""
        return self.now if self.now is not None else datetime.now(UTC)

    def _edited(self, ss: FakeSpreadsheet, by: str) -> None:
        """An edit of ``ss`` now by the account ``by``: its modifiedTime, and its entry in the change log once the
        lag has passed."""
        moment = self.clock()
        ss.modified_time = moment
        ss.modified_by = by
        self._edits_made += 1
        ss.version += 1 + self._edits_made % 3
        self._drive_pending.append((moment + self.drive_lag,
                                    DriveEdit(ss.key, moment, by, self._edits_made, ss.version)))
        for hook in list(self.after_edit):
            hook(ss.key, by)

    def _listed_changes(self) -> list[DriveEdit]:
        """The change log as Drive lists it now: the pending edits whose lag has passed join it, in that order."""
        now = self.clock()
        due = sorted((p for p in self._drive_pending if p[0] <= now), key=lambda p: p[0])
        self._drive_pending = [p for p in self._drive_pending if p[0] > now]
        self._drive_log += [edit for _, edit in due]
        keep_latest(self._drive_latest, (edit for _, edit in due))
        return self._drive_log

    def _caller(self, authorization: str) -> str:
        """The account a request's ``Authorization: Bearer`` token stands for."""
        token = authorization.removeprefix("Bearer ")
        return self._accounts.get(token) or self._user_tokens.get(token, self.user_email)

    def inject(
        self,
        kind: FaultKind,
        *,
        at: int = 1,
        endpoint: str | None = None,
        times: int | None = 1,
        retry_after: float | None = None,
        after_apply: bool = False,
    ) -> Fault:
        """Make the ``at``-th call from now (to ``endpoint``, or to any API endpoint) fail."""
        fault = Fault(kind, at, endpoint, times, retry_after, after_apply)
        self.faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        """Forget every pending fault."""
        self.faults.clear()

    def calls(self, endpoint: str | None = None) -> int:
        """Calls seen by one endpoint, or by every API endpoint (google-auth's own calls excluded)."""
        if endpoint is not None:
            return self.stats.get(endpoint, EndpointStats()).calls
        return sum(s.calls for name, s in self.stats.items() if name not in AUTH_ENDPOINTS)

    def byte_counts(self, endpoint: str | None = None) -> tuple[int, int]:
        """(request bytes, response bytes) for one endpoint or every API endpoint."""
        chosen = [s for n, s in self.stats.items() if (n == endpoint if endpoint else n not in AUTH_ENDPOINTS)]
        return sum(s.request_bytes for s in chosen), sum(s.response_bytes for s in chosen)

    def reset_counters(self) -> None:
        """Zero the statistics and the call log (state and faults stay)."""
        self.stats.clear()
        self.log.clear()

    # -- dispatch -------------------------------------------------------------------

    def _new_id(self) -> int:
        self._next_id += 7919
        return self._next_id

    @staticmethod
    def _sheet_properties(sid: int, title: str, index: int, rows: int, cols: int) -> dict[str, Any]:
        return {
            "sheetId": sid,
            "title": title,
            "index": index,
            "sheetType": "GRID",
            "gridProperties": {"rowCount": rows, "columnCount": cols},
        }

    def _dispatch(self, request: requests.PreparedRequest) -> tuple[int, dict[str, str], bytes] | Exception:
        try:
            return self._handle(request)
        except AssertionError as e:
            self.violations.append(str(e))
            raise

    def _handle(self, request: requests.PreparedRequest) -> tuple[int, dict[str, str], bytes] | Exception:
        url = request.url or ""
        http_method = (request.method or "GET").upper()
        raw_body = request.body or b""
        body_bytes = raw_body.encode("utf-8") if isinstance(raw_body, str) else bytes(raw_body)
        if url.split("?", 1)[0] == TOKEN_URL and http_method == "POST":
            return self._token(url, body_bytes)
        if _ALLOWED_LOCATIONS.match(url) and http_method == "GET":
            return self._allowed_locations(url)
        found = None
        api = None
        for api in (self.sheets_api, self.drive_api):
            found = api.match(http_method, url)
            if found:
                break
        if found is None or api is None:
            raise UnexpectedRequest(
                f"{http_method} {url}: not a Google endpoint the fake serves (tests have no network)"
            )
        method, path_params = found
        query = _query_of(urlsplit(url).query)
        body: Any = None
        if body_bytes:
            try:
                body = json.loads(body_bytes)
            except ValueError as e:
                raise SchemaViolation(f"{method.id}: the body is not JSON: {e}") from e
        stats = self.stats.setdefault(method.id, EndpointStats())
        stats.calls += 1
        stats.request_bytes += len(url.encode("utf-8")) + len(body_bytes)

        what = f"{http_method} {method.id}"
        api.validate_query(method, query, what)
        if method.request is not None:
            # Google reads a missing body as an empty message
            api.validate(method.request, {} if body is None else body, f"{what} request body", method.id)
        elif body is not None:
            raise SchemaViolation(f"{what}: this method takes no body")

        due = [f for f in self.faults if f.due(method.id)]  # every fault counts every call
        fault = due[0] if due else None
        if fault is not None and not fault.after_apply:
            return self._fault(fault, method.id, stats, http_method, url, query, body)

        auth = request.headers.get("Authorization", "")
        try:
            if not auth.startswith("Bearer ") or len(auth) <= len("Bearer "):
                raise HttpError(401, "Request is missing required authentication credential.", "UNAUTHENTICATED")
            if self._refreshed_from.get(auth.removeprefix("Bearer ")) in self.revoked:
                raise HttpError(401, "Request had invalid authentication credentials. Expected OAuth 2 access token, "
                                "login cookie or other valid authentication credential.", "UNAUTHENTICATED",
                                "authError")
            granted = self.scopes_granted.get(auth.removeprefix("Bearer "))
            if granted is not None and method.scopes and not granted & set(method.scopes):
                # What Google answers a token whose scopes do not reach the method (ACCESS_TOKEN_SCOPE_INSUFFICIENT).
                raise HttpError(403, "Request had insufficient authentication scopes.", "PERMISSION_DENIED",
                                "insufficientPermissions")
            self._granted, self._calling = granted, self._caller(auth)
            status, payload, headers, content = self._serve(api, method, path_params, query, body, self._calling)
        except HttpError as e:
            if fault is not None:  # nothing was applied: the fault answers
                return self._fault(fault, method.id, stats, http_method, url, query, body)
            status, headers = e.code, {"Content-Type": "application/json; charset=UTF-8"}
            content = json.dumps(_error_payload(api, e)).encode()
            payload = None
        if fault is not None:
            return self._fault(fault, method.id, stats, http_method, url, query, body)
        if payload is not None and method.response is not None:
            api.validate(method.response, payload, f"the fake's answer to {what}")
        stats.response_bytes += len(content)
        self.log.append(RecordedCall(method.id, http_method, url, query, body, status, self._caller(auth)))
        # Google dates every answer by its own clock (HTTP's Date header, to the second).
        moment = self.clock()
        return status, {**headers, "Date": _http_date(moment.replace(microsecond=0), moment.tzinfo)}, content

    def _fault(
        self,
        fault: Fault,
        endpoint: str,
        stats: EndpointStats,
        http_method: str,
        url: str,
        query: dict[str, list[str]],
        body: Any,
    ) -> tuple[int, dict[str, str], bytes] | Exception:
        stats.faults += 1
        headers: dict[str, str] = {}
        if fault.retry_after is not None:
            headers["Retry-After"] = f"{fault.retry_after:g}"
        kind = fault.kind
        if kind is FaultKind.CONNECTION_RESET:
            self.log.append(RecordedCall(endpoint, http_method, url, query, body, None))
            return requests.ConnectionError(
                ConnectionResetError(104, "Connection reset by peer"), request=None
            )
        if kind is FaultKind.NAME_NOT_RESOLVED:  # worded as requests words it, urllib3's cause inside
            self.log.append(RecordedCall(endpoint, http_method, url, query, body, None))
            host = urlsplit(url).hostname
            return requests.ConnectionError(
                f"HTTPSConnectionPool(host='{host}', port=443): Max retries exceeded with url: {urlsplit(url).path} "
                f"(Caused by NameResolutionError(\"<urllib3.connection.HTTPSConnection object>: Failed to resolve "
                f"'{host}' ([Errno -3] Temporary failure in name resolution)\"))", request=None)
        if kind is FaultKind.RATE_LIMIT_HTML:
            status, ctype, content = 429, "text/html; charset=UTF-8", _HTML_429.encode()
        elif kind is FaultKind.REQUEST_TIMEOUT:
            status, ctype, content = 408, "text/html; charset=UTF-8", _HTML_408.encode()
        else:
            status, name, message = {
                FaultKind.RATE_LIMIT_JSON: (
                    429,
                    "RESOURCE_EXHAUSTED",
                    "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per "
                    "user' of service 'sheets.googleapis.com' for consumer 'project_number:0'.",
                ),
                FaultKind.INTERNAL: (500, "INTERNAL", "Internal error encountered."),
                FaultKind.UNAVAILABLE: (503, "UNAVAILABLE", "The service is currently unavailable."),
            }[kind]
            ctype = "application/json; charset=UTF-8"
            content = json.dumps({"error": {"code": status, "message": message, "status": name}}).encode()
        headers["Content-Type"] = ctype
        stats.response_bytes += len(content)
        self.log.append(RecordedCall(endpoint, http_method, url, query, body, status))
        return status, headers, content

    def _token(self, url: str, body: bytes) -> tuple[int, dict[str, str], bytes]:
        form = parse_qs(body.decode("utf-8"))
        grant = form.get("grant_type", [""])[0]
        if grant not in ("urn:ietf:params:oauth:grant-type:jwt-bearer", "refresh_token"):
            raise UnexpectedRequest(f"token request with grant_type {grant!r}")
        stats = self.stats.setdefault(TOKEN, EndpointStats())
        stats.calls += 1
        stats.request_bytes += len(url) + len(body)
        refresh = form.get("refresh_token", [""])[0]
        if self.reject_tokens or refresh in self.revoked:
            status = 400
            content = json.dumps(
                {"error": "invalid_grant", "error_description": "Token has been expired or revoked."}
            ).encode()
        else:
            status = 200
            self.tokens_issued += 1
            token = f"fake-access-token-{self.tokens_issued}"
            issuer = _jwt_issuer(form.get("assertion", [""])[0])
            if issuer:
                self._accounts[token] = issuer
            user = self.users.get(refresh)
            if user:
                self._user_tokens[token] = user
            if refresh:
                self._refreshed_from[token] = refresh
            asked = _jwt_claim(form.get("assertion", [""])[0], "scope") or form.get("scope", [""])[0]
            if asked:
                self.scopes_granted[token] = frozenset(asked.split())
            content = json.dumps({"access_token": token, "expires_in": 3600, "token_type": "Bearer"}).encode()
        stats.response_bytes += len(content)
        return status, {"Content-Type": "application/json"}, content

    def _allowed_locations(self, url: str) -> tuple[int, dict[str, str], bytes]:
        # google-auth >= 2.60 looks up a service account's "Regional Access Boundary" after
        # each token refresh; the no-op answer means "no restriction".
        content = json.dumps({"locations": [], "encodedLocations": "0x0"}).encode()
        stats = self.stats.setdefault(ALLOWED_LOCATIONS, EndpointStats())
        stats.calls += 1
        stats.request_bytes += len(url)
        stats.response_bytes += len(content)
        return 200, {"Content-Type": "application/json"}, content

    def _reaches(self, ss: FakeSpreadsheet | FakeFolder, drive: bool) -> bool:
        """Whether the token of the request being served reaches the file ``ss`` through Drive (``drive``) or Sheets,
        as Google decides: a token whose only scope for it is ``drive.file`` reaches the files sheets-gm made alone
        (a hand-made file, or folder, is not found); the wider scopes reach every file the account may open."""
        granted = self._granted
        if granted is None or DRIVE_FILE not in granted or granted & (WHOLE_DRIVE if drive else WHOLE_SHEETS):
            return True
        return isinstance(ss, FakeSpreadsheet) and ss.by_app

    def _shared_with_caller(self, ss: FakeSpreadsheet) -> bool:
        """Whether the account of the request being served may open ``ss`` (``shared``, and among its ``readers``
        where it has them)."""
        return ss.shared and (ss.readers is None or self._calling.lower() in ss.readers)

    def _spreadsheet(self, key: str, drive: bool) -> FakeSpreadsheet:
        ss = self.spreadsheets.get(key)
        if ss is not None and not self._reaches(ss, drive):
            ss = None  # what Google answers a file the token's drive.file does not reach: not found
        if ss is None or (drive and not self._shared_with_caller(ss)):
            raise HttpError(404, f"File not found: {key}." if drive else "Requested entity was not found.",
                            "NOT_FOUND", "notFound")
        if not self._shared_with_caller(ss):
            raise HttpError(403, "The caller does not have permission", "PERMISSION_DENIED", "forbidden")
        return ss

    def _serve(
        self,
        api: Discovery,
        method: Method,
        path: dict[str, str],
        query: dict[str, list[str]],
        body: Any,
        caller: str,
    ) -> tuple[int, Any, dict[str, str], bytes]:
        json_headers = {"Content-Type": "application/json; charset=UTF-8"}
        if method.id == READ:
            payload = self._batch_get(self._spreadsheet(path["spreadsheetId"], False), query)
        elif method.id == WRITE:
            self._player_edits_before_write(path["spreadsheetId"])
            payload = self._batch_update_values(self._spreadsheet(path["spreadsheetId"], False), body)
            self._edited(self.spreadsheets[path["spreadsheetId"]], caller)
        elif method.id == GET:
            payload = self._get(self._spreadsheet(path["spreadsheetId"], False), query)
        elif method.id == BATCH_UPDATE:
            fields = query.get("fields", [""])[0]
            mask = response_mask(self.sheets_api, "BatchUpdateSpreadsheetResponse", fields) if fields else None
            self._player_edits_before_write(path["spreadsheetId"])
            payload = self._batch_update(self._spreadsheet(path["spreadsheetId"], False), body, mask is not None)
            self._edited(self.spreadsheets[path["spreadsheetId"]], caller)
            if mask is not None:
                payload = partial_response(payload, mask)
        elif method.id == EXPORT:
            ss = self._spreadsheet(path["fileId"], True)
            mime = query.get("mimeType", [""])[0]
            if mime != XLSX:
                raise UnexpectedRequest(f"the fake exports only {XLSX}, not {mime!r}")
            return 200, None, {"Content-Type": XLSX}, _xlsx(ss)
        elif method.id == SHARE:
            payload = self._share(self._spreadsheet(path["fileId"], True), body, query, caller)
        elif method.id == START_TOKEN:
            payload = {"kind": "drive#startPageToken", "startPageToken": str(len(self._listed_changes()))}
        elif method.id == CHANGES:
            payload = self._changes(query, caller)
        elif method.id == FILES:
            payload = self._files(query, caller)
        elif method.id == CREATE:
            payload = self._create_file(body, query, caller)
        elif method.id == FILE_GET and path["fileId"] in self.folders:
            payload = self._folder(self.folders[path["fileId"]], query)
        elif method.id == FILE_GET:
            payload = self._file(self._spreadsheet(path["fileId"], True), query, caller)
        elif method.id == FILE_UPDATE:
            payload = self._update_file(self._spreadsheet(path["fileId"], True), body, query, caller)
        elif method.id == PERMISSIONS:
            payload = self._permissions(self._spreadsheet(path["fileId"], True), query)
        elif method.id == ABOUT:
            payload = self._about(query, caller)
        else:
            raise UnexpectedRequest(f"{method.id} is a real Google method but the fake does not implement it")
        return 200, payload, json_headers, json.dumps(payload).encode()

    def _about(self, query: Mapping[str, list[str]], caller: str) -> dict[str, Any]:
        """about.get: the caller as Drive knows it (its permission id, the same for every token of that account,
        and its e-mail). Google refuses the request without ``fields`` (the method takes no default), and a token
        whose scopes do not reach Drive (checked with every method's scopes)."""
        fields = query.get("fields", [""])[0]
        if not fields:
            raise HttpError(400, "The 'fields' parameter is required for this method.", "INVALID_ARGUMENT",
                            "required")
        user = {"kind": "drive#user", "displayName": caller.partition("@")[0], "emailAddress": caller, "me": True,
                "permissionId": permission_id(caller)}
        payload = {"kind": "drive#about", "user": user}
        return partial_response(payload, response_mask(self.drive_api, "About", fields))

    # -- Drive: the change log ---------------------------------------------------------

    def _changes(self, query: dict[str, list[str]], caller: str) -> dict[str, Any]:
        """changes.list: the changes listed after the token (a position in the log), one page at a time; the
        files shown are the shared ones (an unshared file's changes are not the caller's to see). Each change
        carries its file as Drive knows it then: modified when, and by whom, as the latest edit of that file
        listed so far says (Drive learns of an edit when it lists it)."""
        token = query.get("pageToken", [""])[0]
        if not token:
            raise HttpError(400, "Required parameter: pageToken", "INVALID_ARGUMENT", "required")
        log = self._listed_changes()
        if not token.isdigit() or int(token) > len(log):  # a token Drive never gave (or no longer takes)
            raise HttpError(400, f"Invalid Value: pageToken {token!r}", "INVALID_ARGUMENT", "invalid")
        size = int(query.get("pageSize", ["100"])[0])
        if not 1 <= size <= 1000:
            raise HttpError(400, f"Invalid Value: pageSize {size}", "INVALID_ARGUMENT", "invalid")
        start = int(token)
        page = log[start:start + size]
        last = self._drive_latest
        all_drives = _flag(query, "includeItemsFromAllDrives") and _flag(query, "supportsAllDrives")
        drive_id = query.get("driveId", [""])[0]
        changes = [{"kind": "drive#change", "changeType": "file", "removed": False, "fileId": edit.key,
                    "time": _rfc3339(edit.moment), "file": self._drive_file(last[edit.key], caller)}
                   for edit in page if self._listable(edit.key, all_drives, drive_id)]
        payload: dict[str, Any] = {"kind": "drive#changeList", "changes": changes}
        if start + size < len(log):
            payload["nextPageToken"] = str(start + size)
        else:
            payload["newStartPageToken"] = str(len(log))
        fields = query.get("fields", [""])[0]
        return partial_response(payload, response_mask(self.drive_api, "ChangeList", fields)) if fields else payload

    def _listable(self, key: str, all_drives: bool, drive_id: str = "") -> bool:
        """Whether a list of Drive (changes or files) shows the spreadsheet ``key``: shared with the caller, and in
        a shared drive only when the list asks for every drive's items (``includeItemsFromAllDrives`` with
        ``supportsAllDrives``, as Drive requires) or names that drive (``driveId``)."""
        ss = self.spreadsheets.get(key)
        if ss is None or not self._shared_with_caller(ss) or not self._reaches(ss, True):
            return False
        if drive_id:
            return all_drives and ss.drive_id == drive_id
        return not ss.drive_id or all_drives

    def _drive_file(self, last: DriveEdit, caller: str) -> dict[str, Any]:
        """A spreadsheet's File resource as Drive lists it after its edit ``last``."""
        ss = self.spreadsheets[last.key]
        user = {"kind": "drive#user", "displayName": last.by.partition("@")[0], "emailAddress": last.by,
                "me": last.by.lower() == caller.lower()}
        return {"kind": "drive#file", "id": ss.key, "name": str(ss.properties.get("title", "")),
                "mimeType": "application/vnd.google-apps.spreadsheet", "modifiedTime": _rfc3339(last.moment),
                "lastModifyingUser": user, "version": str(last.version),
                **({"driveId": ss.drive_id} if ss.drive_id else {})}

    def _files(self, query: dict[str, list[str]], caller: str) -> dict[str, Any]:
        """files.list for the one question the poll gate asks, ``modifiedTime > 'T' and trashed = false``: the
        shared spreadsheets whose modifiedTime, as Drive knows it (an edit shows once the lag has passed, as in
        the change log), is after T. Any other query is refused, so a test cannot pass on a query Drive would
        read otherwise."""
        q = query.get("q", [""])[0]
        if q.startswith("appProperties has"):
            return self._files_by_property(q, query)
        m = re.fullmatch(r"modifiedTime > '(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)' and trashed = false", q)
        if m is None:
            raise UnexpectedRequest(f"the fake's files.list answers only modifiedTime > 'T' and trashed = false, "
                                    f"not {q!r}")
        after = datetime.fromisoformat(m.group(1)).replace(tzinfo=UTC)
        size = int(query.get("pageSize", ["100"])[0])
        if not 1 <= size <= 1000:
            raise HttpError(400, f"Invalid Value: pageSize {size}", "INVALID_ARGUMENT", "invalid")
        corpora = query.get("corpora", ["user"])[0]
        all_drives = (_flag(query, "includeItemsFromAllDrives") and _flag(query, "supportsAllDrives")
                      and corpora in ("allDrives", "drive"))
        self._listed_changes()
        last = self._drive_latest
        files = [self._drive_file(edit, caller) for key, edit in sorted(last.items()) if edit.moment > after
                 and self._listable(key, all_drives, query.get("driveId", [""])[0])]
        payload: dict[str, Any] = {"kind": "drive#fileList", "files": files[:size]}
        if len(files) > size:
            payload["nextPageToken"] = str(size)
        fields = query.get("fields", [""])[0]
        return partial_response(payload, response_mask(self.drive_api, "FileList", fields)) if fields else payload

    # -- Sheets: values ---------------------------------------------------------------

    def _batch_get(self, ss: FakeSpreadsheet, query: dict[str, list[str]]) -> dict[str, Any]:
        render = query.get("valueRenderOption", ["FORMATTED_VALUE"])[0]
        major = query.get("majorDimension", ["ROWS"])[0]
        shown: dict[int, dict[tuple[int, int], CellValue]] = {}  # each tab's cells that show something, once a call
        out = []
        for text in query.get("ranges", []):
            rect = parse_a1(ss, text)
            if id(rect.sheet) not in shown:
                shown[id(rect.sheet)] = _shown_values(rect.sheet, render)
            grid = _values_grid(shown[id(rect.sheet)], *rect.bounded())
            if major == "COLUMNS":
                grid = [list(col) for col in zip(*grid, strict=False)]
            rows = _trim(grid)
            vr: dict[str, Any] = {"range": rect.a1(), "majorDimension": "COLUMNS" if major == "COLUMNS" else "ROWS"}
            if rows:
                vr["values"] = rows
            out.append(vr)
        return {"spreadsheetId": ss.key, "valueRanges": out}

    def _batch_update_values(self, ss: FakeSpreadsheet, body: dict[str, Any]) -> dict[str, Any]:
        option = body.get("valueInputOption")
        if option not in ("RAW", "USER_ENTERED"):
            raise HttpError(400, "'valueInputOption' is required but not specified")
        entered = _raw_value if option == "RAW" else _parse_user_entered
        staged: dict[int, _StagedCells] = {}  # each tab written, by its id: all or nothing
        responses_out = []
        touched_sheets: set[int] = set()
        total_cells = total_rows = total_cols = 0
        for vr in body.get("data", []):
            rect = parse_a1(ss, vr["range"])
            if id(rect.sheet) not in staged:
                staged[id(rect.sheet)] = _StagedCells(rect.sheet)
            cells = staged[id(rect.sheet)]
            values = vr.get("values", [])
            if vr.get("majorDimension") == "COLUMNS":
                width = max((len(c) for c in values), default=0)
                values = [[col[i] if i < len(col) else None for col in values] for i in range(width)]
            rows_hit = 0
            cols_hit: set[int] = set()
            written = 0
            for i, row in enumerate(values):
                r = rect.r0 + i
                if row:
                    _check_row_fits(rect, vr["range"], r, len(row))
                hit = False
                for j, v in enumerate(row):
                    if v is None:
                        continue  # JSON null: the cell is left as it is
                    ev = entered(v)
                    if type(v) is str and len(v) > MAX_CELL_CHARS:
                        _check_cell_size(ev)
                    pos = (r, rect.c0 + j)
                    old = cells.get(pos)
                    if old is not None:
                        cell = dict(old)
                        cell.pop("textFormatRuns", None)  # Google: a new value erases the runs
                        if ev:
                            cell["userEnteredValue"] = ev
                        else:
                            cell.pop("userEnteredValue", None)
                        cells.put(pos, cell or None)
                    elif ev:
                        cells.put(pos, {"userEnteredValue": ev})
                    hit = True
                    cols_hit.add(pos[1])
                    written += 1
                rows_hit += hit
            touched_sheets.add(rect.sheet.sheet_id)
            total_cells += written
            total_rows += rows_hit
            total_cols += len(cols_hit)
            item: dict[str, Any] = {"spreadsheetId": ss.key, "updatedRange": rect.a1()}
            if written:
                item.update(updatedRows=rows_hit, updatedColumns=len(cols_hit), updatedCells=written)
            responses_out.append(item)
        for cells in staged.values():
            cells.commit()
        return {
            "spreadsheetId": ss.key,
            "totalUpdatedRows": total_rows,
            "totalUpdatedColumns": total_cols,
            "totalUpdatedCells": total_cells,
            "totalUpdatedSheets": len(touched_sheets),
            "responses": responses_out,
        }

    # -- Sheets: spreadsheet ----------------------------------------------------------

    def _get(self, ss: FakeSpreadsheet, query: dict[str, list[str]]) -> dict[str, Any]:
        """spreadsheets.get: the tabs' properties, protected ranges and conditional formats; every tab's grid when
        the field mask names ``sheets.data`` (or, without a mask, ``includeGridData``), cut to the mask."""
        fields = query.get("fields", [""])[0]
        mask = response_mask(self.sheets_api, "Spreadsheet", fields) if fields else None
        # Google ignores includeGridData when a field mask is given: the mask alone says whether grids come
        if mask is not None:
            grids = "sheets" in mask and (mask["sheets"] is None or "data" in mask["sheets"])
        else:
            grids = query.get("includeGridData", ["false"])[0].lower() == "true"
        if query.get("ranges"):  # only the tabs the ranges name, one grid per range, as a write's answer has them
            payload = self._updated_spreadsheet(ss, query["ranges"], grids, effective=True)
            return payload if mask is None else partial_response(payload, mask)
        sheets = []
        for s in ss.sheets:
            entry: dict[str, Any] = {"properties": copied(s.properties)}
            if s.protected_ranges:
                entry["protectedRanges"] = copied(s.protected_ranges)
            if s.conditional_formats and (not fields or "conditionalFormats" in fields):
                entry["conditionalFormats"] = copied(s.conditional_formats)
            if grids:
                entry["data"] = [_grid_data(Rect(s, 0, 0, None, None, True), metadata=True)]
            sheets.append(entry)
        payload = {
            "spreadsheetId": ss.key,
            "properties": copied(ss.properties),
            "sheets": sheets,
            "spreadsheetUrl": f"https://docs.google.com/spreadsheets/d/{ss.key}/edit",
        }
        return payload if mask is None else partial_response(payload, mask)

    def _batch_update(self, ss: FakeSpreadsheet, body: dict[str, Any], masked: bool = False) -> dict[str, Any]:
        """The requests applied all or nothing, like Google; with ``includeSpreadsheetInResponse``, the answer holds
        the spreadsheet as updated (see :meth:`_updated_spreadsheet`; ``masked``: a field mask was given)."""
        staged = copied(ss)
        replies = []
        for i, req in enumerate(body.get("requests", [])):
            (kind, args), = req.items()
            handler = getattr(self, f"_req_{kind}", None)
            if handler is None:
                raise UnexpectedRequest(f"batchUpdate request kind {kind!r} is valid but the fake lacks it")
            try:
                reply = handler(staged, args)
            except HttpError as e:
                raise HttpError(e.code, f"Invalid requests[{i}].{kind}: {e.message}", e.status) from e
            if staged.sheets and all(s.properties.get("hidden") for s in staged.sheets):
                raise HttpError(400, f"Invalid requests[{i}].{kind}: You can't hide all the sheets in a document.")
            replies.append(reply)
        answer: dict[str, Any] = {"spreadsheetId": ss.key, "replies": replies}
        if body.get("includeSpreadsheetInResponse"):
            # Google leaves grid data out unless asked, by responseIncludeGridData or, overriding it, a field mask.
            answer["updatedSpreadsheet"] = self._updated_spreadsheet(
                staged, body.get("responseRanges", []), masked or bool(body.get("responseIncludeGridData")))
        ss.properties, ss.sheets = staged.properties, staged.sheets
        return answer

    def _updated_spreadsheet(self, ss: FakeSpreadsheet, ranges: Sequence[str], grid_data: bool, *,
                             effective: bool = False) -> dict[str, Any]:
        """The Spreadsheet resource after an update: with ``ranges``, only the tabs they name, each with one GridData
        per range asked on it, in the order asked (when ``grid_data``); without, every tab and its whole grid.
        ``effective``: each cell's effective format as Google computes it (a spreadsheets.get's)."""
        rects = [parse_a1(ss, text) for text in ranges]  # a bad range fails the whole update
        sheets = []
        for sheet in ss.sheets:
            mine = [rect for rect in rects if rect.sheet is sheet]
            if rects and not mine:
                continue
            entry: dict[str, Any] = {"properties": copied(sheet.properties)}
            if sheet.protected_ranges:
                entry["protectedRanges"] = copied(sheet.protected_ranges)
            if grid_data:
                entry["data"] = [_grid_data(rect, metadata=effective)
                                 for rect in mine or [Rect(sheet, 0, 0, None, None, True)]]
            sheets.append(entry)
        return {"spreadsheetId": ss.key, "properties": copied(ss.properties), "sheets": sheets,
                "spreadsheetUrl": f"https://docs.google.com/spreadsheets/d/{ss.key}/edit"}

    def _sheet_for(self, ss: FakeSpreadsheet, sheet_id: int | None) -> FakeSheet:
        sheet = ss.by_id(int(sheet_id or 0))
        if sheet is None:
            raise HttpError(400, f"No grid with id: {sheet_id}")
        return sheet

    def _grid_rect(self, ss: FakeSpreadsheet, gr: Mapping[str, Any]) -> tuple[FakeSheet, int, int, int, int]:
        sheet = self._sheet_for(ss, gr.get("sheetId"))
        r0, c0 = int(gr.get("startRowIndex", 0)), int(gr.get("startColumnIndex", 0))
        r1 = int(gr.get("endRowIndex", sheet.row_count))
        c1 = int(gr.get("endColumnIndex", sheet.column_count))
        if not (0 <= r0 <= r1 and 0 <= c0 <= c1):
            raise HttpError(400, f"Invalid range: start after end in {dict(gr)}")
        if r1 > sheet.row_count or c1 > sheet.column_count:
            raise HttpError(
                400,
                f"Range ({sheet.title}) exceeds grid limits. Max rows: {sheet.row_count}, "
                f"max columns: {sheet.column_count}",
            )
        return sheet, r0, c0, r1, c1

    def _check_sheet(self, ss: FakeSpreadsheet, sheet: FakeSheet) -> None:
        grid = sheet.properties.get("gridProperties", {})
        rows, cols = int(grid.get("rowCount", 0)), int(grid.get("columnCount", 0))
        if rows < 1 or cols < 1:
            raise HttpError(400, "A sheet must have at least one row and one column.")
        if int(grid.get("frozenRowCount", 0)) >= rows:
            raise HttpError(400, "You can't freeze all visible rows on the sheet.")
        if int(grid.get("frozenColumnCount", 0)) >= cols:
            raise HttpError(400, "You can't freeze all visible columns on the sheet.")
        titles = [s.title.lower() for s in ss.sheets]
        if titles.count(sheet.title.lower()) > 1:
            raise HttpError(
                400, f'A sheet with the name "{sheet.title}" already exists. Please enter another name.'
            )

    def _req_addSheet(self, ss: FakeSpreadsheet, args: dict[str, Any]) -> dict[str, Any]:
        props = copied(args.get("properties", {}))
        sid = props.get("sheetId")
        if sid is None:
            sid = self._new_id()
        elif ss.by_id(int(sid)) is not None:
            raise HttpError(400, f"A sheet with the id {sid} already exists.")
        props["sheetId"] = int(sid)
        props.setdefault("title", f"Sheet{len(ss.sheets) + 1}")
        props.setdefault("sheetType", "GRID")
        grid = props.setdefault("gridProperties", {})
        grid.setdefault("rowCount", 1000)
        grid.setdefault("columnCount", 26)
        index = min(int(props.get("index", len(ss.sheets))), len(ss.sheets))
        sheet = FakeSheet(props)
        ss.sheets.insert(index, sheet)
        ss.renumber()
        self._check_sheet(ss, sheet)
        return {"addSheet": {"properties": copied(sheet.properties)}}

    def _req_deleteSheet(self, ss: FakeSpreadsheet, args: dict[str, Any]) -> dict[str, Any]:
        sheet = self._sheet_for(ss, args.get("sheetId"))
        if len(ss.sheets) == 1:
            raise HttpError(400, "You can't remove all the sheets in a document.")
        ss.sheets.remove(sheet)
        ss.renumber()
        return {}

    def _req_updateSheetProperties(self, ss: FakeSpreadsheet, args: dict[str, Any]) -> dict[str, Any]:
        props = args.get("properties", {})
        sheet = self._sheet_for(ss, props.get("sheetId"))
        paths = self.sheets_api.check_field_mask("SheetProperties", args.get("fields", ""), "updateSheetProperties")
        old_index = ss.sheets.index(sheet)
        _apply_mask(sheet.properties, props, paths)
        sheet.properties["sheetId"] = int(props.get("sheetId", sheet.sheet_id))
        if "index" in paths or "*" in paths:
            new = int(props.get("index", old_index))
            ss.sheets.pop(old_index)
            if new > old_index:
                new -= 1  # indexes are "before the move"
            ss.sheets.insert(max(0, min(new, len(ss.sheets))), sheet)
        ss.renumber()
        sheet.properties.setdefault("sheetType", "GRID")
        self._check_sheet(ss, sheet)
        sheet.trim()
        return {}

    def _req_updateSpreadsheetProperties(self, ss: FakeSpreadsheet, args: dict[str, Any]) -> dict[str, Any]:
        paths = self.sheets_api.check_field_mask(
            "SpreadsheetProperties", args.get("fields", ""), "updateSpreadsheetProperties"
        )
        _apply_mask(ss.properties, args.get("properties", {}), paths)
        return {}

    def _write_cell(self, sheet: FakeSheet, r: int, c: int, data: Mapping[str, Any], mask: _Mask,
                    made: dict[int, tuple[Any, dict[str, Any]]] | None = None) -> None:
        """Store the cell at ``r, c`` with the mask ``mask`` of ``data`` applied. ``made``: the cells this request
        made so far from ``data``, by the cell each was made from (kept alive, so an id is not reused): cells alike
        before one request stay one CellData after it."""
        old = sheet.cells.get((r, c), _NO_CELL)
        known = made.get(id(old)) if made is not None else None
        if known is None:
            _check_cell_size(data.get("userEnteredValue") or {})
        cell = known[1] if known is not None else _stored_cell(old, data, mask)
        if made is not None:
            made[id(old)] = (old, cell)
        if cell:
            sheet.cells[(r, c)] = cell
        else:
            sheet.cells.pop((r, c), None)

    def _req_updateCells(self, ss: FakeSpreadsheet, args: dict[str, Any]) -> dict[str, Any]:
        mask = _mask(tuple(self.sheets_api.check_field_mask("CellData", args.get("fields", ""), "updateCells")))
        if ("start" in args) == ("range" in args):
            raise HttpError(400, "Exactly one of 'start' or 'range' must be set")
        if "start" in args:
            st = args["start"]
            sheet = self._sheet_for(ss, st.get("sheetId"))
            r0, c0 = int(st.get("rowIndex", 0)), int(st.get("columnIndex", 0))
            r1, c1 = sheet.row_count, sheet.column_count
        else:
            sheet, r0, c0, r1, c1 = self._grid_rect(ss, args["range"])
        for i, row in enumerate(args.get("rows", [])):
            for j, data in enumerate(row.get("values", [])):
                r, c = r0 + i, c0 + j
                if r >= r1 or c >= c1:
                    raise HttpError(
                        400,
                        f"Range ({sheet.title}!{col_letters(c)}{r + 1}) exceeds grid limits. Max rows: "
                        f"{sheet.row_count}, max columns: {sheet.column_count}",
                    )
                self._write_cell(sheet, r, c, data, mask)
        return {}

    def _req_findReplace(self, ss: FakeSpreadsheet, args: dict[str, Any]) -> dict[str, Any]:
        """Find-and-replace in a range, a tab or every tab. Modelled: plain (not regex) matching of the formatted
        value of cells that hold no formula (unless ``includeFormulas``), case-sensitive or not, the entire cell or
        part of it; the replacement is stored as text, an empty cell when it leaves nothing."""
        if sum(k in args for k in ("range", "sheetId", "allSheets")) != 1:
            raise HttpError(400, "Exactly one of 'range', 'sheetId' or 'allSheets' must be set")
        if args.get("searchByRegex"):
            raise UnexpectedRequest("the fake's findReplace does not model regular expressions")
        find, replacement = str(args.get("find", "")), str(args.get("replacement", ""))
        if not find:
            raise HttpError(400, "The find text must not be empty.")
        if "range" in args:
            sheet, r0, c0, r1, c1 = self._grid_rect(ss, args["range"])
            areas = [(sheet, r0, c0, r1, c1)]
        else:
            sheets = ss.sheets if args.get("allSheets") else [self._sheet_for(ss, args.get("sheetId"))]
            areas = [(sh, 0, 0, sh.row_count, sh.column_count) for sh in sheets]
        fold = (lambda t: t) if args.get("matchCase") else str.casefold
        changed = 0
        for sheet, r0, c0, r1, c1 in areas:
            cells = sheet.cells
            if (r1 - r0) * (c1 - c0) < len(cells):  # a few cells (the product clears one): looked up, not searched
                inside = [((r, c), cells[(r, c)]) for r in range(r0, r1) for c in range(c0, c1) if (r, c) in cells]
            else:
                inside = [(pos, cell) for pos, cell in cells.items() if r0 <= pos[0] < r1 and c0 <= pos[1] < c1]
            for (r, c), cell in inside:
                ev = cell.get("userEnteredValue")
                if not ev:
                    continue
                if "formulaValue" in ev and not args.get("includeFormulas"):
                    continue
                shown = str(_render(ev, "FORMATTED_VALUE"))
                if args.get("matchEntireCell"):
                    if fold(shown) != fold(find):
                        continue
                    new = replacement
                else:
                    at = fold(shown).find(fold(find))
                    if at < 0:
                        continue
                    new = shown[:at] + replacement + shown[at + len(find):]
                kept = {k: v for k, v in cell.items() if k not in ("userEnteredValue", "textFormatRuns")}
                if new:
                    kept["userEnteredValue"] = {"stringValue": new}
                if kept:
                    sheet.cells[(r, c)] = kept
                else:
                    del sheet.cells[(r, c)]
                changed += 1
        reply = {"valuesChanged": changed, "occurrencesChanged": changed, "rowsChanged": changed,
                 "sheetsChanged": 1 if changed else 0} if changed else {}
        return {"findReplace": reply}

    def _req_repeatCell(self, ss: FakeSpreadsheet, args: dict[str, Any]) -> dict[str, Any]:
        mask = _mask(tuple(self.sheets_api.check_field_mask("CellData", args.get("fields", ""), "repeatCell")))
        sheet, r0, c0, r1, c1 = self._grid_rect(ss, args.get("range", {}))
        made: dict[int, tuple[Any, dict[str, Any]]] = {}
        for r in range(r0, r1):
            for c in range(c0, c1):
                self._write_cell(sheet, r, c, args.get("cell", {}), mask, made)
        return {}

    def _req_updateBorders(self, ss: FakeSpreadsheet, args: dict[str, Any]) -> dict[str, Any]:
        """Lines round (and inside) a range, as Google keeps them: on each cell's format, by side."""
        sides = ("top", "bottom", "left", "right", "innerHorizontal", "innerVertical")
        unknown = set(args) - {"range", *sides}
        if unknown:
            raise HttpError(400, f"Invalid JSON payload received. Unknown name {sorted(unknown)[0]!r}")
        for side in sides:
            style = args.get(side, {}).get("style", "NONE")
            if style not in ("DOTTED", "DASHED", "SOLID", "SOLID_MEDIUM", "SOLID_THICK", "NONE", "DOUBLE"):
                raise HttpError(400, f"Invalid value at 'requests[0].update_borders.{side}.style' ({style!r})")
        sheet, r0, c0, r1, c1 = self._grid_rect(ss, args.get("range", {}))
        for r in range(r0, r1):
            for c in range(c0, c1):
                edges = {"top": r == r0, "bottom": r == r1 - 1, "left": c == c0, "right": c == c1 - 1}
                lines = {side: args[side] for side, on_edge in edges.items() if on_edge and side in args}
                if lines:
                    cell = sheet.cells.get((r, c), {})
                    fmt = cell.get("userEnteredFormat", {})
                    borders = {**fmt.get("borders", {}), **copied(lines)}
                    sheet.cells[(r, c)] = {**cell, "userEnteredFormat": {**fmt, "borders": borders}}
        return {}

    def _req_setDataValidation(self, ss: FakeSpreadsheet, args: dict[str, Any]) -> dict[str, Any]:
        sheet, r0, c0, r1, c1 = self._grid_rect(ss, args.get("range", {}))
        rule = args.get("rule")
        if rule is not None:
            cond = rule.get("condition", {})
            kind, values = cond.get("type"), cond.get("values", [])
            if kind == "ONE_OF_LIST" and not values:
                raise HttpError(400, "Invalid ConditionValue: ONE_OF_LIST requires at least one value")
            if kind == "BOOLEAN" and len(values) > 2:
                raise HttpError(400, "Invalid ConditionValue: BOOLEAN takes at most two values")
        made: dict[int, tuple[Any, dict[str, Any]]] = {}
        for r in range(r0, r1):
            for c in range(c0, c1):
                self._write_cell(sheet, r, c, {"dataValidation": rule} if rule else {}, _DATA_VALIDATION, made)
        return {}

    def _req_addProtectedRange(self, ss: FakeSpreadsheet, args: dict[str, Any]) -> dict[str, Any]:
        pr = copied(args.get("protectedRange", {}))
        sheet, *_ = self._grid_rect(ss, pr.get("range", {}))
        if pr.get("warningOnly") and pr.get("editors"):
            raise HttpError(400, "Editors are not supported with warningOnly protection.")
        taken = {p["protectedRangeId"] for s in ss.sheets for p in s.protected_ranges}
        if pr.get("protectedRangeId") in taken:
            raise HttpError(400, f"A protected range with id {pr['protectedRangeId']} already exists.")
        pr.setdefault("protectedRangeId", self._new_id())
        pr["range"].setdefault("sheetId", sheet.sheet_id)
        pr["requestingUserCanEdit"] = True
        sheet.protected_ranges.append(pr)
        return {"addProtectedRange": {"protectedRange": copied(pr)}}

    def _req_deleteProtectedRange(self, ss: FakeSpreadsheet, args: dict[str, Any]) -> dict[str, Any]:
        pid = args.get("protectedRangeId")
        for s in ss.sheets:
            for p in s.protected_ranges:
                if p["protectedRangeId"] == pid:
                    s.protected_ranges.remove(p)
                    return {}
        raise HttpError(400, f"No protected range with id: {pid}")

    def _req_addConditionalFormatRule(self, ss: FakeSpreadsheet, args: dict[str, Any]) -> dict[str, Any]:
        rule = copied(args.get("rule"))
        if not rule:
            raise HttpError(400, "rule is required")
        ranges = rule.get("ranges", [])
        if not ranges:
            raise HttpError(400, "A conditional format rule must have at least one range.")
        sheets = {self._grid_rect(ss, gr)[0].sheet_id for gr in ranges}
        if len(sheets) > 1:
            raise HttpError(400, "All ranges of a conditional format rule must be on the same sheet.")
        if ("booleanRule" in rule) == ("gradientRule" in rule):
            raise HttpError(400, "A conditional format rule must have exactly one of booleanRule or gradientRule.")
        if "gradientRule" in rule:
            raise UnexpectedRequest("the fake does not check gradient conditional format rules")
        self._check_conditional(rule["booleanRule"])
        sheet = self._sheet_for(ss, sheets.pop())
        index = int(args.get("index", 0))
        if not 0 <= index <= len(sheet.conditional_formats):
            raise HttpError(400, f"Invalid index {index}: the sheet {sheet.title!r} has "
                                 f"{len(sheet.conditional_formats)} conditional format rules.")
        for gr in rule["ranges"]:
            gr["sheetId"] = sheet.sheet_id
        sheet.conditional_formats.insert(index, rule)
        return {}

    def _check_conditional(self, boolean_rule: Mapping[str, Any]) -> None:
        """Google's checks of a BooleanRule of conditional formatting: a condition type conditional
        formatting supports (as the discovery document describes each type), with as many values as that
        type requires, and a format made only of what conditional formatting may set."""
        cond = boolean_rule.get("condition", {})
        kind, values = cond.get("type", "CONDITION_TYPE_UNSPECIFIED"), cond.get("values", [])
        spec = self.sheets_api.schemas["BooleanCondition"]["properties"]["type"]
        described = dict(zip(spec["enum"], spec["enumDescriptions"], strict=True)).get(kind, "")
        if "conditional formatting" not in described:
            raise HttpError(400, f"Invalid ConditionType {kind} for conditional formatting.")
        wanted = {"Requires a single ConditionValue": 1, "Requires exactly two": 2, "Requires no": 0}
        for phrase, count in wanted.items():
            if phrase in described and len(values) != count:
                raise HttpError(400, f"Invalid ConditionValue: {kind} requires {count} values, not {len(values)}.")
        if any(not str(v.get("userEnteredValue", "")) and "relativeDate" not in v for v in values):
            raise HttpError(400, f"Invalid ConditionValue: {kind} needs a value that is not empty.")
        fmt = boolean_rule.get("format", {})
        text = fmt.get("textFormat", {})
        if set(fmt) - _CONDITIONAL_CELL_FORMAT or set(text) - _CONDITIONAL_TEXT_FORMAT:
            raise HttpError(400, "Conditional formatting can only apply bold, italic, strikethrough, foreground "
                                 "color and background color.")

    def _req_deleteConditionalFormatRule(self, ss: FakeSpreadsheet, args: dict[str, Any]) -> dict[str, Any]:
        sheet = self._sheet_for(ss, args.get("sheetId"))
        index = int(args.get("index", 0))
        if not 0 <= index < len(sheet.conditional_formats):
            raise HttpError(400, f"No conditional format on sheet {sheet.sheet_id} at index {index}.")
        return {"deleteConditionalFormatRule": {"rule": sheet.conditional_formats.pop(index)}}

    def _req_updateDimensionProperties(self, ss: FakeSpreadsheet, args: dict[str, Any]) -> dict[str, Any]:
        paths = self.sheets_api.check_field_mask(
            "DimensionProperties", args.get("fields", ""), "updateDimensionProperties"
        )
        dr = args.get("range")
        if dr is None:
            raise UnexpectedRequest("updateDimensionProperties with dataSourceSheetRange")
        sheet = self._sheet_for(ss, dr.get("sheetId"))
        columns = dr.get("dimension") == "COLUMNS"
        if dr.get("dimension") not in ("ROWS", "COLUMNS"):
            raise HttpError(400, "dimension must be ROWS or COLUMNS")
        limit = sheet.column_count if columns else sheet.row_count
        start, end = int(dr.get("startIndex", 0)), int(dr.get("endIndex", limit))
        if not 0 <= start < end <= limit:
            raise HttpError(400, f"Invalid dimension range {start}..{end} (limit {limit})")
        meta = sheet.columns if columns else sheet.rows_meta
        made: dict[int, tuple[Any, dict[str, Any]]] = {}
        for i in range(start, end):
            old = meta.get(i, _NO_CELL)
            if id(old) not in made:
                made[id(old)] = (old, _stored_cell(old, args.get("properties", {}), _mask(tuple(paths))))
            meta[i] = made[id(old)][1]
        return {}

    # -- Drive ---------------------------------------------------------------------------

    def _file(self, ss: FakeSpreadsheet, query: Mapping[str, list[str]], caller: str = "") -> dict[str, Any]:
        """files.get: the spreadsheet as a Drive File (its id, name, type, ``writersCanShare``, its ``version`` and
        last modifier now, its shared drive, folders, ``appProperties``, whether it is trashed), cut to ``fields``
        (Drive answers ``kind``, ``id``, ``name`` and ``mimeType`` without one). A file in a shared drive is not
        found unless the request ``supportsAllDrives``."""
        if ss.drive_id and not _flag(query, "supportsAllDrives"):
            raise HttpError(404, f"File not found: {ss.key}.", "NOT_FOUND", "notFound")
        by = ss.modified_by or "owner@example.com"
        user = {"kind": "drive#user", "displayName": by.partition("@")[0], "emailAddress": by,
                "me": by.lower() == caller.lower()}
        full = {"kind": "drive#file", "id": ss.key, "name": str(ss.properties.get("title", "")),
                "mimeType": "application/vnd.google-apps.spreadsheet", "writersCanShare": ss.writers_can_share,
                "modifiedTime": _rfc3339(ss.modified_time or self.clock()), "version": str(ss.version),
                "lastModifyingUser": user, "trashed": ss.trashed,
                **({"parents": list(ss.parents)} if ss.parents else {}),
                **({"appProperties": dict(ss.app_properties)} if ss.app_properties else {}),
                **({"driveId": ss.drive_id} if ss.drive_id else {})}
        if ss.drive_id:
            del full["writersCanShare"]  # a My Drive setting: Drive leaves it out for a shared drive's file
        fields = query.get("fields", [""])[0]
        if not fields:
            return {k: full[k] for k in ("kind", "id", "name", "mimeType")}
        return partial_response(full, response_mask(self.drive_api, "File", fields))

    def _folder(self, folder: FakeFolder, query: Mapping[str, list[str]]) -> dict[str, Any]:
        """files.get of a folder: its id, name, type, shared drive, whether it is trashed, and whether the caller
        may add files to it (``capabilities.canAddChildren``); not found when the caller does not see it, or when it
        is in a shared drive and the request does not ``supportsAllDrives``."""
        if not folder.shared or not self._reaches(folder, True) or (
                folder.drive_id and not _flag(query, "supportsAllDrives")):
            raise HttpError(404, f"File not found: {folder.id}.", "NOT_FOUND", "notFound")
        full: dict[str, Any] = {"kind": "drive#file", "id": folder.id, "name": folder.name, "mimeType": FOLDER_MIME,
                                "trashed": folder.trashed,
                                "capabilities": {"canAddChildren": folder.writable and not folder.trashed}}
        if folder.drive_id:
            full["driveId"] = folder.drive_id
        fields = query.get("fields", [""])[0]
        if not fields:
            return {k: full[k] for k in ("kind", "id", "name", "mimeType")}
        return partial_response(full, response_mask(self.drive_api, "File", fields))

    def _create_file(self, body: dict[str, Any], query: Mapping[str, list[str]], caller: str) -> dict[str, Any]:
        """files.create of a Google spreadsheet (no content) in one folder, as Drive does it: the parent must be a
        folder the caller sees (a shared drive's only with ``supportsAllDrives``) and may add to; a service account
        owns nothing in a My Drive (403 ``storageQuotaExceeded``). The new spreadsheet has one empty tab, its
        ``appProperties``, and is the caller's."""
        if body.get("mimeType") != SPREADSHEET_MIME:
            raise UnexpectedRequest(f"the fake's files.create makes spreadsheets only, not {body.get('mimeType')!r}")
        parents = list(body.get("parents") or [])
        if len(parents) != 1:
            raise UnexpectedRequest(f"the fake's files.create takes one parent folder, not {parents!r}")
        folder = self.folders.get(parents[0])
        if folder is None or not folder.shared or not self._reaches(folder, True) or (
                folder.drive_id and not _flag(query, "supportsAllDrives")):
            raise HttpError(404, f"File not found: {parents[0]}.", "NOT_FOUND", "notFound")
        if not folder.writable or folder.trashed:
            raise HttpError(403, f"The user does not have sufficient permissions for file {folder.id}.",
                            "PERMISSION_DENIED", "insufficientFilePermissions")
        if not folder.drive_id and caller in self._accounts.values():
            raise HttpError(403, NO_STORAGE_MESSAGE, "PERMISSION_DENIED", "storageQuotaExceeded", "usageLimits")
        key = f"1{base64.urlsafe_b64encode(self._new_id().to_bytes(32, 'big')).decode().rstrip('=')}"[:44]
        ss = self.create_spreadsheet(key, str(body.get("name") or "Untitled spreadsheet"))
        ss.drive_id, ss.parents = folder.drive_id, [folder.id]
        ss.owner = "" if folder.drive_id else caller
        ss.by_app = True
        ss.app_properties = {str(k): str(v) for k, v in (body.get("appProperties") or {}).items()}
        ss.created = len(self.spreadsheets)
        self._edited(ss, caller)
        return self._file(ss, query, caller)

    def _files_by_property(self, q: str, query: Mapping[str, list[str]]) -> dict[str, Any]:
        """files.list for ``appProperties has { key='K' and value='V' } and trashed = false and mimeType = 'M'``:
        the spreadsheets not in the trash whose private property K is V, oldest first (``orderBy=createdTime``),
        from the caller's My Drive, or with ``corpora=drive`` from the shared drive ``driveId`` (which Drive takes
        only with ``includeItemsFromAllDrives`` and ``supportsAllDrives``)."""
        m = re.fullmatch(r"appProperties has \{ key='(\w+)' and value='([^'\\]*)' \} and trashed = false"
                         rf" and mimeType = '{SPREADSHEET_MIME}'", q)
        if m is None:
            raise UnexpectedRequest(f"the fake's files.list does not answer {q!r}")
        corpora = query.get("corpora", ["user"])[0]
        drive_id = query.get("driveId", [""])[0]
        if corpora == "drive" and not (drive_id and _flag(query, "includeItemsFromAllDrives")
                                       and _flag(query, "supportsAllDrives")):
            raise HttpError(400, "The driveId parameter must be specified if and only if corpora is set to drive, "
                                 "with includeItemsFromAllDrives and supportsAllDrives.", reason="invalid")
        if corpora not in ("user", "drive"):
            raise UnexpectedRequest(f"the fake's files.list searches corpora user and drive, not {corpora!r}")
        found = sorted((ss for ss in self.spreadsheets.values()
                        if self._shared_with_caller(ss) and not ss.trashed and self._reaches(ss, True)
                        and ss.app_properties.get(m.group(1)) == m.group(2)
                        and ss.drive_id == (drive_id if corpora == "drive" else "")),
                       key=lambda ss: ss.created)
        payload: dict[str, Any] = {"kind": "drive#fileList", "incompleteSearch": False,
                                   "files": [self._file(ss, {"fields": ["kind,id,name,mimeType,appProperties"],
                                                                  "supportsAllDrives": ["true"]})
                                             for ss in found]}
        fields = query.get("fields", [""])[0]
        return partial_response(payload, response_mask(self.drive_api, "FileList", fields)) if fields else payload

    def owner_of(self, ss: FakeSpreadsheet) -> str:
        """The account that owns the spreadsheet ``ss`` in a My Drive (the GM unless files.create made it)."""
        return ss.owner or self.user_email

    def _owner_only(self, ss: FakeSpreadsheet, caller: str) -> None:
        """Refuse, as Drive does, a change only the file's owner may make, asked by anyone else (an editor: a
        service account the GM shared the file with, say)."""
        if caller.casefold() != self.owner_of(ss).casefold():
            raise HttpError(403, OWNER_ONLY_MESSAGE, "PERMISSION_DENIED", "insufficientFilePermissions")

    def _update_file(self, ss: FakeSpreadsheet, body: dict[str, Any], query: Mapping[str, list[str]],
                     caller: str) -> dict[str, Any]:
        """files.update of the metadata the fake keeps: ``writersCanShare`` (Drive's "Editors can change
        permissions and share"), which in a My Drive only the file's owner may change (an editor gets 403
        ``insufficientFilePermissions``, whatever the value asked), and which a shared drive's file does not keep
        at all; any other field is a request this fake was not written for."""
        other = set(body) - {"writersCanShare"}
        if other:
            raise UnexpectedRequest(f"files.update of {sorted(other)}: the fake keeps writersCanShare alone")
        if "writersCanShare" in body and ss.drive_id:
            # What Drive answers: the lock is a My Drive setting; a shared drive's own settings say who may share.
            raise HttpError(403, "Sharing restrictions cannot be set on a shared drive item.", "PERMISSION_DENIED",
                            "teamDrivesSharingRestrictionNotAllowed")
        if "writersCanShare" in body:
            self._owner_only(ss, caller)
            ss.writers_can_share = bool(body["writersCanShare"])
        return self._file(ss, query)

    def _permissions(self, ss: FakeSpreadsheet, query: Mapping[str, list[str]]) -> dict[str, Any]:
        """permissions.list: everyone the spreadsheet is shared with (one page), cut to ``fields``."""
        owner = {"kind": "drive#permission", "id": "owner", "type": "user", "role": "owner",
                 "emailAddress": self.owner_of(ss)}
        payload = {"kind": "drive#permissionList", "permissions": [owner, *(dict(p) for p in ss.permissions)]}
        fields = query.get("fields", [""])[0]
        return partial_response(payload, response_mask(self.drive_api, "PermissionList", fields)) if fields \
            else payload

    def _share(self, ss: FakeSpreadsheet, body: dict[str, Any], query: Mapping[str, list[str]],
               caller: str) -> dict[str, Any]:
        """permissions.create, refused as Drive refuses it: to an editor of a My Drive file whose owner has turned
        off editors' sharing (``writersCanShare`` false), and a new owner named by anyone but the owner (403
        ``insufficientFilePermissions``); a quiet share with an address that has no Google account; a role or
        type Drive does not know. A shared drive's file is shared by any caller (the drive's default settings:
        the fake keeps no per-drive "who may share")."""
        kind, role = body.get("type"), body.get("role")
        if not ss.drive_id and (role == "owner" or not ss.writers_can_share):
            self._owner_only(ss, caller)
        email = str(body.get("emailAddress", ""))
        quiet = query.get("sendNotificationEmail", ["true"])[0] == "false"
        if quiet and email.lower() in {e.lower() for e in self.no_google_account}:
            # What Drive answers (its documented invalidSharingRequest): a non-Google address needs the e-mail.
            raise HttpError(400, f"Bad Request. User message: \"You are trying to invite {email}. Since there is "
                                 "no Google account associated with this email address, you must check the "
                                 "'Notify people' box to invite this recipient.\"", reason="invalidSharingRequest")
        if role not in ("owner", "organizer", "fileOrganizer", "writer", "commenter", "reader"):
            raise HttpError(400, f"The provided value for 'role' is invalid: {role!r}.", reason="invalid")
        if kind not in ("user", "group", "domain", "anyone"):
            raise HttpError(400, f"The provided value for 'type' is invalid: {kind!r}.", reason="invalid")
        if kind in ("user", "group") and "@" not in str(body.get("emailAddress", "")):
            raise HttpError(400, "The permission emailAddress field is required.", reason="required")
        perm = {"kind": "drive#permission", "id": str(self._new_id()), "type": kind, "role": role}
        if "emailAddress" in body:
            perm["emailAddress"] = body["emailAddress"]
        ss.permissions.append(perm)
        return dict(perm)


_MASK_TOKEN = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*|[(),])")


def _parse_mask(fields: str) -> dict[str, Any]:
    """A partial-response mask (``a,b.c,d(e,f(g))``) as a tree: each field name maps to None (all of it) or to
    the tree of the subfields kept."""
    bad = HttpError(400, f"Invalid field selection {fields}", "INVALID_ARGUMENT", "invalidParameter")
    tokens: list[str] = []
    at = 0
    while at < len(fields.rstrip()):
        m = _MASK_TOKEN.match(fields, at)
        if m is None:
            raise bad
        tokens.append(m.group(1))
        at = m.end()

    def selection(i: int, closing: bool) -> tuple[dict[str, Any], int]:
        tree: dict[str, Any] = {}
        while True:
            if i >= len(tokens) or tokens[i] in "(),":
                raise bad
            first, *rest = tokens[i].split(".")
            sub: dict[str, Any] | None = None
            i += 1
            if i < len(tokens) and tokens[i] == "(":
                sub, i = selection(i + 1, True)
            for name in reversed(rest):
                sub = {name: sub}
            _merge_mask(tree, first, sub)
            if i < len(tokens) and tokens[i] == ",":
                i += 1
            elif closing and i < len(tokens) and tokens[i] == ")":
                return tree, i + 1
            elif not closing and i == len(tokens):
                return tree, i
            else:
                raise bad

    return selection(0, False)[0]


def _merge_mask(tree: dict[str, Any], name: str, sub: dict[str, Any] | None) -> None:
    """Keep ``name`` in ``tree``: all of it (``sub`` None) or the subfields ``sub``; all of it stays all of it."""
    if sub is None or tree.get(name, {}) is None:
        tree[name] = None
        return
    node = tree.setdefault(name, {})
    for inner, deeper in sub.items():
        _merge_mask(node, inner, deeper)


def _check_mask(api: Discovery, schema: Mapping[str, Any], tree: Mapping[str, Any], fields: str) -> None:
    """Refuse, as Google does, a mask naming a field the answer's schema lacks."""
    for name, sub in tree.items():
        prop = schema.get("properties", {}).get(name)
        if prop is None:
            raise HttpError(400, f"Invalid field selection {name} in {fields}", "INVALID_ARGUMENT",
                            "invalidParameter")
        if sub is not None:
            inner = prop.get("items", prop) if prop.get("type") == "array" else prop
            _check_mask(api, api.schemas[inner["$ref"]] if "$ref" in inner else inner, sub, fields)


def _masked(value: Any, tree: Mapping[str, Any] | None, cut: dict[int, dict[int, tuple[Any, Any]]]) -> Any:
    """``value`` cut to ``tree``: an object keeps the fields named (an object left with none is left out of its
    parent), a list keeps each item, cut. ``cut``: the objects cut so far in this answer, by the tree's id and
    theirs (kept alive, so an id is not reused): an object the answer holds twice (row metadata, the cells a layout
    formats alike) is cut once, and stays one."""
    if tree is None or not isinstance(value, dict | list):
        return value
    done_here = cut.setdefault(id(tree), {})
    known = done_here.get(id(value))
    if known is not None:
        return known[1]
    done: Any
    if isinstance(value, list):
        done = []
        for item in value:
            seen = done_here.get(id(item))
            done.append(seen[1] if seen is not None else _masked(item, tree, cut))
    else:
        kept = {name: _masked(value[name], sub, cut) for name, sub in tree.items() if name in value}
        done = {name: v for name, v in kept.items() if v != {}}
    done_here[id(value)] = (value, done)
    return done


def response_mask(api: Discovery, schema_name: str, fields: str) -> dict[str, Any]:
    """The partial-response mask ``fields`` (the ``fields`` query parameter every method takes) of an answer that
    is a ``schema_name``, as a tree for :func:`partial_response`; a malformed mask, or one naming a field the
    schema lacks, is refused with a 400 as Google refuses it, before the request does anything."""
    tree = _parse_mask(fields)
    _check_mask(api, api.schemas[schema_name], tree, fields)
    return tree


def partial_response(payload: dict[str, Any], mask: Mapping[str, Any]) -> dict[str, Any]:
    """``payload`` cut to a :func:`response_mask`, as Google answers."""
    result: dict[str, Any] = _masked(payload, mask, {})
    return result


def _flag(query: Mapping[str, list[str]], name: str) -> bool:
    """Whether the boolean query parameter ``name`` is set true."""
    return query.get(name, ["false"])[0].lower() == "true"


def permission_id(email: str) -> str:
    """The id Drive gives the account ``email`` (digits, as Drive's are), the same at every request."""
    return str(int(hashlib.sha256(email.lower().encode("utf-8")).hexdigest()[:15], 16)).rjust(20, "0")


def _rfc3339(moment: datetime) -> str:
    """A time as Drive writes one: UTC, milliseconds, ``Z``."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _jwt_claim(assertion: str, claim: str) -> str | None:
    """A text claim of a signed JWT grant, read without checking the signature."""
    try:
        body = assertion.split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except (IndexError, ValueError):
        return None
    value = claims.get(claim) if isinstance(claims, dict) else None
    return value if isinstance(value, str) else None


def _jwt_issuer(assertion: str) -> str | None:
    """The ``iss`` (the service account's e-mail) of a signed JWT grant, read without checking the signature."""
    return _jwt_claim(assertion, "iss")


@functools.cache
def _discovery(name: str) -> Discovery:
    return Discovery(DISCOVERY_DIR / name)


@functools.lru_cache(maxsize=256)
def _parsed_query(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple((name, tuple(values)) for name, values in parse_qs(text, keep_blank_values=True).items())


def _query_of(text: str) -> dict[str, list[str]]:
    """The parameters of a URL's query ``text`` as ``parse_qs`` gives them (a new mapping each time), parsed once
    for each text: a poll asks the same ranges again and again."""
    return {name: list(values) for name, values in _parsed_query(text)}


@functools.lru_cache(maxsize=64)
def _http_date(second: datetime, zone: Any) -> str:
    """HTTP's Date of ``second`` (its time zone ``zone`` is part of the key: one that is not UTC is refused each
    time), written once for each second."""
    return format_datetime(second, usegmt=True)


def _error_payload(api: Discovery, e: HttpError) -> dict[str, Any]:
    error: dict[str, Any] = {"code": e.code, "message": e.message}
    if api.name == "drive":
        error["errors"] = [{"message": e.message, "domain": e.domain, "reason": e.reason}]
    else:
        error["status"] = e.status
    return {"error": error}


def _xlsx(ss: FakeSpreadsheet) -> bytes:
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for s in ss.sheets:
        ws = wb.create_sheet(s.title[:31])
        for (r, c), data in sorted(s.cells.items()):
            ev = data.get("userEnteredValue")
            if not ev:
                continue
            cell = ws.cell(row=r + 1, column=c + 1)
            cell.value = _render(ev, "FORMULA")
            if "stringValue" in ev:
                cell.data_type = "s"  # text that starts with '=' stays text
        if s.properties.get("hidden"):
            ws.sheet_state = "hidden"
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


# --------------------------------------------------------------------------- test helpers


def fake_credentials(token: str = "fake-user-token") -> UserCredentials:
    """User credentials that already hold a token and never expire: no refresh call."""
    return UserCredentials(token=token)  # type: ignore[no-untyped-call]


def fake_client() -> gspread.Client:
    """A real gspread Client (plain HTTPClient, real AuthorizedSession) on fake credentials."""
    return gspread.Client(auth=fake_credentials())


@functools.cache
def _private_key_pem() -> str:
    """A 2048-bit RSA private key in PEM, made once a process (making one takes 0.2 s of CPU; the fake reads no
    signature, so every key file of a test run may hold the same)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()


@functools.cache
def _loaded_private_key(pem: bytes) -> Any:
    """The RSA key of a PEM text, loaded once a process: OpenSSL checks a 2048-bit key for 0.17 s of CPU at each
    load, which a poll pays once (it signs in once) and a test run paid at every command it ran in-process. A key
    that does not load raises each time, as google-auth's own loader does."""
    from cryptography.hazmat.primitives import serialization

    return serialization.load_pem_private_key(pem, password=None)


def _signer_of_key(cls: type[_cryptography_rsa.RSASigner], key: str | bytes,
                   key_id: str | None = None) -> _cryptography_rsa.RSASigner:
    """google-auth's ``RSASigner.from_string`` while a fake runs: the same signer, its key loaded once a process."""
    return cls(_loaded_private_key(key.encode("utf-8") if isinstance(key, str) else bytes(key)), key_id=key_id)


def write_service_account_key(path: Path, email: str = "gm-bot@sheets-gm-test.iam.gserviceaccount.com") -> Path:
    """A service-account key file with an RSA key (the same one for every file of a test process: signing works
    offline, and the token exchange is served by the fake, which reads no signature)."""
    info = {
        "type": "service_account",
        "project_id": "sheets-gm-test",
        "private_key_id": "0123456789abcdef",
        "private_key": _private_key_pem(),
        "client_email": email,
        "client_id": "100000000000000000000",
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": TOKEN_URL,
    }
    path.write_text(json.dumps(info), encoding="utf-8")
    return path


def settle_auth(client: gspread.Client) -> gspread.Client:
    """Make google-auth's Regional Access Boundary lookup (service accounts, google-auth >= 2.60)
    happen inside the request that refreshes the token instead of on a background thread, so
    no thread can outlive the fake and reach the network."""
    blocking = getattr(client.http_client.auth, "_set_blocking_regional_access_boundary_lookup", None)
    if callable(blocking):
        blocking()
    return client


@contextlib.contextmanager
def signed_in_fake(monkeypatch: pytest.MonkeyPatch, spreadsheets: Mapping[str, str]) -> Iterator[GoogleApiFake]:
    """The fake holding an empty spreadsheet per key (titled as ``spreadsheets`` says), every service-account
    sign-in of sheets-gm settled (``settle_auth``); on leaving, no request may have broken the API's schema."""
    import sheets_gm.sheets.google.signin as google

    original = google.open_service_account
    monkeypatch.setattr(google, "open_service_account", lambda path, *scopes: settle_auth(original(path, *scopes)))
    with GoogleApiFake() as fake:
        for key, title in spreadsheets.items():
            fake.create_spreadsheet(key, title)
        yield fake
    assert not fake.violations, fake.violations


def iter_bodies(fake: GoogleApiFake, endpoint: str) -> Iterator[Any]:
    """The JSON bodies the fake received at ``endpoint``, oldest first."""
    for call in fake.log:
        if call.endpoint == endpoint:
            yield call.body
