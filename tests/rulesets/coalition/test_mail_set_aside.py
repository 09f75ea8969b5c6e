"""Mailed orders an undo sets aside (a defect a tester found playing by mail): the undo of turn 1 sets aside the
lines typed since for turn 2, and a player who only mails was never told. Each such mail's sender gets one letter,
naming her own lines set aside, the GM's undo and its reason, and the window to mail them again for; nobody else
gets it, and no later poll sends it again."""

from __future__ import annotations

from pathlib import Path

from sheets_gm.cli import main
from sheets_gm.notify.outbox import Outbox
from sheets_gm.running.mailroom.door import with_mail
from sheets_gm.running.run import sync_once
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sync.read import read_match
from tests.rulesets.coalition.test_mail_door import CLS, NOW, Box, _forum, _match, mail

CY = "Urza's Vanguard: Dominaria; 5C > 5D"
ANN = "Rabid Cat: Dominaria; 3D > 3E"  # typed by hand in the sheet
BO = "Various Puppies: Dominaria; 4C > 4B"
REASON = "Bo's turn 1 order was typed into the wrong row"


def _aside_letters(config_path: Path) -> dict[str, list[str]]:
    """The letters about lines set aside that the outbox holds, by recipient: each one's addresses and body."""
    out: dict[str, list[str]] = {}
    for letter in Outbox.of(config_path).waiting():
        if "/mail-receipt/" not in letter.key:
            out.setdefault(letter.recipient, []).append(f"{letter.to}\n{letter.subject}\n{letter.body}")
    return out


def test_an_undo_tells_each_mailed_lines_sender_alone_which_of_her_lines_it_set_aside(tmp_path: Path) -> None:
    config, sheets = _match(tmp_path)
    box = Box([mail(1, "ann@example.org", "Turn 1 moves", "Rabid Cat: Dominaria; 3C > 3D")])
    with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW, force=True), box)  # turn 2 opens
    box.mails += [mail(2, "cy@example.org", "Turn 2 moves", CY, minutes=5),
                  mail(3, "bo@example.org", "Turn 2 moves", BO, minutes=6)]
    with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW), box)
    assert [t for t, _f in _forum(sheets)][1:] == [CY] and [t for t, _f in _forum(sheets, "phyrexia")][1:] == [BO]
    forum = read_match(sheets, CLS).seats["coalition"].tab.table("post")
    sheets.of("coalition").write([RangeWrite(forum.at(forum.cell(2, "line")), [[ANN]])])  # Ann types by hand
    sync_once(config, sheets, now=NOW)
    assert [t for t, _f in _forum(sheets)][1:] == [CY, ANN] and _aside_letters(config.path) == {}

    assert main(["undo", "-c", str(config.path), "--reason", REASON]) == 0
    letters = _aside_letters(config.path)
    # Ann's turn 1 mail came back with its window, and her turn 2 line was typed by hand: no letter for her
    assert sorted(letters) == ["bo@example.org", "cy@example.org"]
    for sender, mine in (("cy", CY), ("bo", BO)):
        (text,) = letters[f"{sender}@example.org"]
        assert text.startswith(f"('{sender}@example.org',)\n")
        assert text.count(mine) == 1 and not any(line in text for line in {CY, BO, ANN} - {mine})
        assert REASON in text and "undo" in text and "turn 1 · orders" in text
        assert "mail them again once turn 2 · orders is open" in text

    with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW), box)  # the next poll: nothing again
    assert {k: len(v) for k, v in _aside_letters(config.path).items()} == {"bo@example.org": 1, "cy@example.org": 1}
