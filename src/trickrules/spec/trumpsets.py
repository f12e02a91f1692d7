"""The spec's ``trump.sets``: named choices of trumps other than a suit, which a contract fixes.

Skat's Grand has the four Jacks alone as trumps, its Null none and a rank order of its own.
``docs/dsl.md`` ("[[trump.sets]]") describes the keys.
"""

from __future__ import annotations

from attrs import field, frozen

from trickrules.spec.frozenmap import FrozenMap
from trickrules.spec.sealed import Sealed

__all__ = ["TrumpSetSpec"]


@frozen
class TrumpSetSpec(Sealed):
    """Trumps other than a suit, fixed by a contract's ``trumps``.

    ``promotions = true``: the cards promoted whatever the trump suit (``card``
    promotions) are the only trumps, in their places; ``false``: nothing is a
    trump. ``plain``: the suits' plain orders under this choice, keyed like
    ``ranks.plain`` (default: ``ranks.plain``).
    """

    name: str
    promotions: bool = True
    plain: FrozenMap[str, tuple[str, ...]] = field(factory=FrozenMap)
