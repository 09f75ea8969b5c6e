"""A typed row's fate on the paths around the poll (issue 38): a deadline or ``resolve --force`` never empties a
row it could not read, a long cell is read whole, a cell typed past a table is answered, and a refused row keeps
its reason whatever window opens. Played with the real sync on memory spreadsheets."""

from __future__ import annotations

from datetime import timedelta

from sheets_gm.sync.poll import poll
from tests.sync.test_typed_row_lifecycle import NOW, Match


def _wesnoth_turn() -> tuple[Match, str, str]:
    """A Wesnoth match in its third player-turn (both sides recruited): the side to play, and the other."""
    match = Match("wesnoth")
    for _ in range(3):
        match.bots_play()
    seat = match.window().seats[0]
    other = next(s for s in match.read().record.seats if s != seat)
    return match, seat, other


def _unreadable_attack(match: Match, seat: str, other: str) -> str:
    """Type an attack with a weapon the unit does not have in the seat's second unit row; its refusal."""
    target = [u.id for u in match.read().record.state.units if u.owner == other][1]
    for key, value in (("action", "attack"), ("target", target), ("weapon", "nonsense")):
        match.type(seat, "units", 1, key, value)
    match.poll()
    feedback = match.row(seat, "units", 1).feedback
    assert feedback.startswith("✘ Weapon 'nonsense'"), feedback
    return feedback.removeprefix("✘ ")


# -- item 3: a deadline or resolve --force never empties an unreadable row ------------------------------------------
def test_a_forced_resolution_keeps_an_unreadable_row_with_its_reason() -> None:
    match, seat, other = _wesnoth_turn()
    why = _unreadable_attack(match, seat, other)
    closed = match.window()
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    row = match.row(seat, "units", 1)
    assert (row.text("weapon"), row.text("action")) == ("nonsense", "attack")
    assert row.feedback.startswith(f"✘ Not carried out in {closed.label}: {why}"), row.feedback
    archive = match.archive(seat)
    assert "Weapon: nonsense — not carried out (Weapon 'nonsense'" in archive and "still in your rows" in archive
    match.poll()  # and every poll after it says so again
    assert match.row(seat, "units", 1).feedback.startswith(f"✘ Not carried out in {closed.label}: {why}")


def test_a_deadline_keeps_an_unreadable_row_with_its_reason() -> None:
    match, seat, other = _wesnoth_turn()
    deadline = (NOW + timedelta(hours=1)).isoformat()
    assert poll(match.sheets, match.cls, now=NOW, force=True, next_deadline=lambda _now: deadline).resolved
    seat, other = other, seat
    why = _unreadable_attack(match, seat, other)
    closed = match.window()
    late = poll(match.sheets, match.cls, now=NOW + timedelta(hours=2))
    assert late.resolved and "deadline" in late.reason
    row = match.row(seat, "units", 1)
    assert row.text("weapon") == "nonsense"
    assert row.feedback.startswith(f"✘ Not carried out in {closed.label}: {why}"), row.feedback


# -- item 2: a typed cell is read whole, or refused by name --------------------------------------------------------
def _coalition_post(match: Match, bump: str) -> str:
    """A forum post ordering each of the Coalition's 13 armies (one line each), then the rulebook's own line
    asking where Mirran Partisans leaves to if its engagement is won."""
    armies = [a for a in match.read().record.state.armies if a.side.value == "coalition"]
    lines = [f"{a.name}: {a.at.split()[0]}; {a.at.split()[1]}" for a in armies if a.name != "Mirran Partisans"]
    lines += ["Mirran Partisans: Mirrodin; 10D > 11D > 11E > 11F - engage Razor Fields Company",
              f"Joint engage bump: Mirran Partisans > {bump}"]
    return "\n".join(lines)


def test_a_pasted_post_of_thirteen_armies_is_read_whole() -> None:
    match = Match("coalition")
    post = _coalition_post(match, "11G")
    assert len(post) > 400
    match.type("coalition", "armies", 0, "line", post)
    report = match.poll()
    assert report.rejected == []
    rows = [match.row("coalition", "armies", i) for i in range(13)]
    assert all(r.feedback.startswith("✔") for r in rows), [r.feedback for r in rows]
    assert rows[0].text("line") == post  # the cell as pasted, not cut


def test_the_joint_engage_bump_line_of_a_post_is_read() -> None:
    match = Match("coalition")
    match.type("coalition", "armies", 0, "line", _coalition_post(match, "3A"))  # not next to 11F: refused
    report = match.poll()
    assert [why for _row, why in report.rejected] == [
        "Mirran Partisans: a joint engage bump names a square next to the engaged square 11F, for an army that "
        "engages"]


def test_a_cell_past_the_limit_is_refused_by_name_and_kept() -> None:
    match = Match("coalition")
    post = _coalition_post(match, "11G") + "\n" + "x" * 16_000
    match.type("coalition", "armies", 0, "line", post)
    match.poll()
    row = match.row("coalition", "armies", 0)
    assert row.text("line") == post
    header = "Or the forum line (Army: Plane; 3A > 3B - engage Target)"
    assert row.feedback.startswith(f"✘ The cell under “{header}” holds 16,"), row.feedback
    assert "a cell is read up to 16,000" in row.feedback
    assert poll(match.sheets, match.cls, now=NOW, force=True).resolved
    row = match.row("coalition", "armies", 0)
    assert row.text("line") == post and "a cell is read up to 16,000" in row.feedback
