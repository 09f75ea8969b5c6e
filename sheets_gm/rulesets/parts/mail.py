"""The part of a game that reads mail to the judge (``Game.mail``): what becomes of one mail, as plain data the door
(``running.mailroom``) carries out: lines to type into a seat's post table, a sealed submission for the judge alone
(a battle strategy), or why nothing of it is read. The door owns what every game's mail shares: the handled-once
record, typing the lines below what a seat typed, the receipt to the sender alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from sheets_gm.engine.ruleset import Roster
from sheets_gm.yamlio import load_yaml_model


@dataclass(frozen=True)
class Sealed:
    """A submission for the judge's eyes alone (a battle strategy): the ``subject`` it is filed under (a battle's
    square) and its ``title`` for people, the ``seat`` it is for, who sent it (``sender``, ``player``) and when the
    server received it (ISO), its ``labels``, the mail's ``subject_line`` and ``text``, how near names in the
    title were read (``read_as``), and what else the title named that is not in the battle (``passed``)."""

    subject: str
    title: str
    seat: str
    sender: str
    player: str
    received: str
    labels: tuple[str, ...]
    subject_line: str
    text: str
    read_as: tuple[tuple[str, str], ...] = ()
    passed: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The record's form."""
        return {"subject": self.subject, "title": self.title, "seat": self.seat, "sender": self.sender,
                "player": self.player, "received": self.received, "labels": list(self.labels),
                "subject_line": self.subject_line, "text": self.text, "read_as": [list(p) for p in self.read_as],
                "passed": list(self.passed)}

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> Sealed:
        """A submission from the record."""
        return Sealed(str(raw["subject"]), str(raw.get("title", "")), str(raw["seat"]), str(raw["sender"]),
                      str(raw.get("player", "")), str(raw["received"]), tuple(map(str, raw.get("labels", ()))),
                      str(raw.get("subject_line", "")), str(raw.get("text", "")),
                      tuple((str(a), str(b)) for a, b in raw.get("read_as", ())),
                      tuple(map(str, raw.get("passed", ()))))


@dataclass(frozen=True)
class Filing:
    """What a mail becomes: its ``kind`` (the game's word: movement, strategy), the lines to type by seat
    (``lines``), the lines not typed and why (``refused``), the lines passed over as chatter (``chatter``), the
    ``sealed`` submission to keep for the judge, ``unread``: why nothing of it is read ('' when something is),
    ``sender_name``: who the roster says sent it, and ``read_for``: what its lines are read for, when not the open
    window (the Coalition's next turn's movement, sent while the battles await strategies)."""

    kind: str
    sender_name: str = ""
    lines: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    refused: tuple[tuple[str, str], ...] = ()
    chatter: tuple[str, ...] = ()
    sealed: Sealed | None = None
    unread: str = ""
    read_for: str = ""  # when its lines are read, where it is not the open window (the receipt says it)


class SealedColumn(BaseModel):
    """One column of the judge's tab of sealed submissions: its header and width in pixels."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    header: str
    width: int = Field(default=120, ge=20, le=1000)


class SealedTab(BaseModel):
    """The judge's tab of sealed submissions (Coalition's Strategies tab), as data (``templates/<game>/``): its
    name, its title row, its rows at most and its columns."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    tab: str
    title: str
    rows: int = Field(default=1000, ge=10, le=100_000)
    columns: tuple[SealedColumn, ...]


def load_sealed_tab(path: Path) -> SealedTab:
    """The tab's layout from its YAML file (YamlError naming the file and the field)."""
    return load_yaml_model(path, SealedTab)


class MailPart(Protocol):
    """A game's reading of mail to the judge."""

    #: The seat input table a mail's lines are typed into (a side's post), and the mark its heading line begins with,
    #: which that table's reading passes over.
    post_table: str
    heading_mark: str

    def sealed_tab(self) -> SealedTab:
        """The layout of the judge's tab of sealed submissions."""
        ...

    def sealed_rows(self, state: Any, sealed: Sequence[Sealed], closed: bool) -> list[list[str]]:
        """The rows of that tab under its header for the submissions of the window open in ``state`` (``closed``:
        its deadline has passed), as many cells each as the tab has columns."""
        ...

    def deadline_cells(self, state: Any, sealed: Sequence[Sealed]) -> dict[str, dict[str, dict[str, str]]]:
        """What the judge's rows say at the deadline of the window open in ``state`` from its submissions, by table,
        row subject and column (typed only where the judge's cell is empty)."""
        ...

    def sealed_summary(self, state: Any, sealed: Sequence[Sealed], closed: bool = False) -> list[str]:
        """A line per subject awaiting submissions (a battle) for the judge's ``status`` (``closed``: the players'
        deadline passed, nothing more comes)."""
        ...

    def file(self, state: Any, roster: Roster, *, sender: str, subject: str, lines: Sequence[str], text: str,
             received: datetime, deadline: datetime | None) -> Filing:
        """What becomes of a mail from ``sender`` received at ``received`` while the open window closes at
        ``deadline`` (None: no deadline)."""
        ...
