"""A small record compared by value, for the idle poll's path, which loads no ``dataclasses`` (with ``inspect``, most
of what it would import): a subclass names its fields in ``__slots__`` and sets them in its ``__init__``; equality,
hashing and the ``repr`` come from them, in their order."""

from __future__ import annotations

#: Types alone below (mypy reads it as ``typing.TYPE_CHECKING``): the idle poll loads no ``typing``.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Self


class Plain:
    """Equal to a record of its own class with the same values of its ``__slots__``, hashed and shown by them."""

    __slots__ = ()

    def _values(self) -> tuple[object, ...]:
        names: tuple[str, ...] = self.__slots__
        return tuple(getattr(self, name) for name in names)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Plain) and type(other) is type(self) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def fields(self) -> dict[str, object]:
        """Its values by name, in the order of its ``__slots__``."""
        names: tuple[str, ...] = self.__slots__
        return dict(zip(names, self._values(), strict=True))

    def replaced(self, **changes: object) -> Self:
        """A record of its class with the same values but ``changes`` (its ``__init__`` takes each of its
        ``__slots__`` by name, as ``dataclasses.replace`` asks of a dataclass)."""
        return type(self)(**(self.fields() | changes))

    def __repr__(self) -> str:
        names: tuple[str, ...] = self.__slots__
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(names, self._values(), strict=True))
        return f"{type(self).__name__}({shown})"
