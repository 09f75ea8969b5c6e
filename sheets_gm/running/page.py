"""The match page of a configured match (``[sheets] web``, ``web/`` beside the config by default), brought up to
date after every poll that read: the one place after a committed change (a resolution, or the first poll after an
``undo``, an ``adjust`` or any GM's change, whose gate record ``gm_change`` forgets so that the poll reads). A
poll that finds the match as the page was last built for writes nothing, and draws nothing."""

from __future__ import annotations

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


def hosted_pages(configs: Iterable[Path]) -> dict[str, HostedPage]:
    """The page of each of ``configs`` that publishes one, by the name its address takes (the config's file name
    without ``.toml``, made unique with ``-2``, ``-3``…); a config that does not load is left out (the host says
    why)."""
    found: dict[str, HostedPage] = {}
    for path in configs:
        try:
            config = load_config(path)
        except ConfigError:
            continue
        if config.web is None:
            continue
        name, n = path.stem, 1
        while name in found:
            n += 1
            name = f"{path.stem}-{n}"
        found[name] = HostedPage(config.title, config.web)
    return found
