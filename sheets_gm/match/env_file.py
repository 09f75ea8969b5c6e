"""The environment files: the notices' secrets for every command, however it was started.

cron starts a command with an environment of its own (no variable of the GM's shell), ``serve`` with its unit's,
a GM's ``resolve`` or ``undo`` with her shell's: so a secret named by environment variable (``password_env``,
``url_env``) is read the same way by all of them (``SecretSource.read``): from the process's environment, else
from the match's own file ``.sheets-gm/<config name>.env`` beside the config, else from the host's file
``~/.config/sheets-gm/env`` (one per machine, for every match on it; ``XDG_CONFIG_HOME`` moves it). Matches whose
secrets differ name different variables (``SHEETS_GM_WEBHOOK_FRIDAY``), so one host file serves them all.

A file only its owner may read, of ``NAME=value`` lines (``export`` before a name, quotes around a value and
``#`` comments are allowed). No shell reads it, so a value needs no escaping. A line that is not ``NAME=value`` is
named by its number, never by what it says. ``sync --env-file FILE`` (cron's line of earlier versions) still
reads one more into the environment first.

Only the standard library: cron's idle sync reads it before anything else loads.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$")


class EnvFileError(ValueError):
    """An environment file that cannot be read, or a line of it that is no ``NAME=value``."""


def host_env_path() -> Path:
    """The host's environment file, read by every command of every match on this machine (cron's, serve's, a
    GM's): ``$XDG_CONFIG_HOME/sheets-gm/env``, by default ``~/.config/sheets-gm/env``."""
    base = os.environ.get("XDG_CONFIG_HOME", "").strip()
    return (Path(base) if base else Path.home() / ".config") / "sheets-gm" / "env"


def env_files_of(config_path: Path) -> tuple[Path, ...]:
    """The environment files a match's secrets are read from when the process's environment lacks them, in order:
    the match's own (``env_file_path``), then the host's (``host_env_path``)."""
    return env_file_path(config_path), host_env_path()


def env_file_path(config_path: Path) -> Path:
    """The environment file of the match configured by ``config_path`` (in the GM's ``.sheets-gm`` folder)."""
    return config_path.parent / ".sheets-gm" / f"{config_path.stem}.env"


def read_env_file(path: Path) -> dict[str, str]:
    """The variables of ``path`` (see the module notes); EnvFileError naming the file, or the line by its number."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise EnvFileError(f"the environment file {path} cannot be read ({exc.strerror or type(exc).__name__}); "
                           "write NAME=value lines there (chmod 600), one for each secret [notify] names") from None
    found: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _LINE.match(line)
        if match is None:
            raise EnvFileError(f"{path} line {number} is not NAME=value (a variable's name, =, then its value)")
        value = match[2].strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        found[match[1]] = value
    return found


def apply_env_file(path: Path) -> None:
    """Set the variables of ``path`` in this process's environment (EnvFileError as ``read_env_file``)."""
    os.environ.update(read_env_file(path))


def exposed(path: Path) -> str:
    """Why the environment file can be read by others than its owner ('' when it cannot, or is missing)."""
    try:
        mode = path.stat().st_mode & 0o777
    except OSError:
        return ""
    return f"{path} can be read by others than you (mode {mode:o})" if mode & 0o077 else ""
