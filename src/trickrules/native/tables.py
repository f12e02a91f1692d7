"""A compiled game's tables as one flat ``int64`` array, the native kernel's only view of the rules.

:func:`export` writes what the kernel reads from :class:`~trickrules.compile.tables.Tables`
(the same tables the engine plays from) into one array ``tb``: a header of
:data:`HEADER` words, then blocks. A header word is either a number (``H_*``)
or the offset of a block (``O_*``), so that ``tb[tb[O_POWER] + row * cards + card]``
is a card's power under the trump of row ``row``. Each phase module exports
its own block through :class:`Builder` and names its header words in the
range it is given (``HM_*``). Masks are 64-bit words (bit 63 makes them
negative, which the kernel never compares, only tests bits of).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

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
from trickrules.compile.tables import Tables

__all__ = ["HEADER", "Builder", "Unsupported", "word"]

#: How many header words there are.
HEADER = 256

# -- numbers ---------------------------------------------------------------------------------------------
H_CARDS = 0
H_PLAYERS = 1
H_TRUMP_ROWS = 2  # how many trump keys the tables have (rows)
H_SUITS = 3
H_DEALT = 4  # how many positions a dealer's deal_seats row has
H_HAND_SIZE = 5
H_TRUMP_BASE = 6
H_NO_TRUMP = 7
H_ANY_SUIT = 8
H_POINT_CARDS = 9  # the mask of cards worth more than 0 points
H_TEAMS = 10  # 1 when the game has fixed partnerships
H_PHASES = 11  # how many phases the sequence has (after the deal)
#: The play rules, one word each (see ``R_*``): at R_BASE + R_*.
R_BASE = 16

# The play rules (words R_BASE + R_*): the obligations' records and lead rules as numbers.
R_FOLLOW = 0
R_PRIV = 1
R_PRIV_SOLE = 2
R_CALL_FOLLOW = 3
R_CALL_LEAD = 4
R_HEAD = 5
R_HEAD_ALWAYS = 6
R_HEAD_RUFFED = 7
R_HEAD_PE = 8
R_VOID = 9  # 0 none, 1 TrumpWhenVoid, 2 TrumpToBeat, 3 Overtrump
R_VOID_PE = 10
R_OVER_PE = 11
R_OVER_TRUMP = 12
R_NO_UNDER = 13
R_RESTRICTED = 14
R_FIRST_CARD = 15
R_FIRST_ALLOWED = 16
R_UNBROKEN = 17
R_BREAKERS = 18
R_UNLESS_ONLY = 19
R_FIRST_BARRED = 20
R_ENDS_EARLY = 21
R_COUNT = 22

# -- block offsets -----------------------------------------------------------------------------------------
O_DEAL_SEATS = 48  # [dealer, position] -> seat
O_TRUMP_KEY = 49  # [row] -> the trump key (suit index or NO_TRUMP)
O_EFF = 50  # [row, card] -> effective suit
O_POWER = 51  # [row, card]
O_SUIT_MASKS = 52  # [row, suit] -> mask
O_TRUMP_MASK = 53  # [row] -> mask
O_PRIV = 54  # [row] -> mask
O_BEATS = 55  # [row, card] -> mask of the cards that beat it
O_LED = 56  # [row, suit led, card] -> power when that suit is led
O_PLACE = 57  # [row, card] -> plain place (any-suit games)
O_POINTS = 58  # [card]
O_TEAM = 59  # [seat]
O_NEXT_SEAT = 60  # [seats_out, seat] (seats_out a mask of at most MAX_PLAYERS bits)
O_TRICK_LAST = 61  # [seats_out] -> the index of a trick's last card
O_TRICK_SEATS = 62  # [seats_out, leader, index] -> seat
O_PHASES = 63  # [i] -> the phase code of the i-th phase after the deal (see PHASE_CODES)
O_RANK = 64  # [card] -> rank index
O_SUIT = 65  # [card] -> printed suit index
O_ROW_OF_KEY = 66  # [key - NO_TRUMP] -> row (NONE: no such key)

#: The header words each phase module may use for its own numbers and blocks.
HM_DEAL = 80
HM_PASSING = 96
HM_TRICKS_BID = 112
HM_TRUMP = 128
HM_MAKING = 144
HM_AUCTION = 160
HM_CALL = 176
HM_EXCHANGE = 184
HM_ANNOUNCE = 192
HM_DECLARE = 200
HM_SCORING = 208  # 48 words

#: The phase codes of O_PHASES, in the order of :class:`~trickrules.compile.sequence.Phase`.
PHASE_CODES = {
    "passing": 1,
    "bidding": 2,
    "tricks_bid": 3,
    "making": 4,
    "discard": 5,
    "alone": 6,
    "trump": 7,
    "call": 8,
    "exchange": 9,
    "announce": 10,
    "declare": 11,
    "play": 12,
}


class Unsupported(Exception):
    """The kernel does not cover something a game uses (its message says what); the engine plays it instead."""


def word(mask: int) -> int:
    """A card mask of at most 64 cards as a signed 64-bit word (bit 63 makes it negative)."""
    return mask - (1 << 64) if mask >> 63 else mask


class Builder:
    """Builds ``tb``: header words set by name, blocks appended after the header."""

    def __init__(self) -> None:
        self.header = [0] * HEADER
        self.blocks: list[int] = []

    def number(self, slot: int, value: int) -> None:
        """Set header word ``slot`` to ``value``."""
        self.header[slot] = int(value)

    def block(self, slot: int, values: Iterable[int]) -> int:
        """Append ``values`` as a block whose offset header word ``slot`` holds; the offset."""
        offset = HEADER + len(self.blocks)
        self.blocks.extend(int(v) for v in values)
        self.header[slot] = offset
        return offset

    def array(self) -> npt.NDArray[np.int64]:
        """The finished ``tb``."""
        return np.array(self.header + self.blocks, dtype=np.int64)


def export_core(t: Tables, b: Builder) -> None:
    """Write the deck, the trump rows, the deal's seats, the seating and the play rules into ``b``.

    Raises :class:`Unsupported` for what the kernel cannot hold (more than
    64 cards or 8 seats, an obligation it does not know).
    """
    size, n = t.cards.size, t.players
    if size > 64:
        raise Unsupported(f"{size} cards do not fit the kernel's 64-bit masks")
    if n > 8:
        raise Unsupported(f"{n} seats are more than the kernel's 8")
    keys = sorted(t.trumps)
    nsuits = t.cards.suit_count  # the suits, then the trump sets (a set's trumps are an effective suit of its own)
    rows = [t.trumps[k] for k in keys]
    b.number(H_CARDS, size)
    b.number(H_PLAYERS, n)
    b.number(H_TRUMP_ROWS, len(keys))
    b.number(H_SUITS, nsuits)
    b.number(H_DEALT, len(t.deal_seats[0]))
    b.number(H_HAND_SIZE, t.rules.hand_size)
    b.number(H_TRUMP_BASE, TRUMP_BASE)
    b.number(H_NO_TRUMP, NO_TRUMP)
    b.number(H_ANY_SUIT, t.rules.play.any_suit_wins)
    b.number(H_POINT_CARDS, word(t.point_cards))
    b.number(H_TEAMS, 1 if t.rules.teams else 0)
    b.block(O_DEAL_SEATS, (s for row in t.deal_seats for s in row))
    b.block(O_TRUMP_KEY, keys)
    b.block(O_ROW_OF_KEY, ((keys.index(k) if k in keys else -1) for k in range(NO_TRUMP, nsuits)))
    b.block(O_EFF, (v for r in rows for v in r.eff_suit))
    b.block(O_POWER, (v for r in rows for v in r.power))
    b.block(O_SUIT_MASKS, (word(m) for r in rows for m in r.suit_masks))
    b.block(O_TRUMP_MASK, (word(r.trump_mask) for r in rows))
    b.block(O_PRIV, (word(r.privileged) for r in rows))
    b.block(O_BEATS, (word(m) for r in rows for m in r.beats))
    b.block(O_LED, (r.led_power[s][c] for r in rows for s in range(nsuits) for c in range(size)))
    b.block(O_PLACE, (v for r in rows for v in r.plain_place))
    b.block(O_POINTS, t.cards.points)
    b.block(O_TEAM, t.team_of)
    b.block(O_RANK, t.cards.rank_of)
    b.block(O_SUIT, t.cards.suit_of)
    outs = 1 << n
    next_seat: list[int] = []
    last: list[int] = []
    seats: list[int] = []
    for out in range(outs):
        known = out in t.next_seat
        next_seat.extend(t.next_seat[out] if known else (-1,) * n)
        last.append(t.trick_last[out] if known else -1)
        for leader in range(n):
            row = t.trick_seats[out][leader] if known else ()
            seats.extend((*row, *(-1,) * (n - len(row))))
    b.block(O_NEXT_SEAT, next_seat)
    b.block(O_TRICK_LAST, last)
    b.block(O_TRICK_SEATS, seats)
    _play_rules(t, b)


def _play_rules(t: Tables, b: Builder) -> None:
    pr, lr = t.rules.play, t.leads
    r = [0] * R_COUNT
    r[R_FOLLOW] = pr.follow_suit
    for lead in pr.leading:
        if not isinstance(lead, CalledCardLead):
            raise Unsupported(f"the lead obligation {type(lead).__name__}")
        r[R_CALL_LEAD] = 1
    for duty in pr.following:
        if isinstance(duty, PrivilegedExempt):
            r[R_PRIV], r[R_PRIV_SOLE] = 1, duty.sole
        elif isinstance(duty, CalledCardFollow):
            r[R_CALL_FOLLOW] = 1
        elif isinstance(duty, HeadTrick):
            r[R_HEAD], r[R_HEAD_ALWAYS] = 1, duty.mode is HeadTrickMode.ALWAYS
            r[R_HEAD_RUFFED], r[R_HEAD_PE] = duty.when_ruffed, duty.partner_exempt
        else:
            raise Unsupported(f"the obligation {type(duty).__name__}")
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
        else:
            raise Unsupported(f"the obligation {type(void).__name__}")
    r[R_RESTRICTED] = lr.restricted
    r[R_FIRST_CARD] = -1 if lr.first_card is None else lr.first_card
    r[R_FIRST_ALLOWED], r[R_UNBROKEN], r[R_BREAKERS] = map(word, (lr.first_allowed, lr.unbroken, lr.breakers))
    r[R_UNLESS_ONLY], r[R_FIRST_BARRED] = word(lr.unless_only), word(lr.first_trick_barred)
    r[R_ENDS_EARLY] = t.ends_early
    for i, v in enumerate(r):
        b.number(R_BASE + i, v)
