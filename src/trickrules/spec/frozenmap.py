"""An immutable, hashable mapping for spec and state values."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Generic, TypeVar

__all__ = ["FrozenMap"]

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(Mapping[K, V], Generic[K, V]):
    """A read-only mapping that keeps insertion order and can be hashed.

    Spec sections such as card points (``{"A": 11, "3": 10}``) are mappings in
    the TOML file; inside a frozen spec they must not be mutable, and they must
    hash so that specs and states can be compared and cached.

    Equality ignores order, as a dict's does, and so does the hash (that of
    the set of items, worked out once): two equal maps hash alike. A map also
    equals a plain mapping with the same items (a dict cannot be hashed, so
    no hash has to agree). The values must be hashable for the map to be.
    A map pickles as its items; the remembered hash is not pickled, because
    string hashes differ from one process to the next.
    """

    __slots__ = ("_data", "_hash")

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] = ()) -> None:
        self._data: dict[K, V] = dict(items)
        self._hash: int | None = None

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._data.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._data == other._data
        if isinstance(other, Mapping):
            return self._data == dict(other)
        return NotImplemented

    def __reduce__(self) -> tuple[type[FrozenMap[K, V]], tuple[dict[K, V]]]:
        # Rebuilt from the items alone: a hash remembered here is wrong in another process.
        return type(self), (dict(self._data),)

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"
