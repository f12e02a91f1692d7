"""The kernel's solver for the deal's payment: alpha-beta to the end of the deal, each end scored by the game's tables.

:func:`score_search` is :func:`~trickrules.native.dd.search` for the measure
``"score"``: what the deal does to the scores of ``side`` (its mean change
less the others', as :func:`~trickrules.search.solve.solve` counts it) when
its seats maximise it and the others minimise it. The value is not a sum of
what each trick gives, so each end of the deal is scored whole
(:func:`~trickrules.native.scoring.pay_deal`, which allocates: this search
runs with Numba's reference counting), and a position's key in the table
adds what each seat has won so far: its cards and tricks, or only its tricks where the deal's scoring
reads nothing else of the play. No card is made equivalent to another
and no card is named by its place: a scoring formula may name any card.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.native import layout as L
from trickrules.native import tables as T
from trickrules.native.dd import C_LIMIT, C_NODES, C_OVER, INF, _better, _key, _order, _probe, _store, _take_back
from trickrules.native.jit import native, native_alloc
from trickrules.native.play import legal_cards, play_card
from trickrules.native.scoring import pay_deal
from trickrules.native.scoring_tables import MAX_ENTRIES

__all__ = ["score_search"]

Array = npt.NDArray[np.int64]


@native
def _history(st: Array, n: int, counted: int) -> int:
    """A hash of what each seat has won so far: its cards and its tricks, or (``counted``) its tricks alone."""
    h = 0
    for s in range(n):
        won = 0 if counted else st[L.WON + s]
        x = (won ^ (st[L.WON_TRICKS + s] << 58)) * 0x9E3779B97F4A7C15 + s * 0x632BE59BD9B4E019
        x ^= (x >> 29) & 0x7FFFFFFFF
        h ^= x * 0xBF58476D1CE4E5B9
    return int(h)


@native_alloc
def _scored(tb: Array, st: Array, side: int, sign: int, counters: Array) -> int:
    """The finished deal's value for ``side``: ``sign`` times its mean score change less the others', scaled.

    Scaled by the number of seats on each side (at least one), so that it is a whole number.
    """
    n = tb[T.H_PLAYERS]
    scores = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    for s in range(n):
        scores[s] = st[L.SCORES + s]
    counts = np.zeros(MAX_ENTRIES, dtype=np.int64)
    kept = np.zeros((L.MAX_COUNTERS, L.MAX_PLAYERS), dtype=np.int64)
    if pay_deal(tb, st, scores, counts, kept):
        counters[C_OVER] = 2  # the scoring refused the deal: the engine says why
        return 0
    mine = theirs = 0
    ours = others = 0
    for s in range(n):
        change = scores[s] - st[L.SCORES + s]
        if (side >> s) & 1:
            mine += change
            ours += 1
        else:
            theirs += change
            others += 1
    return int(sign * (max(others, 1) * mine - ours * theirs))


@native_alloc
def score_search(
    tb: Array,
    st: Array,
    p: Array,
    tt: Array,
    buf: Array,
    counters: Array,
    side: int,
    sign: int,
    alpha: int,
    beta: int,
    counted: int,
) -> int:
    """The deal's scaled value for ``side`` if it lies in (alpha, beta), else a bound beyond it.

    ``tb``: the game's whole kernel, its scoring included; the other arrays as for
    :func:`~trickrules.native.dd.search`; ``sign``: -1 where the lowest score wins; ``counted``: 1
    where the deal's scoring reads only how many tricks each seat took
    (:data:`~trickrules.compile.variables.COUNTED_VARS`), so that positions of equal trick counts
    share the table's entries whatever cards were won.
    """
    if st[L.TRICKS_PLAYED] >= st[L.TRICKS]:
        return _scored(tb, st, side, sign, counters)
    counters[C_NODES] += 1
    if counters[C_LIMIT] and counters[C_NODES] > counters[C_LIMIT]:
        counters[C_OVER] = 1
        return 0
    boundary = st[L.TRICK_N] == 0
    key = 0
    first = -1
    a0 = alpha
    b0 = beta
    seat = st[L.TO_MOVE]
    maximise = (side >> seat) & 1
    if boundary:
        key = _key(tb, st, p, buf[L.MAX_CARDS + 1]) ^ _history(st, tb[T.H_PLAYERS], counted)
        hit, value, alpha, beta, first = _probe(tt, key, alpha, beta)
        if hit:
            return value
    moves = buf[st[L.CARDS_PLAYED]]
    n = _order(tb, st, p, legal_cards(tb, st, seat), side, seat, first, moves)
    trick_n = st[L.TRICK_N]
    saved_trick = st[L.TRICK + trick_n]
    leader = st[L.LEADER]
    best = -INF if maximise else INF
    best_card = -1
    for i in range(n):
        c = moves[i]
        ended = play_card(tb, st, seat, c)
        value = score_search(tb, st, p, tt, buf, counters, side, sign, alpha, beta, counted)
        _take_back(st, seat, c, ended, trick_n, saved_trick, seat, leader)
        if counters[C_OVER]:
            return 0
        best, best_card, alpha, beta = _better(maximise, value, c, best, best_card, alpha, beta)
        if alpha >= beta:
            break
    if boundary:
        _store(tt, key, best, a0, b0, best_card, st[L.CARDS_PLAYED])
    return int(best)
