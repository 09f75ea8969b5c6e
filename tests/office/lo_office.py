"""LibreOffice started headless for a script run by the system ``python3`` (which has its ``uno`` module): its
Desktop to open workbooks with, LibreOffice stopped after (``lo_type.py``, ``lo_heights.py``)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Iterator

import uno  # type: ignore[import-not-found]
from com.sun.star.beans import PropertyValue  # type: ignore[import-not-found]
from com.sun.star.connection import NoConnectException  # type: ignore[import-not-found]


class OfficeNotStarted(RuntimeError):
    """LibreOffice did not accept the connection within a minute."""


def prop(name: str, value: object) -> PropertyValue:
    """A UNO property (a load or store option)."""
    found = PropertyValue()
    found.Name, found.Value = name, value
    return found


@contextlib.contextmanager
def office_desktop(profile: str, name: str) -> Iterator[object]:
    """LibreOffice's Desktop, LibreOffice running headless with its own profile in ``profile`` on a pipe of its
    own (``name`` and this process: runs may overlap); stopped when the block ends."""
    pipe = f"{name}_{os.getpid()}"
    office = subprocess.Popen(["soffice", "--headless", "--invisible", "--norestore", "--nologo", "--nodefault",
                               f"-env:UserInstallation=file://{profile}", f"--accept=pipe,name={pipe};urp;"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
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
        desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        yield desktop
        with contextlib.suppress(Exception):  # the bridge goes down with LibreOffice
            desktop.terminate()
        office.wait(timeout=60)
    finally:
        if office.poll() is None:
            office.kill()
