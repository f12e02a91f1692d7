"""Where the native kernel keeps a match: one ``int64`` array per match, its fields at fixed offsets.

The kernel (:mod:`trickrules.native`) runs on plain NumPy arrays, so that
Numba compiles one machine-code version of each function for every game. A
match in play is one array ``st`` of :data:`ST_SIZE` words; this module
names the offset of each field. Cards are deck indices (as in the engine),
hands and won cards are 64-bit masks (a game past 64 cards has no kernel),
"none" is ``-1`` unless said otherwise. A seat's field ``X`` is
``st[X + seat]``, for seats ``0 .. MAX_PLAYERS - 1``.

The fields mirror the engine's records: :class:`~trickrules.engine.values.DealInfo`
(``DEALER`` .. ``TRICKS``, ``DEALT``), :class:`~trickrules.engine.values.Tally`
(``WON``, ``WINNERS``, ``REVOKED``), :class:`~trickrules.engine.values.MatchInfo`
(``SCORES``, ``POT``, ``DEALS_DONE``, ``COUNTERS``), the state's own fields
(``HANDS``, ``TRICK``, ``LEADER``, ``TO_MOVE``), and each mechanism's record
in its own block of words (``MECH_*``), named in the module of its phase.
:func:`trickrules.native.engine_arrays.to_arrays` fills an array from an engine
state, field for field, which is how the tests compare the two.
"""

from __future__ import annotations

__all__ = [
    "MAX_CARDS",
    "MAX_PLAYERS",
    "MAX_TRICKS",
    "NONE",
    "ST_SIZE",
    "UNSET_TRUMP",
]

#: The kernel's limits: more cards, seats or tricks than these and a game has no kernel.
MAX_CARDS = 64
MAX_PLAYERS = 8
MAX_TRICKS = 64
#: "Nothing" in a field that holds a seat, a card or an index.
NONE = -1
#: The trump field before the trump is known (the engine's ``None``; ``NO_TRUMP`` is a key of its own).
UNSET_TRUMP = -1000

# -- the match --------------------------------------------------------------------------------------------
#: The match seed's 32-bit words, low first (a seed has at most 128 bits here), and how many are used.
SEED = 0  # 4 words
#: The deal number (``DealInfo.number``) and the shuffle number (a redeal draws the next shuffle).
NUMBER = 4
SHUFFLE = 5
DEALS_DONE = 6
POT = 7
#: 1 once the match is over.
OVER = 8
#: How many player actions the match has taken (every decision, forced or not).
ACTIONS = 9
#: The first dealer (the simulation's match index modulo the table).
FIRST_DEALER = 10
#: Set by a phase when the deal is thrown in and dealt again (everyone passed, a misdeal).
REDEAL = 11
#: Set by the scoring when the deal was played out without a contract or a score (informational).
NO_SCORE = 12
#: How many deals in a row were thrown in (everyone passed) just before the current one (``Dealing.thrown``).
THROWN = 13
#: Which shuffle's generator the kernel seeded ahead with the one before (its number plus one; 0: none).
#: The kernel's own: no engine field mirrors it.
AHEAD = 14

# -- the deal (DealInfo) -----------------------------------------------------------------------------------
DEALER = 16
TRUMP = 17  # a trump key (suit index or NO_TRUMP), or UNSET_TRUMP
TRUMP_ROW = 18  # the row of the trump key in the trump tables (tables.TRUMP_KEYS), NONE while unset
CONTRACT = 19
DECLARER = 20
PARTNER = 21
SEATS_OUT = 22  # a bit mask of seats
TRICKS = 23  # the deal's hand size, so its number of tricks
#: Facts the mechanisms give the scoring: the contract was forced; the announcements made (a bit per
#: announcement, in ``Tables.announcement_names`` order); the called card (NONE: none).
FORCED = 24
ANNOUNCED = 25
CALLED = 26
#: The card turned face up at the deal (NONE: none).
TURNED = 27

# -- the play (state and Tally) ----------------------------------------------------------------------------
TO_MOVE = 32
LEADER = 33
#: How many cards lie on the table in the current trick.
TRICK_N = 34
#: How many tricks have been played.
TRICKS_PLAYED = 35
#: Every card played so far in the deal (for "hearts broken").
PLAYED = 36
#: The seats that revoked (penalised, not forbidden), as a bit mask.
REVOKED = 37
#: How many cards of the deal have been played (index into PLAY_ORDER).
CARDS_PLAYED = 38

# -- per seat --------------------------------------------------------------------------------------------
HANDS = 64
DEALT = 72
WON = 80
#: Tricks won per seat.
WON_TRICKS = 88
#: The tricks bid per seat (a tricks-bid game), in ``Bids`` order.
BID = 96
#: The points declared per seat (melds).
DECLARED = 104
SCORES = 112
#: The deal's change of each seat's score (set by the scoring).
DELTA = 120
#: The counters of ``scoring.counters``: counter ``c``'s value for seat ``s`` at ``COUNTERS + 8 * c + s``.
COUNTERS = 128  # 8 counters x 8 seats
MAX_COUNTERS = 8

# -- sequences ---------------------------------------------------------------------------------------------
#: The winner of each trick, in order.
WINNERS = 192
#: The cards of the current trick, in the order played.
TRICK = 256
#: Every card of the deal in the order played (so each trick's cards follow from it and WINNERS).
PLAY_ORDER = 264
#: The outcomes and bonuses that applied in the deal's scoring: a bit per entry of the scoring tables.
OUTCOMES = 328  # 2 words: 128 bits

# -- the mechanisms' own words -----------------------------------------------------------------------------
#: Each phase module names its fields inside its block.
MECH_DEAL = 336  # 16 words
MECH_PASSING = 352  # 16 words
MECH_TRICKS_BID = 368  # 16 words
MECH_TRUMP = 384  # 16 words
MECH_MAKING = 400  # 32 words: making, alone, discard
MECH_AUCTION = 432  # 64 words
MECH_CALL = 496  # 16 words
MECH_EXCHANGE = 512  # 16 words
MECH_ANNOUNCE = 528  # 16 words
MECH_DECLARE = 544  # 32 words
MECH_SCORING = 576  # 64 words: the scoring's scratch
ST_SIZE = 640
