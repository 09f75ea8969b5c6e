"""``pytest --waits N`` (``tests/waits.py``): each test's CPU and fsync time reach the summary, by test and worker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.paths import ROOT

TESTS = '''
import os

def test_computes():
    assert sum(i * i for i in range(400_000)) > 0

def test_syncs(tmp_path):
    with (tmp_path / "f").open("wb") as f:
        f.write(b"x")
        f.flush()
        os.fsync(f.fileno())
'''


def test_the_summary_names_each_test_with_its_cpu_and_fsync_and_the_worker(tmp_path: Path) -> None:
    (tmp_path / "test_two.py").write_text(TESTS, encoding="utf-8")
    figures = tmp_path / "figures.json"
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.waits", "-p", "no:cacheprovider", "-q",
                           "--waits", "5", "--waits-json", str(figures), "test_two.py"],
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "waits: the 5 tests with the most wall minus CPU and run queue" in done.stdout
    assert "main: " in done.stdout and "2 tests, done" in done.stdout, done.stdout
    tests = {row["nodeid"].split("::")[1]: row for row in json.loads(figures.read_text(encoding="utf-8"))}
    assert tests["test_computes"]["cpu"] > 0.01 and tests["test_computes"]["fsync"] == 0
    assert tests["test_syncs"]["fsync"] > 0
    assert all(row["wall"] >= 0 and row["queued"] >= 0 for row in tests.values())
