"""Codecs: one declaration per kind of data instead of a pair of delegating methods per ruleset."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from sheets_gm.engine.codecs import Codec
from sheets_gm.rulesets.registry import get_ruleset, ruleset_names


@dataclass(frozen=True)
class Pin:
    """A made-up value whose ``from_json`` is a staticmethod, as the Coalition game's types have it."""

    square: str

    def to_json(self) -> dict[str, Any]:
        return {"square": self.square}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Pin:
        return Pin(str(data["square"]))


def test_a_type_with_a_static_from_json_makes_a_codec_too() -> None:
    codec = Codec.of(Pin)
    assert codec.to_json(Pin("C3")) == {"square": "C3"}
    assert codec.from_json(json.loads(json.dumps(codec.to_json(Pin("C3"))))) == Pin("C3")


def test_a_codec_of_functions_calls_them() -> None:
    codec: Codec[tuple[str, int]] = Codec(lambda v: {"name": v[0], "n": v[1]}, lambda d: (d["name"], d["n"]))
    assert codec.to_json(("Ann", 2)) == {"name": "Ann", "n": 2}
    assert codec.from_json({"name": "Ann", "n": 2}) == ("Ann", 2)


def test_data_the_codec_did_not_write_is_the_types_error() -> None:
    with pytest.raises(KeyError):
        Codec.of(Pin).from_json({"hex": "C3"})


def test_a_codec_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Codec.of(Pin).to_json = lambda pin: {}  # type: ignore[misc]


@pytest.mark.parametrize("name", ruleset_names())
@pytest.mark.parametrize("kind", ["state_codec", "orders_codec", "gm_event_codec"])
def test_every_ruleset_declares_its_codecs_on_the_class(name: str, kind: str) -> None:
    assert isinstance(getattr(get_ruleset(name), kind), Codec)
