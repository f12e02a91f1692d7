"""A low card that takes the trick when certain high cards fall with it, and may be held back otherwise.

A spec uses it with a ``[mechanisms.trump_upset]`` section (the lowest trump
that takes a trick holding the two highest, say):

- ``card``: the card;
- ``over``: the cards that, all lying in the same trick with it, make it win
  that trick, provided the trick would otherwise go to a card of its own suit
  (a trick won by another suit is not upset);
- ``forced_in``: contracts in which its holder must play it to a trick in
  which all the ``over`` cards lie, whatever else the rules would allow;
- ``held_back_in``: contracts in which it may be played only when no other
  card is allowed (on a lead, only as the last card of the hand).

The winner rule is the mechanism's ``trick_winner``, the two duties its
``narrow``, with the reasons "must play it when the cards it beats are in
the trick" and "may play it only when no other card is allowed".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from attrs import frozen

from trickrules.engine.mechanism import register, rule_only
from trickrules.engine.phases.sections import (
    card_mask,
    check_keys,
    contract_flags,
    named_and_checked,
    one_card,
    section_error,
)
from trickrules.engine.state import State
from trickrules.engine.values import DealInfo

if TYPE_CHECKING:
    from trickrules.compile.tables import Tables

__all__ = ["MECHANISM", "PHASE", "TrumpUpset", "install", "upset_params"]

#: This mechanism's phase, and the name of its spec section.
PHASE = "trump_upset"


@frozen(weakref_slot=False)
class TrumpUpset:
    """The section compiled."""

    card: int
    #: The cards it beats when all of them are in its trick, as a mask.
    over: int
    #: Per contract index: whether its holder must play it when they are.
    forced: tuple[bool, ...]
    #: Per contract index: whether it may be played only when nothing else is allowed.
    held_back: tuple[bool, ...]


_PARAMS: dict[int, tuple[Tables, TrumpUpset]] = {}


def upset_params(t: Tables) -> TrumpUpset:
    """The compiled section of a game that uses this mechanism; :class:`~trickrules.errors.SpecError` if bad."""
    found = _PARAMS.get(id(t))
    if found is not None and found[0] is t:
        return found[1]
    section = t.mechanism_sections[PHASE]
    check_keys(PHASE, section, ("card", "over", "forced_in", "held_back_in"))
    card = one_card(PHASE, t, section, "card")
    over = card_mask(PHASE, t, section, "over")
    if not over or (over >> card) & 1:
        raise section_error(PHASE, "over", "name one card or more, other than the card itself.")
    params = TrumpUpset(
        card,
        over,
        contract_flags(PHASE, t, section, "forced_in"),
        contract_flags(PHASE, t, section, "held_back_in"),
    )
    _PARAMS[id(t)] = (t, params)
    return params


def _in_trick(trick: tuple[int, ...]) -> int:
    mask = 0
    for card in trick:
        mask |= 1 << card
    return mask


def _winner(state: State, d: DealInfo, trick: tuple[int, ...], index: int) -> int:
    p = upset_params(state.game.tables)
    lying = _in_trick(trick)
    if not (lying >> p.card) & 1 or lying & p.over != p.over:
        return index
    t = state.game.tables
    assert d.trump is not None
    suit = t.trumps[d.trump].eff_suit
    if suit[trick[index]] != suit[p.card]:
        return index
    return trick.index(p.card)


def _narrow(state: State, seat: int, mask: int, reason: str) -> tuple[int, str]:
    d = state.deal
    if d.contract is None:
        return mask, reason
    p = upset_params(state.game.tables)
    bit = 1 << p.card
    if not state.hands[seat] & bit:
        return mask, reason
    if p.forced[d.contract] and _in_trick(state.trick) & p.over == p.over:
        return bit, "upset_forced"
    if p.held_back[d.contract] and mask & bit and mask != bit:
        return mask & ~bit, "upset_held_back"
    return mask, reason


_uses = named_and_checked(PHASE, upset_params)


MECHANISM = rule_only(
    PHASE,
    narrow=_narrow,
    trick_winner=_winner,
    reasons={
        "upset_forced": "must play the card that beats the high cards in the trick when they are all in it",
        "upset_held_back": "may play that card only when no other card is allowed",
    },
)


def install() -> None:
    """Register this mechanism (done once when :mod:`trickrules.engine.phases` is imported)."""
    register(MECHANISM, uses=_uses)
