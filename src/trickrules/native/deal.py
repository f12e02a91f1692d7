"""Dealing natively: the shuffle of the deal's seed, the hands, the hand size and the turned card.

As :func:`trickrules.engine.phases.deal.start_deal` deals from the match's
seed: the permutation of ``rng.shuffled(seed, shuffle_no, cards)``, the first
``players * size`` positions dealt to the seats ``Tables.deal_seats`` gives the
dealer, the turned card (the dealer's last card, or the stock's first), and
the trump the deal fixes (the turned card's suit, none, or the fixed suit).
The hand size follows the schedule, or is drawn from its own stream
(``rng.chosen_size``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.compile.cards import NO_TRUMP
from trickrules.compile.modes import HandSizeOrder, TrumpChooser
from trickrules.engine.game import Game
from trickrules.engine.rng import SIZE_SALT
from trickrules.native import layout as L
from trickrules.native import tables as T
from trickrules.native.jit import native, native_alloc
from trickrules.native.mt import deal_shuffle_ahead, deal_shuffle_and_random

__all__ = ["deal", "export"]

Array = npt.NDArray[np.int64]

HD_TURN = T.HM_DEAL  # 0 none, 1 the dealer's last card, 2 the stock's first
HD_TRUMP = T.HM_DEAL + 1  # the trump key the deal fixes, or UNSET_TRUMP
HD_TURNED_TRUMP = T.HM_DEAL + 2  # 1: the turned card's suit is trump
HD_RANDOM_SIZE = T.HM_DEAL + 3  # 1: the hand size is drawn
HD_SIZES_N = T.HM_DEAL + 4
O_SIZES = T.HM_DEAL + 5
HD_SIZE_SALT = T.HM_DEAL + 6

#: The deal's words in st (MECH_DEAL block): the shuffled deck.
DECK = L.MECH_DEAL  # not kept: the order is rebuilt per deal in a scratch array


def export(game: Game, b: T.Builder) -> None:
    """Write how the game deals (its ante is the scoring's)."""
    rules = game.rules
    b.number(HD_TURN, 1 if rules.turn_last_card else 2 if rules.turn_from_stock else 0)
    trump = L.UNSET_TRUMP
    if rules.trump_chosen_by is TrumpChooser.NONE:
        trump = NO_TRUMP
    elif rules.fixed_trump is not None:
        trump = rules.fixed_trump
    b.number(HD_TRUMP, trump)
    b.number(HD_TURNED_TRUMP, rules.trump_chosen_by is TrumpChooser.TURNED)
    sizes = rules.bids.sizes
    b.number(HD_RANDOM_SIZE, sizes.order is HandSizeOrder.RANDOM)
    b.number(HD_SIZES_N, len(sizes.sizes))
    b.block(O_SIZES, sizes.sizes)
    b.number(HD_SIZE_SALT, T.word(SIZE_SALT))


@native
def set_trump(tb: Array, st: Array, key: int) -> None:
    """Make ``key`` the deal's trump (its row too)."""
    st[L.TRUMP] = key
    st[L.TRUMP_ROW] = tb[tb[T.O_ROW_OF_KEY] + key - tb[T.H_NO_TRUMP]]


@native_alloc
def deal(tb: Array, st: Array, ahead: Array) -> None:
    """Deal deal ``st[NUMBER]`` from shuffle ``st[SHUFFLE]`` by ``st[DEALER]``; reset the deal's fields.

    ``ahead`` is a generator's words kept from one deal to the next: the next shuffle's, seeded with this
    one's (``st[AHEAD]`` says which, :func:`~trickrules.native.mt.deal_shuffle_ahead`).
    """
    n = tb[T.H_PLAYERS]
    cards = tb[T.H_CARDS]
    count = tb[HD_SIZES_N]
    order = np.empty(cards, dtype=np.int64)
    if tb[HD_RANDOM_SIZE]:  # the size's stream and the shuffle's, seeded side by side
        drawn = deal_shuffle_and_random(st[L.SEED : L.SEED + 4], st[L.SHUFFLE], tb[HD_SIZE_SALT], order, cards)
        size = tb[tb[O_SIZES] + int(drawn * count)]
    else:
        size = tb[tb[O_SIZES] + st[L.NUMBER] % count]
        st[L.AHEAD] = deal_shuffle_ahead(st[L.SEED : L.SEED + 4], st[L.SHUFFLE], order, cards, ahead, st[L.AHEAD])
    for s in range(L.MAX_PLAYERS):
        st[L.HANDS + s] = 0
        st[L.WON + s] = 0
        st[L.WON_TRICKS + s] = 0
        st[L.BID + s] = 0
        st[L.DECLARED + s] = 0
        st[L.DELTA + s] = 0
    dealt = n * size
    seats = tb[T.O_DEAL_SEATS] + st[L.DEALER] * tb[T.H_DEALT]
    for pos in range(dealt):
        st[L.HANDS + tb[seats + pos]] |= 1 << order[pos]
    for s in range(n):
        st[L.DEALT + s] = st[L.HANDS + s]
    turn = tb[HD_TURN]
    st[L.TURNED] = order[dealt - 1] if turn == 1 else order[dealt] if turn == 2 else L.NONE
    st[L.TRICKS] = size
    st[L.CONTRACT] = L.NONE
    st[L.DECLARER] = L.NONE
    st[L.PARTNER] = L.NONE
    st[L.SEATS_OUT] = 0
    st[L.FORCED] = 0
    st[L.ANNOUNCED] = 0
    st[L.CALLED] = L.NONE
    st[L.TRICK_N] = 0
    st[L.TRICKS_PLAYED] = 0
    st[L.PLAYED] = 0
    st[L.REVOKED] = 0
    st[L.CARDS_PLAYED] = 0
    st[L.REDEAL] = 0
    st[L.OUTCOMES] = 0
    st[L.OUTCOMES + 1] = 0
    st[L.TRUMP] = L.UNSET_TRUMP
    st[L.TRUMP_ROW] = L.NONE
    if tb[HD_TURNED_TRUMP] and st[L.TURNED] >= 0:
        set_trump(tb, st, tb[tb[T.O_SUIT] + st[L.TURNED]])
    elif tb[HD_TRUMP] != L.UNSET_TRUMP:
        set_trump(tb, st, tb[HD_TRUMP])
    eldest = (st[L.DEALER] + 1) % n
    st[L.TO_MOVE] = eldest
    st[L.LEADER] = eldest
