"""The two channels against real local servers: SMTP (aiosmtpd) over STARTTLS and implicit TLS with a login, and
a webhook (http.server in a thread) in Discord's and Slack's style; with the faults a GM meets: a refused
connection, a server that never answers (a short socket timeout, no sleeping), a refused address or login, a
rate limit with Retry-After."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from sheets_gm.match.config_tables import SecretSource
from sheets_gm.match.notify_settings import ChatSettings, ChatStyle, EmailSettings, Security
from sheets_gm.notify.channel import SendError
from sheets_gm.notify.chat import ChatHook, chat_parts
from sheets_gm.notify.mail import MailSession
from sheets_gm.notify.outbox import CHAT, EMAIL, Letter
from tests.notify.servers import CERT, PASSWORD, USER, Fault, free_port, smtp_server, webhook_server

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)


def mail_settings(port: int, security: Security = Security.STARTTLS, *, password: SecretSource | None = None,
                  timeout: float = 5.0) -> EmailSettings:
    return EmailSettings("127.0.0.1", port, security, f"Match GM <{USER}>", USER,
                         password or SecretSource(env="NOTICE_TEST_PASSWORD"), CERT, timeout)


def letter(to: tuple[str, ...] = ("ann@notices.example",), body: str = "Turn 3 is open.") -> Letter:
    return Letter("m/3/opened/Ann", EMAIL, "Ann", "[Night] Turn 3 is open", body, "2026-11-22T12:00:00+00:00", to)


@pytest.fixture(autouse=True)
def password(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTICE_TEST_PASSWORD", PASSWORD)


def test_a_notice_goes_by_starttls_after_a_login_with_the_password_from_the_environment() -> None:
    with smtp_server() as (box, port), MailSession(mail_settings(port)) as mail:
        mail.send(letter())
    (message,) = box.to("ann@notices.example")
    assert message["Subject"] == "[Night] Turn 3 is open"
    assert message["From"] == f"Match GM <{USER}>"
    assert message.get_content().strip() == "Turn 3 is open."
    assert message["Message-ID"].endswith(f"@{USER.split('@')[1]}>")  # in the sender's domain
    assert box.logins == [USER]


def test_implicit_tls_and_a_password_file(tmp_path: Path) -> None:
    secret = tmp_path / "smtp-password"
    secret.write_text(PASSWORD + "\n", encoding="utf-8")
    with smtp_server(implicit_tls=True) as (box, port), \
            MailSession(mail_settings(port, Security.TLS, password=SecretSource(file=secret))) as mail:
        mail.send(letter(("ann@notices.example", "al@notices.example")))
    assert sorted(to for (to,), _m in box.messages) == ["al@notices.example", "ann@notices.example"]


@pytest.mark.parametrize("players", [12, pytest.param(288, marks=pytest.mark.soak)])  # the war's side: 90 s
def test_each_address_is_hers_alone(players: int) -> None:
    """A letter to a side's players (288 in the war) goes as one message to each, her own address alone in it (never
    the others' in To or Cc, where every player would read her side's addresses and a provider refuses over about
    100); each message keeps an identity of its own, the same when it is sent again."""
    side = tuple(f"p{n}@notices.example" for n in range(players))
    with smtp_server() as (box, port), MailSession(mail_settings(port)) as mail:
        assert mail.send(letter(side)).accepted == side
        mail.send(letter(side[:1]))
    assert len(box.messages) == players + 1
    for (to,), message in box.messages:
        assert message["To"] == to and message["Cc"] is None and message["Bcc"] is None
        assert not any(other in str(message) for other in side if other != to)
    ids = [message["Message-ID"] for _to, message in box.messages[:players]]
    assert len(set(ids)) == players


def test_the_same_notice_is_the_same_message_id() -> None:
    with smtp_server() as (box, port), MailSession(mail_settings(port)) as mail:
        mail.send(letter())
        mail.send(letter())
    assert box.messages[0][1]["Message-ID"] == box.messages[1][1]["Message-ID"]


def test_a_wrong_password_fails_the_channel_naming_where_the_password_comes_from(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTICE_TEST_PASSWORD", "wrong")
    with smtp_server() as (box, port), pytest.raises(SendError) as caught, MailSession(mail_settings(port)):
        pass
    assert caught.value.down and "refused the login" in str(caught.value)
    assert "NOTICE_TEST_PASSWORD" in str(caught.value) and "wrong" not in str(caught.value)
    assert box.messages == []


def test_an_unset_password_variable_is_named() -> None:
    settings = mail_settings(free_port(), password=SecretSource(env="NOTICE_TEST_UNSET"))
    with pytest.raises(SendError, match="NOTICE_TEST_UNSET is not set"), MailSession(settings):
        pass


def test_a_refused_connection_fails_the_channel() -> None:
    with pytest.raises(SendError, match="connection refused") as caught, MailSession(mail_settings(free_port())):
        pass
    assert caught.value.down


def test_a_busy_server_is_told_as_busy_not_as_one_without_starttls() -> None:
    """A server that answers EHLO with 421 ("try later") is busy for now: the channel waits, and nothing tells the
    GM to change a correct config (it used to say "offers no STARTTLS … set security = tls")."""
    with smtp_server() as (box, port):
        box.busy_hellos = 1
        with pytest.raises(SendError) as caught, MailSession(mail_settings(port)):
            pass
        assert caught.value.down and "busy" in str(caught.value) and "421" in str(caught.value), caught.value
        assert "STARTTLS" not in str(caught.value) and "security" not in str(caught.value)
        with MailSession(mail_settings(port)) as mail:  # the next try finds it free again
            assert mail.send(letter()).accepted == ("ann@notices.example",)


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never says a word (an SMTP server that hangs before its greeting)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    stop = threading.Event()
    accepted: list[socket.socket] = []

    def accept() -> None:
        listener.settimeout(0.05)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except TimeoutError:
                continue
            except OSError:
                return

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield int(listener.getsockname()[1])
    stop.set()
    thread.join()
    for conn in accepted:
        conn.close()
    listener.close()


def test_a_server_that_never_answers_times_out(silent_port: int) -> None:
    with pytest.raises(SendError, match="no answer in time") as caught, \
            MailSession(mail_settings(silent_port, timeout=0.2)):
        pass
    assert caught.value.down


def test_each_address_gets_its_own_answer_from_the_server() -> None:
    with smtp_server() as (box, port), MailSession(mail_settings(port)) as mail:
        box.refuse.add("gone@notices.example")
        box.busy.add("full@notices.example")
        delivery = mail.send(letter(("gone@notices.example", "ann@notices.example", "full@notices.example")))
        assert delivery.accepted == ("ann@notices.example",)
        assert list(delivery.refused) == ["gone@notices.example"] and "550" in delivery.refused["gone@notices.example"]
        assert list(delivery.later) == ["full@notices.example"] and "450" in delivery.later["full@notices.example"]
        every = mail.send(letter(("gone@notices.example",)))  # every address refused: still an answer, not a fault
        assert every.accepted == () and list(every.refused) == ["gone@notices.example"]
        mail.send(letter())  # the connection still serves the next one
    assert len(box.to("ann@notices.example")) == 2 and box.to("gone@notices.example") == []


def chat_settings(url_env: str = "NOTICE_TEST_HOOK", style: ChatStyle = ChatStyle.DISCORD,
                  timeout: float = 5.0) -> ChatSettings:
    return ChatSettings(style, SecretSource(env=url_env), timeout)


def chat_letter(text: str = "**Turn 3 resolved**\nAnn moves.") -> Letter:
    return Letter("m/3@1/resolved/#channel", CHAT, "#channel", "Turn 3 resolved", text, "2026-11-22T12:00:00+00:00")


@pytest.mark.parametrize(("style", "key"), [(ChatStyle.DISCORD, "content"), (ChatStyle.SLACK, "text")])
def test_a_webhook_post_in_each_style(style: ChatStyle, key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with webhook_server() as hook:
        monkeypatch.setenv("NOTICE_TEST_HOOK", hook.url)
        ChatHook(chat_settings(style=style)).post(chat_letter(), NOW)
    mentions: dict[str, object] = {"allowed_mentions": {"parse": []}} if style is ChatStyle.DISCORD else {}
    assert hook.posts == [{key: "**Turn 3 resolved**\nAnn moves.", **mentions}]


def test_a_rate_limit_sets_the_next_try_from_retry_after(monkeypatch: pytest.MonkeyPatch) -> None:
    with webhook_server() as hook:
        monkeypatch.setenv("NOTICE_TEST_HOOK", hook.url)
        hook.faults.append(Fault(429, {"Retry-After": "42"}))
        with pytest.raises(SendError, match="429") as caught:
            ChatHook(chat_settings()).post(chat_letter(), NOW)
        hook.faults.append(Fault(429, {"Content-Type": "application/json"}, b'{"retry_after": 2.5}'))
        with pytest.raises(SendError) as discord:
            ChatHook(chat_settings()).post(chat_letter(), NOW)
    assert caught.value.down and caught.value.retry_at == NOW + timedelta(seconds=42)
    assert discord.value.retry_at == NOW + timedelta(seconds=2.5)
    assert hook.posts == []
    assert "secret-token" not in str(caught.value)


def test_a_webhook_that_hangs_times_out_and_a_closed_port_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    with webhook_server() as hook:
        monkeypatch.setenv("NOTICE_TEST_HOOK", hook.url)
        hook.faults.append(Fault(hang=5))
        with pytest.raises(SendError, match="no answer in time") as hung:
            ChatHook(chat_settings(timeout=0.2)).post(chat_letter(), NOW)
        hook.release.set()
    monkeypatch.setenv("NOTICE_TEST_HOOK", f"http://127.0.0.1:{free_port()}/hook")
    with pytest.raises(SendError, match="connection refused") as refused:
        ChatHook(chat_settings()).post(chat_letter(), NOW)
    assert hung.value.down and refused.value.down


def test_a_deleted_webhook_names_where_its_url_comes_from(monkeypatch: pytest.MonkeyPatch) -> None:
    with webhook_server() as hook:
        monkeypatch.setenv("NOTICE_TEST_HOOK", hook.url)
        hook.faults.append(Fault(404, body=b'{"message": "Unknown Webhook"}'))
        with pytest.raises(SendError, match="404") as caught:
            ChatHook(chat_settings()).post(chat_letter(), NOW)
    assert "NOTICE_TEST_HOOK" in str(caught.value) and hook.url not in str(caught.value)


def test_a_long_notice_is_cut_between_lines_into_messages_the_style_takes() -> None:
    body = "\n".join(f"Army {n} holds its square." for n in range(300))
    parts = chat_parts("Movement Results, turn 4", body, ChatStyle.DISCORD, 2000)
    assert len(parts) > 1 and all(len(p) <= 2000 for p in parts)
    assert "\n".join(parts) == f"**Movement Results, turn 4**\n{body}"
