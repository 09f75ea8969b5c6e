"""A refused command changes no byte (issue 91, item 6). The property: every refusal a GM's command can meet once it
holds the match (an undo of a window that is not the last, a force of a window that is not open, an adjustment the
rules refuse, a hand-over without its reason, …) leaves every file of the match's folder as it was, the poll gate's
record (``.sheets-gm/match.poll.json``) among them: the next poll stays as cheap as it was. A command that does write
still has the record forgotten (the next poll reads every workbook)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sheets_gm.cli import main
from tests.commands.test_file_roles import one_turn_in, snapshot

#: Each refusal, as the GM types it, and a word of what the command says.
REFUSALS: dict[str, tuple[list[str], str]] = {
    "undo of another window": (["undo", "--window", "9", "--reason", "wrong orders"], "nothing was undone"),
    "force of a window not open": (["resolve", "--force", "--window", "30"], "nothing was forced"),
    "force of a step not open": (["resolve", "--force", "--window", "2", "--step", "9"], "nothing was forced"),
    "adjustment the rules refuse": (["adjust", "--coins", "red=-500", "--reason", "a refund"],
                                    "nothing was written"),
    "adjustment of no team": (["adjust", "--coins", "purple=5", "--reason", "a refund"], "there is no team"),
    "hand-over without a reason": (["adjust", "--bot", "blue=random"], "needs a reason"),
    "undo without a reason": (["undo"], "--reason is required"),
}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private GvG match one turn in, polled once since (its gate's record kept)."""
    folder = tmp_path_factory.mktemp("played") / "match"
    one_turn_in(folder)
    assert main(["sync", "-c", str(folder / "match.toml")]) == 0
    assert (folder / ".sheets-gm" / "match.poll.json").exists()
    return folder


def _copy(played: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "match"
    shutil.copytree(played, folder, symlinks=True)
    return folder


@pytest.mark.parametrize("refusal", list(REFUSALS))
def test_a_refused_command_changes_no_byte(played: Path, tmp_path: Path, refusal: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    folder = _copy(played, tmp_path)
    argv, said = REFUSALS[refusal]
    before = snapshot(folder)
    code = main([argv[0], "-c", str(folder / "match.toml"), *argv[1:]])
    out, err = capsys.readouterr()
    assert code == 1 and said in out + err and "Traceback" not in out + err, out + err
    changed = sorted(k for k in {*before, *snapshot(folder)} if before.get(k) != snapshot(folder).get(k))
    assert changed == [], f"the refused {refusal} changed {changed}"


def test_a_command_that_writes_forgets_the_gates_record(played: Path, tmp_path: Path) -> None:
    """The other side: an adjustment written has the next poll read every workbook."""
    folder = _copy(played, tmp_path)
    assert main(["adjust", "-c", str(folder / "match.toml"), "--coins", "red=5", "--reason", "a refund"]) == 0
    assert not (folder / ".sheets-gm" / "match.poll.json").exists()
