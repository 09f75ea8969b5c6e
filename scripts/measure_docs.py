"""The documents' words: how long a page is, how long its sentences are, and how soon it gives a command to run.

For each Markdown file named (default: README.md and every page under docs/), one line: its lines, its words (as
``wc -w`` counts them), its sentences' lengths in words (median, 90th percentile, longest) and where its first
runnable command is (the line and the words before it). A runnable command is the first line of a ``sh``, ``bash``
or ``console`` code block. Sentences are counted in the prose alone: code blocks, tables and headings are left out,
and a list item or a paragraph ends a sentence as a full stop does.

    .venv/bin/python scripts/measure_docs.py                  # README.md, then docs/README.md and every page
    .venv/bin/python scripts/measure_docs.py README.md docs/gm-guide.md
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNNABLE_FENCES = ("sh", "bash", "console", "shell")
SENTENCE_END = re.compile(r"(?<=[.!?])[)\"'*_`]*\s+(?=[A-Z(`*\"'])")
LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


@dataclass(frozen=True)
class PageWords:
    """One page's figures."""

    name: str
    lines: int
    words: int
    sentences: list[int]
    first_command_line: int | None
    words_before_command: int | None

    def percentile(self, share: float) -> int:
        """The sentence length below which ``share`` of the sentences fall (nearest rank)."""
        if not self.sentences:
            return 0
        ranked = sorted(self.sentences)
        return ranked[min(len(ranked) - 1, max(0, round(share * len(ranked)) - 1))]


def prose_blocks(lines: Sequence[str]) -> Iterator[str]:
    """The page's prose, a paragraph or a list item at a time, without code, tables or headings."""
    block: list[str] = []
    fenced = False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
            yield " ".join(block)
            block = []
            continue
        if fenced or stripped.startswith(("|", "#")) or not stripped or LIST_MARK.match(line):
            yield " ".join(block)
            block = [LIST_MARK.sub("", line).strip()] if LIST_MARK.match(line) and not fenced else []
            continue
        block.append(stripped)
    yield " ".join(block)


def sentence_lengths(lines: Sequence[str]) -> list[int]:
    """The length in words of every sentence of the page's prose."""
    lengths = []
    for block in prose_blocks(lines):
        for sentence in SENTENCE_END.split(block):
            words = len(sentence.split())
            if words:
                lengths.append(words)
    return lengths


def first_command(lines: Sequence[str]) -> tuple[int | None, int | None]:
    """The line number of the first runnable command, and the words of the page before it."""
    fenced = False
    runnable = False
    words = 0
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
            runnable = fenced and stripped[3:].strip().lower() in RUNNABLE_FENCES
            continue
        if fenced and runnable and stripped and not stripped.startswith("#"):
            return number, words
        words += len(line.split())
    return None, None


def measure(path: Path) -> PageWords:
    """One page's figures."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    line, before = first_command(lines)
    name = str(path.resolve().relative_to(ROOT)) if path.resolve().is_relative_to(ROOT) else str(path)
    return PageWords(name, len(lines), len(text.split()), sentence_lengths(lines), line, before)


def row(page: PageWords) -> str:
    """One page as a line of the table."""
    median = statistics.median(page.sentences) if page.sentences else 0
    command = f"line {page.first_command_line}, {page.words_before_command} words in" \
        if page.first_command_line else "none"
    return (f"| {page.name} | {page.lines} | {page.words} | {median:g} | {page.percentile(0.9)} | "
            f"{max(page.sentences, default=0)} | {command} |")


def default_pages() -> list[Path]:
    """README.md, then the docs' map, then every other docs page in name order."""
    docs = sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "README.md")
    return [ROOT / "README.md", ROOT / "docs" / "README.md", *docs]


def main(argv: Sequence[str] | None = None) -> int:
    """Print a Markdown table of the pages' figures, and the docs' total."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="*", type=Path, help="Markdown files (default: README.md and docs/*.md)")
    args = parser.parse_args(argv)
    pages = [p for p in (args.pages or default_pages()) if p.is_file()]
    missing = [str(p) for p in args.pages if not p.is_file()]
    if missing:
        print(f"no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    print("| Page | Lines | Words | Sentence median | 90th percentile | Longest | First runnable command |")
    print("|---|---|---|---|---|---|---|")
    figures = [measure(p) for p in pages]
    for page in figures:
        print(row(page))
    print(f"\n{len(figures)} pages, {sum(p.lines for p in figures)} lines, {sum(p.words for p in figures)} words.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
