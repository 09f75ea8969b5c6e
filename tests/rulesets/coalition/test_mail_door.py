"""The judge's mailbox's door in a local Coalition match (issue 73): a movement mail's lines typed into the sender's
side's Forum tab under a heading, answered by the poll as pasted lines are, idempotently; a strategy kept in the
judge's record only; a receipt to each sender alone, quoting her lines' answers or why nothing was read."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from openpyxl import load_workbook

from sheets_gm.engine.ruleset import JUDGE
from sheets_gm.mailbox.message import Mail
from sheets_gm.match.config import MatchConfig, load_config
from sheets_gm.notify.outbox import Outbox
from sheets_gm.rulesets.coalition.mail.filing import CoalitionMail
from sheets_gm.rulesets.registry import get_ruleset
from sheets_gm.running.connect import open_match_sheets
from sheets_gm.running.mailroom.deadline import close_sealed
from sheets_gm.running.mailroom.door import answer_mails, file_mails, poll_with_mail, with_mail
from sheets_gm.running.mailroom.record import MailRecord
from sheets_gm.running.mailroom.status import mail_status_lines
from sheets_gm.running.run import layout_owners, sync_once
from sheets_gm.sheets.backend import RangeWrite
from sheets_gm.sync.life import grow
from sheets_gm.sync.life.adjust_undo import undo_window
from sheets_gm.sync.read import read_match
from sheets_gm.sync.sheets import MatchSheets
from tests.rulesets.coalition.helpers import MAIL_ARMIES, ROSTER_COLUMNS, local_match, looking

NOW = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
CLS = get_ruleset("coalition")
ARMIES = MAIL_ARMIES


def _match(tmp_path: Path) -> tuple[MatchConfig, MatchSheets]:
    return local_match(tmp_path, ARMIES, b"mail door", NOW, (*ROSTER_COLUMNS, "player", "email"))


def mail(uid: int, sender: str, subject: str, *lines: str, minutes: int = 0, answer: bool = True) -> Mail:
    """A mail as the mailbox's reader makes it."""
    return Mail(uid, 1, f"<m{uid}@example.org>", sender, "", NOW + dt.timedelta(minutes=minutes), subject,
                "\n".join(lines), answer=answer)


class Box:
    """The mailbox's side of the door, as the reader's ledger keeps it: the mail not finished comes back."""

    def __init__(self, mails: Sequence[Mail]) -> None:
        self.mails = list(mails)
        self.finished: list[int] = []
        self.said: list[str] = []

    def new_mail(self) -> list[Mail]:
        return [m for m in self.mails if m.uid not in self.finished]

    def finish(self, mails: Sequence[Mail]) -> None:
        self.finished += [m.uid for m in mails]

    def say(self, text: str) -> None:
        self.said.append(text)


def _forum(sheets: MatchSheets, side: str = "coalition") -> list[tuple[str, str]]:
    seat = read_match(sheets, CLS).seats[side]
    rows = sorted((r for r in seat.rows if r.table == "post"), key=lambda r: r.row)
    return [(r.text("line"), r.feedback) for r in rows if r.text("line")]


def _receipts(config: MatchConfig) -> dict[str, str]:
    return {letter.recipient: letter.body for letter in Outbox.of(config.path).waiting()}


def test_a_players_movement_mail_is_typed_in_her_sides_forum_tab_answered_and_receipted(tmp_path: Path) -> None:
    config, sheets = _match(tmp_path)
    box = Box([mail(1, "ann@example.org", "Turn 1 moves", "Hi judge,", "Rabid Cat: Dominaria; 3C > 3D",
                    "Urza's Vanguard: Dominaria; 5C > 5D", "Rabit Cat: Dominaria; 3C > 3B"),
               mail(2, "stranger@example.org", "orders", "Rabid Cat: Dominaria; 3C > 2C"),
               mail(3, "bo@example.org", "moves", "Various Puppies: Dominaria; 4C > 4D"),
               mail(4, "judge-bot@example.org", "Auto: out of office", "away", answer=False)])
    with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW), box)
    lines = _forum(sheets)
    assert lines[0][0].startswith("✉ ann@example.org, Sun 22 Nov 12:00:00 UTC: Turn 1 moves #")
    assert "heading of a mail" in lines[0][1]
    assert lines[1][0] == "Rabid Cat: Dominaria; 3C > 3D" and lines[1][1].startswith("✔ read as Rabid Cat's order")
    assert lines[2][0] == "Rabit Cat: Dominaria; 3C > 3B" and "did you mean Rabid Cat?" in lines[2][1]
    assert len(lines) == 3  # the leader's army and the greeting were not typed
    assert lines[2][1].startswith("✘ the mailed line 'Rabit Cat: Dominaria; 3C > 3B' names no army")  # not pasted
    (army,) = [r for r in read_match(sheets, CLS).seats["coalition"].rows if r.subject == "Rabid Cat"]
    assert "ordered by ann@example.org's mail of Sun 22 Nov 12:00 in coalition line 2" in army.feedback
    assert "pasted" not in army.feedback + "".join(f for _t, f in lines)
    assert [t for t, _f in _forum(sheets, "phyrexia")][1:] == ["Various Puppies: Dominaria; 4C > 4D"]
    said = _receipts(config)
    assert set(said) == {"ann@example.org", "stranger@example.org", "bo@example.org"}  # never the robot
    ann = said["ann@example.org"]
    assert "Rabid Cat: Dominaria; 3C > 3D\n    ✔ read as Rabid Cat's order" in ann
    assert "did you mean Rabid Cat?" in ann and "Urza's Vanguard is Cy's army" in ann
    assert "Passed over (no army's order): Hi judge," in ann
    assert "Various Puppies" not in ann and "Various Puppies" not in said["stranger@example.org"]
    assert "was not read: it is no player's address in the match's roster" in said["stranger@example.org"]
    assert "orders" not in said["stranger@example.org"]  # nothing of a stranger's mail is echoed (issue 91)
    assert box.finished == [1, 2, 3, 4]
    record = json.loads(MailRecord.of(config.path).path.read_text(encoding="utf-8"))
    assert not record["mail"]["m4@example.org"]["answer"]
    assert MailRecord.of(config.path).path.stat().st_mode & 0o077 == 0


def test_a_poll_cut_after_the_typing_types_the_same_cells_again(tmp_path: Path) -> None:
    """Filed, typed, then cut before the receipt and the mailbox's finish: the next poll files the mail again into
    the same rows (its heading found), never a second copy below; a later mail goes below it."""
    config, sheets = _match(tmp_path)
    first = mail(1, "ann@example.org", "moves", "Rabid Cat: Dominaria; 3C > 3D")
    file_mails(config, [first], NOW)  # the cut: no poll, no answer, not finished
    box = Box([first, mail(2, "ann@example.org", "moves again", "Rabid Cat: Dominaria; 3C > 2C", minutes=5)])
    with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW), box)
    lines = _forum(sheets)
    assert [t for t, _f in lines][1:] == ["Rabid Cat: Dominaria; 3C > 3D", lines[2][0],
                                          "Rabid Cat: Dominaria; 3C > 2C"]
    assert lines[2][0].startswith("✉ ann@example.org") and "moves again" in lines[2][0]
    assert "replaces this one" in lines[1][1]  # the later mail's line stands
    assert lines[3][1].startswith("✔ read as Rabid Cat's order")
    assert "3C > 2C\n    ✔ read as" in _receipts(config)["ann@example.org"]


def test_a_strategy_mail_is_kept_for_the_judge_only(tmp_path: Path) -> None:
    config, sheets = _match(tmp_path)
    box = Box([mail(1, "ann@example.org", "Turn 1", "Rabid Cat: Dominaria; 3C > 4C - engage Various Puppies")])
    with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW, force=True), box)
    state = read_match(sheets, CLS).record.state
    assert [b.armies for b in state.battles] == [("Rabid Cat", "Various Puppies")]
    before = {p: p.read_bytes() for p in tmp_path.rglob("*.xlsx") if p.name != "judge.xlsx"}
    box = Box([mail(2, "ann@example.org", "Ann: Rabid Cat attacks Various Puppies [Kill Attempt]", "Flank left.",
                    minutes=10),
               mail(3, "ann@example.org", "Ann: Rabid Cat attacks Various Puppies - contingency", "Hold.",
                    minutes=11),
               mail(4, "ann@example.org", "Ann: Rabid Cat attacks Various Puppies", "Charge!", minutes=12)])
    filed = file_mails(config, box.mails, NOW)
    assert {p: p.read_bytes() for p in tmp_path.rglob("*.xlsx") if p.name != "judge.xlsx"} == before  # no seat's
    answer_mails(config, filed, lambda: NOW)
    kept = [s for _e, s in MailRecord.of(config.path).sealed()]
    assert [(s.seat, s.labels, s.text) for s in kept] == [("coalition", ("Kill Attempt",), "Flank left."),
                                                          ("coalition", ("Contingency",), "Hold."),
                                                          ("coalition", (), "Charge!")]
    said = _receipts(config)["ann@example.org"]
    assert "filed as coalition's strategy for Rabid Cat attacks Various Puppies (Dominaria 4C)" in said
    assert "Flank left." not in said and "Charge!" not in said  # a receipt quotes no strategy back, not even hers
    book = load_workbook(tmp_path / "gm" / "judge.xlsx")
    tab = [tuple(row) for row in book["Strategies"].iter_rows(values_only=True)]
    assert tab[1][:7] == ("Battle", "Side", "Sent by", "Received (UTC)", "Labels", "Counts?", "Strategy")
    assert tab[2][0] == "Dominaria 4C · Rabid Cat attacks Various Puppies"
    coalition = [r for r in tab if r[1] == "coalition"]
    assert [(r[5], r[6]) for r in coalition] == [("replaced by a later strategy", "Flank left."),
                                                 ("not used: a contingency, and another strategy came", "Hold."),
                                                 ("counts", "Charge!")]
    assert [r[5] for r in tab if r[1] == "phyrexia"] == [
        "none yet (stratless at the battle deadline if none comes)"]
    summary = ("Dominaria 4C (Rabid Cat attacks Various Puppies): strategies coalition 3, phyrexia 0; none from "
               "phyrexia (stratless so far).")
    assert mail_status_lines(config, sheets)[1:] == [f"Strategies: {summary}"]
    view = [row[0] for row in book["View judge"].iter_rows(values_only=True)]
    at = view.index("Strategies received by mail (each in the Strategies tab; no seat sees them)")
    assert view[at + 1] == summary and view[at + 3] == "Battles to judge, turn 1"  # the game's panel under it
    assert "not in" not in said
    answer_mails(config, file_mails(config, [mail(5, "ann@example.org", "Ann: Rabid Cat attacks Urza's Vanguard",
                                                  "Feint.", minutes=13)], NOW), lambda: NOW)
    said = _receipts(config)["ann@example.org"]  # her latest receipt says what of its title was not read
    assert ("filed as coalition's strategy for Rabid Cat attacks Various Puppies (Dominaria 4C) "
            '(the title\'s "Urza\'s Vanguard" is no army of that battle)') in said


def test_undo_brings_a_mailed_window_back_with_its_mail_and(tmp_path: Path) -> None:
    """A mail read for a window undone comes back with it: its heading and lines return to the Forum tab with
    the window's other rows (and are answered again), its record stays, no second copy is typed, no second receipt
    is sent."""
    config, sheets = _match(tmp_path)
    box = Box([mail(1, "ann@example.org", "moves", "Rabid Cat: Dominaria; 3C > 3D")])
    with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW, force=True), box)
    assert _forum(sheets) == []  # carried out: cleared
    undo_window(sheets, CLS, "the judge undoes turn 1", owners=lambda: layout_owners(config, sheets))
    sync_once(config, sheets, now=NOW)
    lines = _forum(sheets)
    assert [t for t, _f in lines][1:] == ["Rabid Cat: Dominaria; 3C > 3D"]
    assert lines[0][0].startswith("✉ ann@example.org")
    assert lines[1][1].startswith("✔ read as Rabid Cat's order")
    box.finished.clear()  # were the mail read again (a ledger lost), the door would type no second copy
    with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW), box)
    assert len(_forum(sheets)) == 2 and len(Outbox.of(config.path).waiting()) == 1


def test_at_the_battle_deadline_a_side_without_a_strategy_is_stratless_in_the_judges_row(tmp_path: Path) -> None:
    """The ruling: at the battle deadline a side with no strategy for a battle is stratless; the door types it into
    the battle's empty Stratless side cell before the poll that resolves the window reads it, once, never over the
    judge's own word."""
    _match(tmp_path)
    path = tmp_path / "match.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("times = []", 'times = ["20:00"]', 1), encoding="utf-8")
    config = load_config(path)
    box = Box([mail(1, "ann@example.org", "moves", "Rabid Cat: Dominaria; 3C > 4C - engage Various Puppies")])
    with_mail(config, lambda: NOW, lambda: sync_once(config, open_match_sheets(config), now=NOW, force=True), box)
    box = Box([mail(2, "ann@example.org", "Ann: Rabid Cat attacks Various Puppies", "Charge!", minutes=10)])
    with_mail(config, lambda: NOW, lambda: sync_once(config, open_match_sheets(config), now=NOW), box)
    part = CoalitionMail()
    assert close_sealed(config, part, NOW + dt.timedelta(hours=1)) == (0, False)  # before the deadline: nothing
    late = NOW + dt.timedelta(hours=9)  # 21:00, past the 20:00 battle deadline
    assert close_sealed(config, part, late) == (1, False)
    judge = read_match(looking(config), CLS).seats[JUDGE]
    (row,) = [r for r in judge.rows if r.table == "results" and r.subject == "Dominaria 4C"]
    assert row.text("stratless") == "phyrexia"
    assert close_sealed(config, part, late) == (0, False)  # once a window
    record = MailRecord.of(config.path)
    record.closed.clear()  # as if not closed yet, the judge having typed her own word meanwhile
    record.save()
    sheets = looking(config)
    placed = judge.tab.table("results")
    sheets.judge_sheet().write([RangeWrite(placed.at(placed.cell(row.row - placed.first_row, "stratless")),
                                           [["coalition"]])])
    assert close_sealed(config, part, late) == (0, False)  # never over the judge's cell
    book = load_workbook(tmp_path / "gm" / "judge.xlsx")
    said = [r[5] for r in book["Strategies"].iter_rows(values_only=True) if r[1] == "phyrexia"]
    assert said == ["none: stratless (it loses by default)"]


def test_a_mailbox_with_problems_is_said_at_every_poll_and_the_poll_goes_on(tmp_path: Path) -> None:
    _match(tmp_path)
    path = tmp_path / "match.toml"
    path.write_text(path.read_text(encoding="utf-8") + '\n[mailbox]\nhost = "imap.example.org"\nport = "lots"\n',
                    encoding="utf-8")
    config = load_config(path)
    assert config.mailbox is None and config.mailbox_problems
    result, said = poll_with_mail(config, lambda: NOW, lambda: "polled")
    assert result == "polled" and said and all(line.startswith("The judge's mailbox is not read until [mailbox] "
                                                               "is mended: ") for line in said)


def test_mail_that_cannot_be_filed_waits_for_the_next_poll_and_the_poll_goes_on(tmp_path: Path) -> None:
    """A seat's workbook that cannot be written (here: not a workbook any more) holds the mail back, begun, and
    says why; the poll still runs."""
    config, _sheets = _match(tmp_path)
    box = Box([mail(1, "ann@example.org", "moves", "Rabid Cat: Dominaria; 3C > 3D")])
    (tmp_path / "orders-coalition.xlsx").write_bytes(b"not a workbook")
    assert with_mail(config, lambda: NOW, lambda: "polled", box) == "polled"
    assert box.finished == [] and "The judge's mail waits for the next poll: " in box.said[0]


def test_a_huge_mails_receipt_quotes_a_few_of_its_lines_passed_over_or_refused_and_counts_the_rest(
        tmp_path: Path) -> None:
    # a mail of megabytes (a log pasted by mistake) was quoted back whole in its receipt: 107 KB for a 2 MB mail of
    # prose, a line of a letter per line passed over; a receipt says what became of the mail, a few lines of each
    # kind and how many more, never the mail again
    config, sheets = _match(tmp_path)
    prose = [f"blah blah number {n} of a long paste" for n in range(5000)]
    theirs = [f"Urza's Vanguard: Dominaria; 5C > {n}D" for n in range(300)]
    box = Box([mail(1, "ann@example.org", "huge", "Rabid Cat: Dominaria; 3C > 3D", *prose, *theirs)])
    with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW), box)
    ann = _receipts(config)["ann@example.org"]
    assert "✔ read as Rabid Cat's order" in ann
    assert "blah blah number 0 of" in ann and "blah blah number 4999 of" not in ann
    assert "and 4990 more lines" in ann
    assert "Urza's Vanguard: Dominaria; 5C > 0D\n    ✘ Urza's Vanguard is Cy's army" in ann
    assert "Urza's Vanguard: Dominaria; 5C > 299D" not in ann and "and 290 more lines" in ann
    assert len(ann) < 5000


@pytest.mark.parametrize("lines", [40, pytest.param(3_160, marks=pytest.mark.soak)])  # the mail: 2 min
def test_every_letter_about_a_mail_quotes_its_first_ten_lines_and_counts_the_rest(tmp_path: Path, lines: int) -> None:
    # a 6.9 MB mail on the "could not be typed" path got a 186 KB receipt quoting its 3,160 lines: the cap held for
    # the lines refused and passed over only. Every path quotes ten lines and counts the rest: the lines typed (and
    # answered) and those that could not be typed
    config, sheets = _match(tmp_path)
    box = Box([mail(1, "bo@example.org", "many", *(f"Various Puppies: Dominaria; 4C > 4D - {n}." for n in range(15))),
               mail(2, "ann@example.org", "huge", *(f"Rabid Cat: Dominaria; 3C > 3D - {n}." for n in range(lines)))])
    with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW), box)
    receipts = _receipts(config)
    bo, ann = receipts["bo@example.org"], receipts["ann@example.org"]
    assert "4D - 9.\n" in bo and "4D - 10.\n" not in bo and "and 5 more lines" in bo
    assert "3D - 9.\n" in ann and "3D - 10.\n" not in ann and f"and {lines - 10} more lines" in ann and len(ann) < 3_000


def _corrections(count: int, start: int = 1) -> list[Mail]:
    """``count`` mails of Ann's, each a heading and an order line typed (the P.S. is passed over): two rows."""
    return [mail(start + n, "ann@example.org", f"correction {n}", "Rabid Cat: Dominaria; 3C > 3D", f"P.S. {n}.",
                 minutes=n) for n in range(count)]


def test_the_forum_tab_grows_for_the_mail_to_type_and_every_mail_is_typed_and_answered(tmp_path: Path) -> None:
    # a 288-army side's 596 rows held 306 mails, then 80 corrections left 10 mails "could not be typed": they were
    # marked done, never read again, and their receipts said both "typed into" and "could not be typed"
    config, sheets = _match(tmp_path)
    rows = read_match(sheets, CLS).seats["coalition"].tab.table("post").rows
    box = Box(_corrections(rows // 2 + 4))
    with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW), box)
    assert len(_forum(sheets)) == 2 * len(box.mails) > rows  # every heading and line typed, the tab grown
    assert read_match(sheets, CLS).seats["coalition"].tab.table("post").rows > rows
    assert box.finished == [m.uid for m in box.mails] and not box.said
    said = _receipts(config)["ann@example.org"]  # the last (the outbox keeps one a sender): typed and answered
    assert "typed into coalition's Forum tab" in said and "could not" not in said and "never typed" not in said


def test_a_mail_that_cannot_be_typed_waits_the_judge_is_told_and_it_is_typed_at_a_later_poll(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config, sheets = _match(tmp_path)
    rows = read_match(sheets, CLS).seats["coalition"].tab.table("post").rows
    monkeypatch.setattr(grow, "LINES_TABLE_MAX_ROWS", rows)  # the tab cannot grow: the mail truly cannot be typed
    fits = rows // 2
    box = Box(_corrections(fits + 2))
    with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW), box)
    waiting = [m.uid for m in box.mails[fits:]]
    assert box.finished == [m.uid for m in box.mails[:fits]]  # the others not finished: they come back
    assert box.said and "2 mails to the judge wait: their lines could not be typed" in box.said[0], box.said
    records = MailRecord.of(config.path).entries
    assert all(records[f"m{uid}@example.org"].untyped() for uid in waiting)
    status = "\n".join(mail_status_lines(config, sheets))
    assert "Mail waiting: 2 mails whose lines could not be typed" in status and f"correction {fits}" in status, status
    assert all(f"correction {n}" not in letter.subject for letter in Outbox.of(config.path).waiting()
               for n in (fits, fits + 1))  # no receipt while it waits: none that contradicts itself
    monkeypatch.undo()  # room again (the tab may grow): the next poll types them
    with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW), box)
    assert box.finished[-2:] == waiting and len(_forum(sheets)) == 2 * len(box.mails)
    assert not any(MailRecord.of(config.path).entries[f"m{uid}@example.org"].untyped() for uid in waiting)
    assert not any("Mail waiting" in line for line in mail_status_lines(config, sheets))


def test_a_mail_whose_window_closed_while_it_waited_is_answered_never_typed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config, sheets = _match(tmp_path)
    rows = read_match(sheets, CLS).seats["coalition"].tab.table("post").rows
    monkeypatch.setattr(grow, "LINES_TABLE_MAX_ROWS", rows)
    # one sender's 31 corrections in a day: past the receipts a day an address gets (issue 91's cap), raised here
    monkeypatch.setattr("sheets_gm.running.mailroom.answering.RECEIPTS_PER_DAY", 100)
    box = Box(_corrections(rows // 2 + 1))
    with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW, force=True), box)  # the window closes
    assert len(box.finished) == rows // 2
    with_mail(config, lambda: NOW, lambda: sync_once(config, sheets, now=NOW), box)
    assert len(box.finished) == len(box.mails)  # told, and done: its window is gone
    said = [letter.body for letter in Outbox.of(config.path).waiting() if letter.subject.endswith(f"{rows // 2}")]
    assert said and "were never typed into coalition's Forum tab" in said[-1]
    assert "typed into coalition's Forum tab, and each line's answer" not in said[-1]
