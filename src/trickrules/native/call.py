"""Calling a card, natively: the declarer calls a card and its holder becomes the partner (the engine's ``call``).

:func:`export` writes the calling rules (the ranks that may be called, the
fallback ranks, whether one's own card or a trump may be called, whether the
call is public) and each contract's call flags; :func:`run` plays the call of
a deal with the random bot, as :mod:`trickrules.engine.phases.call` does
(the callable cards in the order of ``callable_cards``, one draw); :func:`on_card`
is the mechanism's ``on_card`` hook for the play loop (the called card played
while its holder is secret makes the partnership known); :func:`start` resets
the record at a new deal (the mechanism's ``start``).

The record lives in ``CALLED`` (the card called, ``NONE`` before) and the
block ``MECH_CALL``: ``C_REVEALED`` (1 once the partner is publicly known).
The engine's ``Tally.watched`` bit of the called card is "called and not revealed".
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.engine.game import Game
from trickrules.engine.phases.call import Call
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import layout as L
from trickrules.native import tables as T
from trickrules.native.jit import native, native_alloc
from trickrules.native.mt import OFFER_CALL, choose_listed

__all__ = ["C_REVEALED", "callable_cards", "export", "on_card", "part_to_arrays", "reveal", "run", "start"]

# -- the header words (HM_CALL .. +7) ---------------------------------------------------------------------
#: 1 when the game has the call phase.
H_ON = T.HM_CALL + 0
#: The ranks that may be called, as a mask of rank indices.
H_RANKS = T.HM_CALL + 1
#: The fallback ranks (holding every callable card), as a mask of rank indices.
H_FALLBACK = T.HM_CALL + 2
#: The calling rules' flags (``F_*``).
H_FLAGS = T.HM_CALL + 3
#: The cards that are trumps whatever the trump suit (``Tables.always_trumps``).
H_ALWAYS = T.HM_CALL + 4
#: Block: per contract, ``1`` if it calls a card, ``+ 2`` if its call is public.
O_CONTRACT = T.HM_CALL + 5

F_OWN = 1
F_REPLACES = 2
F_OWN_FALLBACK = 4
F_TRUMP_FALLBACK = 8
F_TRUMP = 16
F_TRUMP_FORCED = 32
F_PUBLIC = 64

# -- the block (MECH_CALL) -------------------------------------------------------------------------------
#: 1 once the called card's holder is publicly known.
C_REVEALED = L.MECH_CALL + 0


def export(game: Game, b: T.Builder) -> None:
    """Write the calling rules into ``b`` (nothing if the game has no call phase).

    Raises :class:`~trickrules.native.tables.Unsupported` where a called card
    might be in nobody's hand (not every card is dealt), or a rank index does not fit a mask.
    """
    t = game.tables
    if Phase.CALL not in t.phases:
        return
    rules = t.rules
    if rules.hand_size * t.players != t.cards.size:
        raise T.Unsupported("a call where not every card is dealt (the called card may be in nobody's hand)")
    if any(r > 62 for r in (*rules.call_ranks, *rules.call_fallback_ranks)):
        raise T.Unsupported("a callable rank index past 62")
    flags = (
        F_OWN * rules.call_allow_own
        | F_REPLACES * rules.call_fallback_replaces
        | F_OWN_FALLBACK * rules.call_allow_own_fallback
        | F_TRUMP_FALLBACK * rules.call_allow_trump_fallback
        | F_TRUMP * rules.call_allow_trump
        | F_TRUMP_FORCED * rules.call_allow_trump_forced
        | F_PUBLIC * rules.call_public
    )
    b.number(H_ON, 1)
    b.number(H_RANKS, sum(1 << r for r in set(rules.call_ranks)))
    b.number(H_FALLBACK, sum(1 << r for r in set(rules.call_fallback_ranks)))
    b.number(H_FLAGS, flags)
    b.number(H_ALWAYS, T.word(t.always_trumps))
    b.block(O_CONTRACT, (int(c.call) | 2 * int(c.public_call) for c in rules.contracts))


@native
def start(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64]) -> None:
    """A new deal's call record: nothing called, nothing revealed."""
    st[L.CALLED] = L.NONE
    for i in range(16):
        st[L.MECH_CALL + i] = 0


@native
def _pick(
    tb: npt.NDArray[np.int64],
    ranks: int,
    own: bool,
    allow_trump: bool,
    hand: int,
    trumps: int,
    out: npt.NDArray[np.int64],
    n: int,
) -> tuple[int, bool]:
    """``callable_cards``' ``pick``: append the cards of ``ranks`` to ``out[n:]``; the new count, and all held."""
    rank_of = tb[T.O_RANK]
    all_held = True
    for c in range(tb[T.H_CARDS]):
        if not (ranks >> tb[rank_of + c]) & 1:
            continue
        if not allow_trump and (trumps >> c) & 1:
            continue
        held = (hand >> c) & 1 != 0
        all_held = all_held and held
        if held and not own:
            continue
        out[n] = c
        n += 1
    return n, all_held


@native_alloc
def callable_cards(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
    """The cards the declarer may call, in the engine's order, into ``out``; how many."""
    hand = st[L.HANDS + st[L.DECLARER]]
    row = st[L.TRUMP_ROW]
    trump_mask = tb[tb[T.O_TRUMP_MASK] + row] if row >= 0 else 0
    # Before trumps are named, only the cards promoted whatever the trump suit are sure trumps.
    trumps = trump_mask if row >= 0 else tb[H_ALWAYS]
    flags = tb[H_FLAGS]
    ok = (flags & F_TRUMP_FORCED) != 0 if st[L.FORCED] else (flags & F_TRUMP) != 0
    n, all_held = _pick(tb, tb[H_RANKS], (flags & F_OWN) != 0, ok, hand, trumps, out, 0)
    fallback = tb[H_FALLBACK]
    if all_held and fallback:
        own_fb = (flags & F_OWN_FALLBACK) != 0
        trump_fb = (flags & F_TRUMP_FALLBACK) != 0
        extra = np.empty(tb[T.H_CARDS], dtype=np.int64)
        m, _ = _pick(tb, fallback, own_fb, trump_fb, hand, trumps, extra, 0)
        if flags & F_REPLACES:
            n = 0
        for i in range(m):
            seen = False
            for j in range(n):
                if out[j] == extra[i]:
                    seen = True
                    break
            if not seen:
                out[n] = extra[i]
                n += 1
    if n == 0:
        rank_of = tb[T.O_RANK]
        either = tb[H_RANKS] | fallback
        for c in range(tb[T.H_CARDS]):
            if (hand >> c) & 1 and (either >> tb[rank_of + c]) & 1 and not (trump_mask >> c) & 1:
                out[n] = c
                n += 1
    return n


@native_alloc
def run(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], mt: npt.NDArray[np.int64]) -> None:
    """The call of the current deal, if due: the declarer calls a card at random; its holder is the partner."""
    if tb[H_ON] == 0:
        return
    contract = st[L.CONTRACT]
    if contract < 0 or (tb[tb[O_CONTRACT] + contract] & 1) == 0 or st[L.CALLED] != L.NONE:
        return
    out = np.empty(tb[T.H_CARDS], dtype=np.int64)
    n = callable_cards(tb, st, out)
    st[L.TO_MOVE] = st[L.DECLARER]
    card = out[choose_listed(mt, n, OFFER_CALL, out, False, 0)]
    st[L.ACTIONS] += 1
    partner = 0
    for s in range(tb[T.H_PLAYERS]):
        if (st[L.HANDS + s] >> card) & 1:
            partner = s
            break
    st[L.PARTNER] = partner
    st[L.CALLED] = card
    public = (tb[H_FLAGS] & F_PUBLIC) != 0 or (tb[tb[O_CONTRACT] + contract] & 2) != 0
    st[C_REVEALED] = 1 if public else 0


@native
def on_card(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], card: int) -> None:
    """A card played: the called card, while its holder is secret, makes the partnership known.

    (The engine's ``on_card`` hook, which runs for a watched card: the called
    card of a secret call. ``PARTNER`` is already the holder; only the record changes.)
    """
    if tb[H_ON] != 0 and card == st[L.CALLED] and st[C_REVEALED] == 0:
        st[C_REVEALED] = 1


@native
def reveal(st: npt.NDArray[np.int64]) -> None:
    """The partner of the called card made public (the engine's ``call.reveal``)."""
    st[C_REVEALED] = 1


def part_to_arrays(state: State, st: npt.NDArray[np.int64]) -> None:
    """Fill ``CALLED`` and the block ``MECH_CALL`` from the state's call record (nothing without a call phase)."""
    record: Call | None = state.part(Phase.CALL)
    if record is None:
        st[L.CALLED] = L.NONE
        return
    st[L.CALLED] = L.NONE if record.called is None else record.called
    st[C_REVEALED] = int(record.revealed)
