"""What the kernel keeps of each deal and match: the simulation's statistics, summed natively.

A match's statistics are one ``int64`` row (``A_*`` offsets; the
per-contract block repeats for every contract, slot 0 holding the deals
without one): what :class:`trickrules.faces.stats.StatisticsCounter` counts
deal by deal and match by match, as integer sums, so that a block of
matches is counted by adding rows. A deal can also be kept whole (``R_*``
offsets of a record row): its contract, trump, tricks and cards in the
order played, its payments and the totals after it, which is what the
tests compare with the engine deal for deal.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.native import layout as L
from trickrules.native import tables as T
from trickrules.native.jit import native
from trickrules.native.scoring_tables import B_BOARD, B_PASSED

__all__ = ["R_SIZE", "a_size", "count_deal", "keep_deal"]

Array = npt.NDArray[np.int64]

# -- a match's statistics row ---------------------------------------------------------------------------
A_DEALS = 0
A_ACTIONS = 1
A_FINISHED = 2
A_WINNERS = 3  # a seat mask
#: 1 where the scoring failed as the engine's raises, or a payment passed :data:`LARGEST` (the match is
#: then the engine's to play).
A_ERROR = 4
#: The largest payment the kernel sums: its square below 2**40, so that a chunk's sums of squares
#: (at most a few thousand deals, and one match of at most 10,000) stay far inside 64 bits.
LARGEST = 1 << 20
A_FINAL = 8  # per seat
A_SEAT_SUM = 16  # per seat: the sum of the deals' deltas
A_SEAT_SQUARES = 24  # and of their squares
A_SEAT_TRICKS = 32  # per seat: tricks won
A_NAMES = 40  # per outcome name: the deals that named it (128 names)
MAX_NAMES = 128
A_CONTRACTS = A_NAMES + MAX_NAMES
#: Per contract slot (the contract's index + 1; 0: no contract): these words, then the side tricks' histogram.
C_COUNT = 0
C_FORCED = 1
C_SUCCESSES = 2
C_N = 3
C_TOTAL = 4
C_SQUARES = 5
C_HIST = 6
C_SIZE = C_HIST + L.MAX_TRICKS + 1


def a_size(contracts: int) -> int:
    """The length of a match's row for a game of ``contracts`` contracts."""
    return A_CONTRACTS + (contracts + 1) * C_SIZE


# -- header words: the outcome names of the scoring's bits ----------------------------------------------
H_NAME_OF_BIT = T.HM_DEAL + 11  # the offset of a block: [bit] -> name id (-1: not counted)
#: The name id of a deal thrown in ("passed out").
H_PASSED_NAME = T.HM_DEAL + 12

# -- a deal's record row --------------------------------------------------------------------------------
R_NUMBER = 0
R_DEALER = 1
R_TRUMP = 2
R_CONTRACT = 3
R_DECLARER = 4
R_PARTNER = 5
R_SEATS_OUT = 6
R_FORCED = 7
R_TRICKS = 8
R_TRICKS_PLAYED = 9
R_OUTCOMES = 10  # 2 words
R_DELTA = 16  # per seat
R_SCORES = 24  # per seat, after the deal
R_WON_TRICKS = 32  # per seat
R_PLAY_ORDER = 40  # 64 cards
R_WINNERS = R_PLAY_ORDER + L.MAX_TRICKS
R_SIZE = R_WINNERS + L.MAX_TRICKS


@native
def count_deal(tb: Array, st: Array, agg: Array) -> None:
    """Add the deal just scored in ``st`` to the match's statistics row (``_deal_scored``)."""
    n = tb[T.H_PLAYERS]
    agg[A_DEALS] += 1
    for s in range(n):
        if st[L.DELTA + s] >= LARGEST or st[L.DELTA + s] <= -LARGEST:
            agg[A_ERROR] = 1
    contract = st[L.CONTRACT]
    declarer = st[L.DECLARER] if contract >= 0 else -1
    base = A_CONTRACTS + (contract + 1) * C_SIZE
    agg[base + C_COUNT] += 1
    if declarer >= 0:
        side = 1 << declarer
        partner = st[L.PARTNER]
        if partner >= 0:
            side |= 1 << partner
        if tb[T.H_TEAMS]:
            team = tb[tb[T.O_TEAM] + declarer]
            for s in range(n):
                if tb[tb[T.O_TEAM] + s] == team:
                    side |= 1 << s
        tricks = 0
        for s in range(n):
            if (side >> s) & 1:
                tricks += st[L.WON_TRICKS + s]
        gain = st[L.DELTA + declarer]
        agg[base + C_FORCED] += st[L.FORCED] != 0
        agg[base + C_SUCCESSES] += gain > 0
        agg[base + C_N] += 1
        agg[base + C_TOTAL] += gain
        agg[base + C_SQUARES] += gain * gain
        agg[base + C_HIST + tricks] += 1
    if st[B_PASSED]:
        agg[A_NAMES + tb[H_PASSED_NAME]] += 1
    names = tb[H_NAME_OF_BIT]
    seen_lo = 0
    seen_hi = 0
    for word in range(2):
        bits = st[L.OUTCOMES + word]
        for b in range(64):
            if (bits >> b) & 1:
                name = tb[names + 64 * word + b]
                if name >= 0:
                    if name < 64:
                        if not (seen_lo >> name) & 1:
                            seen_lo |= 1 << name
                            agg[A_NAMES + name] += 1
                    elif not (seen_hi >> (name - 64)) & 1:
                        seen_hi |= 1 << (name - 64)
                        agg[A_NAMES + name] += 1
    for s in range(n):
        d = st[L.DELTA + s]
        agg[A_SEAT_SUM + s] += d
        agg[A_SEAT_SQUARES + s] += d * d
        agg[A_SEAT_TRICKS + s] += st[L.WON_TRICKS + s]


@native
def keep_deal(tb: Array, st: Array, row: Array, number: int, dealer: int) -> None:
    """Write the deal just scored in ``st`` (deal ``number``, dealt by ``dealer``) into a record row (``R_*``)."""
    row[R_NUMBER] = number
    row[R_DEALER] = dealer
    row[R_TRUMP] = st[L.TRUMP]
    row[R_CONTRACT] = st[L.CONTRACT]
    row[R_DECLARER] = st[L.DECLARER]
    row[R_PARTNER] = st[L.PARTNER]
    row[R_SEATS_OUT] = st[L.SEATS_OUT]
    row[R_FORCED] = st[L.FORCED]
    row[R_TRICKS] = st[L.TRICKS]
    row[R_TRICKS_PLAYED] = st[L.TRICKS_PLAYED]
    row[R_OUTCOMES] = st[L.OUTCOMES]
    row[R_OUTCOMES + 1] = st[L.OUTCOMES + 1]
    for s in range(tb[T.H_PLAYERS]):
        row[R_DELTA + s] = st[L.DELTA + s]
        row[R_SCORES + s] = st[B_BOARD + s]  # the totals the deal's scoring gave (before a match's end)
        row[R_WON_TRICKS + s] = st[L.WON_TRICKS + s]
    for i in range(L.MAX_TRICKS):
        row[R_PLAY_ORDER + i] = st[L.PLAY_ORDER + i] if i < st[L.CARDS_PLAYED] else -1
        row[R_WINNERS + i] = st[L.WINNERS + i] if i < st[L.TRICKS_PLAYED] else -1
