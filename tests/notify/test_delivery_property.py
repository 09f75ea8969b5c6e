"""The e-mail delivery rule as a property (issue 55, item 1): whatever the mail server answers each address, try
after try (accepted, refused for now, refused for good), an address is sent a letter once at most, an address
refused for good is never tried again, and a letter leaves the outbox exactly when every address was accepted or
refused for good. The server here is a stand-in session answering from a script Hypothesis draws (the real SMTP
server's answers are ``test_delivery``'s)."""

from __future__ import annotations

import datetime as dt
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets_gm.match.notify_settings import EmailSettings, NotifySettings, Security
from sheets_gm.notify.mail import Delivery
from sheets_gm.notify.outbox import EMAIL, Letter, Outbox
from sheets_gm.notify.send import send_waiting

ADDRESSES = ("a@x.example", "b@x.example", "c@x.example")
START = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
ANSWERS = st.sampled_from(["250", "450", "550"])


class ScriptedSession:
    """A mail session answering each address from ``script`` (address → answers, one per try; 250 once it ends)."""

    script: ClassVar[dict[str, list[str]]] = {}
    received: ClassVar[Counter[str]] = Counter()
    tried: ClassVar[Counter[str]] = Counter()

    def __init__(self, settings: EmailSettings, heads: object = None) -> None:
        del settings, heads

    def __enter__(self) -> ScriptedSession:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        return None

    def send(self, letter: Letter, now: object = None, most: int | None = None) -> Delivery:
        accepted, refused, later = [], {}, {}
        for address in letter.pending[:most]:
            self.tried[address] += 1
            answers = self.script[address]
            answer = answers.pop(0) if answers else "250"
            if answer == "250":
                accepted.append(address)
                self.received[address] += 1
            elif answer == "450":
                later[address] = "450 busy"
            else:
                refused[address] = "550 no such mailbox"
        return Delivery(tuple(accepted), refused, later)


def _at(moment: dt.datetime) -> Callable[[], dt.datetime]:
    """A clock that stays at ``moment``."""
    return lambda: moment


@settings(max_examples=60, deadline=None)
@given(st.fixed_dictionaries({a: st.lists(ANSWERS, max_size=4) for a in ADDRESSES}))
def test_an_address_gets_a_letter_once_at_most_and_one_refused_for_good_is_never_tried_again(
        script: dict[str, list[str]]) -> None:
    with pytest.MonkeyPatch.context() as patch, tempfile.TemporaryDirectory() as folder:
        patch.setattr("sheets_gm.notify.mail.MailSession", ScriptedSession)
        ScriptedSession.script = {a: list(answers) for a, answers in script.items()}
        ScriptedSession.received, ScriptedSession.tried = Counter(), Counter()
        notify = NotifySettings(frozenset(), None, {}, email=EmailSettings("127.0.0.1", 587, Security.STARTTLS,
                                                                            "gm@x.example"))
        box = Outbox(Path(folder) / "outbox")
        box.add([Letter("m/1/opened/red", EMAIL, "red", "Turn 1 is open", "…", START.isoformat(), ADDRESSES)])
        now = START
        for _ in range(12):  # polls, each past the letter's wait
            send_waiting(box, notify, _at(now))
            waiting = box.waiting()
            now = max([now + dt.timedelta(minutes=1), *(w.waits_until() or now for w in waiting)])
        refused_for_good = {a for a, answers in script.items() if "550" in answers[:answers.index("250")
                                                                                 if "250" in answers else None]}
        assert all(count <= 1 for count in ScriptedSession.received.values()), ScriptedSession.received
        for address in refused_for_good:
            first_550 = script[address].index("550")
            assert ScriptedSession.tried[address] == first_550 + 1, "tried again after a refusal for good"
            assert ScriptedSession.received[address] == 0
        assert box.waiting() == [], "every address answered for good within the polls: the letter is done"
        assert set(ScriptedSession.received) | refused_for_good == set(ADDRESSES)
