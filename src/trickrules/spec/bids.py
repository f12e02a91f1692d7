"""The DSL's sections for bids of a number of tricks and for counters carried between deals.

Part of the spec model (:mod:`trickrules.spec.model` re-exports both classes
and holds them in ``Spec.tricks_bid`` and ``ScoringSpec.counters``); the
keys and their meaning are documented, with examples, in ``docs/dsl.md``
(``[tricks_bid]`` and ``[[scoring.counters]]``).
"""

from __future__ import annotations

from attrs import frozen

from trickrules.spec.sealed import Sealed

__all__ = ["CounterSpec", "TricksBidSpec"]


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
