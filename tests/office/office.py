"""The tests' LibreOffice: one headless LibreOffice a test process (each pytest-xdist worker), started when a test
first asks for it (the ``office`` fixture, a plugin of ``tests/conftest.py``) and stopped when the process ends. It
listens on a pipe of its own, which the scripts the tests run by the system ``python3`` (``lo_type.py``,
``lo_heights.py``, ``lo_convert.py``: LibreOffice's ``uno`` module is the system's) open their workbooks in, where
each once started a LibreOffice of its own: about two seconds of CPU a start, most of it LibreOffice's own start, a
new profile each time. Each script closes what it opened; one that finds the listener gone (LibreOffice crashed)
has it started again.

``render_tabs.py`` still starts its own (``soffice --convert-to``, as anyone runs it): the quick run's practice prints
keep that path."""

from __future__ import annotations

import contextlib
import functools
import glob
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

SYSTEM_PYTHON = "/usr/bin/python3"
#: The environment variable naming the listener's pipe (``lo_office.py`` reads it, under the system ``python3``).
LISTENER_VARIABLE = "SHEETS_GM_TEST_OFFICE_PIPE"
SCRIPTS = Path(__file__).parent


@functools.cache
def office_ready() -> bool:
    """Whether LibreOffice (``soffice``) and the system ``python3``'s ``uno`` module are installed."""
    if shutil.which("soffice") is None or not Path(SYSTEM_PYTHON).exists():
        return False
    return subprocess.run([SYSTEM_PYTHON, "-c", "import uno"], capture_output=True, check=False).returncode == 0


class Office:
    """A headless LibreOffice listening on a pipe, with its profile in ``folder``, for the scripts of this folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.pipe = f"sheets_gm_tests_{os.getpid()}"
        self._process: subprocess.Popen[bytes] | None = None

    def run(self, script: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        """``script`` of this folder run by the system ``python3`` with ``args``, in the listening LibreOffice."""
        if self._process is None or self._process.poll() is not None:
            self._start()
        return subprocess.run([SYSTEM_PYTHON, str(SCRIPTS / script), *args], capture_output=True, text=True,
                              timeout=timeout, check=False, env={**os.environ, LISTENER_VARIABLE: self.pipe})

    def convert(self, sources: Sequence[Path], to: str, out: Path) -> list[Path]:
        """Each of ``sources`` saved by LibreOffice as ``to`` (``pdf``, ``html``, ``xlsx``) into ``out``, as
        ``soffice --convert-to`` saves it (``lo_convert.py``): the files written."""
        done = self.run("lo_convert.py", to, str(out), str(self.folder / "profile"), *map(str, sources))
        assert done.returncode == 0, done.stderr
        converted = [out / f"{source.stem}.{to}" for source in sources]
        assert all(path.exists() for path in converted), done.stdout + done.stderr
        return converted

    def _start(self) -> None:
        # in the tests' process group: a Ctrl-C at the terminal stops it with them
        self._process = subprocess.Popen(
            ["soffice", "--headless", "--invisible", "--norestore", "--nologo", "--nodefault",
             f"-env:UserInstallation=file://{self.folder}/profile", f"--accept=pipe,name={self.pipe};urp;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop(self) -> None:
        """LibreOffice asked to stop (its ``soffice.bin``, under the ``oosplash`` started, handles SIGTERM), and
        waited for, so that its CPU counts as this process's children's."""
        process = self._process
        if process is None or process.poll() is not None:
            return
        children = [int(child) for listed in glob.glob(f"/proc/{process.pid}/task/*/children")
                    for child in Path(listed).read_text().split()]
        _signal(children, signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            _signal(children, signal.SIGKILL)
            process.kill()
            process.wait()


def _signal(pids: list[int], number: signal.Signals) -> None:
    """``number`` sent to each of ``pids`` still running."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, number)


@pytest.fixture(scope="session")
def office() -> Iterator[Office]:
    """This process's LibreOffice (started at its first use), skipped where LibreOffice or python3-uno is missing."""
    if not office_ready():
        pytest.skip("LibreOffice (soffice and python3-uno) is not installed")
    folder = Path(tempfile.mkdtemp(prefix="sheets-gm-office-"))
    found = Office(folder)
    try:
        yield found
    finally:
        found.stop()
        shutil.rmtree(folder, ignore_errors=True)
