"""A prototype of the native kernel (issue #26 item 2): a compiled game's card play in Numba, measured.

Run: ``python benchmarks/native_prototype.py [--quick] [--runs K] [GAME ...]`` (needs the ``native``
extra, ``pip install -e '.[native]'``; without Numba it says so and stops).

What it covers. :func:`export` turns a compiled game's tables (:class:`~trickrules.compile.tables.Tables`)
into NumPy arrays: cards as ints, card masks as 64-bit words, the play obligations' rule records
(:mod:`trickrules.compile.duties`) and the lead rules (:class:`~trickrules.compile.leads.LeadRules`)
as small ints. :func:`play_deals`, compiled by ``numba.njit(cache=True)``, plays many whole deals:

* the shuffle and the deal (Fisher-Yates, then the game's own ``deal_seats`` for the dealer, who
  turns with the deal number);
* the pass (each seat passes ``passing.cards`` random cards to the seat the cycle names), where the
  game passes;
* no auction: the trump key is drawn uniformly among those the spec allows (the one suit of
  ``chosen_by = "fixed"``, no trump for ``"none"``, else every suit and no trump if allowed), the
  declarer is a random seat and, in a game with a called card, the called card a random card of the
  calling ranks that is not a trump (its holder is the partner; the declarer's own card is allowed);
* the card play by uniform random choice among the legal cards: follow suit, every record of the
  duties (privileged cards, the called card's two duties, head the trick, trump when void, trump to
  beat, overtrump, no undertrump) and the lead rules (the first lead's card, a suit led only once
  broken, no points on the first trick), with their parameters; the trick's winner by ``led_power``
  (or by plain place where any suit wins);
* the tricks and cards each seat wins, and each seat's card points (Hearts' penalty points).

Not covered: bidding, announcements, declarations, the exchange, seats sitting out, early ends,
mechanisms, scoring formulas and the match. The random numbers are Numba's own generator
(NumPy's legacy Mersenne Twister seeded once per call), not the engine's; the engine's shuffle is
ported too (:func:`engine_shuffled`, checked against :func:`trickrules.engine.rng.shuffled`), and
``engine_rng`` plays each deal's shuffle with it, to show what agreeing deal for deal would cost.

What it measures, in one process, repetitions interleaved, medians: deals per second of the kernel,
of the engine's bulk path (``benchmarks/run.py``'s ``bulk_rate``: full rules, bidding and scoring),
and, for Hearts and Spades where OpenSpiel is installed, of OpenSpiel's C++ ``evaluate_bots`` with
uniform random bots and of OpenSpiel driven from Python; then, in fresh processes, ``import numba``
and the kernel's first call with an empty on-disk cache and with a warm one.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run  # found through the path above: bulk_rate, the engine's bulk path
from engine import OPENSPIEL, evaluate_bots_rate, openspiel_python_rate

import trickrules
from trickrules.compile.cards import NO_TRUMP, TRUMP_BASE
from trickrules.compile.duties import (
    CalledCardFollow,
    CalledCardLead,
    HeadTrick,
    NoUndertrump,
    Overtrump,
    PrivilegedExempt,
    TrumpToBeat,
    TrumpWhenVoid,
)
from trickrules.compile.modes import HeadTrickMode, OvertrumpIfUnable
from trickrules.engine.rng import mix, shuffled

try:  # the optional ``native`` extra; NumPy comes with it
    import numpy as np
    import numpy.typing as npt

    # By name at run time, so that mypy reads this file alike with the extra installed (Numba ships
    # types) and without it (CI's test environment).
    numba: ModuleType | None = importlib.import_module("numba")
except ImportError:
    numba = None

_F = TypeVar("_F", bound=Callable[..., Any])


def native(fn: _F) -> _F:
    """``numba.njit(cache=True)`` where Numba is installed (the compiled kernels are cached on disk)."""
    if numba is None:
        return fn
    compiled: _F = numba.njit(cache=True)(fn)
    return compiled


# -- the rule vector: the duty records' parameters as ints, by position ---------------------------

(
    R_FOLLOW,  # follow_suit
    R_PRIV,  # PrivilegedExempt present
    R_PRIV_SOLE,  # its ``sole``
    R_CALL_FOLLOW,  # CalledCardFollow present
    R_CALL_LEAD,  # CalledCardLead present (called_card with mode no_lead)
    R_HEAD,  # HeadTrick present
    R_HEAD_ALWAYS,  # its mode is ``always`` (else only on a trump lead)
    R_HEAD_RUFFED,  # its ``when_ruffed``
    R_HEAD_PE,  # its ``partner_exempt``
    R_VOID,  # 0 none, 1 TrumpWhenVoid, 2 TrumpToBeat, 3 Overtrump
    R_VOID_PE,  # TrumpWhenVoid's / TrumpToBeat's partner_exempt, Overtrump's trump_partner_exempt
    R_OVER_PE,  # Overtrump's partner_exempt
    R_OVER_TRUMP,  # Overtrump's if_unable is ``trump``
    R_NO_UNDER,  # NoUndertrump present
    R_ANY_SUIT,  # any suit wins a trick without trumps
    R_RESTRICTED,  # the lead rules apply
    R_FIRST_CARD,  # the first lead's card, or -1
    R_FIRST_ALLOWED,  # the cards its holder may lead
    R_UNBROKEN,
    R_BREAKERS,
    R_UNLESS_ONLY,
    R_FIRST_BARRED,
    R_PASS,  # cards passed by each seat (0: none)
    R_SIZE,
) = range(24)


class Exported(NamedTuple):
    """A game's tables as arrays for the kernel (masks are int64 words: bit ``c`` is card ``c``)."""

    name: str
    cards: int
    players: int
    tricks: int
    #: [dealer, position]: the seat that receives the card at each position of the shuffled deck.
    deal_seats: npt.NDArray[np.int64]
    #: Per trump key k (a row), as in TrumpData: the trump suit (-1: none), eff_suit, power,
    #: suit_masks, trump_mask, privileged, beats, led_power [k, suit led, card], plain_place.
    trump_suit: npt.NDArray[np.int64]
    eff: npt.NDArray[np.int64]
    power: npt.NDArray[np.int64]
    suit_masks: npt.NDArray[np.int64]
    trump_mask: npt.NDArray[np.int64]
    privileged: npt.NDArray[np.int64]
    beats: npt.NDArray[np.int64]
    led_power: npt.NDArray[np.int64]
    place: npt.NDArray[np.int64]
    #: The trump keys (rows) the prototype's "contract" draws from.
    choices: npt.NDArray[np.int64]
    #: Per trump key: the cards that may be called (0: the game calls no card).
    callable_: npt.NDArray[np.int64]
    points: npt.NDArray[np.int64]
    team: npt.NDArray[np.int64]
    pass_offsets: npt.NDArray[np.int64]
    rules: npt.NDArray[np.int64]


def _word(mask: int) -> int:
    """A card mask of at most 64 cards as a signed 64-bit word (bit 63 makes it negative)."""
    return mask - (1 << 64) if mask >> 63 else mask


def export(game: trickrules.Game) -> Exported:
    """The arrays of ``game``'s tables, its duty records and lead rules; ``ValueError`` past 64 cards."""
    t = game.tables
    size, n = t.cards.size, t.players
    if size > 64:
        raise ValueError(f"{game.name}: {size} cards do not fit a 64-bit mask (see the module's notes)")
    keys = sorted(t.trumps)
    nsuits = len(t.cards.suit_codes)
    data = [t.trumps[k] for k in keys]
    trump_spec = game.spec.trump
    if trump_spec.chosen_by == "fixed":
        allowed = [t.cards.suit(trump_spec.suit)]
    elif trump_spec.chosen_by == "none":
        allowed = [NO_TRUMP]
    else:
        allowed = [k for k in keys if k != NO_TRUMP or trump_spec.allow_none]
    calling = game.spec.calling.ranks if t.rules.play.following or t.rules.play.leading else ()
    callable_ = []
    for d in data:
        mask = 0
        for c in range(size):
            if t.cards.rank_codes[t.cards.rank_of[c]] in calling and d.power[c] < TRUMP_BASE:
                mask |= 1 << c
        callable_.append(_word(mask))
    pr, lr = t.rules.play, t.leads
    r = [0] * R_SIZE
    r[R_FOLLOW] = pr.follow_suit
    r[R_ANY_SUIT] = pr.any_suit_wins
    for lead in pr.leading:
        if not isinstance(lead, CalledCardLead):
            raise ValueError(f"{game.name}: no kernel for the record {lead!r}")
        r[R_CALL_LEAD] = 1
    for duty in pr.following:
        if isinstance(duty, PrivilegedExempt):
            r[R_PRIV], r[R_PRIV_SOLE] = 1, duty.sole
        elif isinstance(duty, CalledCardFollow):
            r[R_CALL_FOLLOW] = 1
        elif isinstance(duty, HeadTrick):
            r[R_HEAD], r[R_HEAD_ALWAYS] = 1, duty.mode is HeadTrickMode.ALWAYS
            r[R_HEAD_RUFFED], r[R_HEAD_PE] = duty.when_ruffed, duty.partner_exempt
    for void in pr.void:
        if isinstance(void, TrumpWhenVoid):
            r[R_VOID], r[R_VOID_PE] = 1, void.partner_exempt
        elif isinstance(void, TrumpToBeat):
            r[R_VOID], r[R_VOID_PE] = 2, void.partner_exempt
        elif isinstance(void, Overtrump):
            r[R_VOID], r[R_VOID_PE], r[R_OVER_PE] = 3, void.trump_partner_exempt, void.partner_exempt
            r[R_OVER_TRUMP] = void.if_unable is OvertrumpIfUnable.TRUMP
        elif isinstance(void, NoUndertrump):
            r[R_NO_UNDER] = 1
    r[R_RESTRICTED] = lr.restricted
    r[R_FIRST_CARD] = -1 if lr.first_card is None else lr.first_card
    r[R_FIRST_ALLOWED], r[R_UNBROKEN], r[R_BREAKERS] = map(_word, (lr.first_allowed, lr.unbroken, lr.breakers))
    r[R_UNLESS_ONLY], r[R_FIRST_BARRED] = _word(lr.unless_only), _word(lr.first_trick_barred)
    r[R_PASS] = t.passing.cards if t.passing.used else 0

    def arr(rows: object) -> npt.NDArray[np.int64]:
        return np.array(rows, dtype=np.int64)

    return Exported(
        name=game.name,
        cards=size,
        players=n,
        tricks=t.rules.hand_size,
        deal_seats=arr(t.deal_seats),
        trump_suit=arr(keys),
        eff=arr([d.eff_suit for d in data]),
        power=arr([d.power for d in data]),
        suit_masks=arr([[_word(m) for m in d.suit_masks] for d in data]),
        trump_mask=arr([_word(d.trump_mask) for d in data]),
        privileged=arr([_word(d.privileged) for d in data]),
        beats=arr([[_word(m) for m in d.beats] for d in data]),
        led_power=arr([[d.led_power[s] for s in range(nsuits)] for d in data]),
        place=arr([d.plain_place for d in data]),
        choices=arr([keys.index(k) for k in allowed]),
        callable_=arr(callable_),
        points=arr(t.cards.points),
        team=arr(t.team_of),
        pass_offsets=arr(t.passing.offsets or (0,)),
        rules=arr(r),
    )


# -- the kernel ----------------------------------------------------------------------------------

#: The de Bruijn sequence and table that find the index of a word's lowest set bit.
_DEBRUIJN = 0x03F79D71B4CB0A89
_LOW_INDEX = [0] * 64
for _i in range(64):
    _LOW_INDEX[(((1 << _i) * _DEBRUIJN) & ((1 << 64) - 1)) >> 58] = _i
LOW_INDEX = tuple(_LOW_INDEX)


@native
def low_card(mask: int, low_index: npt.NDArray[np.int64]) -> int:
    """The index of the lowest set bit of a non-zero word."""
    low = mask & -mask
    return int(low_index[((low * 0x03F79D71B4CB0A89) >> 58) & 63])


@native
def random_card(mask: int, low_index: npt.NDArray[np.int64]) -> int:
    """A uniform random card of ``mask`` (non-zero): the ``floor(random() * count)``-th in deck order."""
    count = 0
    m = mask
    while m:
        m &= m - 1
        count += 1
    k = int(np.random.random() * count)
    m = mask
    for _ in range(k):
        m &= m - 1
    return low_card(m, low_index)


@native
def winner_at(
    trick: npt.NDArray[np.int64], n: int, k: int, x_eff: npt.NDArray[np.int64], x_power: npt.NDArray[np.int64],
    x_led: npt.NDArray[np.int64], x_place: npt.NDArray[np.int64], any_suit: int,
) -> int:  # fmt: skip
    """The index of the card winning the first ``n`` cards of ``trick`` (``winner_index``)."""
    best = -2
    winner = 0
    if any_suit:
        trumped = False
        for i in range(n):
            if x_power[k, trick[i]] >= TRUMP_BASE:
                trumped = True
        if not trumped:
            for i in range(1, n):
                if x_place[k, trick[i]] < x_place[k, trick[winner]]:
                    winner = i
            return winner
        for i in range(n):
            if x_power[k, trick[i]] > best:
                best = x_power[k, trick[i]]
                winner = i
        return winner
    led = x_eff[k, trick[0]]
    for i in range(n):
        v = x_led[k, led, trick[i]]
        if v > best:
            best = v
            winner = i
    return winner


@native
def legal_cards(
    hand: int, trick: npt.NDArray[np.int64], n: int, leader: int, seat: int, first_trick: bool, played: int,
    k: int, partner: int, declarer: int, called: int, players: int, rules: npt.NDArray[np.int64],
    x_trump: npt.NDArray[np.int64], x_eff: npt.NDArray[np.int64], x_power: npt.NDArray[np.int64],
    x_suits: npt.NDArray[np.int64], x_trump_mask: npt.NDArray[np.int64], x_priv: npt.NDArray[np.int64],
    x_beats: npt.NDArray[np.int64], x_led: npt.NDArray[np.int64], x_place: npt.NDArray[np.int64],
    team: npt.NDArray[np.int64],
) -> int:  # fmt: skip
    """The cards ``seat`` may play (``kernel.mask_of``: ``legal_play_mask``, then ``leads_mask``)."""
    mask = hand
    bound = False  # bound to follow suit
    if n == 0:
        if rules[R_CALL_LEAD] and seat == partner and seat != declarer and called >= 0:
            bit = 1 << called
            if hand & bit and hand != bit:
                mask = hand & ~bit
    elif rules[R_FOLLOW]:
        trump = x_trump[k]
        led = x_eff[k, trick[0]]
        follow = hand & x_suits[k, led]
        if follow:
            bound = True
            mask = follow
            settled = False
            if rules[R_PRIV]:
                held = follow & x_priv[k]
                if held and led == trump:
                    exempt = held & x_beats[k, trick[0]]
                    if exempt and not follow & ~exempt and not (rules[R_PRIV_SOLE] and follow & (follow - 1)):
                        mask = hand
                        settled = True
            called_here = called >= 0 and (follow >> called) & 1 and called != trick[0]
            if not settled and rules[R_CALL_FOLLOW] and seat == partner and called_here:
                mask = 1 << called
                settled = True
            if not settled and rules[R_HEAD]:
                bi = winner_at(trick, n, k, x_eff, x_power, x_led, x_place, rules[R_ANY_SUIT])
                who = (leader + bi) % players
                partner_wins = team[who] == team[seat] and who != seat
                if (rules[R_HEAD_ALWAYS] or led == trump) and not (rules[R_HEAD_PE] and partner_wins):
                    target = trick[bi]
                    go = True
                    if x_power[k, target] >= TRUMP_BASE and led != trump:
                        if not rules[R_HEAD_RUFFED]:
                            go = False
                        else:
                            top = -1
                            for i in range(n):  # the suit led's highest card (the first of ties)
                                c = trick[i]
                                if x_eff[k, c] == led and x_power[k, c] > top:
                                    top = x_power[k, c]
                                    target = c
                    if go:
                        higher = follow & x_beats[k, target]
                        if higher:
                            mask = higher
        else:
            kind = rules[R_VOID]
            trumps = hand & x_trump_mask[k]
            if kind and trumps:
                bi = winner_at(trick, n, k, x_eff, x_power, x_led, x_place, rules[R_ANY_SUIT])
                best = trick[bi]
                who = (leader + bi) % players
                partner_wins = team[who] == team[seat] and who != seat
                ruffed = x_power[k, best] >= TRUMP_BASE
                if kind == 1:
                    if not (rules[R_VOID_PE] and partner_wins):
                        mask = trumps
                elif kind == 2:
                    if not (rules[R_VOID_PE] and partner_wins):
                        higher = trumps & x_beats[k, best] if ruffed else trumps
                        if higher:
                            mask = higher
                elif not (rules[R_VOID_PE] and partner_wins):
                    must = rules[R_OVER_TRUMP]
                    if not ruffed:
                        mask = trumps
                    elif rules[R_OVER_PE] and partner_wins:
                        mask = trumps if must else hand
                    else:
                        higher = trumps & x_beats[k, best]
                        mask = higher if higher else (trumps if must else hand)
            if rules[R_NO_UNDER]:
                bi = winner_at(trick, n, k, x_eff, x_power, x_led, x_place, rules[R_ANY_SUIT])
                best = trick[bi]
                if x_power[k, best] >= TRUMP_BASE:
                    low = mask & x_trump_mask[k] & ~x_beats[k, best]
                    if low and mask & ~low:
                        mask &= ~low
    if not rules[R_RESTRICTED]:
        return mask
    barred = rules[R_FIRST_BARRED]
    if n:
        if first_trick and barred and not bound:
            kept = mask & ~barred
            if kept:
                mask = kept
        return mask
    first = rules[R_FIRST_CARD]
    if first_trick and first >= 0 and (hand >> first) & 1:
        allowed = mask & rules[R_FIRST_ALLOWED]
        if allowed != mask:
            return int(allowed)
    unbroken = rules[R_UNBROKEN]
    if unbroken and not played & rules[R_BREAKERS] and mask & ~unbroken & ~rules[R_UNLESS_ONLY]:
        kept = mask & ~unbroken
        if kept:
            mask = kept
    if first_trick and barred:
        kept = mask & ~barred
        if kept:
            mask = kept
    return mask


@native
def mt_seed(key: npt.NDArray[np.int64], mt: npt.NDArray[np.int64]) -> None:
    """Seed the Mersenne Twister state ``mt`` (624 words, then the index) by CPython's ``init_by_array``.

    ``key`` is the word count, then the seed's 32-bit words, low first.
    """
    m32 = 0xFFFFFFFF
    mt[0] = 19650218
    for i in range(1, 624):
        prev = mt[i - 1]
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & m32
    i, j = 1, 0
    klen = key[0]
    for _ in range(max(624, klen)):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ (((prev ^ (prev >> 30)) * 1664525) & m32)) + key[j + 1] + j) & m32
        i += 1
        j += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
        if j >= klen:
            j = 0
    for _ in range(623):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ (((prev ^ (prev >> 30)) * 1566083941) & m32)) - i) & m32
        i += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
    mt[0] = 0x80000000
    mt[624] = 624


@native
def mt_word(mt: npt.NDArray[np.int64]) -> int:
    """The generator's next 32-bit word (``genrand_uint32``)."""
    if mt[624] >= 624:
        for i in range(624):
            y = (mt[i] & 0x80000000) | (mt[(i + 1) % 624] & 0x7FFFFFFF)
            mt[i] = mt[(i + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        mt[624] = 0
    y = mt[mt[624]]
    mt[624] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    return int(y ^ (y >> 18))


@native
def mt_random(mt: npt.NDArray[np.int64]) -> float:
    """``random.random()``: 53 bits from two words."""
    a = mt_word(mt) >> 5
    b = mt_word(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@native
def shuffle_into(order: npt.NDArray[np.int64], n: int, engine: bool, mt: npt.NDArray[np.int64]) -> None:
    """Fisher-Yates from the last position down (``rng.shuffled``), with ``mt`` or Numba's generator."""
    for i in range(n):
        order[i] = i
    for i in range(n - 1, 0, -1):
        r = mt_random(mt) if engine else np.random.random()
        j = int(r * (i + 1))
        order[i], order[j] = order[j], order[i]


@native
def engine_shuffled(key: npt.NDArray[np.int64], n: int) -> npt.NDArray[np.int64]:
    """``rng.shuffled``'s permutation, from the key of ``mix(seed, shuffle_no)`` (:func:`key_words`)."""
    mt = np.zeros(625, dtype=np.int64)
    mt_seed(key, mt)
    order = np.zeros(n, dtype=np.int64)
    shuffle_into(order, n, True, mt)
    return order


@native
def play_deals(
    deals: int, seed: int, engine_keys: npt.NDArray[np.int64], cards: int, players: int, tricks: int,
    deal_seats: npt.NDArray[np.int64], x_trump: npt.NDArray[np.int64], x_eff: npt.NDArray[np.int64],
    x_power: npt.NDArray[np.int64], x_suits: npt.NDArray[np.int64], x_trump_mask: npt.NDArray[np.int64],
    x_priv: npt.NDArray[np.int64], x_beats: npt.NDArray[np.int64], x_led: npt.NDArray[np.int64],
    x_place: npt.NDArray[np.int64], choices: npt.NDArray[np.int64], callable_: npt.NDArray[np.int64],
    points: npt.NDArray[np.int64], team: npt.NDArray[np.int64], pass_offsets: npt.NDArray[np.int64],
    rules: npt.NDArray[np.int64], low_index: npt.NDArray[np.int64],
) -> npt.NDArray[np.int64]:  # fmt: skip
    """Play ``deals`` whole deals by random choice; per seat, the tricks and the card points it took.

    With ``engine_keys`` (one row of 32-bit words per deal: ``mix(seed, deal)``) the shuffle is the
    engine's (:func:`shuffle_into` on a re-seeded Mersenne Twister); otherwise Numba's generator.
    """
    np.random.seed(seed)
    engine = len(engine_keys) > 0
    mt = np.zeros(625, dtype=np.int64)
    order = np.zeros(cards, dtype=np.int64)
    hands = np.zeros(players, dtype=np.int64)
    won = np.zeros(players, dtype=np.int64)
    trick = np.zeros(players, dtype=np.int64)
    gave = np.zeros(players, dtype=np.int64)
    totals = np.zeros((2, players), dtype=np.int64)
    dealt = deal_seats.shape[1]
    npass = rules[R_PASS]
    for deal in range(deals):
        dealer = deal % players
        if engine:
            mt_seed(engine_keys[deal], mt)
        shuffle_into(order, cards, engine, mt)
        for s in range(players):
            hands[s] = 0
            won[s] = 0
        for pos in range(dealt):
            hands[deal_seats[dealer, pos]] |= 1 << order[pos]
        offset = pass_offsets[deal % len(pass_offsets)]
        if npass and offset:
            for s in range(players):
                gave[s] = 0
                for _ in range(npass):
                    c = random_card(hands[s] & ~gave[s], low_index)
                    gave[s] |= 1 << c
            for s in range(players):
                hands[s] &= ~gave[s]
            for s in range(players):
                hands[(s + offset) % players] |= gave[s]
        k = choices[int(np.random.random() * len(choices))]
        declarer = int(np.random.random() * players)
        called = -1
        partner = -1
        if callable_[k]:
            called = random_card(callable_[k], low_index)
            for s in range(players):
                if (hands[s] >> called) & 1:
                    partner = s
        leader = (dealer + 1) % players
        first = rules[R_FIRST_CARD]
        if first >= 0:
            for s in range(players):
                if (hands[s] >> first) & 1:
                    leader = s
        played = 0
        for t in range(tricks):
            seat = leader
            for i in range(players):
                legal = legal_cards(
                    hands[seat], trick, i, leader, seat, t == 0, played, k, partner, declarer, called, players,
                    rules, x_trump, x_eff, x_power, x_suits, x_trump_mask, x_priv, x_beats, x_led, x_place, team,
                )  # fmt: skip
                c = random_card(legal, low_index)
                hands[seat] ^= 1 << c
                trick[i] = c
                seat = (seat + 1) % players
            bi = winner_at(trick, players, k, x_eff, x_power, x_led, x_place, rules[R_ANY_SUIT])
            winner = (leader + bi) % players
            for i in range(players):
                won[winner] |= 1 << trick[i]
            played |= won[winner]
            totals[0, winner] += 1
            leader = winner
        for s in range(players):
            m = won[s]
            while m:
                totals[1, s] += points[low_card(m, low_index)]
                m &= m - 1
    return totals


def key_words(value: int) -> list[int]:
    """The key CPython seeds ``random.Random(value)`` with: the count of 32-bit words used, then them, low first.

    CPython uses the words up to the highest non-zero one (one word for 0); the row is padded to five.
    """
    used = max(1, (value.bit_length() + 31) // 32)
    return [used] + [(value >> (32 * i)) & 0xFFFFFFFF for i in range(4)]


def engine_keys(seed: int, deals: int) -> npt.NDArray[np.int64]:
    """Per deal ``d``, the key of ``mix(seed, d)``: the engine's shuffle of that deal (seeds below 2**128)."""
    return np.array([key_words(mix(seed, d)) for d in range(deals)], dtype=np.int64)


def kernel_rate(x: Exported, deals: int, seed: int, engine_rng: bool = False) -> float:
    """Deals per second of the kernel on ``x``."""
    low = np.array(LOW_INDEX, dtype=np.int64)
    keys = engine_keys(seed, deals) if engine_rng else np.zeros((0, 1), dtype=np.int64)
    start = time.perf_counter()
    play_deals(
        deals, seed, keys, x.cards, x.players, x.tricks, x.deal_seats, x.trump_suit, x.eff, x.power,
        x.suit_masks, x.trump_mask, x.privileged, x.beats, x.led_power, x.place, x.choices, x.callable_,
        x.points, x.team, x.pass_offsets, x.rules, low,
    )  # fmt: skip
    return deals / (time.perf_counter() - start)


def check_engine_shuffle(samples: int = 200) -> None:
    """The ported shuffle gives :func:`trickrules.engine.rng.shuffled`'s permutation, seed for seed."""
    rng = random.Random(1)
    for _ in range(samples):
        seed, shuffle_no, n = rng.getrandbits(rng.choice((8, 64, 128))), rng.randrange(1000), rng.choice((32, 52))
        ours = engine_shuffled(np.array(key_words(mix(seed, shuffle_no)), dtype=np.int64), n)
        if list(ours) != shuffled(seed, shuffle_no, n):
            raise AssertionError(f"the ported shuffle differs for seed {seed}, shuffle {shuffle_no}")


def check_legal(game: trickrules.Game, x: Exported, deals: int, seed: int) -> int:
    """The kernel's legal cards are the engine's (``kernel.mask_of``) at every card of random engine play.

    Plays ``deals`` deals through the public API (full rules) and compares, at each card to play with
    nobody sitting out, :func:`legal_cards` with the engine's mask. Gives the number of cards compared.
    """
    from trickrules.engine.kernel import mask_of
    from trickrules.engine.obligations import called_card
    from trickrules.engine.values import Phase

    t = game.tables
    rows = list(x.trump_suit)
    rng = random.Random(seed)
    state = game.new_match(seed=seed)
    compared = done = 0
    while done < deals:
        if state.is_terminal:
            state = game.new_match(seed=rng.getrandbits(64))
        seat = state.to_move
        d = state.deal
        if state.phase == Phase.PLAY and seat is not None and d.trump is not None and not d.seats_out:
            won = state.tally.won
            first_trick = not state.tally.winners
            engine_mask = mask_of(t, state.hands[seat], state.trick, state.leader, seat, d, first_trick, won)[0]
            played = 0
            for taken in won:
                played |= taken
            called = called_card(t, d)
            trick = np.array([*state.trick, 0, 0, 0, 0, 0][: x.players], dtype=np.int64)
            ours = legal_cards(
                _word(state.hands[seat]), trick, len(state.trick), state.leader, seat, first_trick, _word(played),
                rows.index(d.trump), -1 if d.partner is None else d.partner, -1 if d.declarer is None else d.declarer,
                -1 if called is None else called, x.players, x.rules, x.trump_suit, x.eff, x.power, x.suit_masks,
                x.trump_mask, x.privileged, x.beats, x.led_power, x.place, x.team,
            )  # fmt: skip
            if ours != _word(engine_mask):
                raise AssertionError(f"{game.name}: legal cards differ at {state.trick} for seat {seat}")
            compared += 1
        before = state.match.deals_done
        legal = state.legal_actions()
        state = state.apply(legal[int(rng.random() * len(legal))])
        done += state.match.deals_done - before if not state.is_terminal else 1
    return compared


# -- OpenSpiel, for the side-by-side figures ------------------------------------------------------

# -- first calls, in fresh processes ---------------------------------------------------------------

_FIRST_CALL = """
import sys, time
sys.path.insert(0, {here!r})
import native_prototype as nb, trickrules
x = nb.export(trickrules.load("hearts"))
start = time.perf_counter()
nb.kernel_rate(x, 10, 1)
print(time.perf_counter() - start)
"""


def _child(code: str, env: dict[str, str]) -> float:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    return float(done.stdout.strip().splitlines()[-1])


def first_calls(runs: int) -> dict[str, float]:
    """``import numba``, and the kernel's first call with an empty and with a warm on-disk cache (seconds)."""
    code = _FIRST_CALL.format(here=str(Path(__file__).resolve().parent))
    imports, cold, warm, sizes = [], [], [], []
    for _ in range(runs):
        imports.append(_child("import time; t = time.perf_counter(); import numba; print(time.perf_counter() - t)",
                              dict(os.environ)))  # fmt: skip
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            cold.append(_child(code, env))
            warm.append(_child(code, env))
            sizes.append(sum(p.stat().st_size for p in Path(cache).rglob("*") if p.is_file()))
    return {
        "import": statistics.median(imports),
        "cold": statistics.median(cold),
        "warm": statistics.median(warm),
        "cache_kib": statistics.median(sizes) / 1024,
    }


# -- the run ---------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["hearts", "spades", "manille", "quadrille"])
    parser.add_argument("--runs", type=int, default=5, help="interleaved repetitions (medians are quoted)")
    parser.add_argument("--quick", action="store_true", help="fewer deals and one repetition (a smoke run)")
    args = parser.parse_args()
    if numba is None:
        print("Numba is not installed: pip install -e '.[native]' to run the native kernel prototype.")
        return
    runs = 1 if args.quick else args.runs
    scale = 10 if args.quick else 1
    print(f"Numba {numba.__version__}, NumPy {np.__version__}, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")  # fmt: skip
    check_engine_shuffle()
    print("the ported shuffle agrees with trickrules.engine.rng.shuffled")
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
        print("OpenSpiel (pyspiel) is not installed: no side-by-side figures")
    games = {name: trickrules.load(name) for name in args.games}
    exported = {name: export(game) for name, game in games.items()}
    for name, game in games.items():
        compared = check_legal(game, exported[name], 40 // scale + 1, 7)
        print(f"{name}: the kernel's legal cards are the engine's at {compared} cards of random play")
    theirs = {name: pyspiel.load_game(OPENSPIEL[name]) for name in games if pyspiel and name in OPENSPIEL}
    sides: dict[str, Callable[[str, int], float]] = {
        "kernel": lambda name, rep: kernel_rate(exported[name], 100_000 // scale, rep),
        "kernel, engine shuffle": lambda name, rep: kernel_rate(exported[name], 50_000 // scale, rep, True),
        "bulk path (Python)": lambda name, rep: run.bulk_rate(name, 1000 // scale, rep),
        "OpenSpiel evaluate_bots": lambda name, rep: evaluate_bots_rate(theirs[name], 3000 // scale, rep),
        "OpenSpiel from Python": lambda name, rep: openspiel_python_rate(theirs[name], 300 // scale, rep),
    }
    for name in games:  # warm every side up (and compile the kernel) before any measurement
        kernel_rate(exported[name], 10, 0)
        kernel_rate(exported[name], 10, 0, True)
        run.bulk_rate(name, 20, 99)
    rates: dict[tuple[str, str], list[float]] = {}
    for rep in range(runs):
        for name in games:
            for side, measure in sides.items():
                if side.startswith("OpenSpiel") and name not in theirs:
                    continue
                rates.setdefault((name, side), []).append(measure(name, rep))
    print(f"\ndeals per second (median of {runs} interleaved runs; OpenSpiel: whole games, bidding included)")
    for name in games:
        kernel = statistics.median(rates[name, "kernel"])
        for side in sides:
            if (name, side) in rates:
                rate = statistics.median(rates[name, side])
                print(f"  {name:<10}{side:<26}{rate:>12,.0f}   kernel / this: {kernel / rate:6.2f}x")
    print(f"\nfirst calls, fresh processes (median of {max(3, runs)})")
    first = first_calls(max(3, runs))
    print(f"  import numba: {first['import'] * 1000:.0f} ms")
    print(f"  first call, empty cache (compiles): {first['cold']:.2f} s")
    print(f"  first call, warm on-disk cache: {first['warm'] * 1000:.0f} ms ({first['cache_kib']:.0f} KiB cached)")


if __name__ == "__main__":
    main()
