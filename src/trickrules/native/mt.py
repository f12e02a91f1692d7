"""The engine's random numbers, natively: CPython's Mersenne Twister, seeded and drawn the same way.

A generator is an ``int64`` array of 625 words (the 624 of the state, then
the index), as CPython's ``random.Random`` keeps it. :func:`seed_words`
seeds it as ``random.Random(n)`` does (``init_by_array`` with the 32-bit
words of ``n``); :func:`random` is ``Random.random()`` (53 bits from two
words). :func:`deal_seed` seeds it for a deal's shuffle, as
:func:`trickrules.engine.rng.shuffled` does, from the match seed's words
(``mix``, a SplitMix64 step, computed on unsigned 64-bit words).

A generator can also play a script (:mod:`trickrules.native.step`, which
steps a match one decision at a time): where its index word is
:data:`SCRIPTED` or more, :func:`word` hands out the words written below
the index as they are, and once they are spent the next :func:`choose`
raises :class:`Decision`, leaving the number of its options (and, through
:func:`choose_among`, what they are) in the first words. A generator seeded
as above never reaches that branch but once in 624 words, to draw its next
block.
"""

from __future__ import annotations

import random as _random

import numpy as np
import numpy.typing as npt

from trickrules.native.jit import native, native_alloc

__all__ = [
    "MT_SIZE",
    "OFFERS",
    "OFFER_ALONE",
    "OFFER_ANNOUNCE",
    "OFFER_BID",
    "OFFER_CALL",
    "OFFER_DECLARE",
    "OFFER_DISCARD",
    "OFFER_GIVE",
    "OFFER_NONE",
    "OFFER_PLAY",
    "OFFER_TRICKS",
    "OFFER_TRUMP",
    "SCRIPTED",
    "SPENT",
    "Decision",
    "choose",
    "choose_among",
    "choose_listed",
    "deal_random",
    "deal_seed",
    "deal_shuffle_ahead",
    "deal_shuffle_and_random",
    "from_random",
    "random",
    "script",
    "seed_two",
    "seed_words",
    "word",
]

MT_SIZE = 625
#: An index word at least this plays a script: the word at ``index - SCRIPTED``, untempered.
SCRIPTED = 1 << 20
#: The index word once the script is spent: the next choice is a :class:`Decision`.
SPENT = SCRIPTED + 624
#: Where a :class:`Decision` leaves the number of options, what they are (``OFFER_*``) and their codes' bits
#: (``-1``: their codes listed in order from ``D_LIST``, at most ``MAX_LIST``).
D_COUNT = 0
D_KIND = 1
D_BITS = 2
D_LIST = 3
MAX_LIST = 120
#: What a choice's options are, for a stepper to name them, each the code of a bit of ``bits``, in the
#: bits' order: unknown here; cards to play, to give, to discard; a pass (bit 0), the suits (bit
#: ``1 + suit``) and no trump (bit ``1 + suits``) to name trumps by; a pass (bit 0) and the ladder's
#: contracts (bit ``1 + contract``) to bid; a number of tricks to bid (bit ``n``); a pass or going alone.
#: Listed in order (:func:`choose_listed`): cards to call; a pass and each announcement (``1 + index``); a
#: pass and each meld (``1 + declaration * suits + suit``).
OFFER_NONE = 0
OFFER_PLAY = 1
OFFER_GIVE = 2
OFFER_DISCARD = 3
OFFER_CALL = 4
OFFER_TRUMP = 5
OFFER_BID = 6
OFFER_TRICKS = 7
OFFER_ALONE = 8
OFFER_ANNOUNCE = 9
OFFER_DECLARE = 10
OFFERS = 11


class Decision(Exception):
    """A scripted generator's script is spent: the choice it was asked for is the stepper's to hand back."""


def _initial() -> npt.NDArray[np.int64]:
    """CPython's ``init_genrand(19650218)``, where every ``init_by_array`` starts (computed once)."""
    mt = np.zeros(624, dtype=np.int64)
    mt[0] = 19650218
    for i in range(1, 624):
        prev = int(mt[i - 1])
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF
    return mt


#: The state ``init_by_array`` starts from (a constant of the compiled code).
INITIAL = _initial()
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@native_alloc
def seed_words(key: npt.NDArray[np.int64], count: int, mt: npt.NDArray[np.int64]) -> None:
    """Seed ``mt`` from the first ``count`` 32-bit words of ``key`` (CPython's ``init_by_array``)."""
    m32 = 0xFFFFFFFF
    mt[:624] = INITIAL
    # Each word is the one before it mixed with its own: the word just made stays in ``prev`` rather than
    # being read back from the array (1.5x faster seeding, 1 to 2 us less a deal; measured in a loop of seedings).
    prev = mt[0]
    i, j = 1, 0
    for _ in range(max(624, count)):
        prev = ((mt[i] ^ (((prev ^ (prev >> 30)) * 1664525) & m32)) + key[j] + j) & m32
        mt[i] = prev
        i += 1
        j += 1
        if i >= 624:
            mt[0] = prev
            i = 1
        if j >= count:
            j = 0
    prev = mt[i - 1]
    for _ in range(623):
        prev = ((mt[i] ^ (((prev ^ (prev >> 30)) * 1566083941) & m32)) - i) & m32
        mt[i] = prev
        i += 1
        if i >= 624:
            mt[0] = prev
            i = 1
    mt[0] = 0x80000000
    mt[624] = 624


@native_alloc
def seed_two(
    key_a: npt.NDArray[np.int64],
    count_a: int,
    a: npt.NDArray[np.int64],
    key_b: npt.NDArray[np.int64],
    count_b: int,
    b: npt.NDArray[np.int64],
) -> None:
    """:func:`seed_words` for two generators at once, each key at most 624 words.

    Seeding is one long chain of dependent steps, so the processor waits on each; two chains side by
    side in one loop cost about what one costs (a pair in 2.8 us against 4.9 us one after the other,
    measured in a loop of seedings). A deal that draws from two streams seeds them so.
    """
    m32 = 0xFFFFFFFF
    a[:624] = INITIAL
    b[:624] = INITIAL
    pa = a[0]
    pb = b[0]
    i, ja, jb = 1, 0, 0
    for _ in range(624):
        pa = ((a[i] ^ (((pa ^ (pa >> 30)) * 1664525) & m32)) + key_a[ja] + ja) & m32
        pb = ((b[i] ^ (((pb ^ (pb >> 30)) * 1664525) & m32)) + key_b[jb] + jb) & m32
        a[i] = pa
        b[i] = pb
        i += 1
        ja = 0 if ja + 1 >= count_a else ja + 1
        jb = 0 if jb + 1 >= count_b else jb + 1
        if i >= 624:
            a[0] = pa
            b[0] = pb
            i = 1
    pa = a[i - 1]
    pb = b[i - 1]
    for _ in range(623):
        pa = ((a[i] ^ (((pa ^ (pa >> 30)) * 1566083941) & m32)) - i) & m32
        pb = ((b[i] ^ (((pb ^ (pb >> 30)) * 1566083941) & m32)) - i) & m32
        a[i] = pa
        b[i] = pb
        i += 1
        if i >= 624:
            a[0] = pa
            b[0] = pb
            i = 1
    a[0] = 0x80000000
    b[0] = 0x80000000
    a[624] = 624
    b[624] = 624


@native
def word(mt: npt.NDArray[np.int64]) -> int:
    """The generator's next 32-bit word (``genrand_uint32``), or a script's next word."""
    if mt[624] >= 624:
        if mt[624] >= SCRIPTED:
            mt[624] += 1
            return int(mt[mt[624] - 1 - SCRIPTED])
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
def random(mt: npt.NDArray[np.int64]) -> float:
    """``random.random()``: 53 bits from two words."""
    a = word(mt) >> 5
    b = word(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@native
def choose(mt: npt.NDArray[np.int64], count: int) -> int:
    """The random bot's choice among ``count`` actions: ``int(random() * count)`` (one draw, even for one action)."""
    if mt[624] == SPENT:
        _decision(mt, count, OFFER_NONE, 0)
    return int(random(mt) * count)


@native
def choose_among(mt: npt.NDArray[np.int64], count: int, kind: int, bits: int) -> int:
    """:func:`choose`, where the options are the codes of ``bits`` in order, of the kind ``kind`` (``OFFER_*``)."""
    if mt[624] == SPENT:
        _decision(mt, count, kind, bits)
    return int(random(mt) * count)


@native
def choose_listed(
    mt: npt.NDArray[np.int64], count: int, kind: int, out: npt.NDArray[np.int64], passes: bool, suits: int
) -> int:
    """:func:`choose`, where the options are a pass (where ``passes``) and then ``out``'s values in order.

    ``kind`` says how a value is coded (``OFFER_CALL``: a card; ``OFFER_ANNOUNCE``: ``1 +`` the
    announcement; ``OFFER_DECLARE``: ``1 + declaration * suits + suit`` from ``declaration * 256 + suit``).
    """
    if mt[624] == SPENT:
        if count > MAX_LIST:
            _decision(mt, count, OFFER_NONE, 0)
        first = 0
        if passes:
            mt[D_LIST] = 0
            first = 1
        for i in range(count - first):
            v = out[i]
            if kind == OFFER_ANNOUNCE:
                v = 1 + v
            elif kind == OFFER_DECLARE:
                v = 1 + (v // 256) * suits + v % 256
            mt[D_LIST + first + i] = v
        _decision(mt, count, kind, -1)
    return int(random(mt) * count)


@native
def _decision(mt: npt.NDArray[np.int64], count: int, kind: int, bits: int) -> None:
    """Leave the choice's options in the first words and raise :class:`Decision`."""
    mt[D_COUNT] = count
    mt[D_KIND] = kind
    mt[D_BITS] = bits
    raise Decision()


@native
def script(mt: npt.NDArray[np.int64], choices: npt.NDArray[np.int64], n: int) -> None:
    """Make ``mt`` play the ``n`` choices of ``choices`` (pairs: the option taken, of how many), then stop.

    Each choice is the two words :func:`random` turns into the middle of the option's share of [0, 1).
    """
    base = 624 - 2 * n
    for j in range(n):
        v = int((choices[2 * j] + 0.5) / choices[2 * j + 1] * 9007199254740992.0)
        mt[base + 2 * j] = (v >> 26) << 5
        mt[base + 2 * j + 1] = (v & 0x3FFFFFF) << 6
    mt[624] = SCRIPTED + base


@native
def _deal_key(seed: npt.NDArray[np.int64], shuffle_no: int, salt: int, key: npt.NDArray[np.int64]) -> int:
    """Write the words of ``mix(s, shuffle_no) ^ salt`` into ``key`` (low first); return how many count."""
    lo = np.uint64(seed[0]) | (np.uint64(seed[1]) << np.uint64(32))
    z = lo * _GOLDEN + np.uint64(shuffle_no + 1) * _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    z = (z ^ (z >> np.uint64(31))) ^ np.uint64(salt)
    key[0] = np.int64(z & np.uint64(0xFFFFFFFF))
    key[1] = np.int64(z >> np.uint64(32))
    key[2] = seed[2]
    key[3] = seed[3]
    count = 4
    while count > 1 and key[count - 1] == 0:
        count -= 1
    return count


@native_alloc
def deal_seed(seed: npt.NDArray[np.int64], shuffle_no: int, salt: int, mt: npt.NDArray[np.int64]) -> None:
    """Seed ``mt`` with ``mix(s, shuffle_no) ^ salt``, ``s`` the match seed as four 32-bit words (low first).

    ``salt`` is 0 for the shuffle, ``CHOICE_SALT`` or ``SIZE_SALT`` (as signed words) for the other streams.
    """
    key = np.empty(4, dtype=np.int64)
    seed_words(key, _deal_key(seed, shuffle_no, salt, key), mt)


@native
def _lazy_word(mt: npt.NDArray[np.int64], done: npt.NDArray[np.int64]) -> int:
    """The next word of a generator just seeded, twisting only as far as it reads (``done[0]`` words so far).

    The twist computes word ``i`` from words ``i + 1`` and ``i + 397`` as they stand when it reaches ``i``,
    so computing the words in order as they are read gives the same words as twisting all 624 at once.
    Only for fewer than 624 words (a deal's streams read a few dozen).
    """
    i = mt[624]
    if i >= 624:
        i = 0
        mt[624] = 0
    while done[0] <= i:
        k = done[0]
        y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7FFFFFFF)
        mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        done[0] += 1
    y = mt[i]
    mt[624] = i + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    return int(y ^ (y >> 18))


@native
def _lazy_random(mt: npt.NDArray[np.int64], done: npt.NDArray[np.int64]) -> float:
    a = _lazy_word(mt, done) >> 5
    b = _lazy_word(mt, done) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@native_alloc
def deal_random(seed: npt.NDArray[np.int64], shuffle_no: int, salt: int) -> float:
    """The first ``random()`` of the deal's stream ``salt`` (``rng.chosen``, ``rng.chosen_size``)."""
    mt = np.empty(MT_SIZE, dtype=np.int64)
    done = np.zeros(1, dtype=np.int64)
    deal_seed(seed, shuffle_no, salt, mt)
    return _lazy_random(mt, done)


@native_alloc
def _shuffle_from(mt: npt.NDArray[np.int64], order: npt.NDArray[np.int64], n: int) -> None:
    """Fisher-Yates from the last position down, drawing from ``mt`` just seeded (``rng.shuffled``)."""
    done = np.zeros(1, dtype=np.int64)
    for i in range(n):
        order[i] = i
    for i in range(n - 1, 0, -1):
        j = int(_lazy_random(mt, done) * (i + 1))
        order[i], order[j] = order[j], order[i]


@native_alloc
def deal_shuffle_ahead(
    seed: npt.NDArray[np.int64],
    shuffle_no: int,
    order: npt.NDArray[np.int64],
    n: int,
    ahead: npt.NDArray[np.int64],
    held: int,
) -> int:
    """``rng.shuffled(seed, shuffle_no, n)`` into ``order[:n]``, the next shuffle's generator seeded beside it.

    ``held`` says which shuffle ``ahead`` holds, seeded and not drawn from (its number plus one; 0: none).
    If it is this one, it is drawn from; otherwise this shuffle and the next are seeded as a pair
    (:func:`seed_two`), since a match's deals take consecutive shuffles. Returns what ``ahead`` holds now.
    """
    if held == shuffle_no + 1:
        _shuffle_from(ahead, order, n)
        return 0
    key_a = np.empty(4, dtype=np.int64)
    key_b = np.empty(4, dtype=np.int64)
    count_a = _deal_key(seed, shuffle_no, 0, key_a)
    count_b = _deal_key(seed, shuffle_no + 1, 0, key_b)
    a = np.empty(MT_SIZE, dtype=np.int64)
    seed_two(key_a, count_a, a, key_b, count_b, ahead)
    _shuffle_from(a, order, n)
    return shuffle_no + 2


@native_alloc
def deal_shuffle_and_random(
    seed: npt.NDArray[np.int64], shuffle_no: int, salt: int, order: npt.NDArray[np.int64], n: int
) -> float:
    """The deal's shuffle and :func:`deal_random` of stream ``salt``, their generators seeded as a pair."""
    key_a = np.empty(4, dtype=np.int64)
    key_b = np.empty(4, dtype=np.int64)
    count_a = _deal_key(seed, shuffle_no, 0, key_a)
    count_b = _deal_key(seed, shuffle_no, salt, key_b)
    a = np.empty(MT_SIZE, dtype=np.int64)
    b = np.empty(MT_SIZE, dtype=np.int64)
    seed_two(key_a, count_a, a, key_b, count_b, b)
    _shuffle_from(a, order, n)
    return _lazy_random(b, np.zeros(1, dtype=np.int64))


def from_random(rng: _random.Random) -> npt.NDArray[np.int64]:
    """A native generator in the state of ``rng`` (so both draw the same numbers from here on)."""
    state = rng.getstate()[1]
    return np.array(state, dtype=np.int64)


def words_of(value: int) -> npt.NDArray[np.int64]:
    """A seed below 2**128 as four 32-bit words, low first (``ValueError`` past 128 bits)."""
    if value < 0 or value >> 128:
        raise ValueError("the native kernel takes match seeds from 0 to 2**128 - 1")
    return np.array([(value >> (32 * i)) & 0xFFFFFFFF for i in range(4)], dtype=np.int64)
