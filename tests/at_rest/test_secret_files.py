"""The GM's secrets are readable by the GM's account alone whatever the umask (issue 43 item 2), on every game's
starter layout: gm/ 0700 and the engine's workbook 0600 from init, .sheets-gm/ 0700 with its files 0600 from the
first sync, the copies kept by repair and init --overwrite 0600, an export 0700 with its files 0600; doctor warns
of any that others can read (the Google key file included) and names the chmod to run."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.doctor.checks import check_secret_files
from sheets_gm.doctor.checkup import Checkup, Verdict
from sheets_gm.match.config import load_config
from sheets_gm.privacy.gm_files import secret_paths
from tests.at_rest.starter import STARTER_GAMES, engine_path, starter_match
from tests.fakes.google_api import write_service_account_key
from tests.quick import soak_but

pytestmark = pytest.mark.xdist_group("starter")  # one worker runs these: it makes each game's starter_match once a run


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The most careless umask there is: every new file and folder readable and writable by everybody."""
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


# the modes are set by code no game changes: one game in the quick run, every game (the war's judge) under -m soak
@pytest.mark.parametrize("game", soak_but(STARTER_GAMES, "gvg"))
def test_every_secret_file_of_a_match_is_the_gms_alone(tmp_path: Path, game: str, open_umask: None,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    config = starter_match(tmp_path, game)
    engine = engine_path(config)
    assert mode(engine.parent) == 0o700 and mode(engine) == 0o600
    if config.judge:
        assert mode(config.local_path(config.judge)) == 0o600
    assert mode(tmp_path / "board.xlsx") == 0o666  # the public board is the GM's to share: the umask says how
    assert main(["sync", "-c", str(config.path)]) == 0
    assert mode(config.state_dir) == 0o700
    assert [p.name for p in config.state_dir.iterdir() if mode(p) != 0o600] == []
    assert main(["repair", "-c", str(config.path)]) == 0
    assert main(["export", "-c", str(config.path), "--reveal-early"]) == 0
    assert mode(tmp_path / "export") == 0o700
    assert [p.name for p in (tmp_path / "export").iterdir() if mode(p) != 0o600] == []
    assert main(["init", game, "-c", str(config.path), "--overwrite"]) == 0
    copies = sorted(tmp_path.rglob("*.before-*.xlsx"))
    assert {p.name.split(".")[1].rsplit("-", 2)[0] for p in copies} == {"before-init"}
    repaired = sorted((tmp_path / "backups").rglob("*.xlsx"))  # issue 54: a repair's copies, in one folder
    assert repaired and [p.name for p in [*copies, *repaired] if mode(p) != 0o600] == []
    assert all(mode(p) == 0o700 for p in (tmp_path / "backups").rglob("*") if p.is_dir())
    assert mode(engine) == 0o600  # the new engine is private again
    capsys.readouterr()

    assert main(["doctor", "-c", str(config.path)]) in (0, 1)
    assert "✔ secret files: the GM's files on this computer" in capsys.readouterr().out
    every = secret_paths(config)
    assert engine in every and config.state_dir in every and set(copies) <= set(every)
    os.chmod(engine, 0o644)
    os.chmod(engine.parent, 0o755)
    os.chmod(copies[0], 0o640)
    main(["doctor", "-c", str(config.path)])
    out = capsys.readouterr().out
    assert f"⚠ secret files: other accounts on this computer can read {engine.parent} (rwxr-xr-x)" in out
    assert f"{engine} (rw-r--r--)" in out and f"{copies[0]} (rw-r-----)" in out
    assert f"fix: chmod 700 {engine.parent}; chmod 600 {engine} {copies[0]}" in out.replace("\n    ", " ")


def test_doctor_warns_of_a_service_account_key_others_can_read(tmp_path: Path, open_umask: None) -> None:
    key = write_service_account_key(tmp_path / "sa.json")
    os.chmod(key, 0o644)
    (tmp_path / "match.toml").write_text('ruleset = "gvg"\nteams = ["red", "blue"]\n[sheets]\nbackend = "google"\n'
                                         'board = "KEY1"\nengine = "KEY2"\n[google]\nservice_account = "sa.json"\n',
                                         encoding="utf-8")
    config = load_config(tmp_path / "match.toml")
    assert key in secret_paths(config)
    report = Checkup()
    check_secret_files(config, report)  # doctor's own check, without signing in to Google
    (check,) = report.checks
    assert check.verdict is Verdict.WARN
    assert check.message.startswith(f"other accounts on this computer can read {key} (rw-r--r--)")
    assert check.fix == f"chmod 600 {key}"


def test_the_kept_reads_and_the_poll_state_are_the_gms_alone(tmp_path: Path, open_umask: None) -> None:
    from sheets_gm.poll_gate.kept_file import write_kept_file
    from sheets_gm.poll_gate.kept_reads import KeptRead, kept_path, save_kept
    from sheets_gm.poll_gate.local_reads import LOCAL_READS_VERSION, local_reads_path
    from sheets_gm.poll_gate.state import PollState, save_state, state_path
    from sheets_gm.sheets.marks import FileMark

    config = tmp_path / "match.toml"
    save_kept(kept_path(config), {"KEY": KeptRead(("Engine!1:15",), ([["seed", "00ff"]],))})
    write_kept_file(local_reads_path(config), LOCAL_READS_VERSION, {"gm/engine.xlsx": {"grids": {"Engine!1:15": []}}})
    save_state(state_path(config), PollState(FileMark(1, 2, "ab")))
    folder = tmp_path / ".sheets-gm"
    assert mode(folder) == 0o700
    assert sorted((p.name, mode(p)) for p in folder.iterdir()) == [("match.local-reads.json", 0o600),
                                                                   ("match.poll.json", 0o600),
                                                                   ("match.reads.json", 0o600)]


@pytest.mark.parametrize("game", ["gvg", "winordie"])
def test_a_practice_match_keeps_gm_and_the_bots_file_the_gms_alone(tmp_path: Path, game: str, open_umask: None,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 64: `init --practice` made gm/ 0755 and the bot's workbook under it 0644, where the README promises
    0700, and doctor did not notice. A seat a bot plays is typed by the sync alone: its file is the GM's."""
    monkeypatch.chdir(tmp_path)
    assert main(["init", game, "--practice"]) == 0
    config = load_config(tmp_path / "match.toml")
    bots = [where for seat, where in zip(config.seats, config.orders, strict=True) if seat in config.bots]
    assert bots and (tmp_path / "gm").is_dir()
    assert mode(tmp_path / "gm") == 0o700
    assert all(mode(tmp_path / where) == 0o600 for where in bots), [(w, oct(mode(tmp_path / w))) for w in bots]
    people = [where for where in config.orders if where not in bots]
    assert all(mode(tmp_path / where) != 0o600 for where in people)  # the learner's own file is hers to open
    (tmp_path / "gm").chmod(0o755)
    report = Checkup()
    check_secret_files(config, report)
    (line,) = [c for c in report.checks if c.name == "secret files"]
    assert line.verdict is Verdict.WARN and f"chmod 700 {tmp_path / 'gm'}" in (line.fix or ""), line
