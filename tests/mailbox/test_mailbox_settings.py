"""``[mailbox]`` read from a match config: a good table with its defaults; every bad key a line of its own naming
what is wrong and what is accepted; the password never in the file; ``none`` only for this computer; a config
with a bad ``[mailbox]`` still loads, its mailbox unread, and says why."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_gm.match.config import ConfigError, load_config
from sheets_gm.match.mailbox_settings import MailboxSecurity
from tests.matchfiles import local_config

GOOD = '[mailbox]\nhost = "imap.example.org"\nuser = "judge@example.org"\npassword_env = "JUDGE_PASSWORD"\n'


def test_a_good_table_is_read_with_its_defaults(tmp_path: Path) -> None:
    config = load_config(local_config(tmp_path, GOOD))
    box = config.mailbox
    assert box is not None and config.mailbox_problems == ()
    assert (box.host, box.port, box.security, box.folder, box.timeout) == (
        "imap.example.org", 993, MailboxSecurity.TLS, "INBOX", 10.0)
    assert box.password.env == "JUDGE_PASSWORD" and box.secret_env() == ["JUDGE_PASSWORD"]
    assert box.password.env_files  # read from the match's and the host's environment files too, as [notify]'s
    assert (box.receipts_per_day, box.answer_strangers) == (20, True)


def test_starttls_none_and_a_password_file(tmp_path: Path) -> None:
    (tmp_path / "ca.pem").write_text("x", encoding="utf-8")
    config = load_config(local_config(tmp_path, '[mailbox]\nhost = "127.0.0.1"\nsecurity = "none"\nuser = "j"\n'
                                                'password_file = "secret.txt"\nfolder = "Judge"\nca_file = "ca.pem"\n'
                                                'timeout = 3\n'))
    box = config.mailbox
    assert box is not None and box.security is MailboxSecurity.NONE and box.port == 143
    assert box.password.file == tmp_path / "secret.txt" and box.folder == "Judge" and box.ca_file == tmp_path / "ca.pem"
    starttls = load_config(local_config(tmp_path, GOOD + 'security = "STARTTLS"\n')).mailbox
    assert starttls is not None and starttls.security is MailboxSecurity.STARTTLS and starttls.port == 143


@pytest.mark.parametrize(("extra", "says"), [
    ('security = "ssl"', "[mailbox] security: 'ssl' is not accepted; write \"tls\" (port 993), \"starttls\""),
    ('security = "none"', "[mailbox] security: \"none\" is accepted only for a server on this computer (127.0.0.1, "
                          "::1, localhost), not 'imap.example.org'"),
    ("port = 0", "[mailbox] port: 0 is not a port; give a whole number from 1 to 65535 (993 for tls, 143 for"),
    ('port = "993"', "[mailbox] port: '993' is not a port"),
    ('folder = ""', "[mailbox] folder: '' is not a folder's name; write the folder to read"),
    ('ca_file = "nowhere.pem"', "[mailbox] ca_file: 'nowhere.pem' is not a file; name a PEM file"),
    ("timeout = 500", "[mailbox] timeout: 500 is not a number of seconds from more than 0 to 120"),
    ('password = "hunter2"', "[mailbox] password: the password is never kept in the config"),
    ('pasword_file = "x"', "[mailbox] pasword_file: unknown key; the keys accepted there are host, port, security, "
                           "user, password_env, password_file, folder, ca_file, timeout, receipts_per_day, "
                           "answer_strangers"),
    ('password_file = "x"', "[mailbox] password_env: give password_env or password_file, not both"),
    ("receipts_per_day = -1", "[mailbox] receipts_per_day: -1 is not a whole number from 0 to 1000: the receipts one "
                              "address gets a day at most (the default is 20)"),
    ('answer_strangers = "no"', "[mailbox] answer_strangers: 'no' is not true or false"),
])
def test_each_bad_key_is_named_with_what_is_accepted(tmp_path: Path, extra: str, says: str) -> None:
    config = load_config(local_config(tmp_path, GOOD + extra + "\n"))
    assert config.mailbox is None
    assert any(says in line for line in config.mailbox_problems), config.mailbox_problems
    assert all(line.startswith(f"{tmp_path / 'match.toml'} [mailbox] ") for line in config.mailbox_problems)


def test_missing_keys_and_a_table_that_is_none(tmp_path: Path) -> None:
    config = load_config(local_config(tmp_path, "[mailbox]\nfolder = \"INBOX\"\n"))
    lines = "\n".join(config.mailbox_problems)
    assert "[mailbox] host: missing: the mail server's name" in lines
    assert "[mailbox] user: missing: the mailbox's login" in lines
    assert "[mailbox] password_env: missing: name the environment variable that holds the password" in lines
    with pytest.raises(ConfigError, match="mailbox: input should be a valid dictionary"):
        load_config(local_config(tmp_path, head='mailbox = "imap.example.org"\n'))
    bare = load_config(local_config(tmp_path))
    assert bare.mailbox is None and bare.mailbox_problems == ()


def test_the_coalition_starter_config_offers_the_mailbox_table_commented_out_and_it_reads(tmp_path: Path) -> None:
    # a judge setting up the war by mail from the starter found [notify] there and no word of [mailbox]: the table
    # is there to uncomment, as [notify]'s is, and reads as it stands
    from sheets_gm.commands.init import starter_config

    lines = starter_config("coalition").read_text(encoding="utf-8").splitlines()
    at = lines.index(next(line for line in lines if line.startswith("# [mailbox]")))
    block = [line[2:].split("#")[0].rstrip() for line in lines[at:] if line.startswith("# ")]
    config = load_config(local_config(tmp_path, "\n".join(b for b in block if b) + "\n"))
    assert config.mailbox is not None and config.mailbox_problems == ()
    assert (config.mailbox.host, config.mailbox.security, config.mailbox.password.env) == (
        "imap.example.org", MailboxSecurity.TLS, "SHEETS_GM_MAILBOX_PASSWORD")
    assert any(line.startswith("# strategies_to = ") for line in lines)
