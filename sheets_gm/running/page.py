"""The match page of a configured match (``[sheets] web``, ``web/`` beside the config by default), brought up to
date by every command that changes the match, under its lock: every poll that read (a resolution, a GM's change
seen), ``undo`` and ``adjust`` (their ``facts``). A build that finds the match as the page was last built for writes
nothing, and draws nothing."""

from __future__ import annotations

import contextlib
import itertools
import os
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from jinja2 import TemplateError

from sheets_gm.match.config import ConfigError, MatchConfig, read_page
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
        self._tried: dict[str, int] = {}  # each file name's number last given to a newcomer

    def names_of(self, pages: Iterable[tuple[Path, Path]], *, newcomers: bool = True) -> dict[Path, str]:
        """The name of each of ``pages`` (a config, and its page folder), by config: first the names kept in the
        folders (a name two folders keep goes to the first), then each newcomer's (unless not ``newcomers``: those
        are left out, to be named once every kept name is known)."""
        pages = list(pages)
        with self._naming:
            return self._named(pages, newcomers)

    def _named(self, pages: list[tuple[Path, Path]], newcomers: bool) -> dict[Path, str]:
        resolved = [(config, config.resolve(), folder) for config, folder in pages]
        fresh = [(config, key, folder) for config, key, folder in resolved if key not in self.given]
        taken = set(self.given.values())
        waiting = []
        for config, key, folder in fresh:
            kept = _kept_name(folder)
            if kept and kept not in taken:
                self.given[key] = kept
                taken.add(kept)
            else:
                waiting.append((config, key, folder))
        for config, key, folder in waiting if newcomers else ():
            n = self._tried.get(config.stem, 1)  # (every name below is taken, and stays so: counting from 1 again
            name = config.stem if n == 1 else f"{config.stem}-{n}"  # for each match.toml was quadratic)
            while name in taken:
                n += 1
                name = f"{config.stem}-{n}"
            self._tried[config.stem] = n
            self.given[key] = name
            taken.add(name)
            _keep_name(folder, name)
        return {config: self.given[key] for config, key, _ in resolved if key in self.given}


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


def _page_of(path: Path) -> HostedPage | None:
    """The page ``path``'s config publishes (None: it publishes none, or does not read): ``read_page``, not the
    whole ``load_config`` (a sixth of its cost)."""
    try:
        title, folder = read_page(path)
    except ConfigError:
        return None
    return HostedPage(title, folder) if folder is not None else None


#: The newcomers (no name kept in their folder) a request names at most: the rest wait for the next requests.
NEWCOMERS_A_REQUEST = 200
#: How often the page index looks again at the identity of every config it serves (a title or page folder changed).
CHECK_SECONDS = 5.0

_Identity = tuple[int, int, int] | None


def _identity(path: Path) -> _Identity:
    """The config file's identity on disk (inode, size, modification time), None when it cannot be looked at."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_ino, status.st_size, status.st_mtime_ns


class PageIndex:
    """The pages ``serve --web`` serves, kept between its requests: ``configs`` says which matches are hosted (the
    host's list: the same sequence while no match came or left), each config is loaded when it first comes and again
    only when its file changed (every config's identity looked at no more often than every ``check_seconds``), and
    a name is given (``PageNames``) to each page as it comes (a newcomer's once the host listed every match, a few
    a request). A request thus costs a look at a list, not a load of
    every config: at 10,000 matches that load took seconds a request. Called from the server's threads."""

    def __init__(self, configs: Callable[[], Sequence[Path]], names: PageNames | None = None, *,
                 settled: Callable[[], bool] = lambda: True, check_seconds: float = CHECK_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._configs = configs
        self._names = names if names is not None else PageNames()
        self._settled = settled  # whether ``configs`` lists every match (the host's first search ended)
        self._check_seconds = check_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._listed: Sequence[Path] | None = None  # the host's list the pages were last made from
        self._checked_at = -float("inf")
        self._loaded: dict[Path, tuple[_Identity, HostedPage | None]] = {}
        self._name_of: dict[Path, str] = {}  # each config with a page served, and its page's name
        self._unnamed: dict[Path, HostedPage] = {}  # pages with no name kept, named once every match is listed
        self._pages: dict[str, HostedPage] = {}  # a new dict at each change: a request may still read the last

    def __call__(self) -> dict[str, HostedPage]:
        """The pages served now, by the name each address takes."""
        with self._lock:
            listed = self._configs()
            now = self._clock()
            check = now - self._checked_at >= self._check_seconds
            settled = self._settled()
            if listed is self._listed and not check and not (self._unnamed and settled):
                return self._pages
            if check:
                self._checked_at = now
            changed = self._load(listed, check)
            if changed or (self._unnamed and settled):
                self._serve(changed, settled)
            self._listed = listed
            return self._pages

    def _load(self, listed: Sequence[Path], check: bool) -> dict[Path, HostedPage | None]:
        """Each config of ``listed`` loaded when new (or, with ``check``, changed on disk), those gone forgotten:
        the configs whose page came, went or changed, and each one's page now (None: gone)."""
        changed: dict[Path, HostedPage | None] = {}
        for path in self._loaded.keys() - set(listed):
            if self._loaded.pop(path)[1] is not None:
                changed[path] = None
        for path in listed:
            kept = self._loaded.get(path)
            if kept is not None and not check:
                continue
            identity = _identity(path)
            if kept is not None and kept[0] == identity:
                continue
            page = _page_of(path)
            if page != (kept[1] if kept is not None else None):
                changed[path] = page
            self._loaded[path] = (identity, page)
        return changed

    def _serve(self, changed: dict[Path, HostedPage | None], settled: bool) -> None:
        """The pages served with ``changed``'s: a page gone no longer served, a new one named (``PageNames``): at
        once when its folder keeps its name, else once every match is listed (``settled``: a newcomer found first
        in a host's first search must not take the name another match, found later, kept)."""
        pages = dict(self._pages)
        fresh: dict[Path, HostedPage] = {}
        for path, page in changed.items():
            if page is None:
                self._unnamed.pop(path, None)
                if path in self._name_of:
                    del pages[self._name_of.pop(path)]
            elif path in self._name_of:
                pages[self._name_of[path]] = page
            else:
                fresh[path] = page
        self._unnamed.update(fresh)
        named = self._names.names_of(((path, page.folder) for path, page in fresh.items()), newcomers=False)
        if settled:  # those with no name kept: a few a request (nobody has their address yet; naming 10,000 at
            # once held a request for tens of seconds)
            waiting = itertools.islice(((p, page.folder) for p, page in self._unnamed.items() if p not in named),
                                       NEWCOMERS_A_REQUEST)
            named.update(self._names.names_of(list(waiting)))
        for path, name in named.items():
            pages[name] = self._unnamed.pop(path)
            self._name_of[path] = name
        self._pages = pages
