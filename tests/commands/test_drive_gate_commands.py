"""A GM's command on a Google match keeps the Drive gate's record as a poll keeps its own (issue 95, item 3): after
``adjust``, ``undo``, ``repair`` or ``resolve`` the next idle poll reads no spreadsheet and asks Drive once, on a
service account as on her own sign-in (``spreadsheets`` + ``drive.file``). The property walked: after any GM
command, the next poll reads every spreadsheet someone else changed (during the command or after it), and none that
only the command changed; a player's save is answered, never passed over."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sheets_gm.match.config import load_config
from sheets_gm.poll_gate import command_record, drive
from sheets_gm.poll_gate.state import load_state, state_path
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.sheets.google.backend import GoogleSheetBackend
from sheets_gm.sheets.google.signin import SIGN_IN_SCOPES
from tests.commands.test_commands_google import KEYS, run
from tests.commands.test_drive_gate import (  # noqa: F401 (the fixtures)
    Clock,
    asked,
    clock,
    fake,
    made_started,
    poll,
    started,
)
from tests.fakes.google_api import (
    BATCH_UPDATE,
    CHANGES,
    FILE_GET,
    READ,
    START_TOKEN,
    TOKEN_URL,
    WRITE,
    GoogleApiFake,
)
from tests.matchfiles import type_orders


def ready_to_undo(api: GoogleApiFake, ticks: Clock, capsys: pytest.CaptureFixture[str], config: Path) -> None:
    """Turn 1 resolved by a poll: ``undo`` has a window to take back."""
    type_orders(open_match_sheets(load_config(config)), ready=True)
    assert "Turn 1 resolved" in poll(api, ticks, capsys, config)[2]
    poll(api, ticks, capsys, config)


#: Each GM command: what the match needs first, and the command's arguments after ``-c CONFIG``.
COMMANDS: dict[str, tuple[Callable[..., None] | None, tuple[str, ...]]] = {
    "adjust": (None, ("adjust", "--coins", "red=5", "--reason", "judge's call")),
    "undo": (ready_to_undo, ("undo", "--reason", "wrong orders typed")),
    "repair": (None, ("repair",)),
    "resolve": (None, ("resolve", "--force", "--turn", "1")),
}


def on_her_sign_in(api: GoogleApiFake, ticks: Clock, capsys: pytest.CaptureFixture[str], config: Path) -> None:
    """The match played on the GM's own sign-in from now on (the api's OAuth mode: ``drive.file`` sees what
    sheets-gm made), polled once since (the config changed: that poll reads every spreadsheet)."""
    for key in KEYS.values():
        api.spreadsheets[key].by_app = True
    (config.parent / "client_secret.json").write_text(json.dumps(
        {"installed": {"client_id": "cid", "client_secret": "secret", "token_uri": TOKEN_URL}}), encoding="utf-8")
    token = config.parent / ".sheets-gm" / "oauth-token.json"
    api.users["refresh-gm"] = "gm@example.com"
    token.write_text(json.dumps({"refresh_token": "refresh-gm", "client_id": "cid", "client_secret": "secret",
                                 "token_uri": TOKEN_URL, "scopes": list(SIGN_IN_SCOPES)}), encoding="utf-8")
    token.chmod(0o600)
    text = config.read_text(encoding="utf-8").replace('service_account = "sa.json"',
                                                      'oauth_client = "client_secret.json"')
    config.write_text(text, encoding="utf-8")
    assert poll(api, ticks, capsys, config)[0] == 4


def ann_destination(api: GoogleApiFake, seat: str) -> str:
    """The destination cell of the first player of ``seat``'s orders (column D of her row)."""
    tab = f"Orders {seat}"
    row = next(i for i, r in enumerate(api.values(KEYS[seat], tab), 1) if r and r[0] in ("Ann", "Cat"))
    return f"'{tab}'!D{row}"


#: When a player saves, around a GM's command: between its read and its write of her spreadsheet (the write is
#: guarded: ``tests/sync/test_command_save_races.py``); right after that write, before Drive's version of it is asked;
#: after its writes, before Drive's version of what it reads again is asked; after that, before that read; once it is
#: over.
MOMENTS = ("writing", "answering", "asking", "reading", "after")


def commanded(api: GoogleApiFake, ticks: Clock, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
              config: Path, name: str, save: tuple[str, str] | None) -> set[str]:
    """The GM's command ``name``, a player saving ``save`` = (seat, one of :data:`MOMENTS`); returns the spreadsheets
    the command wrote."""
    first, argv = COMMANDS[name]
    if first is not None:
        first(api, ticks, capsys, config)
    ticks.tick()
    wrote: set[str] = set()
    real_write, real_layout = GoogleSheetBackend.write, GoogleSheetBackend.apply_layout
    real_versions = drive.versions_before

    def saves(moment: str) -> None:
        if save is not None and save[1] == moment:
            api.set_values(KEYS[save[0]], ann_destination(api, save[0]), [["ZZ99"]])
            save_made.append(moment)

    def write(self: GoogleSheetBackend, *args: Any, **kwargs: Any) -> Any:
        wrote.add(self.key)
        return real_write(self, *args, **kwargs)

    def layout(self: GoogleSheetBackend, *args: Any, **kwargs: Any) -> Any:
        wrote.add(self.key)
        return real_layout(self, *args, **kwargs)

    def versions(*args: Any) -> Any:
        saves("asking")
        answer = real_versions(*args)
        saves("reading")
        return answer

    real_after_write = drive.version_after_write

    def after_write(log: Any) -> Any:
        ask = real_after_write(log)

        def asked_after_saving(key: str) -> Any:
            if save is not None and key == KEYS[save[0]]:  # right after the command's write of her spreadsheet
                saves("answering")
            return ask(key)
        return asked_after_saving

    save_made: list[str] = []
    if save is not None and save[1] == "writing":  # lands as the command's write of her spreadsheet arrives
        api.save_before_write(KEYS[save[0]], ann_destination(api, save[0]), [["ZZ99"]])
        save_made.append("writing")
    with monkeypatch.context() as patch:
        patch.setattr(command_record, "version_after_write", after_write)
        patch.setattr(GoogleSheetBackend, "write", write)
        patch.setattr(GoogleSheetBackend, "apply_layout", layout)
        patch.setattr(drive, "versions_before", versions)
        patch.setattr(command_record, "versions_before", versions)
        code, _, err = run(capsys, argv[0], "-c", config, *argv[1:])
    assert code == 0, err
    saves("after")
    assert save is None or save_made, save  # (the moment came)
    return wrote


def the_poll_after(api: GoogleApiFake, ticks: Clock, capsys: pytest.CaptureFixture[str], config: Path,
                   save: tuple[str, str] | None) -> None:
    """The property, at the poll after the command: it reads the spreadsheet a player saved (and answers her save),
    and no other but where it answers what the command left to answer (an undo's orders put back); with neither,
    nothing at all, and Drive once; the poll after it reads nothing."""
    reads, drive, out = poll(api, ticks, capsys, config, "--quiet")
    saved = set() if save is None else {KEYS[save[0]]}
    answered = set(asked(api, WRITE, BATCH_UPDATE))
    assert saved <= set(asked(api, READ)) <= saved | answered, out
    if save is not None:
        row = next(r for r in api.values(KEYS[save[0]], f"Orders {save[0]}") if "ZZ99" in r)
        assert "off the board" in str(row[-1]), row  # her save answered
    elif not answered:
        assert (reads, drive, api.calls(FILE_GET)) == (0, 1, 0), out
    assert api.calls(CHANGES) + api.calls(START_TOKEN) == 1
    assert poll(api, ticks, capsys, config, "--quiet")[:2] == (0, 1)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_poll_after_a_gms_command_reads_no_spreadsheet(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    wrote = commanded(fake, clock, capsys, monkeypatch, started, name, None)
    assert wrote  # (the command wrote the match)
    the_poll_after(fake, clock, capsys, started, None)
    state = load_state(state_path(started))
    assert state is not None and len(state.versions) == 4 and not state.written  # what a poll keeps


def test_on_her_own_sign_in_too(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    on_her_sign_in(fake, clock, capsys, started)
    commanded(fake, clock, capsys, monkeypatch, started, "adjust", None)
    the_poll_after(fake, clock, capsys, started, None)


#: A few of the walk's cases, quick; the whole walk runs under ``-m soak``.
QUICK = [("adjust", ("red", "answering")), ("undo", ("blue", "reading")), ("repair", ("red", "asking")),
         ("adjust", ("blue", "after")), ("adjust", ("red", "writing"))]
#: Cases the walk leaves out: a repair lays its tabs out (every one is read again); an undo puts her turn's order
#: back in the very cell she saves in, which Google, with no conditional write, writes over (docs/sync.md, "When a
#: save races the sync").
PASSED_OVER = {("repair", "answering"), ("undo", "writing")}
WALK = [(name, (seat, moment)) for name in sorted(COMMANDS) if name != "resolve" for seat in ("red", "blue")
        for moment in MOMENTS
        if (name, moment) not in PASSED_OVER]


def walked(api: GoogleApiFake, ticks: Clock, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
           config: Path, name: str, save: tuple[str, str]) -> None:
    commanded(api, ticks, capsys, monkeypatch, config, name, save)
    the_poll_after(api, ticks, capsys, config, save)


@pytest.mark.parametrize(("name", "save"), QUICK)
def test_a_players_save_during_or_after_a_gms_command_is_read(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch, name: str, save: tuple[str, str]) -> None:
    walked(fake, clock, capsys, monkeypatch, started, name, save)


@pytest.mark.soak
@pytest.mark.parametrize(("name", "save"), [case for case in WALK if case not in QUICK])
def test_every_players_save_around_every_gms_command_is_read(
        fake: GoogleApiFake, clock: Clock, started: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch, name: str, save: tuple[str, str]) -> None:
    walked(fake, clock, capsys, monkeypatch, started, name, save)
