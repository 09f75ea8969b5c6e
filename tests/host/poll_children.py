"""What the poll processes of ``test_isolation`` run: functions in a module that imports next to nothing, so each
process (forked from the forkserver, which imports the module of the function it runs) starts in milliseconds,
not after importing the test module's whole tree."""

from __future__ import annotations

import os
import signal
import threading
from typing import Any


def exits(code: int) -> None:
    """End the process at once with ``code``, answering nothing."""
    os._exit(code)


def dies() -> None:
    """Kill the process by SIGKILL, answering nothing."""
    os.kill(os.getpid(), signal.SIGKILL)


def hangs(ready: Any) -> None:
    """Say so through the event ``ready``, then never end."""
    ready.set()
    threading.Event().wait()


def answers(value: int) -> int:
    """Twice ``value``."""
    return value * 2


def raises() -> None:
    """A poll whose rules fail."""
    raise ValueError("rules in a bad mood")


def writes(path: str) -> None:
    """Leave a file at ``path``: the poll ran."""
    with open(path, "w", encoding="utf-8") as file:
        file.write("ran")
