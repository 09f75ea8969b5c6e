"""Mail to the judge as the Coalition reads it: who sent it (the roster's addresses, the side's leader), a
strategy's title matched to an announced battle, and what becomes of each mail (issue 73; rulings "Mail to the
judge" and "Strategies by mail")."""

from __future__ import annotations

import datetime as dt

import pytest

from sheets_gm.engine.ruleset import Member, Roster
from sheets_gm.rulesets.coalition.enums import BattleType, Phase
from sheets_gm.rulesets.coalition.mail.filing import MOVEMENT, STRATEGY, file_mail, mail_kind
from sheets_gm.rulesets.coalition.mail.senders import SideLeader, may_order, side_leader, who_sent
from sheets_gm.rulesets.coalition.mail.titles import match_title, title_labels
from sheets_gm.rulesets.coalition.sheet.mail_heading import MAIL_MARK
from sheets_gm.rulesets.coalition.sheet.read import read_side_rows
from sheets_gm.rulesets.coalition.state import ArmyOrder, Battle
from sheets_gm.rulesets.parts.mail import Filing, Sealed
from sheets_gm.sheets.tables import TypedRow
from tests.rulesets.coalition.helpers import army, board, state

AT = dt.datetime(2026, 11, 27, 10, tzinfo=dt.UTC)


def _row(name: str, side: str, player: str, email: str, rank: int = 1, leader: str = "") -> Member:
    return Member(name, side, {"player": player, "rank": str(rank), **({"leader": leader} if leader else {})}, email)


ROSTER = Roster(("coalition", "phyrexia"), (
    _row("Rabid Cat", "coalition", "Ann", "ann@example.org", 2),
    _row("Urza's Vanguard", "coalition", "Cy", "cy@example.org", 6),
    _row("Free Company", "coalition", "", "", 1),
    _row("Various Puppies", "phyrexia", "Bo", "bo@example.org", 3),
    _row("Jeff the Owl", "phyrexia", "Dee", "Dee@Example.org", 5),
    Member("Shiv Band", "mercenary", {}, ""),
))
ARMIES = (army("Rabid Cat", "coalition", "3C", 2), army("Urza's Vanguard", "coalition", "5C", 6),
          army("Free Company", "coalition", "1A"), army("Various Puppies", "phyrexia", "4C", 3),
          army("Jeff the Owl", "phyrexia", "6E", 5))


def test_the_side_leader_is_the_marked_row_else_the_player_of_the_highest_ranked_army() -> None:
    def lead(roster: Roster, side: str) -> SideLeader:
        found = side_leader(roster, side)
        assert found is not None
        return found
    assert lead(ROSTER, "coalition").player == "Cy"  # rank 6
    assert lead(ROSTER, "phyrexia").addresses == frozenset({"dee@example.org"})
    marked = Roster(ROSTER.seats, (*ROSTER.members[:3], _row("Various Puppies", "phyrexia", "Bo", "bo@example.org",
                                                             3, "yes"), ROSTER.members[4]))
    assert lead(marked, "phyrexia").player == "Bo"
    assert "leader column" in lead(marked, "phyrexia").how


@pytest.mark.parametrize(("address", "army_name", "allowed"), [
    ("ann@example.org", "Rabid Cat", True),            # her own army
    ("ANN@example.org", "Rabid Cat", True),            # any case
    ("cy@example.org", "Rabid Cat", True),             # the side's leader
    ("ann@example.org", "Urza's Vanguard", False),     # the leader's army, not hers
    ("ann@example.org", "Free Company", True),         # no player named: any address of its side
    ("bo@example.org", "Rabid Cat", False),            # the other side
    ("dee@example.org", "Various Puppies", True),      # Phyrexia's leader
    ("stranger@example.org", "Rabid Cat", False),      # nobody's address
    ("ann@example.org", "Shiv Band", False),           # a mercenary band: nobody's
])
def test_an_army_is_ordered_only_by_its_player_or_its_sides_leader(address: str, army_name: str,
                                                                   allowed: bool) -> None:
    why = may_order(ROSTER, who_sent(ROSTER, address), army_name)
    assert (why == "") is allowed, why


@pytest.mark.parametrize(("title", "at", "labels"), [
    ("MonkeyMan: Rabid Cat attacks Various Puppies", "Dominaria 4C", ()),
    ("Re: ann: rabid cat ATTACKS various puppies", "Dominaria 4C", ()),
    ("Ann: Rabid Kat attacks Varius Puppies [Kill Attempt]", "Dominaria 4C", ("Kill Attempt",)),
    ("CONTINGENCY - Bo: Various Puppies vs. Rabid Cat", "Dominaria 4C", ("Contingency",)),
    ("Cy: Urza's Vanguard and Free Company attack Jeff the Owl (joint engage)", "Dominaria 6E", ("Joint Engage",)),
    ("Cy: Free Company attacks Jeff the Owl", "Dominaria 6E", ()),  # a joint battle by any one of its armies
    ("Dee: Jeff the Owl intercepts Urzas Vanguard: kill attempt", "Dominaria 6E", ("Kill Attempt",)),
])
def test_a_strategys_title_names_its_battle_as_the_announcements_do(title: str, at: str,
                                                                    labels: tuple[str, ...]) -> None:
    battles = [Battle(BattleType.ATTACKS, "Dominaria 4C", ("Rabid Cat", "Various Puppies")),
               Battle(BattleType.ATTACKS, "Dominaria 6E", ("Urza's Vanguard", "Free Company", "Jeff the Owl"),
                      leading=2)]
    found = match_title(title, battles)
    assert found.battle is not None and found.battle.at == at, found.why
    assert found.labels == labels


def test_a_title_naming_no_battle_is_answered_with_the_nearest_armies_and_the_form() -> None:
    battles = [Battle(BattleType.ATTACKS, "Dominaria 4C", ("Rabid Cat", "Various Puppies"))]
    found = match_title("Ann: Rabbit Cot attacks Zorg", battles)
    assert found.battle is None
    assert "did you mean Rabid Cat?" in found.why and "Rabid Cat attacks Various Puppies" in found.why
    assert "Player: Army attacks Army" in found.why
    assert title_labels("kill-attempt, Joint Engagement") == ("Kill Attempt", "Joint Engage")
    assert mail_kind("Our moves, turn 3") == MOVEMENT and mail_kind("[Contingency] Ann") == STRATEGY


def test_a_movement_mail_keeps_the_lines_its_sender_may_order_and_refuses_the_others() -> None:
    s = state(*ARMIES)
    lines = ["Hi judge, our moves:", "Rabid Cat: Dominaria; 3C > 3D", "Urza's Vanguard: Dominaria; 5C > 5D",
             "Various Puppies: Dominaria; 4C > 4D", "Rabit Cat: Dominaria; 3C > 3B"]
    filed = file_mail(s, ROSTER, sender="ann@example.org", subject="Turn 3", lines=lines, text="\n".join(lines),
                      received=AT, deadline=AT + dt.timedelta(hours=1))
    assert filed.kind == MOVEMENT and not filed.unread
    assert filed.lines == {"coalition": ("Rabid Cat: Dominaria; 3C > 3D", "Rabit Cat: Dominaria; 3C > 3B")}
    refused = dict(filed.refused)
    assert "Cy's army" in refused["Urza's Vanguard: Dominaria; 5C > 5D"]
    assert "an army of phyrexia" in refused["Various Puppies: Dominaria; 4C > 4D"]
    assert filed.chatter == ("Hi judge, our moves:",)


@pytest.mark.parametrize(("sender", "phase", "late", "said"), [
    ("stranger@example.org", Phase.ORDERS, False, "no player's address"),
    ("ann@example.org", Phase.ORDERS, True, "late: it reached the judge's mailbox"),
    # the next turn's movement closes with the strategies, at the one players' deadline: after it, late
    ("ann@example.org", Phase.RESULTS, True, "after the players' (turn 3's strategies and turn 4's movement) deadline"),
    ("ann@example.org", Phase.RESULTS, True, "turn 4's movement is adjudicated from what was sent before it"),
    ("ann@example.org", Phase.OVER, False, "the round is over: no orders are read any more"),
])
def test_a_movement_mail_not_read_says_why(sender: str, phase: Phase, late: bool, said: str) -> None:
    s = state(*ARMIES, phase=phase)
    filed = file_mail(s, ROSTER, sender=sender, subject="moves", lines=["Rabid Cat: Dominaria; 3C > 3D"],
                      text="Rabid Cat: Dominaria; 3C > 3D", received=AT,
                      deadline=AT - dt.timedelta(seconds=1) if late else None)
    assert said in filed.unread and not filed.lines


def test_the_next_turns_movement_is_filed_before_the_players_deadline_but_not_for_an_army_that_fights() -> None:
    """While turn 3's battles await strategies, a movement mail before the players' deadline is filed for turn 4
    (its receipt says so); a line for an army in an open battle is refused: it fights."""
    battle = Battle(BattleType.ATTACKS, "Dominaria 4C", ("Rabid Cat", "Various Puppies"))
    s = state(*ARMIES, battles=(battle,), phase=Phase.RESULTS)
    lines = ["Rabid Cat: Dominaria; 4C > 4D", "Rabit Cat: Dominaria; 3C > 3B"]
    filed = file_mail(s, ROSTER, sender="ann@example.org", subject="Turn 4", lines=lines, text="\n".join(lines),
                      received=AT, deadline=AT + dt.timedelta(hours=1))
    assert not filed.unread and filed.read_for.startswith("turn 4's movement")
    assert filed.lines == {"coalition": ("Rabit Cat: Dominaria; 3C > 3B",)}
    assert "Rabid Cat fights in the battle at Dominaria 4C this turn" in dict(filed.refused)[lines[0]]


def test_a_strategy_is_filed_for_its_battle_from_a_player_of_it_or_the_leader_only() -> None:
    battle = Battle(BattleType.ATTACKS, "Dominaria 4C", ("Rabid Cat", "Various Puppies"))
    s = state(*ARMIES, battles=(battle,), phase=Phase.RESULTS)

    def mail(sender: str, title: str, text: str = "Charge at dawn.") -> Filing:
        return file_mail(s, ROSTER, sender=sender, subject=title, lines=[text], text=text, received=AT,
                         deadline=AT + dt.timedelta(hours=1))
    ann = mail("ann@example.org", "Ann: Rabid Cat attacks Various Puppies [Kill Attempt]")
    assert ann.sealed is not None and (ann.sealed.seat, ann.sealed.player) == ("coalition", "Ann")
    assert ann.sealed.labels == ("Kill Attempt",) and ann.sealed.text == "Charge at dawn."
    dee = mail("dee@example.org", "Dee: Various Puppies vs Rabid Cat - contingency")  # Phyrexia's leader
    assert dee.sealed is not None and dee.sealed.seat == "phyrexia"
    cy = mail("cy@example.org", "Cy: Rabid Cat attacks Various Puppies")  # the Coalition's leader
    assert cy.sealed is not None and cy.sealed.seat == "coalition" and cy.sealed.player == "Cy"
    bo = mail("bo@example.org", "Bo: Rabid Cat attacks Various Puppies")
    assert bo.sealed is not None and (bo.sealed.seat, bo.sealed.player) == ("phyrexia", "Bo")
    refused = file_mail(s, Roster(ROSTER.seats, (*ROSTER.members, _row("Other", "phyrexia", "Eve", "eve@x.org", 1))),
                        sender="eve@x.org", subject="Eve: Rabid Cat attacks Various Puppies", lines=["x"], text="x",
                        received=AT, deadline=None)
    assert "only a player of one of its armies" in refused.unread
    assert "body of the mail" in mail("ann@example.org", "Ann: Rabid Cat attacks Various Puppies", " ").unread
    late = file_mail(s, ROSTER, sender="ann@example.org", subject="Ann: Rabid Cat attacks Various Puppies",
                     lines=["x"], text="x", received=AT, deadline=AT - dt.timedelta(minutes=1))
    assert late.unread.startswith("late:") and late.sealed is None
    early = file_mail(state(*ARMIES, battles=(battle,)), ROSTER, sender="ann@example.org",
                      subject="Ann: Rabid Cat attacks Various Puppies", lines=["x"], text="x", received=AT,
                      deadline=None)
    assert "no battle awaits strategies now" in early.unread


def _line(n: int, text: str) -> TypedRow:
    return TypedRow("post", f"coalition line {n}", 4 + n, "3", {"line": text}, "")


def test_a_later_mails_line_replaces_the_posts_and_an_earlier_mails_line_for_the_army() -> None:
    """The ruling: within one mail two lines for an army read as in a post (none); a later mail's line for an army
    replaces an earlier mail's or the post's line for it; a mail's heading is passed over."""
    s = state(army("Frank", "coalition", "3A"), army("Ann", "coalition", "5C"))
    post = [_line(1, "Frank: 3A > 3B"), _line(2, "Ann: 5C > 5D"),
            _line(3, f"{MAIL_MARK} Mail from ann@example.org, received Fri 27 Nov 10:00:00 UTC: moves"),
            _line(4, "Frank: 3A > 4A"),
            _line(5, f"{MAIL_MARK} Mail from ann@example.org, received Fri 27 Nov 10:05:00 UTC: moves again"),
            _line(6, "Frank: 3A > 2A"), _line(7, "Ann: 5C > 5B"), _line(8, "Ann: 5C > 6C")]
    read = read_side_rows(board(), s, [], post, "coalition")
    assert read.orders == {"Frank": ArmyOrder(line="Frank: 3A > 2A")}  # Ann: two lines in the last mail, none read
    assert "replaces this one" in read.notes["coalition line 1"][0]
    assert "replaces this one" in read.notes["coalition line 4"][0]
    assert "replaces this one" in read.notes["coalition line 2"][0]
    assert "Ann has 2 lines" in read.problems["coalition line 7"][0]
    assert "heading of a mail" in read.notes["coalition line 3"][0]


def test_a_title_read_by_one_of_its_armies_names_what_else_it_named_that_is_not_in_that_battle() -> None:
    # played by mail: 'Ann: Rabid Cat attacks Grim Legion' (an army in no battle) was filed under Rabid Cat's battle
    # and, the latest, replaced her strategy there, her receipt saying nothing of Grim Legion
    battles = [Battle(BattleType.ATTACKS, "Dominaria 4C", ("Rabid Cat", "Various Puppies")),
               Battle(BattleType.ATTACKS, "Dominaria 6E", ("Urza's Vanguard", "Jeff the Owl"))]
    found = match_title("Ann: Rabid Cat attacks Grim Legion", battles)
    assert found.battle is not None and found.battle.at == "Dominaria 4C" and found.passed == ("Grim Legion",)
    found = match_title("Ann: Rabid Cat attacks Jeff the Owl", battles)  # an army of another battle
    assert found.battle is not None and found.battle.at == "Dominaria 4C" and found.passed == ("Jeff the Owl",)
    assert match_title("Ann: Rabid Kat attacks Various Puppies", battles).passed == ()
    s = state(*ARMIES, battles=tuple(battles[:1]), phase=Phase.RESULTS)
    filed = file_mail(s, ROSTER, sender="ann@example.org", subject="Ann: Rabid Cat attacks Grim Legion",
                      lines=["Charge."], text="Charge.", received=AT, deadline=None)
    assert filed.sealed is not None and filed.sealed.passed == ("Grim Legion",)
    assert Sealed.from_json(filed.sealed.to_json()) == filed.sealed


def test_a_replaced_mailed_line_names_an_army_ending_in_s_as_the_other_answers_do() -> None:
    # played by mail: "not read: Various Puppies's line in the later mail …", beside "read as Various Puppies' order"
    s = state(army("Various Puppies", "phyrexia", "4C"))
    post = [_line(1, f"{MAIL_MARK} Mail from bo@example.org, received Fri 27 Nov 10:00:00 UTC: moves"),
            _line(2, "Various Puppies: 4C > 4D"),
            _line(3, f"{MAIL_MARK} Mail from bo@example.org, received Fri 27 Nov 10:05:00 UTC: moves again"),
            _line(4, "Various Puppies: 4C > 5C")]
    read = read_side_rows(board(), s, [], post, "phyrexia")
    assert read.notes["coalition line 2"] == [
        "not read: Various Puppies' line in the later mail (coalition line 4) replaces this one"]
