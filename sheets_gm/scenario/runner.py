"""Running scenario files and folders: one line per scenario, a failure count to exit on."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from sheets_gm.engine.events import Event
from sheets_gm.engine.settings import SettingError, parse_settings
from sheets_gm.lined import LinedDict
from sheets_gm.rulesets.parts.fields import Fields, ScenarioError
from sheets_gm.rulesets.registry import UnknownRulesetError, get_game
from sheets_gm.scenario.play import play
from sheets_gm.yamlio import YamlError, load_yaml_file


@dataclass(slots=True)
class ScenarioOutcome:
    """What running a scenario found."""

    name: str
    differences: list[str]
    unused_pins: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """Whether every expectation held."""
        return not self.differences


def scenario_files(paths: Iterable[Path]) -> Iterator[Path]:
    """The scenario files named, folders searched for ``*.yaml`` / ``*.yml`` in name order."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml"))
        else:
            yield path


def run_file(path: Path) -> ScenarioOutcome:
    """Load and run one scenario file; a malformed file raises ScenarioError or YamlError."""
    doc = load_yaml_file(path)
    fields = Fields(str(path))
    if not isinstance(doc, LinedDict):
        raise ScenarioError(f"{path}: a scenario is a YAML mapping (name:, ruleset:, map: ...)")
    try:
        game = get_game(str(doc.get("ruleset", "")))
    except UnknownRulesetError as exc:
        raise fields.fail(doc.line_of("ruleset"), str(exc)) from None
    if game.scenario is None:
        raise fields.fail(doc.line_of("ruleset"), f"the {game.traits.title} game has no scenario files")
    ruleset = game.rules
    codec = game.scenario()
    fields.mapping(doc, 1, "the scenario", codec.keys)
    name = fields.text(doc.get("name"), doc.line_of("name"), "name")
    try:
        given = fields.mapping(doc.get("settings"), doc.line_of("settings"), "settings")
        settings = parse_settings(ruleset.traits.settings_type, given)
    except SettingError as exc:
        raise fields.fail(doc.line_of("settings"), str(exc)) from None
    run = play(codec.load(doc, fields, settings), fields)
    expect = fields.mapping(doc.get("expect"), doc.line_of("expect"), "expect")
    log = "\n".join(event.text for event in run.events).lower()
    missing = [f"log_contains: {phrase!r} is not in the log"
               for phrase in fields.sequence(expect.get("log_contains"), expect.line_of("log_contains"), "log_contains")
               if str(phrase).lower() not in log]
    return ScenarioOutcome(name, run.differences + missing, run.unused_pins, run.events)


def run_paths(paths: Iterable[Path], echo: bool = True) -> tuple[int, int]:
    """Run every scenario under ``paths``; print a line each; return (passed, failed)."""
    passed = failed = 0
    for path in scenario_files(paths):
        try:
            outcome = run_file(path)
        except (ScenarioError, YamlError) as exc:
            failed += 1
            if echo:
                print(f"ERROR {exc}")
            continue
        if outcome.passed:
            passed += 1
            line = f"pass  {outcome.name}"
        else:
            failed += 1
            line = f"FAIL  {outcome.name} ({path}): {outcome.differences[0]}"
        if echo:
            print(line)
            if outcome.unused_pins:
                print(f"      note: pinned but never rolled: {', '.join(outcome.unused_pins)}")
    return passed, failed
