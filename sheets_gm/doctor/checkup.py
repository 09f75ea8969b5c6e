"""The result type of ``sheets-gm doctor``: one check, its verdict, what is wrong and how to fix it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeVar

T = TypeVar("T")

#: The fix of a check that failed on an error nobody foresaw.
BUG_FIX = "this is a bug in sheets-gm: run `sheets-gm --debug doctor ...` and report the traceback"


class Verdict(StrEnum):
    """How a check went: passed, passed with a warning, or failed (the match cannot run as it is)."""

    OK = "ok"
    WARN = "warn"
    FAIL = "fail"


@dataclass(frozen=True, slots=True)
class Check:
    """One line of the doctor's report; ``fix`` says what to do when the verdict is not OK."""

    name: str
    verdict: Verdict
    message: str
    fix: str = ""


@dataclass
class Checkup:
    """The checks made so far, in order; ``debug`` lets unexpected errors through with their traceback."""

    checks: list[Check] = field(default_factory=list)
    debug: bool = False

    def ok(self, name: str, message: str) -> None:
        """Record a passed check."""
        self.checks.append(Check(name, Verdict.OK, message))

    def warn(self, name: str, message: str, fix: str) -> None:
        """Record a check that passed with something the GM should know."""
        self.checks.append(Check(name, Verdict.WARN, message, fix))

    def fail(self, name: str, message: str, fix: str) -> None:
        """Record a failed check."""
        self.checks.append(Check(name, Verdict.FAIL, message, fix))

    def table_problems(self, name: str, table: str, problems: tuple[str, ...], config: object, doc: str,
                       meanwhile: str) -> None:
        """A failed check per bad option of a config's ``table`` (each line names what is wrong and what is
        accepted), with where to mend it: the config, the page ``doc`` listing every option, and what the match
        does ``meanwhile``."""
        for problem in problems:
            self.fail(name, problem, f"mend [{table}] in {config} ({doc} lists every option); until then {meanwhile}")

    @property
    def failed(self) -> bool:
        """True when any check failed."""
        return any(c.verdict is Verdict.FAIL for c in self.checks)

    def guarded(self, name: str, step: Callable[[], T]) -> T | None:
        """Run one step; an unexpected exception becomes a failed check (None) instead of a crash."""
        try:
            return step()
        except Exception as exc:
            if self.debug:
                raise
            self.fail(name, f"unexpected {type(exc).__name__}: {exc}", BUG_FIX)
            return None
