"""The README reads in five minutes and its quick start works as it stands; every link of the docs leads somewhere
(issue 94). The figures come from ``scripts/measure_docs.py``, the script whose figures docs/benchmarks.md keeps."""

from __future__ import annotations

import functools
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.paths import DOCS, ROOT, SCRIPTS

README = ROOT / "README.md"
#: A Markdown link to a file of the repository: its target, and an optional anchor.
LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)#\s]+)(?:#([^)\s]+))?\)")


@functools.cache
def _measure() -> ModuleType:
    spec = importlib.util.spec_from_file_location("measure_docs", SCRIPTS / "measure_docs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_readme_is_at_most_250_lines_and_2500_words() -> None:
    page = _measure().measure(README)
    assert page.lines <= 250, page.lines
    assert page.words <= 2500, page.words


def test_the_readmes_first_command_installs_and_comes_on_the_first_screen() -> None:
    page = _measure().measure(README)
    lines = README.read_text(encoding="utf-8").splitlines()
    assert page.first_command_line is not None and page.first_command_line <= 25, page.first_command_line
    assert lines[page.first_command_line - 1].startswith("bash scripts/demo.sh"), lines[page.first_command_line - 1]


def test_the_readmes_sentences_are_short() -> None:
    page = _measure().measure(README)
    assert page.percentile(0.5) <= 14, sorted(page.sentences)


def test_the_readmes_test_command_is_the_one_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = next(line for line in ci.splitlines() if line.startswith("bash scripts/"))
    assert f"\n{command}  " in README.read_text(encoding="utf-8"), command


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation but hyphens dropped, spaces made hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    return {_slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", text, flags=re.MULTILINE)}


@pytest.mark.parametrize("page", [README, *sorted(DOCS.glob("*.md"))], ids=lambda p: p.name)
def test_every_link_leads_to_a_file_and_heading_that_exist(page: Path) -> None:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    broken = []
    for target, anchor in LINK.findall(text):
        path = (page.parent / target).resolve()
        if not path.exists():
            broken.append(target)
        elif anchor and path.suffix == ".md" and anchor not in _anchors(path):
            broken.append(f"{target}#{anchor}")
    assert not broken, f"{page.name}: {broken}"
