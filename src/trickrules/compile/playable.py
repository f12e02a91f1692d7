"""Static checks that a game's contracts can be played: bid by some hand, with trumps they can have.

The loader refuses a spec whose rules could get stuck where it can tell
(``docs/dsl.md``, "Rules that can get stuck"); the engine guards the rest at
run time (:func:`trickrules.engine.state.dead_end`, :func:`trickrules.engine.phases.deal.thrown_in`).
"""

from __future__ import annotations

from trickrules.compile.bids import DealSizes
from trickrules.errors import SpecError
from trickrules.spec.model import Spec

__all__ = ["check_contracts"]


def _fail(where: str, path: str, message: str) -> SpecError:
    return SpecError(f"{where}: {path}: {message}")


#: The ways of choosing trumps that fix them when the cards are dealt (a contract cannot change them).
_AT_THE_DEAL = ("fixed", "turned")


def check_contracts(spec: Spec, sizes: DealSizes, where: str) -> None:
    """Every contract must be playable: biddable with some hand, and with trumps it can have.

    A contract needing more cards than a hand holds could never be bid (with
    ``all_pass = { action = "redeal" }`` and no other contract, every deal
    would be redealt for ever); one played without trumps (``trump_by =
    "none"``) needs the no-trump tables that ``trump.allow_none`` gives; and
    trumps fixed or turned at the deal are the game's, not a contract's (its
    word was silently ignored).
    """
    no_trump = spec.trump.allow_none or spec.trump.chosen_by == "none"
    for n, c in enumerate(spec.bidding.contracts):
        path = f"bidding.contracts[{n}]"
        needed = len(set(c.requires_cards))
        if needed > sizes.largest:
            raise _fail(
                where,
                f"{path}.requires_cards",
                f"{c.name!r} needs {needed} cards in the bidder's hand, but a hand holds at most "
                f"{sizes.largest}: it could never be bid.",
            )
        if c.trump_by == "none" and not no_trump:
            raise _fail(
                where,
                f"{path}.trump_by",
                f"{c.name!r} is played without trumps ('none'): that needs trump.allow_none = true.",
            )
        chosen = spec.trump.chosen_by
        if c.trump_by in _AT_THE_DEAL and c.trump_by != chosen:
            raise _fail(
                where,
                f"{path}.trump_by",
                f"{c.name!r}: {c.trump_by!r} trumps are known when the cards are dealt, before any bid: "
                f"that needs trump.chosen_by = {c.trump_by!r}.",
            )
        if (chosen in _AT_THE_DEAL or chosen == "none") and c.trump_by and c.trump_by != chosen:
            raise _fail(
                where,
                f"{path}.trump_by",
                f"{c.name!r}: the trumps are known when the cards are dealt (trump.chosen_by = {chosen!r}), "
                f"so no contract can have them chosen by {c.trump_by!r}.",
            )
