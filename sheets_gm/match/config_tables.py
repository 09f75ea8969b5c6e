"""What the config's tables of outside servers share (``[notify.email]``, ``[notify.chat]``, ``[mailbox]``): a secret
named by an environment variable or a file, never written in the config (``SecretSource``), and the reading of
such a table, every bad key a line of its own naming what is wrong and what is accepted (``Problems`` and the
readers of a key: a name, a port, a timeout, a secret, a CA file).

The tables that use it read their own keys (``notify_settings``, ``mailbox_settings``); this module reads none.
No ``dataclasses`` and no ``typing`` here: the idle poll loads it (``running.mail_check``)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from sheets_gm.engine.plain import Plain
from sheets_gm.match.env_file import EnvFileError, read_env_file

#: Seconds a server is waited for by default before what needs it waits for the next poll.
DEFAULT_TIMEOUT = 10.0


class SecretError(ValueError):
    """A secret that cannot be read: the environment variable unset, the file missing; names where to put it."""


class SecretSource(Plain):
    """Where a secret is read when it is needed, never before: an environment variable or a file. A plain record
    (``engine.plain``): the idle poll reads the mailbox's (``running.mail_check``), and loads no ``dataclasses``."""

    __slots__ = ("env", "env_files", "file")

    def __init__(self, env: str = "", file: Path | None = None, env_files: tuple[Path, ...] = ()) -> None:
        self.env = env
        self.file = file
        self.env_files = env_files  # read for ``env`` when the process's environment lacks it (``match.env_file``)

    def with_env_files(self, env_files: tuple[Path, ...]) -> SecretSource:
        """The same source, its variable looked up in ``env_files`` too."""
        return SecretSource(self.env, self.file, env_files)

    def describe(self) -> str:
        """``the environment variable SHEETS_GM_SMTP_PASSWORD`` or ``the file /home/gm/.smtp``."""
        return f"the environment variable {self.env}" if self.env else f"the file {self.file}"

    def read(self, what: str) -> str:
        """The secret, stripped of surrounding white space; SecretError naming the source when it is not there."""
        if self.env:
            value = os.environ.get(self.env, "").strip() or self._from_files()
            if not value:
                where = " or ".join(str(p) for p in self.env_files) or "the environment"
                raise SecretError(f"{what}: the environment variable {self.env} is not set, here or in {where} (write "
                                  f"{self.env}=… in the host's environment file, read by cron, serve and every "
                                  "command alike; or name a file with the _file key)")
            return value
        assert self.file is not None
        try:
            value = self.file.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise SecretError(f"{what}: the file {self.file} cannot be read ({exc.strerror or exc})") from None
        if not value:
            raise SecretError(f"{what}: the file {self.file} is empty")
        return value

    def _from_files(self) -> str:
        """``env``'s value in the first of ``env_files`` that sets it ('' when none does); SecretError naming a file
        that cannot be read or a line of it that is no ``NAME=value``."""
        for path in self.env_files:
            if not path.exists():
                continue
            try:
                value = read_env_file(path).get(self.env, "").strip()
            except EnvFileError as exc:
                raise SecretError(str(exc)) from None
            if value:
                return value
        return ""

    def exposed(self) -> str:
        """Why a secret file is readable by others than its owner ('' when it is not, or is no file)."""
        if self.file is None:
            return ""
        try:
            mode = self.file.stat().st_mode & 0o777
        except OSError:
            return ""
        return f"{self.file} can be read by others than you (mode {mode:o})" if mode & 0o077 else ""


def config_path(folder: Path, value: str) -> Path:
    """A path the config names: ``~`` expanded, a relative one taken from the config's ``folder``."""
    path = Path(value).expanduser()
    return path if path.is_absolute() else folder / path


class Problems:
    """The lines naming each bad option of a config's table, each ``<config> [<table>] <key>: <what and what is
    accepted>``."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.lines: list[str] = []

    def add(self, table: str, key: str, text: str) -> None:
        """A line for ``key`` of ``[table]``."""
        self.lines.append(f"{self.where} [{table}] {key}: {text}")

    def unknown(self, table: str, raw: Mapping[str, object], accepted: Sequence[str], secret: str = "",
                tempting: Sequence[str] = ()) -> None:
        """A line per key of ``raw`` not ``accepted``; one of the ``tempting`` names of the ``secret`` (a password
        typed into the config) is told where the secret goes instead."""
        for key in raw:
            if key in accepted:
                continue
            if key in tempting:
                self.add(table, key, f"the {secret} is never kept in the config (a config is copied, shared and "
                                     f"exported): name an environment variable that holds it with {secret}_env, or "
                                     f"a file only you can read with {secret}_file")
            else:
                self.add(table, key, f"unknown key; the keys accepted there are {', '.join(accepted)}")

    def table(self, table: str, value: object, accepted: Sequence[str], secret: str,
              tempting: Sequence[str]) -> Mapping[str, object] | None:
        """The ``[table]`` as written, its unknown keys said (``unknown``); None, said, if it is not a table."""
        if not isinstance(value, Mapping):
            parent, _, key = table.rpartition(".")
            self.add(parent or table, key, f"{value!r} is not a table; write a [{table}] table")
            return None
        self.unknown(table, value, accepted, secret, tempting)
        return value


def read_timeout(table: str, raw: Mapping[str, object], problems: Problems) -> float:
    """``timeout``: seconds from more than 0 to 120 (``DEFAULT_TIMEOUT`` when absent)."""
    value = raw.get("timeout", DEFAULT_TIMEOUT)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 120:
        problems.add(table, "timeout", f"{value!r} is not a number of seconds from more than 0 to 120 (the default "
                                       f"is {DEFAULT_TIMEOUT:g}: a poll never waits long for a server)")
        return DEFAULT_TIMEOUT
    return float(value)


def read_secret(table: str, raw: Mapping[str, object], name: str, folder: Path, problems: Problems,
                required: bool) -> SecretSource | None:
    """``<name>_env`` or ``<name>_file``: where the secret is read (None when neither is given, said if
    ``required``)."""
    env, file = raw.get(f"{name}_env"), raw.get(f"{name}_file")
    if env is not None and file is not None:
        problems.add(table, f"{name}_env", f"give {name}_env or {name}_file, not both")
        return None
    if env is not None:
        if not isinstance(env, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", env):
            problems.add(table, f"{name}_env", f"{env!r} is not the name of an environment variable (letters, digits "
                                               "and _, e.g. \"SHEETS_GM_SMTP_PASSWORD\")")
            return None
        return SecretSource(env=env)
    if file is not None:
        if not isinstance(file, str) or not file.strip():
            problems.add(table, f"{name}_file", f"{file!r} is not a file name")
            return None
        return SecretSource(file=config_path(folder, file.strip()))
    if required:
        problems.add(table, f"{name}_env", f"missing: name the environment variable that holds the {name} "
                                           f"({name}_env), or a file only you can read that holds it ({name}_file)")
    return None


def read_text(table: str, raw: Mapping[str, object], key: str, problems: Problems, what: str) -> str:
    """A required text ``key``, stripped ('' when missing or not text, said naming ``what`` it should be)."""
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        problems.add(table, key, f"missing: {what}" if value is None else f"{value!r} is not {what}")
        return ""
    return value.strip()


def read_port(table: str, raw: Mapping[str, object], default: int, problems: Problems, usual: str) -> int:
    """``port``: a whole number from 1 to 65535 (``default`` when absent or bad, the bad one said with the ``usual``
    ports)."""
    port = raw.get("port", default)
    if isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536:
        problems.add(table, "port", f"{port!r} is not a port; give a whole number from 1 to 65535 ({usual})")
        return default
    return port


def read_ca_file(table: str, raw: Mapping[str, object], folder: Path, problems: Problems) -> Path | None:
    """``ca_file``: a PEM file of the certificates to trust (None when absent or not a file, the latter said)."""
    ca_file = raw.get("ca_file")
    if ca_file is None:
        return None
    if not isinstance(ca_file, str) or not config_path(folder, ca_file).is_file():
        problems.add(table, "ca_file", f"{ca_file!r} is not a file; name a PEM file of the certificates to "
                                       "trust (for a server whose certificate no public authority signed)")
        return None
    return config_path(folder, ca_file)
