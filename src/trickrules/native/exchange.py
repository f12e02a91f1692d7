"""The exchange, natively: the declarer hands cards face down to the partner, who hands back as many.

As :mod:`trickrules.engine.phases.exchange`: due in a contract with an
exchange when the declarer has a real partner (the called card's holder);
the declarer gives his cards one by one, then the partner returns as many
(only the called card, while he holds it, where the contract says so); the
cards change hands when the last is returned. The record lives in the block
``MECH_EXCHANGE``: how many given (``X_GIVEN_N``) and returned (``X_RETURNED_N``),
and the cards in order (``X_GIVEN``, ``X_RETURNED``, :data:`MAX_EXCHANGE` each).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.compile.modes import ExchangeReturns
from trickrules.engine.game import Game
from trickrules.engine.phases.exchange import Exchange
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import layout as L
from trickrules.native import tables as T
from trickrules.native.jit import native
from trickrules.native.mt import OFFER_GIVE, choose_among

__all__ = [
    "MAX_EXCHANGE",
    "X_GIVEN",
    "X_GIVEN_N",
    "X_RETURNED",
    "X_RETURNED_N",
    "export",
    "part_to_arrays",
    "run",
    "start",
]

#: The most cards an exchange may move each way in the kernel's block.
MAX_EXCHANGE = 7

# -- the header words (HM_EXCHANGE .. +7) -----------------------------------------------------------------
#: 1 when the game has the exchange phase.
H_ON = T.HM_EXCHANGE + 0
#: Block: per contract, how many cards are exchanged (0: none).
O_COUNT = T.HM_EXCHANGE + 1
#: Block: per contract, 1 when the partner returns the called card (while he holds it).
O_RETURNS_CALLED = T.HM_EXCHANGE + 2

# -- the block (MECH_EXCHANGE) ---------------------------------------------------------------------------
X_GIVEN_N = L.MECH_EXCHANGE + 0
X_RETURNED_N = L.MECH_EXCHANGE + 1
X_GIVEN = L.MECH_EXCHANGE + 2
X_RETURNED = L.MECH_EXCHANGE + 2 + MAX_EXCHANGE


def export(game: Game, b: T.Builder) -> None:
    """Write each contract's exchange into ``b`` (nothing if the game has no exchange phase).

    Raises :class:`~trickrules.native.tables.Unsupported` for an exchange of more than :data:`MAX_EXCHANGE` cards.
    """
    t = game.tables
    if Phase.EXCHANGE not in t.phases:
        return
    contracts = t.rules.contracts
    if any(c.exchange > MAX_EXCHANGE for c in contracts):
        raise T.Unsupported(f"an exchange of more than {MAX_EXCHANGE} cards")
    b.number(H_ON, 1)
    b.block(O_COUNT, (c.exchange for c in contracts))
    b.block(O_RETURNS_CALLED, (int(c.exchange_returns is ExchangeReturns.CALLED_CARD) for c in contracts))


@native
def start(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64]) -> None:
    """A new deal's exchange record: nothing given, nothing returned."""
    for i in range(16):
        st[L.MECH_EXCHANGE + i] = 0


@native
def run(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], mt: npt.NDArray[np.int64]) -> None:
    """The exchange of the current deal, if due: every card given and returned chosen at random."""
    if tb[H_ON] == 0:
        return
    contract = st[L.CONTRACT]
    if contract < 0:
        return
    count = tb[tb[O_COUNT] + contract]
    declarer, partner = st[L.DECLARER], st[L.PARTNER]
    if count == 0 or partner < 0 or partner == declarer:
        return
    returns_called = tb[tb[O_RETURNS_CALLED] + contract] != 0
    called = st[L.CALLED]
    cards = tb[T.H_CARDS]
    while st[X_RETURNED_N] < count:
        giving = st[X_GIVEN_N] < count
        seat = declarer if giving else partner
        hand = st[L.HANDS + seat]
        st[L.TO_MOVE] = seat
        if returns_called and not giving and called >= 0 and (hand >> called) & 1:
            card = called
            choose_among(mt, 1, OFFER_GIVE, 1 << called)
        else:
            k = choose_among(mt, _count(hand, cards), OFFER_GIVE, hand)
            card = _nth(hand, k, cards)
        st[L.ACTIONS] += 1
        st[L.HANDS + seat] = hand & ~(1 << card)
        if giving:
            st[X_GIVEN + st[X_GIVEN_N]] = card
            st[X_GIVEN_N] += 1
        else:
            st[X_RETURNED + st[X_RETURNED_N]] = card
            st[X_RETURNED_N] += 1
    for i in range(count):
        st[L.HANDS + partner] |= 1 << st[X_GIVEN + i]
        st[L.HANDS + declarer] |= 1 << st[X_RETURNED + i]


@native
def _count(hand: int, cards: int) -> int:
    """How many cards ``hand`` holds."""
    n = 0
    for c in range(cards):
        n += (hand >> c) & 1
    return n


@native
def _nth(hand: int, k: int, cards: int) -> int:
    """The ``k``-th card of ``hand`` in deck order."""
    for c in range(cards):
        if (hand >> c) & 1:
            if k == 0:
                return c
            k -= 1
    return L.NONE


def part_to_arrays(state: State, st: npt.NDArray[np.int64]) -> None:
    """Fill the block ``MECH_EXCHANGE`` from the state's exchange record (nothing without an exchange phase)."""
    record: Exchange | None = state.part(Phase.EXCHANGE)
    if record is None:
        return
    if max(len(record.given), len(record.returned)) > MAX_EXCHANGE:
        raise T.Unsupported(f"an exchange of more than {MAX_EXCHANGE} cards")
    st[X_GIVEN_N] = len(record.given)
    st[X_RETURNED_N] = len(record.returned)
    for i, card in enumerate(record.given):
        st[X_GIVEN + i] = card
    for i, card in enumerate(record.returned):
        st[X_RETURNED + i] = card
