"""``[notify]`` read from a match config: every bad option a line of its own naming what is wrong and what is
accepted; a secret typed into the config refused; a config with bad options still polls, notices off, and
says so; doctor lists each problem, the secrets' sources, what waits, and sends a test notice on demand."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from sheets_gm.cli import main
from sheets_gm.match.config import load_config
from sheets_gm.match.notify_settings import ChatStyle, NoticeKind, Security
from tests.matchfiles import local_match
from tests.notify.servers import CERT, PASSWORD, USER, smtp_server, webhook_server

GOOD_CHAT = '[notify.chat]\nstyle = "slack"\nurl_env = "HOOK"\n'


def config_with(tmp_path: Path, notify: str) -> Path:
    path, _ = local_match(tmp_path, body=notify)
    return path


def problems(tmp_path: Path, notify: str) -> list[str]:
    config = load_config(config_with(tmp_path, notify))
    assert config.notify is None
    return list(config.notify_problems)


def test_a_good_table_is_read_with_its_defaults(tmp_path: Path) -> None:
    config = load_config(config_with(tmp_path, f"""
[notify]
send = ["opened", "resolved", "over"]
reminder = "1h30m"
timezones = {{ RED = "America/New_York" }}

[notify.email]
host = "smtp.example.org"
security = "tls"
user = "{USER}"
password_file = "secrets/smtp.txt"
sender = "GM <{USER}>"
""" + GOOD_CHAT))
    notify = config.notify
    assert notify is not None and config.notify_problems == ()
    assert notify.kinds == {NoticeKind.OPENED, NoticeKind.RESOLVED, NoticeKind.OVER}
    assert notify.lead == dt.timedelta(minutes=90) and notify.zones == {"red": "America/New_York"}
    assert notify.email is not None and notify.email.port == 465 and notify.email.security is Security.TLS
    assert notify.email.password is not None and notify.email.password.file == tmp_path / "secrets/smtp.txt"
    assert notify.chat is not None and notify.chat.style is ChatStyle.SLACK and notify.chat.url.env == "HOOK"


@pytest.mark.parametrize(("table", "says"), [
    ('[notify]\nsend = ["opened", "gossip"]\n' + GOOD_CHAT,
     "[notify] send: 'gossip' is not a kind of notice; the kinds are \"opened\", \"reminder\""),
    ('[notify]\nreminder = "soon"\n' + GOOD_CHAT, "[notify] reminder: 'soon' is not a lead time; write hours"),
    ('[notify]\ntimezones = { red = "Mars/Olympus" }\n' + GOOD_CHAT,
     "[notify] timezones: red: 'Mars/Olympus' is not a time zone; use an IANA name"),
    ('[notify]\ntimezones = { green = "UTC" }\n' + GOOD_CHAT,
     "[notify] timezones: 'green' is neither a seat nor an e-mail address; the seats are red, blue"),
    ('[notify]\nreminders = "2h"\n' + GOOD_CHAT,
     "[notify] reminders: unknown key; the keys accepted there are send, reminder, timezones, email, chat"),
    ("[notify]\nreminder = \"2h\"\n", "[notify] email/chat: no channel to send through"),
    ('[notify.email]\nhost = "smtp.example.org"\nsender = "gm@example.org"\nuser = "gm"\npassword = "hunter2"\n',
     "[notify.email] password: the password is never kept in the config"),
    ('[notify.email]\nhost = "smtp.example.org"\nsender = "gm@example.org"\nsecurity = "none"\n',
     "[notify.email] security: 'none' is not accepted; write \"starttls\" (port 587) or \"tls\""),
    ('[notify.email]\nhost = "smtp.example.org"\nsender = "gm@example.org"\nport = 99999\n',
     "[notify.email] port: 99999 is not a port; give a whole number from 1 to 65535"),
    ('[notify.email]\nhost = "smtp.example.org"\nsender = "the GM"\n',
     "[notify.email] sender: 'the GM' is not an e-mail address"),
    ('[notify.email]\nsender = "gm@example.org"\n', "[notify.email] host: missing: the mail server's name"),
    ('[notify.email]\nhost = "smtp.example.org"\nsender = "gm@example.org"\nuser = "gm"\n',
     "[notify.email] password_env: missing: name the environment variable that holds the password"),
    ('[notify.email]\nhost = "h"\nsender = "gm@example.org"\nuser = "gm"\npassword_env = "A"\npassword_file = "f"\n',
     "[notify.email] password_env: give password_env or password_file, not both"),
    ('[notify.email]\nhost = "h"\nsender = "gm@example.org"\nuser = "gm"\npassword_env = "my password"\n',
     "[notify.email] password_env: 'my password' is not the name of an environment variable"),
    ('[notify.email]\nhost = "h"\nsender = "gm@example.org"\nca_file = "nowhere.pem"\n',
     "[notify.email] ca_file: 'nowhere.pem' is not a file; name a PEM file"),
    ('[notify.email]\nhost = "h"\nsender = "gm@example.org"\ntimeout = 0\n',
     "[notify.email] timeout: 0 is not a number of seconds from more than 0 to 120"),
    ('[notify.chat]\nstyle = "teams"\nurl_env = "HOOK"\n',
     "[notify.chat] style: 'teams' is not a webhook style; write one of \"discord\", \"slack\""),
    ('[notify.chat]\nstyle = "discord"\nurl = "https://discord.com/api/webhooks/1/abc"\n',
     "[notify.chat] url: the url is never kept in the config"),
    ('[notify.chat]\nstyle = "discord"\n', "[notify.chat] url_env: missing: name the environment variable"),
])
def test_each_bad_option_is_a_line_naming_what_is_wrong_and_what_is_accepted(tmp_path: Path, table: str,
                                                                              says: str) -> None:
    found = problems(tmp_path, table)
    assert any(says in line for line in found), found
    assert all("\n" not in line and line.startswith(str(tmp_path / "match.toml")) for line in found)
    assert "hunter2" not in "".join(found) and "abc" not in "".join(found)


def test_every_bad_option_gets_its_own_line(tmp_path: Path) -> None:
    found = problems(tmp_path, '[notify]\nreminder = "later"\nsend = "all"\n[notify.chat]\nstyle = "irc"\n')
    assert len(found) == 4, found  # reminder, send, style, url_env
    assert sorted(line.split("] ")[1].split(":")[0] for line in found) == ["reminder", "send", "style", "url_env"]


def test_a_config_with_a_bad_notify_table_still_polls_and_says_notices_are_off(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = config_with(tmp_path, '[notify]\nreminder = "later"\n' + GOOD_CHAT)
    assert main(["sync", "-c", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Warning: notices are off until [notify] is mended" in out and "'later' is not a lead time" in out
    assert main(["status", "-c", str(path)]) == 0
    assert "Notices are off: " in capsys.readouterr().out


def test_doctor_fails_each_bad_option_and_checks_the_secrets(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    path = config_with(tmp_path, '[notify]\nreminder = "later"\nsend = "all"\n' + GOOD_CHAT)
    assert main(["doctor", "-c", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.count("✘ notices: ") == 2, out
    secret = tmp_path / "hook-url"
    secret.write_text("https://chat.example/hook/abc\n", encoding="utf-8")
    os.chmod(secret, 0o644)
    path.write_text(path.read_text(encoding="utf-8").replace('[notify]\nreminder = "later"\nsend = "all"\n', "")
                    .replace('url_env = "HOOK"', 'url_file = "hook-url"'), encoding="utf-8")
    assert main(["doctor", "-c", str(path)]) == 0
    out = capsys.readouterr().out
    assert "✔ notices: through chat (slack webhook, URL from the file" in out, out
    assert f"⚠ notices: the webhook's URL: {secret} can be read by others than you (mode 644)" in out
    assert "https://chat.example" not in out
    path.write_text(path.read_text(encoding="utf-8").replace('url_file = "hook-url"', 'url_env = "UNSET_HOOK"'),
                    encoding="utf-8")
    monkeypatch.delenv("UNSET_HOOK", raising=False)
    assert main(["doctor", "-c", str(path)]) == 1
    assert "✘ notices: the webhook's URL: the environment variable UNSET_HOOK is not set" in capsys.readouterr().out


def test_doctor_sends_a_test_notice_through_every_channel_on_demand(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SMTP_PASSWORD", PASSWORD)
    with smtp_server() as (box, port), webhook_server() as hook:
        monkeypatch.setenv("HOOK", hook.url)
        path = config_with(tmp_path, f"""
[notify.email]
host = "127.0.0.1"
port = {port}
user = "{USER}"
password_env = "SMTP_PASSWORD"
sender = "{USER}"
ca_file = "{CERT}"
""" + GOOD_CHAT.replace('"slack"', '"discord"'))
        path.write_text('gm_emails = ["gm@notices.example"]\n' + path.read_text(encoding="utf-8"), encoding="utf-8")
        assert main(["doctor", "-c", str(path)]) == 0
        assert box.messages == [] and hook.posts == [], "doctor sends nothing unless asked"
        capsys.readouterr()
        assert main(["doctor", "-c", str(path), "--send-test"]) == 0
        out = capsys.readouterr().out
    assert "✔ notices: test: chat: a test notice was posted to the discord webhook" in out, out
    assert "✔ notices: test: e-mail: a test notice was sent to gm@notices.example" in out
    assert len(hook.posts) == 1 and "Test notice" in hook.texts()[0]
    assert [str(m["Subject"]) for _, m in box.messages] == ["[Test match] Test notice from sheets-gm"]
