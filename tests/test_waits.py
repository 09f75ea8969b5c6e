"""``pytest --waits N`` (``tests/waits.py``): each test's CPU and fsync time reach the summary, by test and worker."""

from __future__ import annotations

import json

import pytest

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


def test_the_summary_names_each_test_with_its_cpu_and_fsync_and_the_worker(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_two=TESTS)
    figures = pytester.path / "figures.json"
    done = pytester.runpytest_inprocess("-p", "tests.waits", "-p", "no:cacheprovider", "--waits", "5",
                                        "--waits-json", str(figures))
    done.assert_outcomes(passed=2)
    done.stdout.fnmatch_lines(["*waits: the 5 tests with the most wall minus CPU and run queue*",
                               "main: *s waited * 2 tests, done *"])
    tests = {row["nodeid"].split("::")[1]: row for row in json.loads(figures.read_text(encoding="utf-8"))}
    assert tests["test_computes"]["cpu"] > 0.01 and tests["test_computes"]["fsync"] == 0
    assert tests["test_syncs"]["fsync"] > 0
    assert all(row["wall"] >= 0 and row["queued"] >= 0 for row in tests.values())
