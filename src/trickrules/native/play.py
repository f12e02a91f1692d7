"""The card play natively: the legal cards, the trick's winner, and a deal's tricks by random choice.

The same rules as the engine's play kernel (:func:`trickrules.engine.kernel.mask_of`,
:func:`~trickrules.engine.kernel.trick_end`), read from the tables' play
rules (``tables.R_*``: the obligations' records and the lead rules as
numbers) and trump rows. A random seat plays the ``choose(mt, count)``-th of
its legal cards in deck order, as the engine's random bot picks among
``legal_actions()``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.native import layout as L
from trickrules.native import tables as T
from trickrules.native.jit import native
from trickrules.native.mt import OFFER_PLAY, choose_among

__all__ = [
    "count_cards",
    "first_leader",
    "legal_cards",
    "low_card",
    "nth_card",
    "play_card",
    "random_card",
    "winning_index",
]

Array = npt.NDArray[np.int64]


def _debruijn() -> npt.NDArray[np.int64]:
    table = np.zeros(64, dtype=np.int64)
    for i in range(64):
        table[(((1 << i) * 0x03F79D71B4CB0A89) & ((1 << 64) - 1)) >> 58] = i
    return table


#: The index of a word's lowest set bit, by the top six bits of that bit times a de Bruijn sequence.
_LOW = _debruijn()


@native
def low_card(mask: int) -> int:
    """The lowest card of a non-empty ``mask``."""
    low = np.uint64(mask & -mask)
    return int(_LOW[(low * np.uint64(0x03F79D71B4CB0A89)) >> np.uint64(58)])


@native
def nth_card(mask: int, k: int) -> int:
    """The ``k``-th card (from 0, in deck order) of a non-empty ``mask``."""
    m = mask
    for _ in range(k):
        m &= m - 1
    return low_card(m)


@native
def count_cards(mask: int) -> int:
    """How many cards ``mask`` holds."""
    n = 0
    m = mask
    while m:
        m &= m - 1
        n += 1
    return n


@native
def winning_index(tb: Array, st: Array, n: int) -> int:
    """The index of the card winning the first ``n`` cards of the trick on the table (``winner_index``)."""
    cards = tb[T.H_CARDS]
    row = st[L.TRUMP_ROW]
    power = tb[T.O_POWER] + row * cards
    base = tb[T.H_TRUMP_BASE]
    winner = 0
    if tb[T.H_ANY_SUIT]:
        trumped = False
        for i in range(n):
            if tb[power + st[L.TRICK + i]] >= base:
                trumped = True
        if not trumped:
            place = tb[T.O_PLACE] + row * cards
            for i in range(1, n):
                if tb[place + st[L.TRICK + i]] < tb[place + st[L.TRICK + winner]]:
                    winner = i
            return winner
        best = -(1 << 40)
        for i in range(n):
            v = tb[power + st[L.TRICK + i]]
            if v > best:
                best = v
                winner = i
        return winner
    led = tb[tb[T.O_EFF] + row * cards + st[L.TRICK]]
    led_row = tb[T.O_LED] + (row * tb[T.H_SUITS] + led) * cards
    best = -(1 << 40)
    for i in range(n):
        v = tb[led_row + st[L.TRICK + i]]
        if v > best:
            best = v
            winner = i
    return winner


@native
def _seat_at(tb: Array, st: Array, index: int) -> int:
    """The seat that played the ``index``-th card of the current trick."""
    n = tb[T.H_PLAYERS]
    return int(tb[tb[T.O_TRICK_SEATS] + (st[L.SEATS_OUT] * n + st[L.LEADER]) * n + index])


@native
def _partner_wins(tb: Array, st: Array, seat: int, index: int) -> bool:
    """Whether the card at ``index`` of the trick was played by a partner of ``seat`` (not ``seat``)."""
    who = _seat_at(tb, st, index)
    team = tb[T.O_TEAM]
    return bool(tb[team + who] == tb[team + seat] and who != seat)


@native
def _following(tb: Array, st: Array, seat: int, hand: int, follow: int, led: int, trump: int) -> int:
    """The cards of a seat that can follow suit: the following duties (privileged, called card, head the trick)."""
    r = T.R_BASE
    n = st[L.TRICK_N]
    cards = tb[T.H_CARDS]
    row = st[L.TRUMP_ROW]
    first = st[L.TRICK]
    beats = tb[T.O_BEATS] + row * cards
    power = tb[T.O_POWER] + row * cards
    called = st[L.CALLED]
    if tb[r + T.R_PRIV]:
        held = follow & tb[tb[T.O_PRIV] + row]
        if held and led == trump:
            exempt = held & tb[beats + first]
            if exempt and not follow & ~exempt and not (tb[r + T.R_PRIV_SOLE] and follow & (follow - 1)):
                return hand
    called_here = called >= 0 and (follow >> called) & 1 and called != first
    if tb[r + T.R_CALL_FOLLOW] and seat == st[L.PARTNER] and called_here:
        return int(1 << called)
    if not tb[r + T.R_HEAD]:
        return follow
    bi = winning_index(tb, st, n)
    if not (tb[r + T.R_HEAD_ALWAYS] or led == trump) or (tb[r + T.R_HEAD_PE] and _partner_wins(tb, st, seat, bi)):
        return follow
    target = st[L.TRICK + bi]
    if tb[power + target] >= tb[T.H_TRUMP_BASE] and led != trump:
        if not tb[r + T.R_HEAD_RUFFED]:
            return follow
        top = -(1 << 40)
        eff = tb[T.O_EFF] + row * cards
        for i in range(n):  # the suit led's highest card (the first of ties)
            c = st[L.TRICK + i]
            if tb[eff + c] == led and tb[power + c] > top:
                top = tb[power + c]
                target = c
    higher = follow & tb[beats + target]
    return higher if higher else follow


@native
def _void(tb: Array, st: Array, seat: int, hand: int) -> int:
    """The cards of a seat that cannot follow suit: trump when void, trump to beat, overtrump, no undertrump."""
    r = T.R_BASE
    n = st[L.TRICK_N]
    row = st[L.TRUMP_ROW]
    cards = tb[T.H_CARDS]
    beats = tb[T.O_BEATS] + row * cards
    ruffing = tb[tb[T.O_TRUMP_MASK] + row]
    mask = hand
    kind = tb[r + T.R_VOID]
    trumps = hand & ruffing
    if kind and trumps:
        bi = winning_index(tb, st, n)
        best = st[L.TRICK + bi]
        partner_wins = _partner_wins(tb, st, seat, bi)
        ruffed = tb[tb[T.O_POWER] + row * cards + best] >= tb[T.H_TRUMP_BASE]
        exempt = tb[r + T.R_VOID_PE] and partner_wins
        if kind == 1:
            if not exempt:
                mask = trumps
        elif kind == 2:
            if not exempt:
                higher = trumps & tb[beats + best] if ruffed else trumps
                if higher:
                    mask = higher
        elif not exempt:
            must = tb[r + T.R_OVER_TRUMP]
            if not ruffed:
                mask = trumps
            elif tb[r + T.R_OVER_PE] and partner_wins:
                mask = trumps if must else hand
            else:
                higher = trumps & tb[beats + best]
                mask = higher if higher else (trumps if must else hand)
    if tb[r + T.R_NO_UNDER]:
        best = st[L.TRICK + winning_index(tb, st, n)]
        if tb[tb[T.O_POWER] + row * cards + best] >= tb[T.H_TRUMP_BASE]:
            low = mask & ruffing & ~tb[beats + best]
            if low and mask & ~low:
                mask &= ~low
    return int(mask)


@native
def _lead_rules(tb: Array, st: Array, hand: int, mask: int, bound: bool) -> int:
    """The lead and first-trick rules on top of ``mask`` (``leads_mask``); ``bound``: the seat follows suit."""
    r = T.R_BASE
    first_trick = st[L.TRICKS_PLAYED] == 0
    barred = tb[r + T.R_FIRST_BARRED]
    if st[L.TRICK_N]:
        if first_trick and barred and not bound:
            kept = mask & ~barred
            if kept:
                mask = kept
        return int(mask)
    first = tb[r + T.R_FIRST_CARD]
    if first_trick and first >= 0 and (hand >> first) & 1:
        allowed = mask & tb[r + T.R_FIRST_ALLOWED]
        if allowed != mask:
            return int(allowed)
    unbroken = tb[r + T.R_UNBROKEN]
    if unbroken and not st[L.PLAYED] & tb[r + T.R_BREAKERS] and mask & ~unbroken & ~tb[r + T.R_UNLESS_ONLY]:
        kept = mask & ~unbroken
        if kept:
            mask = kept
    if first_trick and barred:
        kept = mask & ~barred
        if kept:
            mask = kept
    return int(mask)


@native
def legal_cards(tb: Array, st: Array, seat: int) -> int:
    """The cards ``seat`` may play now (``kernel.mask_of``: ``legal_play_mask``, then ``leads_mask``)."""
    r = T.R_BASE
    hand = st[L.HANDS + seat]
    row = st[L.TRUMP_ROW]
    called = st[L.CALLED]
    mask = hand
    bound = False
    if st[L.TRICK_N] == 0:
        if tb[r + T.R_CALL_LEAD] and seat == st[L.PARTNER] and seat != st[L.DECLARER] and called >= 0:
            bit = 1 << called
            if hand & bit and hand != bit:
                mask = hand & ~bit
    elif tb[r + T.R_FOLLOW]:
        trump = tb[tb[T.O_TRUMP_KEY] + row]
        led = tb[tb[T.O_EFF] + row * tb[T.H_CARDS] + st[L.TRICK]]
        follow = hand & tb[tb[T.O_SUIT_MASKS] + row * tb[T.H_SUITS] + led]
        if follow:
            bound = True
            mask = _following(tb, st, seat, hand, follow, led, trump)
        else:
            mask = _void(tb, st, seat, hand)
    if not tb[r + T.R_RESTRICTED]:
        return int(mask)
    return _lead_rules(tb, st, hand, mask, bound)


@native
def first_leader(tb: Array, st: Array, declarer_leads: bool) -> int:
    """The seat that leads the first trick (the play's ``due``): eldest hand, or the holder of the first card.

    ``declarer_leads``: the contract has the declarer lead when eldest hand sits out.
    """
    n = tb[T.H_PLAYERS]
    out = st[L.SEATS_OUT]
    eldest = (st[L.DEALER] + 1) % n
    if (out >> eldest) & 1:
        if declarer_leads and st[L.DECLARER] >= 0:
            eldest = st[L.DECLARER]
        else:
            eldest = tb[tb[T.O_NEXT_SEAT] + out * n + eldest]
    card = tb[T.R_BASE + T.R_FIRST_CARD]
    if card >= 0:
        for seat in range(n):
            if (st[L.HANDS + seat] >> card) & 1:
                return seat
    return int(eldest)


@native
def play_card(tb: Array, st: Array, seat: int, card: int) -> bool:
    """``seat`` plays ``card``; at a full trick its winner takes it and leads. Whether the trick ended."""
    n = tb[T.H_PLAYERS]
    out = st[L.SEATS_OUT]
    bit = 1 << card
    st[L.HANDS + seat] &= ~bit
    st[L.TRICK + st[L.TRICK_N]] = card
    st[L.PLAY_ORDER + st[L.CARDS_PLAYED]] = card
    st[L.CARDS_PLAYED] += 1
    st[L.PLAYED] |= bit
    if st[L.TRICK_N] < tb[tb[T.O_TRICK_LAST] + out]:
        st[L.TRICK_N] += 1
        st[L.TO_MOVE] = tb[tb[T.O_NEXT_SEAT] + out * n + seat]
        return False
    count = st[L.TRICK_N] + 1
    winner = _seat_at(tb, st, winning_index(tb, st, count))
    taken = 0
    for i in range(count):
        taken |= 1 << st[L.TRICK + i]
    st[L.WON + winner] |= taken
    st[L.WON_TRICKS + winner] += 1
    st[L.WINNERS + st[L.TRICKS_PLAYED]] = winner
    st[L.TRICKS_PLAYED] += 1
    st[L.TRICK_N] = 0
    st[L.LEADER] = winner
    st[L.TO_MOVE] = winner
    return True


@native
def random_card(tb: Array, st: Array, mt: Array) -> int:
    """The random bot's card for the seat to move: the ``choose``-th of its legal cards in deck order."""
    legal = legal_cards(tb, st, st[L.TO_MOVE])
    k = choose_among(mt, count_cards(legal), OFFER_PLAY, legal)
    st[L.ACTIONS] += 1
    return nth_card(legal, k)
