"""Between the engine and the kernel: an engine state as the kernel's arrays, field for field.

:func:`to_arrays` fills a match array (:mod:`trickrules.native.layout`) from
an engine :class:`~trickrules.engine.state.State`: the deal's record, the
tally, the match and the state's own fields. Each phase module fills its own
block from its mechanism's record (its ``part_to_arrays``). The tests compare
the kernel with the engine through it: the same position, then the same
random choices on both sides, then the arrays compared.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.compile.tables import Tables
from trickrules.engine.state import State
from trickrules.engine.values import DealInfo
from trickrules.native import layout as L
from trickrules.native.mt import words_of
from trickrules.native.tables import word

__all__ = ["core_fields", "deal_to_arrays", "to_arrays"]


def deal_to_arrays(t: Tables, d: DealInfo, st: npt.NDArray[np.int64]) -> None:
    """Fill ``st``'s fields of the deal record ``d`` (number, shuffle, dealer, trump, contract, sides, hands dealt)."""
    st[L.NUMBER] = d.number
    st[L.SHUFFLE] = d.parts[0].shuffle if d.parts and hasattr(d.parts[0], "shuffle") else 0
    st[L.THROWN] = d.parts[0].thrown if d.parts and hasattr(d.parts[0], "thrown") else 0
    st[L.DEALER] = d.dealer
    st[L.TRUMP] = L.UNSET_TRUMP if d.trump is None else d.trump
    st[L.TRUMP_ROW] = L.NONE if d.trump is None else sorted(t.trumps).index(d.trump)
    st[L.CONTRACT] = L.NONE if d.contract is None else d.contract
    st[L.DECLARER] = L.NONE if d.declarer is None else d.declarer
    st[L.PARTNER] = L.NONE if d.partner is None else d.partner
    st[L.SEATS_OUT] = d.seats_out
    st[L.TRICKS] = d.tricks
    for seat, hand in enumerate(d.dealt):
        st[L.DEALT + seat] = word(hand)


def to_arrays(state: State) -> npt.NDArray[np.int64]:
    """The kernel's match array for ``state`` (the mechanisms' blocks left at 0)."""
    st = np.zeros(L.ST_SIZE, dtype=np.int64)
    game = state.game
    d = state.deal
    m = state.match
    tally = state.tally
    st[L.SEED : L.SEED + 4] = words_of(m.seed % (1 << 128))
    deal_to_arrays(state.game.tables, d, st)
    st[L.DEALS_DONE] = m.deals_done
    st[L.POT] = m.pot
    st[L.OVER] = state.is_terminal
    st[L.FIRST_DEALER] = m.first_dealer
    st[L.TO_MOVE] = L.NONE if state.to_move is None else state.to_move
    st[L.LEADER] = state.leader
    st[L.TRICK_N] = len(state.trick)
    st[L.TRICKS_PLAYED] = len(tally.winners)
    played = 0
    for mask in tally.won:
        played |= mask
    for card in state.trick:
        played |= 1 << card
    st[L.PLAYED] = word(played)
    revoked = 0
    for r in tally.revokes:
        revoked |= 1 << r.seat
    st[L.REVOKED] = revoked
    st[L.CARDS_PLAYED] = played.bit_count()
    for seat in range(game.players):
        st[L.HANDS + seat] = word(state.hands[seat])
        st[L.WON + seat] = word(tally.won[seat])
        st[L.WON_TRICKS + seat] = tally.winners.count(seat)
        st[L.SCORES + seat] = m.scores[seat]
    for c, values in enumerate(m.counters):
        for seat, value in enumerate(values):
            st[L.COUNTERS + 8 * c + seat] = value
    for i, w in enumerate(tally.winners):
        st[L.WINNERS + i] = w
    for i, card in enumerate(state.trick):
        st[L.TRICK + i] = card
    return st


#: The fields :func:`to_arrays` fills that the engine and the kernel must agree on at any position
#: (PLAY_ORDER and the mechanisms' blocks are the kernel's own bookkeeping).
def core_fields(players: int) -> list[tuple[str, int]]:
    """(name, offset) of every field the tests compare, per seat for the per-seat ones."""
    names = [
        "NUMBER", "DEALS_DONE", "POT", "DEALER", "TRUMP", "TRUMP_ROW", "CONTRACT", "DECLARER", "PARTNER",
        "SEATS_OUT", "TRICKS", "TO_MOVE", "LEADER", "TRICK_N", "TRICKS_PLAYED", "PLAYED", "REVOKED",
    ]  # fmt: skip
    out = [(n, getattr(L, n)) for n in names]
    for n in ("HANDS", "DEALT", "WON", "WON_TRICKS", "SCORES"):
        out.extend((f"{n}[{s}]", getattr(L, n) + s) for s in range(players))
    return out
