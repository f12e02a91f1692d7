"""The auction natively: every seat bids a contract of the ladder or passes, as the engine's auction.

:func:`run` plays phase ``bidding`` (:mod:`trickrules.engine.phases.auction`)
for the current deal with a uniform random bot at every seat: the offered
actions are the engine's, in its order (pass, then every contract from the
lowest allowed up the ladder that the seat's dealt hand and the contract's
``eligible`` rule allow), one draw per decision. It ends as the engine does:
the contract won (``CONTRACT``, ``DECLARER``, ``SEATS_OUT`` where the
partner sits out, ``TRUMP`` = no trump where the contract names none), the
contract forced on the holder of a card (``FORCED``), a play without
contract, or a redeal (``REDEAL`` 1: the same dealer deals the next shuffle;
``REDEAL`` 2: the deal is passed out, counts as played, and the next dealer
deals; the driver then ends the deal as the engine's ``deal_end.pass_out``).

A contract's ``eligible`` rule is evaluated once per deal: where it depends
on nothing that changes (no ``score``, ``opp_score``, ``deal``, ``pot`` or
``extra_deal``) at export, as a mask of the contracts eligible; otherwise
:func:`export` raises :class:`~trickrules.native.tables.Unsupported` unless
``eligibility_given`` (then :func:`run` reads the mask of each seat from
``st[MECH_AUCTION + A_ELIG + seat]``, which the caller fills before, as the
tests do from the engine, and a native formula evaluator will).

The block holds the engine's record of the auction, marked with the deal
it belongs to (``A_STAMP``): a block of another deal, or cleared, is taken
as the fresh record of a new deal, so the driver need not clear it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.compile.contracts import CompiledContract
from trickrules.compile.modes import AllPass, AuctionForm, ContractSide, TrumpChooser
from trickrules.compile.rules import Rules
from trickrules.engine.game import Game
from trickrules.engine.phases.auction import Auction
from trickrules.engine.scoring import is_eligible
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import layout as L
from trickrules.native import tables as T
from trickrules.native.jit import native, native_alloc
from trickrules.native.mt import OFFER_BID, choose_among
from trickrules.native.tables import Builder, Unsupported, word

__all__ = [
    "A_BIDDER",
    "A_ELIG",
    "A_FORCED",
    "A_HIGH",
    "A_OVER",
    "A_PASSED",
    "A_SPOKEN",
    "A_STAMP",
    "export",
    "part_to_arrays",
    "run",
    "stamp",
]

# -- header words (HM_AUCTION .. + 15) ---------------------------------------------------------------------
_PRESENT = T.HM_AUCTION + 0  # 1 when the game has an auction
_COUNT = T.HM_AUCTION + 1  # how many contracts the ladder has
_FORM = T.HM_AUCTION + 2  # 0 once_around, 1 until_passes, 2 until_consecutive_passes
_HOLD = T.HM_AUCTION + 3  # earlier_may_hold
_ALL_PASS = T.HM_AUCTION + 4  # 0 redeal, 1 forced, 2 play
_REDEAL_NEXT = T.HM_AUCTION + 5  # a redeal passes the deal out to the next dealer
_AP_CONTRACT = T.HM_AUCTION + 6  # the contract forced when everyone passes
_AP_HOLDER = T.HM_AUCTION + 7  # the card whose holder it is forced on
_DYNAMIC = T.HM_AUCTION + 8  # 1: the eligible masks are read from st (A_ELIG), filled by the caller
_ELIG = T.HM_AUCTION + 9  # the mask of the contracts eligible (constant rules)
_O_CONTRACTS = T.HM_AUCTION + 10  # block: [contract, _C_*]
_O_SITTER = T.HM_AUCTION + 11  # block: [seat] -> the partner who sits out when it declares (NONE: none)

# The contract rows (_C_SIZE words each).
_C_REQUIRES = 0  # the cards the bidder must have been dealt (mask)
_C_SITS_OUT = 1  # the declarer's partner sits out
_C_NO_TRUMP = 2  # the contract names no trump (trump_by = none)
_C_SIZE = 3

# -- the block (MECH_AUCTION .. + 63): the engine's Auction record, then the eligible masks -------------------
A_HIGH = L.MECH_AUCTION + 0  # the highest contract bid (NONE: none)
A_BIDDER = L.MECH_AUCTION + 1  # its bidder (NONE: none)
A_PASSED = L.MECH_AUCTION + 2  # the seats that passed (mask)
A_SPOKEN = L.MECH_AUCTION + 3  # how many times a seat has spoken
A_OVER = L.MECH_AUCTION + 4
A_FORCED = L.MECH_AUCTION + 5
#: Which deal the record is of (:func:`stamp`): a record of another deal is a fresh one (as the engine's ``start``).
A_STAMP = L.MECH_AUCTION + 6
A_ELIG = L.MECH_AUCTION + 8  # [seat] -> the mask of the contracts the seat may bid by their eligible rules

_FORMS = {AuctionForm.ONCE_AROUND: 0, AuctionForm.UNTIL_PASSES: 1, AuctionForm.UNTIL_CONSECUTIVE_PASSES: 2}
_ALL_PASSES = {AllPass.REDEAL: 0, AllPass.FORCED: 1, AllPass.PLAY: 2}
#: What an ``eligible`` rule may read that changes from deal to deal or seat to seat.
_VARYING = frozenset(("score", "opp_score", "deal", "pot", "extra_deal"))
#: What it may read that is the same in every deal (``scoring.deal_constants``).
_CONSTANT = frozenset(("players", "tricks_total", "ante", "target", "no_contract", "no_trump", "forced"))


def varying_names(rules: Rules, contract: CompiledContract) -> frozenset[str] | None:
    """What of :data:`_VARYING` the contract's ``eligible`` rule depends on (through the vars); None: undefined."""
    deps: dict[str, frozenset[str]] = {name: frozenset((name,)) for name in _VARYING}
    deps.update((name, frozenset()) for name in _CONSTANT)
    for name, formula in (*rules.vars, *contract.vars):
        if formula.variables <= deps.keys():  # as eligibility_env: a var is defined where its variables are
            deps[name] = frozenset().union(*(deps[v] for v in formula.variables))
    eligible = contract.eligible
    assert eligible is not None
    if not eligible.variables <= deps.keys():
        return None
    return frozenset().union(*(deps[v] for v in eligible.variables))


def export(game: Game, b: Builder, *, eligibility_given: bool = False) -> None:
    """Write the auction's tables into ``b`` (nothing but ``PRESENT = 0`` where the game has no auction).

    Raises :class:`Unsupported` for a ladder past 62 contracts, a mechanism
    choosing for another seat, and an ``eligible`` rule that changes from
    deal to deal (unless ``eligibility_given``: the caller fills ``A_ELIG``).
    """
    if Phase.BIDDING not in game.slot:
        b.number(_PRESENT, 0)
        return
    if game.chooser_hooks:
        raise Unsupported("a mechanism that chooses for another seat")
    rules = game.rules
    t = game.tables
    n = rules.players
    contracts = rules.contracts
    if not contracts or len(contracts) > 62:
        raise Unsupported(f"an auction of {len(contracts)} contracts")
    if rules.auction not in _FORMS:
        raise Unsupported(f"the auction form {rules.auction!s}")
    if any(c.trumps is not None for c in contracts):
        raise Unsupported("a contract that fixes its trumps")
    constant = 0
    dynamic = False
    state: State | None = None
    for c in contracts:
        if c.eligible is None:
            constant |= 1 << c.index
            continue
        names = varying_names(rules, c)
        if names is None:
            raise Unsupported(f"the eligible rule of {c.name} reads a variable unknown before the play")
        if names:
            if not eligibility_given:
                raise Unsupported(f"the eligible rule of {c.name} reads {', '.join(sorted(names))}")
            dynamic = True
            continue
        if state is None:
            state = game.new_match(seed=0)
        if is_eligible(state, 0, c):
            constant |= 1 << c.index
    if rules.second_speaks_first or rules.last_bid or rules.eldest_only:
        raise Unsupported("an auction opened after the eldest, ended by a last bid, or with contracts for the eldest")
    b.number(_PRESENT, 1)
    b.number(_COUNT, len(contracts))
    b.number(_FORM, _FORMS[rules.auction])
    b.number(_HOLD, rules.earlier_may_hold)
    b.number(_ALL_PASS, _ALL_PASSES[rules.all_pass])
    b.number(_REDEAL_NEXT, rules.all_pass_redeal_next)
    b.number(_AP_CONTRACT, rules.all_pass_contract)
    b.number(_AP_HOLDER, rules.all_pass_holder)
    b.number(_DYNAMIC, dynamic)
    b.number(_ELIG, word(constant))
    rows: list[int] = []
    for c in contracts:
        rows += [word(c.requires_mask), c.side is ContractSide.PARTNER_SITS_OUT, c.trump_by is TrumpChooser.NONE]
    b.block(_O_CONTRACTS, rows)
    sitter = []
    for seat in range(n):
        if rules.teams:
            team = rules.teams[t.team_of[seat]]
            sitter.append(next((s for s in team if s != seat), L.NONE))
        else:
            sitter.append(L.NONE)
    if any(c.side is ContractSide.PARTNER_SITS_OUT for c in contracts) and L.NONE in sitter:
        raise Unsupported("a contract whose partner sits out, for a seat without a partner")
    b.block(_O_SITTER, sitter)


def part_to_arrays(state: State, st: npt.NDArray[np.int64]) -> None:
    """Fill the auction's block of ``st`` from the engine's record (and the eligible masks of ``state``)."""
    record: Auction | None = state.part(Phase.BIDDING)
    if record is None:
        return
    st[A_STAMP] = stamp(state.deal.number, state.deal.parts[0].shuffle)
    st[A_HIGH] = L.NONE if record.high is None else record.high
    st[A_BIDDER] = L.NONE if record.bidder is None else record.bidder
    st[A_PASSED] = record.passed
    st[A_SPOKEN] = record.spoken
    st[A_OVER] = record.over
    st[A_FORCED] = record.forced
    st[L.FORCED] = record.forced
    for seat in range(state.game.players):
        st[A_ELIG + seat] = eligible_mask(state, seat)


def eligible_mask(state: State, seat: int) -> int:
    """The mask of the contracts ``seat`` may bid in ``state``'s deal by their ``eligible`` rules (the engine's)."""
    mask = 0
    for c in state.game.rules.contracts:
        if is_eligible(state, seat, c):
            mask |= 1 << c.index
    return mask


@native
def stamp(number: int, shuffle: int) -> int:
    """The mark of deal ``number`` dealt from shuffle ``shuffle`` (never 0, the mark of a cleared block)."""
    return number * 1048576 + shuffle + 1


@native
def _won(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], declarer: int, contract: int, forced: int) -> None:
    """The contract won (or forced): the deal's contract, declarer, seats out and trump, as ``_contract_won``."""
    row = tb[_O_CONTRACTS] + contract * _C_SIZE
    st[L.CONTRACT] = contract
    st[L.DECLARER] = declarer
    st[L.FORCED] = forced
    st[A_FORCED] = forced
    st[L.SEATS_OUT] = (1 << tb[tb[_O_SITTER] + declarer]) if tb[row + _C_SITS_OUT] else 0
    if st[L.TRUMP] == L.UNSET_TRUMP and tb[row + _C_NO_TRUMP]:
        key = tb[T.H_NO_TRUMP]
        st[L.TRUMP] = key
        st[L.TRUMP_ROW] = tb[tb[T.O_ROW_OF_KEY] + key - tb[T.H_NO_TRUMP]]


@native_alloc
def run(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], mt: npt.NDArray[np.int64]) -> None:
    """Play the deal's auction, every seat random, and leave ``st`` as the engine leaves the bidding."""
    if not tb[_PRESENT]:
        return
    mark = stamp(st[L.NUMBER], st[L.SHUFFLE])
    if st[A_STAMP] != mark:  # a new deal (or a dealing again): a fresh record, as the engine's start
        st[A_STAMP] = mark
        st[A_HIGH], st[A_BIDDER], st[A_PASSED], st[A_SPOKEN], st[A_OVER], st[A_FORCED] = L.NONE, L.NONE, 0, 0, 0, 0
    if st[A_OVER]:
        return
    n = tb[T.H_PLAYERS]
    count = tb[_COUNT]
    form = tb[_FORM]
    rows = tb[_O_CONTRACTS]
    next_seat = tb[T.O_NEXT_SEAT]  # the row of nobody out: next_seat[0]
    if not tb[_DYNAMIC]:
        for s in range(n):
            st[A_ELIG + s] = tb[_ELIG]
    eldest = (st[L.DEALER] + 1) % n
    high, bidder, passed, spoken = st[A_HIGH], st[A_BIDDER], st[A_PASSED], st[A_SPOKEN]
    offered = np.empty(64, dtype=np.int64)
    seat = eldest if spoken == 0 else st[L.TO_MOVE]  # an auction under way goes on with the seat to move
    while True:
        st[L.TO_MOVE] = seat
        lowest = 0
        if high >= 0:
            lowest = high + 1
            if tb[_HOLD] and bidder >= 0 and (seat - eldest) % n < (bidder - eldest) % n:
                lowest = high
        dealt = st[L.DEALT + seat]
        elig = st[A_ELIG + seat]
        k = 0
        bits = np.int64(1)  # a pass, then each contract offered
        for c in range(lowest, count):
            if tb[rows + c * _C_SIZE + _C_REQUIRES] & ~dealt:
                continue
            if not (elig >> c) & 1:
                continue
            offered[k] = c
            bits |= np.int64(1) << (c + 1)
            k += 1
        pick = choose_among(mt, k + 1, OFFER_BID, int(bits))
        st[L.ACTIONS] += 1
        if pick == 0:
            passed |= 1 << seat
        else:
            high = offered[pick - 1]
            bidder = seat
            if form == 2:
                passed = 0
        spoken += 1
        if form == 0:
            over = spoken >= n
        elif form == 2:
            npassed = 0
            for s in range(n):
                npassed += (passed >> s) & 1
            over = npassed >= (n - 1 if high >= 0 else n)
        else:
            active = ((1 << n) - 1) & ~passed
            over = active == 0 or (bidder >= 0 and active == 1 << bidder)
        if over:
            break
        seat = tb[next_seat + seat]
        if form == 1:
            while (passed >> seat) & 1:
                seat = tb[next_seat + seat]
    st[A_HIGH], st[A_BIDDER], st[A_PASSED], st[A_SPOKEN], st[A_OVER] = high, bidder, passed, spoken, 1
    if high >= 0:
        _won(tb, st, bidder, high, 0)
    else:
        _all_passed(tb, st)


@native
def _all_passed(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64]) -> None:
    """What follows an auction everyone passed: a forced contract, the play without one, or a redeal."""
    n = tb[T.H_PLAYERS]
    all_pass = tb[_ALL_PASS]
    if all_pass == 1:
        holder = 0
        for s in range(n):
            if (st[L.DEALT + s] >> tb[_AP_HOLDER]) & 1:
                holder = s
                break
        _won(tb, st, holder, tb[_AP_CONTRACT], 1)
    elif all_pass == 0:
        if tb[_REDEAL_NEXT]:
            st[L.REDEAL] = 2  # passed out: the deal counts as played; the next dealer deals the next shuffle
        else:
            st[L.REDEAL] = 1
            st[L.SHUFFLE] += 1  # the same dealer deals the same deal number again, from the next shuffle
