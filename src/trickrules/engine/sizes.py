"""How many cards each player is dealt, deal by deal (``deal.hand_size``).

Every hand is the packets' sum, unless the spec gives a schedule of hand
sizes (deal ``k`` has the ``k``-th, round and round) or has each deal draw
its size from the match's seed (:func:`trickrules.engine.rng.chosen_size`,
with the shuffle's number, so a redeal draws again). The number of tricks
of a deal is its hand size, kept as ``DealInfo.tricks``.
"""

from __future__ import annotations

from trickrules.compile.modes import HandSizeOrder
from trickrules.compile.rules import Rules
from trickrules.engine.rng import chosen_size

__all__ = ["hand_size", "stacked_size"]


def hand_size(rules: Rules, seed: int, shuffle_no: int, number: int) -> int:
    """The hand size of deal ``number``, dealt from shuffle ``shuffle_no`` of a match seeded ``seed``."""
    sizes = rules.bids.sizes
    if sizes.order is HandSizeOrder.RANDOM:
        return sizes.sizes[chosen_size(seed, shuffle_no, len(sizes.sizes))]
    return sizes.sizes[number % len(sizes.sizes)]


def stacked_size(rules: Rules, number: int, lengths: list[int]) -> tuple[int, str]:
    """The hand size of a stacked deal ``number`` whose hands hold ``lengths`` cards, or why it is a misdeal.

    Returns ``(size, "")`` when the hands are all of a size the deal may
    have (any that could be drawn, where sizes are drawn), else ``(0, reason)``.
    """
    allowed = rules.bids.sizes.of_deal(number)
    if lengths and len(set(lengths)) == 1 and lengths[0] in allowed:
        return lengths[0], ""
    low, high = min(allowed), max(allowed)
    if len(allowed) > 2 and sorted(allowed) == list(range(low, high + 1)):
        expected = f"{low} to {high}"
    else:
        expected = " or ".join(str(s) for s in allowed)
    return 0, f"hands of {', '.join(str(k) for k in lengths)} cards instead of {expected} each"
