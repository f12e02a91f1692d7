"""Whole matches natively: deal, the game's phases, the play and the scoring, until the match ends.

:func:`play_match` runs one match of random bots from a match array and
adds its statistics to a row (:mod:`trickrules.native.record`); with a
record array it also keeps every deal whole. It follows the engine's loop
(:func:`trickrules.engine.loop.advance`): after the deal, the first phase
of the game's sequence that is due takes the move (each phase's ``run``
does nothing when it is not due, and plays its whole turn when it is), until
none is; then the tricks, with what the mechanisms do around them (the
called card revealed when played, a window of declarations or a late
announcement after a trick, a contract's early end); then the deal's
scoring, which also says whether the match is over and sets up the next
deal. :func:`play_chunk` plays many matches in one call.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.engine.phases.deal import MAX_THROWN
from trickrules.native import announce, call, exchange, scoring
from trickrules.native import layout as L
from trickrules.native import tables as T
from trickrules.native.auction import run as run_auction
from trickrules.native.deal import deal
from trickrules.native.declare import run as run_declare
from trickrules.native.eligible import HE_COUNT, fill_auction
from trickrules.native.jit import native, native_alloc
from trickrules.native.making import run_alone, run_discard, run_making
from trickrules.native.mt import MT_SIZE, seed_two, seed_words
from trickrules.native.passing import run as run_passing
from trickrules.native.play import first_leader, play_card, random_card
from trickrules.native.record import A_ACTIONS, A_ERROR, A_FINAL, A_FINISHED, A_WINNERS, count_deal, keep_deal
from trickrules.native.scoring_tables import B_ERROR, B_WINNERS, E_THROWN
from trickrules.native.tricks_bid import run as run_tricks_bid
from trickrules.native.trump import run as run_trump

__all__ = [
    "FAILED",
    "HK_DECLARE",
    "HK_DECLARER_LEADS",
    "HK_STARTS",
    "PASSED_OUT",
    "PLAY_ON",
    "REDEALT",
    "begin_deal",
    "phases",
    "phases_over",
    "play_chunk",
    "play_match",
    "play_rest",
    "start_play",
]

Array = npt.NDArray[np.int64]

PASSING = T.PHASE_CODES["passing"]
BIDDING = T.PHASE_CODES["bidding"]
TRICKS_BID = T.PHASE_CODES["tricks_bid"]
MAKING = T.PHASE_CODES["making"]
DISCARD = T.PHASE_CODES["discard"]
ALONE = T.PHASE_CODES["alone"]
TRUMP = T.PHASE_CODES["trump"]
CALL = T.PHASE_CODES["call"]
EXCHANGE = T.PHASE_CODES["exchange"]
ANNOUNCE = T.PHASE_CODES["announce"]

#: The play's header words: per contract, whether the declarer leads when eldest hand sits out (a block).
HK_DECLARER_LEADS = T.HM_DEAL + 8
#: 1 where declarations open a window after a trick (the declare phase).
HK_DECLARE = T.HM_DEAL + 9
#: A bit per phase code whose mechanism keeps a record started afresh each deal (call, exchange, announce).
HK_STARTS = T.HM_DEAL + 10


@native
def _phase(tb: Array, st: Array, mt: Array, code: int) -> None:
    """Run the phase of ``code`` (``tables.PHASE_CODES``) for the deal in ``st``, if it is due."""
    if code == PASSING:
        run_passing(tb, st, mt)
    elif code == BIDDING:
        if tb[HE_COUNT]:
            fill_auction(tb, st)
        run_auction(tb, st, mt)
    elif code == TRICKS_BID:
        run_tricks_bid(tb, st, mt)
    elif code == MAKING:
        run_making(tb, st, mt)
    elif code == DISCARD:
        run_discard(tb, st, mt)
    elif code == ALONE:
        run_alone(tb, st, mt)
    elif code == TRUMP:
        run_trump(tb, st, mt)
    elif code == CALL:
        call.run(tb, st, mt)
    elif code == EXCHANGE:
        exchange.run(tb, st, mt)
    elif code == ANNOUNCE:
        announce.run(tb, st, mt)


#: What :func:`phases_over` finds: the play follows; the deal is dealt again; it was passed out; the
#: match is the engine's to play (a seat with no legal action, or thrown in too often).
PLAY_ON = 0
REDEALT = 1
PASSED_OUT = 2
FAILED = 3


@native
def begin_deal(tb: Array, st: Array, ahead: Array) -> None:
    """Deal the next deal (``ahead``: the next shuffle's generator); the mechanisms' records afresh; the ante."""
    starts = tb[HK_STARTS]
    deal(tb, st, ahead)
    st[L.MECH_DEAL : L.MECH_SCORING] = 0  # the mechanisms' records start afresh each deal
    if (starts >> CALL) & 1:
        call.start(tb, st)
    if (starts >> EXCHANGE) & 1:
        exchange.start(tb, st)
    if (starts >> ANNOUNCE) & 1:
        announce.start(tb, st)
    scoring.ante(tb, st)


@native
def phases_over(st: Array) -> int:
    """After the deal's phases: what follows (``PLAY_ON`` ...), a throw-in counted as the engine counts them."""
    if st[B_ERROR]:
        return FAILED
    if st[L.REDEAL]:  # thrown in, as the engine's deal.thrown_in counts them
        st[L.THROWN] += 1
        if st[L.THROWN] >= MAX_THROWN:
            st[B_ERROR] = E_THROWN
            return FAILED
    else:
        st[L.THROWN] = 0
    if st[L.REDEAL] == 1:
        return REDEALT
    if st[L.REDEAL] == 2:
        return PASSED_OUT
    return PLAY_ON


@native
def phases(tb: Array, st: Array, mt: Array) -> None:
    """The deal's phases before the play: the first one due takes the move, until none is (or a redeal)."""
    codes = tb[T.O_PHASES]
    i = 0
    while i < tb[T.H_PHASES]:
        taken = st[L.ACTIONS]
        _phase(tb, st, mt, tb[codes + i])
        if st[L.REDEAL] or st[B_ERROR]:
            return
        i = 0 if st[L.ACTIONS] != taken else i + 1


@native
def start_play(tb: Array, st: Array) -> None:
    """The deal's first lead: its leader to move."""
    contract = st[L.CONTRACT]
    leads = contract >= 0 and tb[tb[HK_DECLARER_LEADS] + contract] != 0
    leader = first_leader(tb, st, leads)
    st[L.LEADER] = leader
    st[L.TO_MOVE] = leader


@native
def play_rest(tb: Array, st: Array, mt: Array) -> None:
    """The deal's tricks from the position in ``st`` to the end of its play, by random choice."""
    starts = tb[HK_STARTS]
    announcing = (starts >> ANNOUNCE) & 1
    calling = (starts >> CALL) & 1
    early = tb[T.R_BASE + T.R_ENDS_EARLY]
    while st[L.TRICKS_PLAYED] < st[L.TRICKS]:
        seat = st[L.TO_MOVE]
        if announcing and st[announce.A_LEAD] >= 0:
            card = st[announce.A_LEAD]  # a lead that answered a late announcement, already counted
            st[announce.A_LEAD] = L.NONE
        else:
            card = random_card(tb, st, mt)
        ended = play_card(tb, st, seat, card)
        if calling:
            call.on_card(tb, st, card)
        if not ended or st[L.TRICKS_PLAYED] == st[L.TRICKS]:
            continue
        if early and scoring.ends_early(tb, st):
            return
        if tb[HK_DECLARE]:
            run_declare(tb, st, mt)
        if announcing:
            announce.after_trick(tb, st, mt)
            if st[announce.A_ENDED]:
                return


@native_alloc
def play_match(tb: Array, st: Array, mt: Array, agg: Array, rec: Array, max_deals: int) -> int:
    """Play the match in ``st`` to its end (or ``max_deals`` deals); how many deals it held.

    ``agg`` is the match's statistics row; ``rec`` (rows of ``record.R_SIZE``) keeps the first deals
    whole, as many as it has rows.
    """
    n = tb[T.H_PLAYERS]
    done = 0
    ahead = np.empty(MT_SIZE, dtype=np.int64)
    while st[L.OVER] == 0 and done < max_deals:
        begin_deal(tb, st, ahead)
        phases(tb, st, mt)
        after = phases_over(st)
        if after == FAILED:
            break  # a seat with no legal action: the match is the engine's to play (and to refuse)
        if after == REDEALT:
            continue
        number = st[L.NUMBER]
        dealer = st[L.DEALER]
        if after == PASSED_OUT:
            scoring.passed_out(tb, st)
        else:
            start_play(tb, st)
            play_rest(tb, st, mt)
            scoring.score(tb, st)
        if st[B_ERROR]:
            break  # a formula failed where the engine raises: the match is the engine's to play
        count_deal(tb, st, agg)
        if done < rec.shape[0]:
            keep_deal(tb, st, rec[done], number, dealer)
        done += 1
    agg[A_ACTIONS] += st[L.ACTIONS]
    agg[A_FINISHED] += st[L.OVER] != 0
    for s in range(n):
        agg[A_FINAL + s] = st[L.SCORES + s]
    agg[A_WINNERS] = st[B_WINNERS]
    agg[A_ERROR] |= st[B_ERROR] != 0
    return done


@native
def _bots_key(seeds: Array, i: int, key: Array) -> int:
    """Write match ``i``'s bots' seed words into ``key``; how many count (``seed_words``'s ``count``)."""
    for w in range(4):
        key[w] = seeds[i, 4 + w]
    count = 4
    while count > 1 and key[count - 1] == 0:
        count -= 1
    return count


@native_alloc
def play_chunk(tb: Array, seeds: Array, dealers: Array, agg: Array, deals: Array, rec: Array, max_deals: int) -> None:
    """Play one match per row of ``seeds`` (the match seed's four words, then the bots' four, low first).

    Match ``i`` is dealt first by ``dealers[i]``; its statistics go to ``agg[i]`` and its number of
    deals to ``deals[i]``; ``rec`` keeps the first match's first deals whole (it may have no rows).
    The bots' generators of two matches in a row are seeded as a pair (``seed_two``: about the cost of one).
    """
    mt = np.empty(MT_SIZE, dtype=np.int64)
    spare = np.empty(MT_SIZE, dtype=np.int64)
    st = np.empty(L.ST_SIZE, dtype=np.int64)
    key = np.empty(4, dtype=np.int64)
    key_next = np.empty(4, dtype=np.int64)
    rows = seeds.shape[0]
    for i in range(rows):
        st[:] = 0
        for w in range(4):
            st[L.SEED + w] = seeds[i, w]
        if i % 2 == 1:
            mt, spare = spare, mt  # seeded with the match before
        elif i + 1 < rows:
            seed_two(key, _bots_key(seeds, i, key), mt, key_next, _bots_key(seeds, i + 1, key_next), spare)
        else:
            seed_words(key, _bots_key(seeds, i, key), mt)
        st[L.DEALER] = dealers[i]
        st[L.FIRST_DEALER] = dealers[i]
        kept = rec if i == 0 else rec[:0]
        deals[i] = play_match(tb, st, mt, agg[i], kept, max_deals)
