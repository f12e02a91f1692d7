"""The DSL's sections for bids of a number of tricks, for counters carried between deals, and for a passed-out auction.

Part of the spec model (:mod:`trickrules.spec.model` re-exports these classes
and holds them in ``Spec.tricks_bid`` and ``ScoringSpec.counters``); the
keys and their meaning are documented, with examples, in ``docs/dsl.md``
(``[tricks_bid]`` and ``[[scoring.counters]]``).
"""

from __future__ import annotations

from attrs import field, frozen
from attrs.validators import in_

from trickrules.spec.sealed import Sealed

__all__ = ["AllPassSpec", "CounterSpec", "TricksBidSpec"]


@frozen
class CounterSpec(Sealed):
    """A value each side carries from deal to deal (such as overtricks), named for the formulas.

    Scoring formulas read it as it stood before the deal; after the deal is
    paid, ``update`` (a formula over the same variables) gives its next value.
    It starts a match at ``start``.
    """

    name: str
    update: str
    start: int = 0


@frozen
class TricksBidSpec(Sealed):
    """Every player bids how many tricks he will take, once round from the eldest hand (``bid 3``).

    Bids run from ``min`` to ``max`` (0: the number of tricks in the deal).
    ``partners_within_tricks``: partners' bids together may not exceed the
    tricks in the deal; ``last_not_total``: the last to bid may not make the
    bids add up to the tricks in the deal.
    """

    min: int = 0
    max: int = 0
    partners_within_tricks: bool = False
    last_not_total: bool = False


@frozen
class AllPassSpec(Sealed):
    """What happens when nobody bids.

    ``redeal``: the cards are dealt again, by the same dealer (the deal does
    not count) or, with ``redeal_by = "next_dealer"``, by the next (the
    thrown-in deal counts as played); ``forced``: the holder of
    ``holder_of`` must play ``contract``; ``play``: the deal is played with no
    contract (fixed partnerships, scored by ``contract = ""`` outcomes).
    """

    action: str = field(default="redeal", validator=in_(("redeal", "forced", "play")))
    redeal_by: str = field(default="same_dealer", validator=in_(("same_dealer", "next_dealer")))
    contract: str = ""
    holder_of: str = ""
