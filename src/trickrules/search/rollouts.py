"""Scored random playouts on the kernel from an engine state: what a search bot values actions by.

:class:`Rollouts` turns a full engine state in the play of a deal (a
sampled world) into the kernel's match array, every mechanism's record
filled in, and plays the rest of the deal at random on the kernel many
times (:func:`~trickrules.native.playout.scored_playouts`), each deal scored
by the game's own scoring tables. :meth:`Rollouts.results` gives each seat's
mean result: its score change less the mean change of the others (a point
taken counting against where the lowest score wins), as
:func:`~trickrules.faces.search_bots.deal_result` counts it through the
engine. Where the game has no kernel (a registered mechanism, a rule the
kernel does not hold) or the state is not in the play, it gives ``None`` and
the bot plays out through the engine.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.engine.game import Game
from trickrules.engine.state import GameLike, State
from trickrules.native import announce, auction, call, declare, exchange, making, passing, scoring, tricks_bid, trump
from trickrules.native import mt as MT
from trickrules.native.engine_arrays import to_arrays
from trickrules.native.kernel import Kernel, Unsupported, kernel_for
from trickrules.native.playout import scored_playouts

__all__ = ["Rollouts", "world_arrays"]

Array = npt.NDArray[np.int64]

_PARTS = (passing, tricks_bid, trump, making, auction, call, exchange, announce, declare)


def world_arrays(state: State) -> Array:
    """``state`` as the kernel's match array, with every mechanism's record and the deal's facts."""
    st = to_arrays(state)
    for part in _PARTS:
        part.part_to_arrays(state, st)
    game = state.game
    assert isinstance(game, Game)
    scoring.facts_to_arrays(game, state.deal, st)
    return st


class Rollouts:
    """A game's kernel and a generator, for scored playouts from the states of one bot's deals."""

    def __init__(self, game: GameLike, seed: int) -> None:
        self.game = game
        try:
            self.kernel: Kernel | None = kernel_for(game) if isinstance(game, Game) else None
        except Unsupported:
            self.kernel = None
        self.mt = np.zeros(MT.MT_SIZE, dtype=np.int64)
        words = [(seed >> (32 * k)) & 0xFFFFFFFF for k in range(4)]
        MT.seed_words(np.array(words, dtype=np.int64), 4, self.mt)
        self.work = np.zeros(0, dtype=np.int64)
        self.sign = -1 if game.spec.match.winner == "lowest" else 1

    def arrays(self, state: State) -> Array | None:
        """``state`` as the kernel's array to play out from; ``None`` where the kernel cannot."""
        if self.kernel is None or state.phase != "play" or state.is_terminal or state.to_move is None:
            return None
        return world_arrays(state)

    def results_from(self, st: Array, count: int) -> npt.NDArray[np.float64] | None:
        """Each seat's mean result over ``count`` playouts from the array ``st`` (:meth:`arrays`)."""
        assert self.kernel is not None
        if len(self.work) != len(st):
            self.work = np.zeros_like(st)
        n = self.game.players
        totals = np.zeros(8, dtype=np.int64)
        if scored_playouts(self.kernel.tb, st, self.work, self.mt, count, totals):
            return None  # the scoring refused a deal (a fraction under "exact"): the engine says why
        change = totals[:n] / count
        others = (change.sum() - change) / max(1, n - 1)
        return np.asarray(self.sign * (change - others), dtype=np.float64)

    def results(self, state: State, count: int) -> npt.NDArray[np.float64] | None:
        """Each seat's mean result over ``count`` playouts from ``state``; ``None`` where the kernel cannot."""
        st = self.arrays(state)
        return None if st is None else self.results_from(st, count)
