"""The accounts' access tokens kept across a restart (``host.access_kept``): only those within their hour are read
back, a damaged file keeps none, and the file is its owner's alone."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from sheets_gm.host.access_kept import read_access, write_access

NOW = datetime(2026, 11, 28, 6, 0)


def test_only_the_tokens_within_their_hour_are_read_back(tmp_path: Path) -> None:
    path = tmp_path / "serve-access.json"
    write_access(path, {"ann": ("a-token", NOW + timedelta(minutes=5)), "bob": ("b-token", NOW - timedelta(seconds=1))})
    assert path.stat().st_mode & 0o777 == 0o600
    assert read_access(path, NOW) == {"ann": ("a-token", NOW + timedelta(minutes=5))}
    assert read_access(path, NOW + timedelta(minutes=5)) == {}


def test_a_damaged_or_missing_file_keeps_no_token(tmp_path: Path) -> None:
    path = tmp_path / "serve-access.json"
    assert read_access(path, NOW) == {}
    for text in ("{", "[]", '{"ann": "t"}', '{"ann": {"token": "t"}}', '{"ann": {"token": "t", "expiry": "soon"}}',
                 '{"ann": {"token": 3, "expiry": "2026-11-28T07:00:00"}}',
                 '{"ann": {"token": "t", "expiry": "2026-11-28T07:00:00+00:00"}}'):
        path.write_text(text, encoding="utf-8")
        assert read_access(path, NOW) == {}, text
