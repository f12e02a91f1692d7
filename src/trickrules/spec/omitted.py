"""Options left out of a log's header and of the fingerprint at their default (``options.NAME.omit_default``).

An option added to a game after logs of it were recorded says ``omit_default = true``: its default choice
changes nothing, and at that choice the option is left out of the header's ``options`` and of the spec's
fingerprint, as if the spec had no such option. The game's earlier logs then still replay (their header loads
the default) and compare (the same fingerprint and header).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trickrules.errors import SpecError
from trickrules.spec.model import Spec

__all__ = ["check_omit_default", "omitted_options", "recorded_options"]


def check_omit_default(option: Mapping[str, Any], default: str, where: str) -> bool:
    """The raw option's ``omit_default`` (``where`` names the option), refused unless its default changes nothing."""
    omit = option.get("omit_default", False)
    if type(omit) is not bool:
        raise SpecError(f"{where}.omit_default: expected true or false, found {omit!r}.")
    if omit and option["choices"][default] != {}:
        raise SpecError(
            f"{where}.omit_default: the default choice {default!r} must change nothing "
            "(an option left out of logs and the fingerprint at its default is as if the spec had none)."
        )
    return omit


def omitted_options(spec: Spec) -> frozenset[str]:
    """The options of ``spec`` with ``omit_default`` that are at their default choice."""
    return frozenset(
        name
        for name, value in spec.chosen.items()
        if (option := spec.options.get(name)) is not None and option.omit_default and value == option.default
    )


def recorded_options(spec: Spec) -> tuple[tuple[str, str], ...]:
    """The options a log's header records, sorted: every chosen one but those :func:`omitted_options` names."""
    omitted = omitted_options(spec)
    return tuple(sorted((k, v) for k, v in spec.chosen.items() if k not in omitted))
