"""What the command line's subcommands share in reading their arguments."""

from __future__ import annotations

from collections.abc import Sequence

from trickrules.errors import ArgumentError

__all__ = ["options_of"]


def options_of(pairs: Sequence[str], flag: str = "--option") -> dict[str, str]:
    """``KEY=VALUE`` texts as a mapping; :class:`ArgumentError` naming ``flag`` for one without ``=`` or a key."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ArgumentError(f"{flag} expects KEY=VALUE, found {pair!r}")
        out[key] = value
    return out
