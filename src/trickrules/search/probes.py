"""The engine's own rules asked about hands that were not dealt: what a seat's decision says of its cards.

The sampler (:mod:`trickrules.search.worlds`) keeps a world consistent with
what it has read of a seat's log; in that world's state just before another
seat acted, it asks the engine whether the action would have been legal with
hands made up. These are those questions: the play's forbidden sets
(:func:`forbidden`), and what a bid, a call or a meld needs (:func:`needs`).
Nothing here knows a game: the answers come from the engine's legal actions
and legal-card mask (every compiled duty and every mechanism's ``narrow``).
"""

from __future__ import annotations

import random

from trickrules.compile.cards import bits
from trickrules.engine.actions import Action
from trickrules.engine.phases.play import play_mask
from trickrules.engine.state import State
from trickrules.engine.values import evolve
from trickrules.search.knowledge import DealFacts

__all__ = ["forbidden", "legal", "needs", "swapped", "swapped_dealt", "with_hand"]

#: How many hands of the right size check the cards a decision needs.
_HANDS = 4


def with_hand(state: State, seat: int, hand: int, dealt: bool = False) -> State:
    """``state`` with ``seat`` holding ``hand`` (and, with ``dealt``, having been dealt it: a bid may ask that)."""
    hands = list(state.hands)
    hands[seat] = hand
    s = state
    d = s.deal
    if dealt:
        d = evolve(d, dealt=tuple(hand if k == seat else x for k, x in enumerate(d.dealt)))
    return State(s.game, s.phase, s.to_move, tuple(hands), s.trick, s.leader, d, s.tally, s.match, s.history)


def swapped(state: State, x: int, xs: int, y: int, ys: int) -> State:
    """``state`` with card ``x`` (held by ``xs``) and card ``y`` (held by ``ys``) changing hands, as dealt too."""
    hands = list(state.hands)
    dealt = list(state.deal.dealt)
    bx, by = 1 << x, 1 << y
    hands[xs] = hands[xs] & ~bx | by
    hands[ys] = hands[ys] & ~by | bx
    if dealt[xs] & bx and dealt[ys] & by:
        dealt[xs] = dealt[xs] & ~bx | by
        dealt[ys] = dealt[ys] & ~by | bx
    s = state
    d = evolve(s.deal, dealt=tuple(dealt))
    return State(s.game, s.phase, s.to_move, tuple(hands), s.trick, s.leader, d, s.tally, s.match, s.history)


def swapped_dealt(state: State, x: int, xs: int, y: int, ys: int) -> State:
    """``state`` with card ``x`` (dealt to ``xs``) and card ``y`` (dealt to ``ys``) changing places as dealt only."""
    dealt = list(state.deal.dealt)
    bx, by = 1 << x, 1 << y
    dealt[xs] = dealt[xs] & ~bx | by
    dealt[ys] = dealt[ys] & ~by | bx
    s = state
    d = evolve(s.deal, dealt=tuple(dealt))
    return State(s.game, s.phase, s.to_move, s.hands, s.trick, s.leader, d, s.tally, s.match, s.history)


def legal(state: State, seat: int, hand: int, action: Action) -> bool:
    """Whether ``action`` would be legal in ``state`` had ``seat`` been dealt and held ``hand``."""
    return action in with_hand(state, seat, hand, dealt=True).legal_actions()


def forbidden(before: State, seat: int, card: int) -> list[int]:
    """The cards whose presence in ``seat``'s hand would have made ``card`` illegal to play in ``before``.

    For each card ``x``, ``card`` is played from the hand ``{card, x}``
    through the engine's own legal mask (every duty and every mechanism's
    ``narrow``); ``x`` is forbidden where that refuses ``card``. The set is
    exact (``card`` is legal from a hand ``H`` if and only if ``H`` holds
    none of it) for the duties ``docs/search.md`` describes, which are all
    of the engine's.
    """
    out = []
    bit = 1 << card
    for x in range(before.game.cards.size):
        if x == card:
            continue
        mask, _ = play_mask(with_hand(before, seat, bit | (1 << x)))
        if not mask & bit:
            out.append(x)
    return out


def _needed(before: State, seat: int, action: Action, hand: int) -> set[int]:
    """The cards of ``hand`` (with which ``action`` is legal) without any one of which it is not."""
    return {x for x in bits(hand) if not legal(before, seat, hand & ~(1 << x), action)}


def needs(before: State, seat: int, action: Action, d: DealFacts, i: int) -> None:
    """What another seat's decision other than a card says of its hand then (entry ``i``), added to ``d``.

    Where the action is legal with no card in the hand but not with every
    card (or the world's hand), the cards that alone make it illegal were not
    held (one does not call a card one holds), and where a few do only all
    together (a king is not called holding every king), they were not all
    held. Where it is legal with every card not yet played in the hand (or
    with all but one, which was then not held), the cards without any one of
    which it is not were held (Quadrille's casco and its two black aces),
    checked on a few hands of the seat's hand size made of those cards and
    others drawn at random (a queen is called holding every king, not every
    queen).
    Where it is not, the smallest hands of one or two cards it is legal with
    are looked for: where there is exactly one, its cards were held (a meld).
    """
    played = 0
    for c in d.stays:
        played |= 1 << c
    base = ((1 << d.cards) - 1) & ~played
    cards = bits(base)
    if legal(before, seat, 0, action):
        if legal(before, seat, base, action):  # a world's hand may still refuse it (all the kings held)
            base = before.hands[seat]
        if not legal(before, seat, base, action):
            for x in bits(base):
                if not legal(before, seat, 1 << x, action):
                    d.not_at.append((x, seat, i))
                    base &= ~(1 << x)
            if not legal(before, seat, base, action):  # the fewest cards that refuse it together, one by one
                for x in cards:
                    if base >> x & 1 and not legal(before, seat, base & ~(1 << x), action):
                        base &= ~(1 << x)
                d.not_all.append((tuple(bits(base)), seat, i))
        return
    if not legal(before, seat, base, action):
        barred = [x for x in cards if legal(before, seat, base & ~(1 << x), action)]
        if len(barred) == 1:
            d.not_at.append((barred[0], seat, i))
            base &= ~(1 << barred[0])
    if legal(before, seat, base, action):
        needed = _needed(before, seat, action, base)
        # A hand of every card may be legal for a reason of its own (every king and every queen held): the
        # cards needed are those needed in hands of the right size too, made of them and cards drawn at random.
        size = before.hands[seat].bit_count()
        others = [x for x in cards if x not in needed]
        rng = random.Random(i)
        for _ in range(_HANDS):
            hand = sum(1 << x for x in needed) | sum(1 << x for x in rng.sample(others, max(0, size - len(needed))))
            if legal(before, seat, hand, action):
                needed &= _needed(before, seat, action, hand)
        for x in sorted(needed):
            d.at.append((x, seat, i))
        return
    small = [1 << x for x in cards if legal(before, seat, 1 << x, action)]
    if not small:
        small = [
            (1 << x) | (1 << y)
            for k, x in enumerate(cards)
            for y in cards[k + 1 :]
            if legal(before, seat, (1 << x) | (1 << y), action)
        ]
    if len(small) == 1:
        for x in bits(small[0]):
            d.at.append((x, seat, i))
