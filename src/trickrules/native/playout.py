"""Random playouts on the kernel: a deal's play finished at random, many times over, from one position.

:func:`playouts` copies a match array (:mod:`trickrules.native.layout`) in
which every hand is known, plays its deal's remaining cards at random by the
kernel's own rules (:func:`~trickrules.native.play.random_card`: each seat
picks uniformly among its legal cards), and adds up what each seat took:
its tricks and the card points of the cards it took. :func:`scored_playouts`
plays the rest of the deal as the kernel's simulation does (the mechanisms'
steps during the play included) and scores it with the game's own scoring
tables: each seat's change of score. A search bot values an action by the
mean of such playouts from each world it samples.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.native import layout as L
from trickrules.native import scoring
from trickrules.native import tables as T
from trickrules.native.jit import native, native_alloc
from trickrules.native.match import play_rest
from trickrules.native.play import low_card, play_card, random_card
from trickrules.native.scoring_tables import MAX_ENTRIES

__all__ = ["playouts", "scored_playouts"]

Array = npt.NDArray[np.int64]


@native
def playouts(tb: Array, st: Array, work: Array, mt: Array, count: int, tricks: Array, points: Array) -> None:
    """Play ``st``'s deal to its end ``count`` times at random; add each seat's tricks and card points.

    ``work``: a match array to play on (``st`` is left as it is); ``mt``: the generator's state
    (:mod:`trickrules.native.mt`); ``tricks`` and ``points``: a total per seat, added to.
    """
    n = tb[T.H_PLAYERS]
    worth = tb[T.O_POINTS]
    for _ in range(count):
        for i in range(L.ST_SIZE):
            work[i] = st[i]
        base = work[L.TRICKS_PLAYED]
        while work[L.TRICKS_PLAYED] < work[L.TRICKS]:
            seat = work[L.TO_MOVE]
            card = random_card(tb, work, mt)
            play_card(tb, work, seat, card)
        for k in range(base, work[L.TRICKS]):
            tricks[work[L.WINNERS + k]] += 1
        for seat in range(n):
            m = work[L.WON + seat] & ~st[L.WON + seat]
            while m:
                c = low_card(m)
                m &= m - 1
                points[seat] += tb[worth + c]


@native_alloc
def scored_playouts(tb: Array, st: Array, work: Array, mt: Array, count: int, totals: Array) -> int:
    """Play ``st``'s deal to its end ``count`` times, as the kernel's random bots, and score each.

    ``tb``: the game's whole kernel (:func:`trickrules.native.kernel.kernel_for`), scoring included;
    ``st``: a position in the play, every mechanism's record filled in. ``totals[seat]`` adds each
    deal's change of the seat's score. Gives back 0, or the scoring's failure (``B_ERROR``).
    """
    n = tb[T.H_PLAYERS]
    scores = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    counts = np.zeros(MAX_ENTRIES, dtype=np.int64)
    counters = np.zeros((L.MAX_COUNTERS, L.MAX_PLAYERS), dtype=np.int64)
    for _ in range(count):
        for i in range(L.ST_SIZE):
            work[i] = st[i]
        play_rest(tb, work, mt)
        for s in range(n):
            scores[s] = work[L.SCORES + s]
        counts[:] = 0
        failed = scoring.pay_deal(tb, work, scores, counts, counters)
        if failed:
            return int(failed)
        for s in range(n):
            totals[s] += scores[s] - st[L.SCORES + s]
    return 0
