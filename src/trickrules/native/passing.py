"""Passing cards natively: Hearts' ``passing`` phase, card for card as the engine plays it.

The engine's mechanism (:mod:`trickrules.engine.phases.passing`) has every
seat pass ``passing.cards`` cards to the seat ``offset`` seats on, where the
offset is the deal's entry of ``passing.cycle``: in turn (deal number modulo
the cycle's length), or, with ``passing.order = "chance"``, one draw from the
deal's choice stream (:func:`trickrules.engine.rng.chosen`: the generator
seeded with ``mix(seed, shuffle) ^ CHOICE_SALT``, never the bots'). An offset
of 0 holds: the phase is not due. Otherwise the eldest hand passes first, one
card per decision (``give CODE``, the cards of its hand in deck order, one
draw each), until it has passed them all, then the next seat by number, and so
on; the cards reach their receivers when everyone has passed.

:func:`run` plays the whole phase (or the rest of it, from the record) with a
random bot at every seat. Its record lives in ``MECH_PASSING`` (``P_*``
words): ``P_DEAL`` holds ``SHUFFLE + 1`` of the deal it belongs to, and a run
that finds another deal's record there starts afresh, drawing the deal's
offset. ``TO_MOVE`` is left at the last seat that passed; the next phase sets
the seat to move and the first leader.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.engine.game import Game
from trickrules.engine.phases import passing as engine_passing
from trickrules.engine.phases.deal import dealing
from trickrules.engine.rng import CHOICE_SALT
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import layout as L
from trickrules.native import tables as T
from trickrules.native.jit import native
from trickrules.native.mt import OFFER_GIVE, choose_among, deal_random
from trickrules.native.tables import Builder, Unsupported

__all__ = ["P_DEAL", "P_DONE", "P_OFFSET", "P_PASSED", "export", "offset", "part_to_arrays", "run"]

# -- header words (HM_PASSING .. + 15) ---------------------------------------------------------------------
_PRESENT = T.HM_PASSING + 0  # 1 when cards are ever passed (passing.used)
_CARDS = T.HM_PASSING + 1  # how many cards each seat passes
_BY_CHANCE = T.HM_PASSING + 2  # the deal's offset is drawn from the choice stream, not taken in turn
_CYCLE = T.HM_PASSING + 3  # how many entries the cycle has
_O_OFFSETS = T.HM_PASSING + 4  # block: [entry] -> the seat offset (0: hold)

#: ``CHOICE_SALT`` as a signed 64-bit word (what :func:`~trickrules.native.mt.deal_seed` takes).
_SALT = CHOICE_SALT - (1 << 64) if CHOICE_SALT >> 63 else CHOICE_SALT

# -- the block (MECH_PASSING .. + 15): the engine's Passing record -------------------------------------------
P_DEAL = L.MECH_PASSING + 0  # SHUFFLE + 1 of the deal the record belongs to (0: none yet)
P_OFFSET = L.MECH_PASSING + 1  # Passing.offset: how many seats on the cards go (0: no passing this deal)
P_DONE = L.MECH_PASSING + 2  # Passing.done: the cards have been delivered
P_PASSED = L.MECH_PASSING + 3  # Passing.passed: per seat, the cards it has passed (mask; 8 words)


def export(game: Game, b: Builder) -> None:
    """Write the passing's tables into ``b`` (only ``PRESENT = 0`` where no cards are ever passed).

    Raises :class:`Unsupported` for a passing phase that is not the engine's
    built-in one.
    """
    p = game.tables.passing
    found = game.mechanisms.get(Phase.PASSING)
    if found is not None and found is not engine_passing.MECHANISM:
        raise Unsupported("a passing phase other than the engine's")
    if not p.used or found is None:
        b.number(_PRESENT, 0)
        return
    b.number(_PRESENT, 1)
    b.number(_CARDS, p.cards)
    b.number(_BY_CHANCE, p.by_chance)
    b.number(_CYCLE, len(p.offsets))
    b.block(_O_OFFSETS, p.offsets)


def part_to_arrays(state: State, st: npt.NDArray[np.int64]) -> None:
    """Fill the passing's block of ``st`` from the engine's record of ``state``'s deal (nothing before it starts)."""
    game = state.game
    d = state.deal
    slot = game.slot.get(Phase.PASSING)
    if slot is None or len(d.parts) <= slot:
        return
    record: engine_passing.Passing = d.parts[slot]
    st[P_DEAL] = dealing(d).shuffle + 1
    st[P_OFFSET] = record.offset
    st[P_DONE] = record.done
    for seat, mask in enumerate(record.passed):
        st[P_PASSED + seat] = T.word(mask)


@native
def _count(mask: int, cards: int) -> int:
    """How many cards ``mask`` holds."""
    k = 0
    for card in range(cards):
        if (mask >> card) & 1:
            k += 1
    return k


@native
def _nth(mask: int, cards: int, k: int) -> int:
    """The ``k``-th card of ``mask`` in deck order (from 0)."""
    for card in range(cards):
        if (mask >> card) & 1:
            if k == 0:
                return card
            k -= 1
    return -1


@native
def offset(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64]) -> int:
    """The current deal's seat offset (0: hold), in turn or drawn from its choice stream (``rng.chosen``)."""
    cycle = tb[_CYCLE]
    if tb[_BY_CHANCE]:
        k = int(deal_random(st[L.SEED : L.SEED + 4], st[L.SHUFFLE], _SALT) * cycle)
    else:
        k = st[L.NUMBER] % cycle
    return int(tb[tb[_O_OFFSETS] + k])


@native
def _own(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64]) -> None:
    """Start the record afresh (with the deal's offset) where it belongs to another deal than the current one."""
    if st[P_DEAL] != st[L.SHUFFLE] + 1:
        st[P_DEAL] = st[L.SHUFFLE] + 1
        st[P_OFFSET] = offset(tb, st)
        st[P_DONE] = 0
        for seat in range(L.MAX_PLAYERS):
            st[P_PASSED + seat] = 0


@native
def run(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], mt: npt.NDArray[np.int64]) -> None:
    """Play the passing of the current deal (nothing where it holds or the cards have been delivered)."""
    if not tb[_PRESENT]:
        return
    _own(tb, st)
    off = st[P_OFFSET]
    if off == 0 or st[P_DONE]:
        return
    n = tb[T.H_PLAYERS]
    size = tb[T.H_CARDS]
    cards = tb[_CARDS]
    eldest = (st[L.DEALER] + 1) % n
    for i in range(n):
        seat = (eldest + i) % n
        while _count(st[P_PASSED + seat], size) < cards:
            st[L.TO_MOVE] = seat
            hand = st[L.HANDS + seat]
            k = choose_among(mt, _count(hand, size), OFFER_GIVE, hand)
            st[L.ACTIONS] += 1
            bit = np.int64(1) << _nth(hand, size, k)
            st[L.HANDS + seat] = hand & ~bit
            st[P_PASSED + seat] |= bit
    for seat in range(n):
        st[L.HANDS + (seat + off) % n] |= st[P_PASSED + seat]
    st[P_DONE] = 1
