"""The templates' compiled cache only saves time: a template read back from it renders as one compiled afresh, and a
cache file that is short or not Jinja's, or a folder that cannot be written, is a miss: the page is written all the
same."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FunctionLoader, select_autoescape

from sheets_gm.web.compiled import compiled_cache

SOURCE = "<p>{{ name }}</p>{% for n in items %}<i>{{ n }}</i>{% endfor %}"
VALUES = {"name": "<b>Ann & Bo</b>", "items": ["1", "<2>"]}
EXPECTED = "<p>&lt;b&gt;Ann &amp; Bo&lt;/b&gt;</p><i>1</i><i>&lt;2&gt;</i>"


def _rendered(folder: Path) -> str:
    cache = compiled_cache(str(folder))
    env = Environment(loader=FunctionLoader(lambda name: SOURCE), autoescape=select_autoescape(["j2"]),
                      bytecode_cache=cache)
    return env.get_template("t.j2").render(VALUES)


def test_a_template_read_back_renders_as_compiled_afresh(tmp_path: Path) -> None:
    assert _rendered(tmp_path) == EXPECTED
    kept = list(tmp_path.iterdir())
    assert len(kept) == 1 and kept[0].stat().st_size > 0  # the compiled template was kept
    assert _rendered(tmp_path) == EXPECTED


def test_a_broken_cache_file_is_a_miss(tmp_path: Path) -> None:
    _rendered(tmp_path)
    for junk in (b"", b"j2\x00", b"not jinja at all" * 10):
        for kept in tmp_path.iterdir():
            kept.write_bytes(junk)
        assert _rendered(tmp_path) == EXPECTED


def test_a_folder_that_cannot_be_written_is_a_miss(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder would be", encoding="utf-8")
    assert _rendered(blocked) == EXPECTED
    assert _rendered(blocked / "under") == EXPECTED
