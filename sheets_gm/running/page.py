"""The match page of a configured match (``[sheets] web``, ``web/`` beside the config by default), brought up to
date by every command that changes the match, under its lock: every poll that read (a resolution, a GM's change
seen), ``undo`` and ``adjust`` (their ``facts``). A build that finds the match as the page was last built for writes
nothing, and draws nothing."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable
from pathlib import Path

from jinja2 import TemplateError

from sheets_gm.match.config import ConfigError, MatchConfig, load_config
from sheets_gm.notify.announce import spreadsheet_link
from sheets_gm.sync.poll_facts import PollFacts
from sheets_gm.web.page import marker_of, page_input
from sheets_gm.web.server import HostedPage
from sheets_gm.web.site import build_site, built_for


def publish_page(config: MatchConfig, facts: PollFacts | None) -> str:
    """Bring the match page up to the poll's ``facts``; '' when it is (or the match has none), else a line for the
    GM saying why it could not be written (the poll itself stands: the page is a view, never the match)."""
    if config.web is None or facts is None:
        return ""
    try:
        if facts.resolved is None and built_for(config.web) == marker_of(facts.record):
            return ""
        build_site(config.web, page_input(facts, config.title, spreadsheet_link(config, config.board)))
    except (OSError, TemplateError) as exc:
        return f"the match page in {config.web} was not written ({exc}); the match itself is as the poll left it"
    return ""


#: The file in a page's folder that keeps the name its address takes (hidden: the server never serves it).
ADDRESS_FILE = ".address"


class PageNames:
    """The names the pages' addresses take, stable for the life of each match: a match keeps the name it was first
    given, kept in its page folder's ``.address`` (written when the name is given, the folder made for it when it
    has no page yet), so a host started again gives it the same, whatever folder sorts before it since. Every name
    kept is taken before any newcomer is named (a match added while the host was down never takes an older one's);
    a name once given is never given to another match while the host runs (a match gone keeps its name from a
    newcomer). A newcomer's name is its config's file name without ``.toml``, made unique with ``-2``, ``-3``…"""

    def __init__(self) -> None:
        self.given: dict[Path, str] = {}  # each config (resolved) and the name it was given
        self._naming = threading.Lock()  # the server's threads ask at once: one names at a time

    def names_of(self, pages: Iterable[tuple[Path, Path]]) -> dict[Path, str]:
        """The name of each of ``pages`` (a config, and its page folder), by config: first the names kept in the
        folders (a name two folders keep goes to the first), then each newcomer's."""
        pages = list(pages)
        with self._naming:
            return self._named(pages)

    def _named(self, pages: list[tuple[Path, Path]]) -> dict[Path, str]:
        fresh = [(config, config.resolve(), folder) for config, folder in pages if config.resolve() not in self.given]
        taken = set(self.given.values())
        newcomers = []
        for config, key, folder in fresh:
            kept = _kept_name(folder)
            if kept and kept not in taken:
                self.given[key] = kept
                taken.add(kept)
            else:
                newcomers.append((config, key, folder))
        for config, key, folder in newcomers:
            name, n = config.stem, 1
            while name in taken:
                n += 1
                name = f"{config.stem}-{n}"
            self.given[key] = name
            taken.add(name)
            _keep_name(folder, name)
        return {config: self.given[config.resolve()] for config, _ in pages}


def _kept_name(folder: Path) -> str:
    """The name ``folder``'s ``.address`` keeps ('' for none, or one no address can take)."""
    try:
        kept = (folder / ADDRESS_FILE).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return "" if "/" in kept or kept.startswith(".") else kept


def _keep_name(folder: Path, name: str) -> None:
    """Keep ``name`` in ``folder``'s ``.address``, the folder made when it has no page yet (a name kept only from
    the first build on could go to another match a restart names first); a folder that cannot be written keeps
    none (its match keeps the name while the host runs)."""
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / ADDRESS_FILE).write_text(name + "\n", encoding="utf-8")


def hosted_pages(configs: Iterable[Path], names: PageNames | None = None) -> dict[str, HostedPage]:
    """The page of each of ``configs`` that publishes one, by the name its address takes (``names``: the host's,
    which keeps each match's name for its life; a new one each call otherwise); a config that does not load is left
    out (the host says why)."""
    names = names if names is not None else PageNames()
    loaded: dict[Path, HostedPage] = {}
    for path in configs:
        try:
            config = load_config(path)
        except ConfigError:
            continue
        if config.web is not None:
            loaded[path] = HostedPage(config.title, config.web)
    named = names.names_of((path, page.folder) for path, page in loaded.items())
    return {named[path]: page for path, page in loaded.items()}
