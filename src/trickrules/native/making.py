"""Making trumps round the table natively: Euchre's ``making``, ``discard`` and ``alone`` phases.

Three run functions play the three phases of a game whose trumps are made
round the table (``trump.chosen_by = "made"``) with a uniform random bot at
every seat, action for action as the engine's mechanisms offer them
(:mod:`trickrules.engine.phases.making`, ``.discard`` and ``.alone``), one
draw per decision:

- :func:`run_making`: each round of ``making.rounds`` goes once round the
  table from the eldest hand; a seat passes (offered first, except to the
  dealer at his last turn with ``dealer_must_name``) or makes trumps in a
  suit the round allows (the turned card's, the others, or any), in suit
  order, and becomes the declarer; the dealer takes the turned card up where
  it is accepted and ``taken_by = "dealer"``. When everyone has passed in
  every round the deal is thrown in: ``REDEAL`` 2 with ``all_pass =
  "next_dealer"`` (the deal counts as played and the next dealer deals; the
  driver ends the deal as the engine's ``deal_end.pass_out``), else
  ``REDEAL`` 1 and ``SHUFFLE`` + 1 (the same dealer deals the same deal
  number again, from the next shuffle).
- :func:`run_discard`: the dealer who took the turned card discards one card
  of his hand (not the turned card unless ``discard_turned``), in deck order.
- :func:`run_alone`: the maker (with ``making.alone``), then each defender in
  turn from the eldest hand (with ``making.defend_alone``) passes or goes
  alone (``pass`` first); a seat going alone has its partner sit out
  (``SEATS_OUT``); a defender going alone ends the asking.

Each run does nothing where its phase is not due (the engine's ``due``),
and goes on from the record where its phase is under way. The seat to move
and the first leader after a phase are the next phase's to set (``TO_MOVE``
holds the last seat that decided). The three records live in
``MECH_MAKING`` (``K_*`` words); ``K_DEAL`` holds ``SHUFFLE + 1`` of the
deal they belong to, and a run that finds another deal's records there
starts them afresh (every shuffle number is a new deal).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.compile.modes import MakingRound
from trickrules.engine.game import Game
from trickrules.engine.phases import alone as engine_alone
from trickrules.engine.phases import discard as engine_discard
from trickrules.engine.phases import making as engine_making
from trickrules.engine.phases.alone import Alone
from trickrules.engine.phases.deal import dealing
from trickrules.engine.phases.discard import Discard
from trickrules.engine.phases.making import Made
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import layout as L
from trickrules.native import tables as T
from trickrules.native.jit import native
from trickrules.native.mt import OFFER_ALONE, OFFER_DISCARD, OFFER_TRUMP, choose_among
from trickrules.native.scoring_tables import B_ERROR, E_DEAD_END
from trickrules.native.tables import Builder, Unsupported

__all__ = [
    "K_ASKED",
    "K_DEAL",
    "K_DISCARDED",
    "K_DONE",
    "K_SPOKEN",
    "K_TAKEN",
    "export",
    "part_to_arrays",
    "run_alone",
    "run_discard",
    "run_making",
]

# -- header words (HM_MAKING .. + 15) ----------------------------------------------------------------------
_PRESENT = T.HM_MAKING + 0  # 1 when the game makes trumps round the table
_ROUNDS = T.HM_MAKING + 1  # how many rounds of making there are
_O_ROUNDS = T.HM_MAKING + 2  # block: [round] -> its kind (_TURNED, _OTHERS, _ANY)
_TAKEN_BY_DEALER = T.HM_MAKING + 3  # the dealer takes up the accepted turned card and discards
_DISCARD_TURNED = T.HM_MAKING + 4  # that discard may be the turned card itself
_MUST_NAME = T.HM_MAKING + 5  # stick the dealer: no pass at the last turn of the last round
_REDEAL_NEXT = T.HM_MAKING + 6  # everyone passed: thrown in to the next dealer (else the same dealer redeals)
_ALONE = T.HM_MAKING + 7  # the maker may go alone
_DEFEND_ALONE = T.HM_MAKING + 8  # then each defender may defend alone
_O_PARTNERS = T.HM_MAKING + 9  # block: [seat] -> the mask of its partners (who sit out when it goes alone)

# The kinds of round (MakingRound), as the block _O_ROUNDS holds them.
_TURNED = 0
_OTHERS = 1
_ANY = 2
_KINDS = {MakingRound.TURNED: _TURNED, MakingRound.OTHERS: _OTHERS, MakingRound.ANY: _ANY}

# -- the block (MECH_MAKING .. + 31): the engine's Made, Discard and Alone records ---------------------------
K_DEAL = L.MECH_MAKING + 0  # SHUFFLE + 1 of the deal the records below belong to (0: none yet)
K_SPOKEN = L.MECH_MAKING + 1  # Made.spoken: how many times a seat has spoken in the making
K_TAKEN = L.MECH_MAKING + 2  # Discard.taken: the dealer took up the turned card
K_DISCARDED = L.MECH_MAKING + 3  # Discard.discarded: the cards discarded (mask)
K_ASKED = L.MECH_MAKING + 4  # Alone.asked: how many seats have been asked to go alone
K_DONE = L.MECH_MAKING + 5  # Alone.done: a defender went alone, the asking is over


def export(game: Game, b: Builder) -> None:
    """Write the making's tables into ``b`` (only ``PRESENT = 0`` where trumps are not made round the table).

    Raises :class:`Unsupported` for a mechanism choosing for another seat and
    for a making, discard or alone phase that is not the engine's built-in one.
    """
    making = game.rules.making
    if making is None:
        b.number(_PRESENT, 0)
        return
    if game.chooser_hooks:
        raise Unsupported("a mechanism that chooses for another seat")
    builtin = {Phase.MAKING: engine_making, Phase.DISCARD: engine_discard, Phase.ALONE: engine_alone}
    for phase, module in builtin.items():
        found = game.mechanisms.get(phase)
        if found is not None and found is not module.MECHANISM:
            raise Unsupported(f"a {phase} phase other than the engine's")
    n = game.players
    partners = [0] * n
    if making.alone or making.defend_alone:
        team_of = game.tables.team_of
        for seat in range(n):
            for s in game.rules.teams[team_of[seat]]:
                if s != seat:
                    partners[seat] |= 1 << s
    b.number(_PRESENT, 1)
    b.number(_ROUNDS, len(making.rounds))
    b.block(_O_ROUNDS, (_KINDS[kind] for kind in making.rounds))
    b.number(_TAKEN_BY_DEALER, making.taken_by_dealer)
    b.number(_DISCARD_TURNED, making.discard_turned)
    b.number(_MUST_NAME, making.dealer_must_name)
    b.number(_REDEAL_NEXT, making.redeal_next)
    b.number(_ALONE, making.alone)
    b.number(_DEFEND_ALONE, making.defend_alone)
    b.block(_O_PARTNERS, partners)


def part_to_arrays(state: State, st: npt.NDArray[np.int64]) -> None:
    """Fill the making's block of ``st`` (and ``TURNED``) from the engine's records of ``state``'s deal."""
    game = state.game
    d = state.deal
    if not d.parts:
        return
    deal = dealing(d)
    st[L.TURNED] = L.NONE if deal.turned is None else deal.turned
    st[K_DEAL] = deal.shuffle + 1
    if Phase.MAKING in game.slot:
        made: Made = d.parts[game.slot[Phase.MAKING]]
        st[K_SPOKEN] = made.spoken
    if Phase.DISCARD in game.slot:
        taken: Discard = d.parts[game.slot[Phase.DISCARD]]
        st[K_TAKEN] = taken.taken
        st[K_DISCARDED] = T.word(taken.discarded)
    if Phase.ALONE in game.slot:
        asked: Alone = d.parts[game.slot[Phase.ALONE]]
        st[K_ASKED] = asked.asked
        st[K_DONE] = asked.done


@native
def _own(st: npt.NDArray[np.int64]) -> None:
    """Start the records afresh where they belong to another deal than the current one."""
    if st[K_DEAL] != st[L.SHUFFLE] + 1:
        st[K_DEAL] = st[L.SHUFFLE] + 1
        st[K_SPOKEN] = 0
        st[K_TAKEN] = 0
        st[K_DISCARDED] = 0
        st[K_ASKED] = 0
        st[K_DONE] = 0


@native
def run_making(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], mt: npt.NDArray[np.int64]) -> None:
    """Play the making of trumps round the table for the current deal (nothing once trumps are known)."""
    if not tb[_PRESENT] or st[L.TRUMP] != L.UNSET_TRUMP:
        return
    _own(st)
    n = tb[T.H_PLAYERS]
    nsuits = tb[T.H_SUITS]
    total = n * tb[_ROUNDS]
    dealer = st[L.DEALER]
    turned = st[L.TURNED]
    tsuit = tb[tb[T.O_SUIT] + turned] if turned >= 0 else -1
    spoken = st[K_SPOKEN]
    seat = (dealer + 1) % n if spoken == 0 else st[L.TO_MOVE]
    while True:
        st[L.TO_MOVE] = seat
        kind = tb[tb[_O_ROUNDS] + spoken // n]
        may_pass = 0 if tb[_MUST_NAME] and spoken == total - 1 else 1
        if kind == _ANY or turned < 0:
            suits = nsuits
        elif kind == _TURNED:
            suits = 1
        else:
            suits = nsuits - 1
        if may_pass + suits == 0:  # nothing is legal (the loader refuses the specs it can tell): the engine's error
            st[B_ERROR] = E_DEAD_END
            return
        if kind == _ANY or turned < 0:
            bits = ((np.int64(1) << nsuits) - 1) << 1
        elif kind == _TURNED:
            bits = np.int64(1) << (1 + tsuit)
        else:
            bits = (((np.int64(1) << nsuits) - 1) << 1) & ~(np.int64(1) << (1 + tsuit))
        k = choose_among(mt, may_pass + suits, OFFER_TRUMP, bits | may_pass)
        st[L.ACTIONS] += 1
        spoken += 1
        st[K_SPOKEN] = spoken
        if k < may_pass:  # pass
            if spoken < total:
                seat = tb[tb[T.O_NEXT_SEAT] + seat]  # the next seat with nobody out
                continue
            # Everyone passed in every round: the deal is thrown in.
            if tb[_REDEAL_NEXT]:
                st[L.REDEAL] = 2  # passed out: it counts as played, and the next dealer deals the next shuffle
            else:
                st[L.REDEAL] = 1
                st[L.SHUFFLE] += 1  # the same dealer deals the same deal number again, from the next shuffle
            return
        i = k - may_pass
        if kind == _ANY or turned < 0:
            suit = i
        elif kind == _TURNED:
            suit = tsuit
        else:
            suit = i if i < tsuit else i + 1
        st[L.TRUMP] = suit
        st[L.TRUMP_ROW] = tb[tb[T.O_ROW_OF_KEY] + suit - tb[T.H_NO_TRUMP]]
        st[L.DECLARER] = seat
        if kind == _TURNED and tb[_TAKEN_BY_DEALER] and turned >= 0:
            st[L.HANDS + dealer] |= np.int64(1) << turned  # the dealer takes the turned card up
            st[K_TAKEN] = 1
        return


@native
def run_discard(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], mt: npt.NDArray[np.int64]) -> None:
    """Play the dealer's discard after taking up the turned card (nothing where he took none or has discarded)."""
    if not tb[_PRESENT]:
        return
    _own(st)
    if not st[K_TAKEN] or st[K_DISCARDED] != 0:
        return
    dealer = st[L.DEALER]
    st[L.TO_MOVE] = dealer
    hand = st[L.HANDS + dealer]
    offered = hand
    turned = st[L.TURNED]
    if turned >= 0 and not tb[_DISCARD_TURNED]:
        offered &= ~(np.int64(1) << turned)
    count = 0
    for card in range(tb[T.H_CARDS]):
        if (offered >> card) & 1:
            count += 1
    k = choose_among(mt, count, OFFER_DISCARD, offered)
    st[L.ACTIONS] += 1
    for card in range(tb[T.H_CARDS]):
        if (offered >> card) & 1:
            if k == 0:
                bit = np.int64(1) << card
                st[L.HANDS + dealer] = hand & ~bit
                st[K_DISCARDED] |= bit
                return
            k -= 1


@native
def run_alone(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], mt: npt.NDArray[np.int64]) -> None:
    """Ask the maker, then the defenders, whether they go alone (nothing before trumps are made or once done)."""
    if not tb[_PRESENT] or st[L.DECLARER] < 0 or st[L.TRUMP] == L.UNSET_TRUMP:
        return
    _own(st)
    n = tb[T.H_PLAYERS]
    declarer = st[L.DECLARER]
    makers = tb[tb[T.O_TEAM] + declarer]
    while not st[K_DONE]:
        k = st[K_ASKED]
        seat = -1
        if tb[_ALONE]:
            if k == 0:
                seat = declarer
            k -= 1
        if seat < 0 and tb[_DEFEND_ALONE]:
            for j in range(n):  # the defenders in turn from the eldest hand
                s = (st[L.DEALER] + 1 + j) % n
                if tb[tb[T.O_TEAM] + s] != makers:
                    if k == 0:
                        seat = s
                        break
                    k -= 1
        if seat < 0:
            return  # everyone has been asked
        st[L.TO_MOVE] = seat
        goes = choose_among(mt, 2, OFFER_ALONE, 3)  # pass, alone
        st[L.ACTIONS] += 1
        if goes:
            st[L.SEATS_OUT] |= tb[tb[_O_PARTNERS] + seat]
        st[K_ASKED] += 1
        st[K_DONE] = 1 if goes and seat != declarer else 0
