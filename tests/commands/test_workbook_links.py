"""A local match's workbooks lead to no file outside the match (issue 52, item 11): a workbook that is a link out of
the config's folder is refused by every command, as init refuses it; a workbook's links to other files (an external
workbook reference, a hyperlink to a file) are removed by the next command that writes, and the GM is told."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.packaging.relationship import Relationship
from openpyxl.workbook.external_link.external import ExternalBook, ExternalLink

from sheets_gm.cli import main
from tests.matchfiles import local_match


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_workbook_linked_out_of_the_folder_is_refused_by_every_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, _ = local_match(tmp_path / "match", private=True)
    red = tmp_path / "match" / "red.xlsx"
    elsewhere = tmp_path / "elsewhere" / "red.xlsx"
    elsewhere.parent.mkdir()
    shutil.move(red, elsewhere)
    red.symlink_to(elsewhere)
    before = elsewhere.read_bytes()
    for command in (["sync"], ["status"], ["undo", "--reason", "x"], ["repair"], ["doctor"], ["verify"]):
        code, out, err = run(capsys, *command, "-c", config)
        assert code == 1, (command, out, err)
        assert f"[sheets] names {red}, a link to {elsewhere}, outside the config's folder" in out + err, command
        assert "Traceback" not in err
    assert elsewhere.read_bytes() == before and red.is_symlink()
    red.unlink()
    inside = tmp_path / "match" / "teams" / "red.xlsx"  # a link that stays inside the folder is followed
    inside.parent.mkdir()
    shutil.move(elsewhere, inside)
    red.symlink_to(inside)
    code, out, err = run(capsys, "sync", "-c", config)
    assert code == 0 and out.startswith("Turn 1"), out + err


def add_links(path: Path) -> None:
    """An external workbook reference to /etc/passwd, a hyperlink to a file and one to a web page, as a player's
    office program would save them."""
    wb = openpyxl.load_workbook(path)
    link = ExternalLink(externalBook=ExternalBook(id="rId1"))
    link.file_link = Relationship(type="externalLinkPath", Target="file:///etc/passwd", TargetMode="External",
                                  Id="rId1")
    wb._external_links.append(link)
    ws = wb["Orders red"]
    ws["Z1"] = "see here"
    ws["Z1"].hyperlink = "file:///home/gm/secret.txt"
    ws["Z2"] = "our plan"
    ws["Z2"].hyperlink = "https://example.org/plan"
    wb.save(path)


def parts(path: Path) -> str:
    with zipfile.ZipFile(path) as z:
        return " ".join(z.namelist()) + " ".join(z.read(n).decode("utf-8", "replace") for n in z.namelist()
                                                 if n.endswith(".rels"))


def test_links_to_other_files_are_removed_and_the_gm_told(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, _ = local_match(tmp_path, private=True)
    red = tmp_path / "red.xlsx"
    add_links(red)
    assert "file:///etc/passwd" in parts(red)
    code, out, err = run(capsys, "status", "-c", config)  # reads only: names them, leaves them
    assert code == 0, out + err
    assert (f"{red} held 2 links to other files (file:///etc/passwd, file:///home/gm/secret.txt): a match's "
            "workbook refers to no file outside it") in err and "the next sync removes them" in err
    assert "file:///etc/passwd" in parts(red)
    code, out, err = run(capsys, "sync", "-c", config)
    assert code == 0, out + err
    assert f"{red} held 2 links to other files" in err and "removed them (the cells keep their text)" in err
    saved = parts(red)
    assert "externalLink" not in saved and "file:///" not in saved and "https://example.org/plan" in saved
    wb = openpyxl.load_workbook(red)
    assert wb["Orders red"]["Z1"].value == "see here" and wb["Orders red"]["Z1"].hyperlink is None
    code, out, err = run(capsys, "sync", "-c", config)
    assert code == 0 and "link" not in err, err
