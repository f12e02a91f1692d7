"""The play kernel: the legal cards and the end of a trick, written once.

The public engine (:mod:`trickrules.engine.phases.play`) and the bulk path
(:mod:`trickrules.engine.bulk`) both call these, so the two cannot drift:
:func:`mask_of` dispatches to the obligations (:mod:`trickrules.engine.obligations`)
by what the game's rules and the trick need, and :func:`trick_end` finds a
full trick's winner and the cards it takes.
"""

from __future__ import annotations

from collections.abc import Sequence

from trickrules.compile.tables import Tables
from trickrules.engine.obligations import leads_mask, legal_play_mask, winner_index
from trickrules.engine.values import DealInfo

__all__ = ["flipped", "mask_of", "trick_end"]


def flipped(masks: Sequence[int], seat: int, bits: int) -> tuple[int, ...]:
    """``masks`` with ``bits`` flipped in ``seat``'s mask (a card leaves a hand, or a trick joins a pile)."""
    out = list(masks)
    out[seat] ^= bits
    return tuple(out)


def mask_of(
    t: Tables,
    hand: int,
    trick: tuple[int, ...],
    leader: int,
    seat: int,
    d: DealInfo,
    first_trick: bool,
    won: Sequence[int],
) -> tuple[int, str]:
    """The cards ``seat`` may play from ``hand`` under the spec's obligations, and the reason code of the narrowing.

    A lead is free unless the game has lead obligations or the called card's
    holder leads; a card to a trick follows :func:`~trickrules.engine.obligations.legal_play_mask`.
    """
    if t.leads.restricted:
        return leads_mask(t, hand, trick, leader, seat, d, first_trick, won)
    if not trick and not (t.rules.play.called_card_no_lead and seat == d.partner):
        return hand, ""
    return legal_play_mask(t, hand, trick, leader, seat, d)


def trick_end(t: Tables, trick: tuple[int, ...], trump: int, seats_out: int, leader: int) -> tuple[int, int]:
    """The seat that wins the full ``trick`` led by ``leader``, and the cards it takes as a mask."""
    index = winner_index(t, trick, trump)
    taken = 0
    bit = t.bit
    for card in trick:
        taken |= bit[card]
    return t.trick_seats[seats_out][leader][index], taken
