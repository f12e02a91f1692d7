"""Naming trumps natively: the ``trump`` phase (Manille's dealer, the Quadrille family's declarer or called holder).

The engine's mechanism (:mod:`trickrules.engine.phases.trump`) is due while
the deal has no trump, to the seat :func:`~trickrules.engine.phases.trump.trump_chooser`
names: by the contract's ``trump_by`` (or ``trump.chosen_by`` while there is
no contract) the dealer; the called card's holder (``PARTNER``) once the card
is called, nobody before that where the contract calls one (the call comes
first), the declarer where nobody was called; else the declarer (nobody where
there is none). That seat names one of the suits in suit order, then ``none``
where ``trump.allow_none`` (or ``chosen_by = "none"``) allows it: one draw.

:func:`run` plays it with a random bot, setting ``TRUMP`` and ``TRUMP_ROW``
(``TO_MOVE`` is left at the seat that named them; the next phase sets the
seat to move and the first leader). The engine keeps no record of its own
for the phase (the trump is the deal's), so ``MECH_TRUMP`` is left unused.
The phase reads ``CALLED`` (the call phase's field, ``NONE`` before a card is
called) where the called card's holder names trumps.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.compile.modes import TrumpChooser
from trickrules.engine.game import Game
from trickrules.engine.phases import call as engine_call
from trickrules.engine.phases import trump as engine_trump
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import layout as L
from trickrules.native import tables as T
from trickrules.native.jit import native
from trickrules.native.mt import OFFER_TRUMP, choose_among
from trickrules.native.tables import Builder, Unsupported

__all__ = ["export", "part_to_arrays", "run"]

# -- header words (HM_TRUMP .. + 15) -----------------------------------------------------------------------
_PRESENT = T.HM_TRUMP + 0  # 1 when the game's sequence has the trump phase
_BY = T.HM_TRUMP + 1  # who names trumps while there is no contract (a _CHOOSER code)
_NONE_OK = T.HM_TRUMP + 2  # "trump none" is offered after the suits
_O_BY = T.HM_TRUMP + 3  # block: [contract] -> who names its trumps (a _CHOOSER code)
_O_CALLS = T.HM_TRUMP + 4  # block: [contract] -> 1 where it calls a card

# Who names the trump, as _BY and _O_BY hold it.
_DECLARER = 0
_DEALER = 1
_CALLED_HOLDER = 2


def _chooser(by: TrumpChooser) -> int:
    if by is TrumpChooser.DEALER:
        return _DEALER
    if by is TrumpChooser.CALLED_HOLDER:
        return _CALLED_HOLDER
    return _DECLARER  # the engine's trump_chooser: the declarer for every other mode


def export(game: Game, b: Builder) -> None:
    """Write the trump phase's tables into ``b`` (only ``PRESENT = 0`` where the game has no trump phase).

    Raises :class:`Unsupported` for a trump phase that is not the engine's built-in one.
    """
    found = game.mechanisms.get(Phase.TRUMP)
    if found is not None and found is not engine_trump.MECHANISM:
        raise Unsupported("a trump phase other than the engine's")
    if found is None or all(m.phase != Phase.TRUMP for m in game.sequence):
        b.number(_PRESENT, 0)
        return
    rules = game.rules
    if any(_chooser(c.trump_by) == _CALLED_HOLDER for c in rules.contracts):
        called = game.mechanisms.get(Phase.CALL)
        if called is not None and called is not engine_call.MECHANISM:
            raise Unsupported("the called holder names trumps after a call phase other than the engine's")
    b.number(_PRESENT, 1)
    b.number(_BY, _chooser(rules.trump_chosen_by))
    b.number(_NONE_OK, rules.allow_no_trump)
    b.block(_O_BY, [_chooser(c.trump_by) for c in rules.contracts] or [0])
    b.block(_O_CALLS, [int(c.call) for c in rules.contracts] or [0])


def part_to_arrays(state: State, st: npt.NDArray[np.int64]) -> None:
    """Fill ``CALLED`` (which the phase reads) from the engine's call record; the trump is in the deal's fields."""
    game = state.game
    d = state.deal
    slot = game.slot.get(Phase.CALL)
    if slot is None or len(d.parts) <= slot:
        return
    called = engine_call.call(game, d).called
    st[L.CALLED] = L.NONE if called is None else called


@native
def run(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], mt: npt.NDArray[np.int64]) -> None:
    """Name the trump of the current deal (nothing where it is known, or not yet due)."""
    if not tb[_PRESENT] or st[L.TRUMP] != L.UNSET_TRUMP:
        return
    contract = st[L.CONTRACT]
    by = tb[_BY] if contract < 0 else tb[tb[_O_BY] + contract]
    seat = st[L.DECLARER]
    if by == _DEALER:
        seat = st[L.DEALER]
    elif by == _CALLED_HOLDER:
        if st[L.PARTNER] >= 0:
            seat = st[L.PARTNER]
        elif contract >= 0 and tb[tb[_O_CALLS] + contract] and st[L.CALLED] < 0:
            return  # the card is called first
    if seat < 0:
        return
    suits = tb[T.H_SUITS]
    st[L.TO_MOVE] = seat
    bits = (((np.int64(1) << suits) - 1) << 1) | (np.int64(tb[_NONE_OK]) << (1 + suits))
    k = choose_among(mt, suits + tb[_NONE_OK], OFFER_TRUMP, bits)
    st[L.ACTIONS] += 1
    trump = k if k < suits else tb[T.H_NO_TRUMP]
    st[L.TRUMP] = trump
    st[L.TRUMP_ROW] = tb[tb[T.O_ROW_OF_KEY] + trump - tb[T.H_NO_TRUMP]]
