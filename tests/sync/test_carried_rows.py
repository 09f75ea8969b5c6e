"""A row carried out says what it did until she types in it again (issue 53, item 9): Wesnoth's rows, once their
turn resolves, say "✔ Carried out in round 2 · morning · Ann: moved to K5 (5 moves)." through the opponent's turn
and into her next (with what that one waits for), not only "Waiting for your orders" with the result in the Log;
and a Coalition post's "Joint engage bump:" line is answered as part of its army's order, which names the bump."""

from __future__ import annotations

from tests.conformance.test_input_lifecycle import _do, _put, new_table
from tests.sync.test_save_races import new_acting, sync_any


def _said(table: object, seat: str, name: str) -> dict[str, str]:
    return {r.subject: r.feedback for r in table.read().seats[seat].rows if r.table == name}  # type: ignore[attr-defined]


def test_a_wesnoth_row_carried_out_says_what_it_did_until_she_types_again() -> None:
    table, ann, _backend = new_acting("wesnoth")
    for turn in range(3):  # Ann recruits, Bo plays, Ann moves her recruits
        _do(table, "bot", turn, 0, 0)
        assert sync_any(table, force=True).resolved
    read = table.read()
    units = _said(table, ann, "units")
    moved = {s: f for s, f in units.items() if ": moved to " in f}
    assert moved, units
    label = "round 2 · morning · Ann"
    assert all(f.startswith(f"✔ Carried out in {label}: moved to ") for f in moved.values()), moved
    assert _said(table, ann, "recruit")["Recruit 1"].startswith(f"✔ Carried out in {label}: recruited "), \
        _said(table, ann, "recruit")
    _do(table, "bot", 1, 0, 0)  # Bo's turn: her rows still say what her last turn did
    assert sync_any(table, force=True).resolved
    read = table.read()
    window = read.record.ruleset.window(read.record.state)
    assert window.seats == (ann,)
    again = _said(table, ann, "units")
    for subject, said in moved.items():
        assert again[subject] == f"{said} · Waiting for your orders for {window.label}.", again[subject]
    subject = next(iter(moved))
    _put(table, read, ann, "units", subject, "action", "rest")  # she types again: the row's own answer now
    sync_any(table)
    assert "Carried out in" not in _said(table, ann, "units")[subject], _said(table, ann, "units")[subject]


def test_a_joint_engage_bump_line_is_answered_as_its_armys_order_which_names_the_bump() -> None:
    table = new_table("coalition")
    read = table.read()
    lines = [r.subject for r in read.seats["coalition"].rows if r.table == "post"]
    _put(table, read, "coalition", "post", lines[0], "line",
         "Mirran Partisans: Mirrodin; 10D > 11D > 11E > 11F - engage Razor Fields Company")
    _put(table, read, "coalition", "post", lines[1], "line", "Joint engage bump: Mirran Partisans > 11G")
    sync_any(table)
    post, armies = _said(table, "coalition", "post"), _said(table, "coalition", "armies")
    bump = "if it wins, it leaves to 11G (its joint engage bump)"
    assert post[lines[1]].startswith("✔ read as Mirran Partisans' order: ") and bump in post[lines[1]], post
    assert bump in armies["Mirran Partisans"], armies
    assert f"its joint engage bump from the pasted post's line in {lines[1]}" in armies["Mirran Partisans"]
    assert sync_any(table, force=True).resolved
    said = _said(table, "coalition", "post")[lines[1]]
    assert said.startswith("✔ Carried out in turn 1 · orders"), said
