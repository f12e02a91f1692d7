"""Bidding a number of tricks natively: the ``tricks_bid`` phase of Spades and Oh Hell, bid for bid.

The engine's mechanism (:mod:`trickrules.engine.phases.tricks_bid`) has every
seat bid once, from the eldest hand on by seat number (``bid 0``, ``bid 1``,
... in increasing order, one draw each), within ``[tricks_bid]``'s limits:
from ``min`` to ``max`` (0: the tricks of the deal, ``TRICKS``); with
``partners_within_tricks`` a seat's partners' bids and its own together at
most the tricks of the deal; with ``last_not_total`` the last seat to bid may
not make the bids add up to the tricks of the deal (the dealer's "hook").

:func:`run` plays the whole phase (or the rest of it) with a random bot at
every seat. The bids are in ``BID + seat`` (0 before a seat bids, as the
engine's ``bid`` scoring variables); ``MECH_TRICKS_BID`` (``B_*`` words)
holds which seats have bid and ``B_DEAL``, ``SHUFFLE + 1`` of the deal the
bids belong to: a run that finds another deal's there starts afresh.
``TO_MOVE`` is left at the last seat that bid; the next phase sets the seat to
move and the first leader.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.engine.game import Game
from trickrules.engine.phases import tricks_bid as engine_tricks_bid
from trickrules.engine.phases.deal import dealing
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import layout as L
from trickrules.native import tables as T
from trickrules.native.jit import native
from trickrules.native.mt import OFFER_TRICKS, choose_among
from trickrules.native.tables import Builder, Unsupported

__all__ = ["B_DEAL", "B_SAID", "export", "part_to_arrays", "run"]

# -- header words (HM_TRICKS_BID .. + 15) ------------------------------------------------------------------
_PRESENT = T.HM_TRICKS_BID + 0  # 1 when the game has [tricks_bid]
_MIN = T.HM_TRICKS_BID + 1  # the lowest bid
_MAX = T.HM_TRICKS_BID + 2  # the highest bid (0: the tricks of the deal)
_PARTNERS = T.HM_TRICKS_BID + 3  # partners_within_tricks
_LAST_NOT_TOTAL = T.HM_TRICKS_BID + 4  # last_not_total
_O_SIDE = T.HM_TRICKS_BID + 5  # block: [seat] -> the mask of its side's seats (itself included)

# -- the block (MECH_TRICKS_BID .. + 15) --------------------------------------------------------------------
B_DEAL = L.MECH_TRICKS_BID + 0  # SHUFFLE + 1 of the deal the bids belong to (0: none yet)
B_SAID = L.MECH_TRICKS_BID + 1  # the seats that have bid (a bit per seat)


def export(game: Game, b: Builder) -> None:
    """Write the bids' tables into ``b`` (only ``PRESENT = 0`` where nobody bids a number of tricks).

    Raises :class:`Unsupported` for a tricks-bid phase that is not the engine's built-in one.
    """
    rules = game.rules.bids.tricks_bid
    found = game.mechanisms.get(Phase.TRICKS_BID)
    if found is not None and found is not engine_tricks_bid.MECHANISM:
        raise Unsupported("a tricks_bid phase other than the engine's")
    if rules is None or found is None:
        b.number(_PRESENT, 0)
        return
    n = game.players
    side = [0] * n
    if rules.partners_within_tricks:
        team_of = game.tables.team_of
        for seat in range(n):
            for s in game.rules.teams[team_of[seat]]:
                side[seat] |= 1 << s
    b.number(_PRESENT, 1)
    b.number(_MIN, rules.min)
    b.number(_MAX, rules.max)
    b.number(_PARTNERS, rules.partners_within_tricks)
    b.number(_LAST_NOT_TOTAL, rules.last_not_total)
    b.block(_O_SIDE, side)


def part_to_arrays(state: State, st: npt.NDArray[np.int64]) -> None:
    """Fill ``BID`` and the bids' block of ``st`` from the engine's record of ``state``'s deal."""
    game = state.game
    d = state.deal
    slot = game.slot.get(Phase.TRICKS_BID)
    if slot is None or len(d.parts) <= slot:
        return
    said = 0
    for seat, bid in enumerate(engine_tricks_bid.bids(game, d)):
        st[L.BID + seat] = bid or 0
        if bid is not None:
            said |= 1 << seat
    st[B_DEAL] = dealing(d).shuffle + 1
    st[B_SAID] = said


@native
def run(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], mt: npt.NDArray[np.int64]) -> None:
    """Play the bids of the current deal (nothing once every seat has bid)."""
    if not tb[_PRESENT]:
        return
    n = tb[T.H_PLAYERS]
    if st[B_DEAL] != st[L.SHUFFLE] + 1:  # another deal's bids: start afresh
        st[B_DEAL] = st[L.SHUFFLE] + 1
        st[B_SAID] = 0
        for seat in range(n):
            st[L.BID + seat] = 0
    every = (1 << n) - 1
    said = st[B_SAID]
    if said == every:
        return
    done = 0
    for seat in range(n):
        done += (said >> seat) & 1
    seat = (st[L.DEALER] + 1 + done) % n  # the bids go round from the eldest hand, by seat number
    tricks = st[L.TRICKS]
    low = tb[_MIN]
    while said != every:
        st[L.TO_MOVE] = seat
        high = tb[_MAX] if tb[_MAX] else tricks
        if tb[_PARTNERS]:
            side = tb[tb[_O_SIDE] + seat]
            taken = 0
            for s in range(n):
                if (side >> s) & 1:
                    taken += st[L.BID + s]
            high = min(high, tricks - taken)
        excluded = -1
        count = high - low + 1
        if tb[_LAST_NOT_TOTAL] and (said | (1 << seat)) == every:
            total = 0
            for s in range(n):
                total += st[L.BID + s]
            if low <= tricks - total <= high:
                excluded = tricks - total
                count -= 1
        bits = np.int64(0)
        for b in range(low, high + 1):
            if b != excluded:
                bits |= np.int64(1) << b
        k = choose_among(mt, count, OFFER_TRICKS, int(bits))
        st[L.ACTIONS] += 1
        bid = low + k
        if 0 <= excluded <= bid:
            bid += 1
        st[L.BID + seat] = bid
        said |= 1 << seat
        st[B_SAID] = said
        seat = (seat + 1) % n
