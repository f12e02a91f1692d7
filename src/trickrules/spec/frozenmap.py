"""An immutable, hashable mapping for spec and state values."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Generic, TypeVar

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

    Maps are shared (the empty defaults of every spec), so a map cannot be
    changed: setting or deleting an attribute, or calling ``__init__`` again,
    raises ``AttributeError``.
    """

    __slots__ = ("_data", "_hash")
    _data: dict[K, V]
    _hash: int | None

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] = ()) -> None:
        if hasattr(self, "_data"):
            raise AttributeError("a FrozenMap is immutable: it cannot be initialised again")
        object.__setattr__(self, "_data", dict(items))
        object.__setattr__(self, "_hash", None)

    if not TYPE_CHECKING:  # hidden from mypy, which would then let any attribute be set

        def __setattr__(self, name: str, value: object) -> None:
            raise AttributeError(f"a FrozenMap is immutable: {name!r} cannot be set")

        def __delattr__(self, name: str) -> None:
            raise AttributeError(f"a FrozenMap is immutable: {name!r} cannot be deleted")

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        found = self._hash
        if found is None:
            found = hash(frozenset(self._data.items()))
            object.__setattr__(self, "_hash", found)
        return found

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
