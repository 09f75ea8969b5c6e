"""The config's roster path gets the checks every file the config names gets (issue 52, item 8): a device or a
FIFO is refused without reading it (nothing grows without bound, nothing hangs), a file past the bound is refused,
and a file that is no roster is never echoed in the message (``roster = "/etc/shadow"``)."""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.match.seat_roster import MAX_ROSTER_BYTES, SeatRosterError, read_seat_roster
from tests.commands.test_commands import config, roster

ACCEPTED = "the config's roster setting (or init's --roster) names a CSV file of at most 1,000,000 bytes"
SECRET = "$6$Zq8sOmeSalt$hashOfTheRootPassword"


def with_roster(path: Path, where: Path) -> None:
    """Point the config at ``where`` for its roster."""
    text = re.sub(r'^roster = .*$', f'roster = "{where}"', path.read_text(encoding="utf-8"), flags=re.M)
    path.write_text(text, encoding="utf-8")


def cli(*argv: str | Path) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own, with its memory capped at 2 GB and a minute to run: a regression
    fails there (a MemoryError, a timeout), not the test run."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    return subprocess.run([sys.executable, "-m", "sheets_gm.cli", *map(str, argv)], capture_output=True, text=True,
                          timeout=60, check=False, preexec_fn=cap)


@pytest.fixture
def match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = config(tmp_path, 'roster = "roster.csv"')
    roster(tmp_path)
    assert main(["init", "gvg", "-c", str(path)]) == 0
    capsys.readouterr()
    return path


def test_a_device_or_a_fifo_is_refused_without_reading_it_by_every_command(
        match: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "roster.fifo"
    os.mkfifo(fifo)
    for where in (Path("/dev/zero"), fifo):
        with_roster(match, where)
        for command in ("sync", "status"):  # the config is refused as it loads: no command reads the file
            code = main([command, "-c", str(match)])
            out, err = capsys.readouterr()
            assert code == 1, out + err
            assert f"roster: {where} is not a regular file (a device, a pipe or a socket): {ACCEPTED}" in err
    done = cli("doctor", "-c", match)  # in a process of its own: a regression hangs or runs out of memory there
    assert done.returncode == 1 and f"{fifo} is not a regular file" in done.stdout + done.stderr, done
    (tmp_path / "bare").mkdir()
    bare = config(tmp_path / "bare")  # a config without a roster line: init reads the file it is given
    done = cli("init", "gvg", "-c", bare, "--roster", "/dev/zero")
    assert done.returncode == 1 and f"/dev/zero is not a regular file (a device, a pipe or a socket): {ACCEPTED}" \
        in done.stderr, done


def test_a_file_that_is_no_roster_is_never_echoed(match: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    shadow = tmp_path / "shadow"
    shadow.write_text(f"root:{SECRET}:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n", encoding="utf-8")
    new = tmp_path / "new" / "match.toml"
    for argv in (["init", "gvg", "-c", str(new), "--roster", str(shadow)], ["doctor", "-c", str(match)]):
        with_roster(match, shadow)
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == (1 if argv[0] == "init" else 0), out + err  # doctor: a warning, the teams left unchecked
        assert f"{shadow} is not a roster: its first line names none of the columns name, seat" in out + err
        assert "root" not in (out + err).replace(str(tmp_path), "") and SECRET not in out + err


def test_a_roster_past_the_bound_is_refused_and_one_under_it_read(tmp_path: Path) -> None:
    path = roster(tmp_path, "name,team,role\n" + "Ann,red,dps\n" + "#\n" * (MAX_ROSTER_BYTES // 2))
    with pytest.raises(SeatRosterError, match=f"roster.csv is 1,000,0.. bytes long: a roster is a few kilobytes "
                                              rf"\(at most 1,000,000 bytes are read\): {re.escape(ACCEPTED)}"):
        read_seat_roster(path, ("red", "blue"), seat_word="team")
    path = roster(tmp_path, "name,team,role\nAnn,red,dps\n")
    assert [m.name for m in read_seat_roster(path, ("red", "blue"), seat_word="team").members] == ["Ann"]
