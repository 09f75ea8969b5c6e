"""LibreOffice started headless for a script run by the system ``python3`` (which has its ``uno`` module): its
Desktop to open workbooks with, LibreOffice stopped after (``lo_type.py``, ``lo_heights.py``, ``lo_convert.py``); or,
where ``LISTENER_VARIABLE`` names the pipe of a LibreOffice already listening (the tests' one a process,
``tests/office/office.py``), that one's, left running."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import uno  # type: ignore[import-not-found]
from com.sun.star.beans import PropertyValue  # type: ignore[import-not-found]
from com.sun.star.connection import NoConnectException  # type: ignore[import-not-found]

#: The environment variable naming the pipe a LibreOffice started with ``--accept=pipe,name=…;urp;`` listens on.
LISTENER_VARIABLE = "SHEETS_GM_TEST_OFFICE_PIPE"  # tests/office/office.py sets it


class OfficeNotStarted(RuntimeError):
    """LibreOffice did not accept the connection within a minute."""


def prop(name: str, value: object) -> PropertyValue:
    """A UNO property (a load or store option)."""
    found = PropertyValue()
    found.Name, found.Value = name, value
    return found


@contextlib.contextmanager
def office_desktop(profile: str, name: str) -> Iterator[object]:
    """LibreOffice's Desktop: of the LibreOffice listening on the pipe ``LISTENER_VARIABLE`` names, left running (a
    script closes what it opened), else of LibreOffice running headless with its own profile in ``profile`` on a
    pipe of its own (``name`` and this process: runs may overlap), stopped when the block ends."""
    listening = os.environ.get(LISTENER_VARIABLE)
    if listening:
        yield _desktop(listening)
        return
    pipe = f"{name}_{os.getpid()}"
    office = subprocess.Popen(["soffice", "--headless", "--invisible", "--norestore", "--nologo", "--nodefault",
                               f"-env:UserInstallation=file://{profile}", f"--accept=pipe,name={pipe};urp;"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        desktop = _desktop(pipe)
        yield desktop
        with contextlib.suppress(Exception):  # the bridge goes down with LibreOffice
            desktop.terminate()
        office.wait(timeout=60)
    finally:
        if office.poll() is None:
            office.kill()


def _desktop(pipe: str) -> Any:
    """The Desktop of the LibreOffice that listens on ``pipe``, once it accepts the connection (within a minute)."""
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    for _ in range(600):  # LibreOffice takes a few seconds to start: nothing to do but wait for it
        try:
            ctx = resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
            break
        except NoConnectException:
            time.sleep(0.1)
    else:
        raise OfficeNotStarted("LibreOffice did not start")
    return ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)


@contextlib.contextmanager
def opened(desktop: Any, path: str, *, read_only: bool = False) -> Iterator[Any]:
    """The workbook at ``path`` opened hidden in ``desktop``'s LibreOffice, closed when the block ends, also where it
    fails (the tests' LibreOffice outlives the script)."""
    props = (prop("Hidden", True), *((prop("ReadOnly", True),) if read_only else ()))
    doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(str(Path(path).resolve())), "_blank", 0, props)
    try:
        yield doc
    finally:
        doc.close(True)


def run_in_office(profile: str, name: str, work: Callable[[Any], object]) -> int:
    """``work`` done with the Desktop ``office_desktop`` gives: a script's exit status, 1 where LibreOffice did not
    start (said on stderr)."""
    try:
        with office_desktop(profile, name) as desktop:
            work(desktop)
    except OfficeNotStarted as e:
        print(e, file=sys.stderr)
        return 1
    return 0
