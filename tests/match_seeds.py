"""The match seeds ``init`` draws in the tests: derived from the test's name, so that a match a test plays is
the same at every run and a failure comes back at the next one (``init`` itself draws 32 random bytes).

``SHEETS_GM_TEST_SEEDS`` names the set of seeds (``fixed`` by default): another name plays every test's matches
on other seeds, each run of that name the same (``SHEETS_GM_TEST_SEEDS=hunt-7 bash scripts/test.sh``); ``random``
draws them as ``init`` does. The name is printed at the head of the run. Commands a test runs in a process of its
own draw their seeds as ``init`` does."""

from __future__ import annotations

import hashlib
import os
import secrets
from collections import Counter

#: The environment variable that names the set of seeds.
SEEDS_VARIABLE = "SHEETS_GM_TEST_SEEDS"

_drawn: Counter[str] = Counter()  # the seeds drawn so far by each test of this process


def seed_set() -> str:
    """The name of this run's set of seeds."""
    return os.environ.get(SEEDS_VARIABLE, "").strip() or "fixed"


def seed_for_test() -> bytes:
    """The next match seed of the running test: the set's name, the test's id and how many seeds it drew before,
    hashed (a fixture of wider scope draws under the test that first asked for it). Never the same twice in a run."""
    name = seed_set()
    if name == "random":
        return secrets.token_bytes(32)
    test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
    _drawn[test] += 1
    return hashlib.sha256(f"{name}|{test}|{_drawn[test]}".encode()).digest()
