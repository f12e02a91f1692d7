"""Reading the sections of the mechanisms a spec names under ``[mechanisms]``: the keys they share.

Each registered mechanism of this package reads its own section; these
helpers check the keys several of them take (a list of contract names, of
card codes, of suit codes) and raise :class:`~trickrules.errors.SpecError`
naming ``mechanisms.<phase>.<key>`` and the value at fault.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from trickrules.errors import SpecError

if TYPE_CHECKING:
    from trickrules.compile.tables import Tables

__all__ = [
    "card_mask",
    "check_keys",
    "codes",
    "contract_flags",
    "named_and_checked",
    "one_card",
    "section_error",
]


def section_error(phase: str, key: str, message: str) -> SpecError:
    """The error for a bad value under ``mechanisms.<phase>.<key>``."""
    return SpecError(f"mechanisms.{phase}.{key}: {message}")


def check_keys(phase: str, section: Mapping[str, Any], known: Iterable[str]) -> None:
    """Refuse a key the section does not have."""
    allowed = set(known)
    for key in section:
        if key not in allowed:
            raise section_error(phase, key, f"not a key of this section (known: {', '.join(sorted(allowed))}).")


def codes(phase: str, section: Mapping[str, Any], key: str) -> tuple[str, ...]:
    """The list of strings under ``key`` (empty if absent)."""
    value = section.get(key, ())
    if not isinstance(value, tuple) or not all(type(v) is str for v in value):
        raise section_error(phase, key, f"expected a list of codes or names, found {value!r}.")
    return value


def contract_flags(phase: str, t: Tables, section: Mapping[str, Any], key: str) -> tuple[bool, ...]:
    """Per contract index, whether the list of contract names under ``key`` names it."""
    flags = [False] * len(t.rules.contracts)
    for name in codes(phase, section, key):
        if name not in t.contract_index:
            raise section_error(phase, key, f"{name!r} is not a contract of bidding.contracts.")
        flags[t.contract_index[name]] = True
    return tuple(flags)


def card_mask(phase: str, t: Tables, section: Mapping[str, Any], key: str) -> int:
    """The cards named under ``key``, as a mask."""
    mask = 0
    for code in codes(phase, section, key):
        if code not in t.card_of:
            raise section_error(phase, key, f"{code!r} is not a card of the deck.")
        mask |= 1 << t.card_of[code]
    return mask


def one_card(phase: str, t: Tables, section: Mapping[str, Any], key: str) -> int:
    """The one card named under ``key`` (required)."""
    code = section.get(key)
    if type(code) is not str or code not in t.card_of:
        raise section_error(phase, key, f"expected the code of a card of the deck, found {code!r}.")
    return t.card_of[code]


def named_and_checked(phase: str, params: Callable[[Tables], object]) -> Callable[[Tables], bool]:
    """A mechanism's ``uses``: whether the spec names its section, which ``params`` then compiles (and so checks)."""

    def uses(t: Tables) -> bool:
        if phase not in t.mechanism_sections:
            return False
        params(t)
        return True

    return uses
