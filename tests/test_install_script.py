"""The test command's install step (``scripts/install.sh``) apt-installs the Debian tools the tests drive only as root,
says so, and never with ``SHEETS_GM_NO_APT`` set (issue 94): the README promises both in one sentence."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT, SCRIPTS

#: The programs install.sh runs besides bash's own builtins, taken from this machine.
TOOLS = ("sha256sum", "cut", "grep")


def _checkout(tmp_path: Path) -> Path:
    """A checkout holding install.sh and an installed .venv (its stamp current), so no pip runs."""
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True)
    shutil.copy(SCRIPTS / "install.sh", checkout / "scripts" / "install.sh")
    shutil.copy(ROOT / "pyproject.toml", checkout / "pyproject.toml")
    (checkout / ".venv" / "bin").mkdir(parents=True)
    (checkout / ".venv" / "bin" / "python").symlink_to(Path(sys.executable))
    digest = hashlib.sha256((checkout / "pyproject.toml").read_bytes()).hexdigest()
    (checkout / ".venv" / ".sheets-gm-install").write_text(f"{digest} test\n", encoding="utf-8")
    return checkout


def _bin(tmp_path: Path) -> tuple[Path, Path]:
    """A PATH of stubs: ``id`` says root, ``apt-get`` and ``systemctl`` write their arguments to a log; no chromium,
    LibreOffice, poppler or spamassassin on it."""
    folder = tmp_path / "bin"
    folder.mkdir()
    log = tmp_path / "apt.log"
    stubs = {"id": "echo 0", "apt-get": f'echo "apt-get $*" >> {log}', "systemctl": "true"}
    for name, body in stubs.items():
        (folder / name).write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
        (folder / name).chmod(0o755)
    for tool in TOOLS:
        found = shutil.which(tool)
        assert found, tool
        (folder / tool).symlink_to(found)
    return folder, log


def _source(checkout: Path, folder: Path, **env: str) -> subprocess.CompletedProcess[str]:
    bash = shutil.which("bash")
    assert bash
    return subprocess.run([bash, "-c", "source scripts/install.sh"], cwd=checkout, capture_output=True, text=True,
                          env={"PATH": str(folder), "SHEETS_GM_TEST_WORKERS": "1", **env}, timeout=60, check=False)


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_as_root_it_installs_the_missing_tools_and_says_how_to_skip_it(tmp_path: Path) -> None:
    checkout, (folder, log) = _checkout(tmp_path), _bin(tmp_path)
    done = _source(checkout, folder)
    assert done.returncode == 0, done.stderr
    assert "apt-get install" in log.read_text(encoding="utf-8")
    assert "SHEETS_GM_NO_APT=1 skips this" in done.stderr


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_sheets_gm_no_apt_installs_nothing_even_as_root(tmp_path: Path) -> None:
    checkout, (folder, log) = _checkout(tmp_path), _bin(tmp_path)
    done = _source(checkout, folder, SHEETS_GM_NO_APT="1")
    assert done.returncode == 0, done.stderr
    assert not log.exists(), log.read_text(encoding="utf-8")
    assert "apt-get" not in done.stderr
