"""Whole matches natively: deal, the game's phases, the play and the scoring, until the match ends.

:func:`play_match` runs one match of random bots from a match array
prepared by :func:`trickrules.native.kernel.start` and adds its statistics
to a row (:mod:`trickrules.native.record`); with a record array it also
keeps every deal whole. It follows :func:`trickrules.engine.loop.advance`:
after the deal, each phase of the game's sequence in its order (a phase not
due in a deal does nothing), then the tricks, then the deal's scoring, which
also says whether the match is over and sets up the next deal.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.native import layout as L
from trickrules.native import tables as T
from trickrules.native.deal import deal
from trickrules.native.auction import run as run_auction
from trickrules.native.declare import run as run_declare
from trickrules.native.jit import native
from trickrules.native.making import run_alone, run_discard, run_making
from trickrules.native.mt import MT_SIZE, seed_words
from trickrules.native.play import first_leader, play_card, random_card
from trickrules.native.record import A_ACTIONS, A_FINAL, A_FINISHED, A_WINNERS, count_deal, keep_deal

__all__ = ["HK_DECLARER_LEADS", "play_chunk", "play_match", "start_match"]

Array = npt.NDArray[np.int64]

BIDDING = T.PHASE_CODES["bidding"]
MAKING = T.PHASE_CODES["making"]
DISCARD = T.PHASE_CODES["discard"]
ALONE = T.PHASE_CODES["alone"]

#: The play's header words: per contract, whether the declarer leads when eldest hand sits out (a block).
HK_DECLARER_LEADS = T.HM_DEAL + 8
#: 1 where declarations open a window after a trick (the declare phase).
HK_DECLARE = T.HM_DEAL + 9


@native
def _phase(tb: Array, st: Array, mt: Array, code: int) -> None:
    """Run the phase of ``code`` (``tables.PHASE_CODES``) for the deal in ``st``."""
    if code == BIDDING:
        run_auction(tb, st, mt)
    elif code == MAKING:
        run_making(tb, st, mt)
    elif code == DISCARD:
        run_discard(tb, st, mt)
    elif code == ALONE:
        run_alone(tb, st, mt)


@native
def _play(tb: Array, st: Array, mt: Array) -> None:
    """The deal's tricks by random choice, from its first lead."""
    contract = st[L.CONTRACT]
    leads = contract >= 0 and tb[tb[HK_DECLARER_LEADS] + contract] != 0
    leader = first_leader(tb, st, leads)
    st[L.LEADER] = leader
    st[L.TO_MOVE] = leader
    while st[L.TRICKS_PLAYED] < st[L.TRICKS]:
        seat = st[L.TO_MOVE]
        if play_card(tb, st, seat, random_card(tb, st, mt)) and tb[HK_DECLARE]:
            run_declare(tb, st, mt)


@native
def start_match(tb: Array, st: Array) -> None:
    """Set up a new match's totals in ``st`` (the seed and the first dealer are set)."""
    pass


@native
def play_match(tb: Array, st: Array, mt: Array, agg: Array, rec: Array, max_deals: int) -> int:
    """Play the match in ``st`` to its end (or ``max_deals`` deals); the number of deals kept in ``rec``.

    ``agg`` is the match's statistics row; ``rec`` (rows of ``record.R_SIZE``) keeps the first deals
    whole, as many as it has rows.
    """
    n = tb[T.H_PLAYERS]
    phases = tb[T.O_PHASES]
    before = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    done = 0
    while st[L.OVER] == 0 and done < max_deals:
        for s in range(n):
            before[s] = st[L.SCORES + s]
        deal(tb, st)
        for i in range(tb[T.H_PHASES]):
            _phase(tb, st, mt, tb[phases + i])
            if st[L.REDEAL]:
                break
        if st[L.REDEAL] == 1:
            continue
        if st[L.REDEAL] == 0:
            _play(tb, st, mt)
        for s in range(n):
            st[L.DELTA + s] = st[L.SCORES + s] - before[s]
        count_deal(tb, st, agg)
        if done < rec.shape[0]:
            keep_deal(tb, st, rec[done])
        done += 1
    agg[A_ACTIONS] += st[L.ACTIONS]
    agg[A_FINISHED] += st[L.OVER] != 0
    winners = 0
    for s in range(n):
        agg[A_FINAL + s] = st[L.SCORES + s]
    agg[A_WINNERS] = winners
    return done


@native
def play_chunk(tb: Array, seeds: Array, dealers: Array, agg: Array, deals: Array, rec: Array, max_deals: int) -> None:
    """Play one match per row of ``seeds`` (the match seed's four words, then the bots' four, low first).

    Match ``i`` is dealt first by ``dealers[i]``; its statistics go to ``agg[i]`` and its number of
    deals to ``deals[i]``; ``rec`` keeps the first match's first deals whole (it may have no rows).
    """
    mt = np.empty(MT_SIZE, dtype=np.int64)
    st = np.empty(L.ST_SIZE, dtype=np.int64)
    key = np.empty(4, dtype=np.int64)
    for i in range(seeds.shape[0]):
        st[:] = 0
        for w in range(4):
            st[L.SEED + w] = seeds[i, w]
            key[w] = seeds[i, 4 + w]
        count = 4
        while count > 1 and key[count - 1] == 0:
            count -= 1
        seed_words(key, count, mt)
        st[L.DEALER] = dealers[i]
        st[L.FIRST_DEALER] = dealers[i]
        start_match(tb, st)
        kept = rec if i == 0 else rec[:0]
        deals[i] = play_match(tb, st, mt, agg[i], kept, max_deals)
