"""A small immutable, hashable mapping, so that a RuleSet stays hashable."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

__all__ = ["FrozenMap"]

V = TypeVar("V")


class FrozenMap(Mapping[str, V]):
    """A read-only ``str``-keyed mapping with value equality and a hash; keys kept sorted."""

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping[str, V] | None = None) -> None:
        items = sorted((data or {}).items())
        self._data: dict[str, V] = dict(items)
        self._hash: int | None = None

    def __getitem__(self, key: str) -> V:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self._data.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self._data.items()) == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenMap, (self._data,))
