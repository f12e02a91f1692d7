"""The simulation's per-match seeds, derived natively: BLAKE2b of ``"{seed}:{index}:{purpose}"``.

:func:`trickrules.faces.simulate.derive` gives match ``index`` of a simulation
seeded ``seed`` its 128-bit seeds, one per purpose (``"match"``, ``"bots"``):
the BLAKE2b digest (16 bytes, no key) of that text, read big-endian. The
kernel derives a chunk's seeds itself (:func:`derive_words`): 0.59 µs a match
against 1.06 µs through ``hashlib`` (measured over 40,000 matches), on a
one-deal Oh Hell match of about 13.6 µs. The text is short (a seed of at most
:data:`MAX_HEAD` bytes with its colon), so each seed is one compression of one
block. ``tests/test_kernel_stats.py`` checks it against ``hashlib``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.native.jit import native, native_alloc

__all__ = ["MAX_HEAD", "derive_words"]

#: The longest ``"{seed}:"`` the kernel derives from (a longer seed is derived in Python).
MAX_HEAD = 100

_IV = np.array(
    [
        0x6A09E667F3BCC908, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1,
        0x510E527FADE682D1, 0x9B05688C2B3E6C1F, 0x1F83D9ABFB41BD6B, 0x5BE0CD19137E2179,
    ],
    dtype=np.uint64,
)  # fmt: skip
_SIGMA = np.array(
    [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
        [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
        [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
        [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
        [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
        [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
        [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
        [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
        [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
    ],
    dtype=np.int64,
)


@native
def _rotr(x: np.uint64, n: int) -> np.uint64:
    return (x >> np.uint64(n)) | (x << np.uint64(64 - n))


@native
def _g(v: npt.NDArray[np.uint64], a: int, b: int, c: int, d: int, x: np.uint64, y: np.uint64) -> None:
    v[a] = v[a] + v[b] + x
    v[d] = _rotr(v[d] ^ v[a], 32)
    v[c] = v[c] + v[d]
    v[b] = _rotr(v[b] ^ v[c], 24)
    v[a] = v[a] + v[b] + y
    v[d] = _rotr(v[d] ^ v[a], 16)
    v[c] = v[c] + v[d]
    v[b] = _rotr(v[b] ^ v[c], 63)


@native_alloc
def _digest16(block: npt.NDArray[np.uint8], n: int) -> tuple[np.uint64, np.uint64]:
    """The first two words of BLAKE2b-128 of ``block[:n]`` (``n`` at most 128; the rest of the block zero)."""
    m = np.zeros(16, dtype=np.uint64)
    for i in range(n):
        m[i >> 3] |= np.uint64(block[i]) << np.uint64(8 * (i & 7))
    h = _IV.copy()
    h[0] ^= np.uint64(0x01010000 | 16)  # depth 1, fanout 1, no key, 16 bytes out
    v = np.empty(16, dtype=np.uint64)
    v[:8] = h
    v[8:] = _IV
    v[12] ^= np.uint64(n)  # the bytes hashed (the high counter word stays 0)
    v[14] = ~v[14]  # the last block
    for r in range(12):
        s = _SIGMA[r % 10]
        _g(v, 0, 4, 8, 12, m[s[0]], m[s[1]])
        _g(v, 1, 5, 9, 13, m[s[2]], m[s[3]])
        _g(v, 2, 6, 10, 14, m[s[4]], m[s[5]])
        _g(v, 3, 7, 11, 15, m[s[6]], m[s[7]])
        _g(v, 0, 5, 10, 15, m[s[8]], m[s[9]])
        _g(v, 1, 6, 11, 12, m[s[10]], m[s[11]])
        _g(v, 2, 7, 8, 13, m[s[12]], m[s[13]])
        _g(v, 3, 4, 9, 14, m[s[14]], m[s[15]])
    return h[0] ^ v[0] ^ v[8], h[1] ^ v[1] ^ v[9]


@native
def _bswap32(x: np.uint64) -> int:
    x &= np.uint64(0xFFFFFFFF)
    return int(
        ((x & np.uint64(0xFF)) << np.uint64(24))
        | ((x & np.uint64(0xFF00)) << np.uint64(8))
        | ((x >> np.uint64(8)) & np.uint64(0xFF00))
        | (x >> np.uint64(24))
    )


@native_alloc
def _seed(
    block: npt.NDArray[np.uint8], at: int, index: int, tail: npt.NDArray[np.uint8], out: npt.NDArray[np.int64]
) -> None:
    """Write ``index`` in decimal and ``tail`` after ``block[:at]``, and the digest's seed into ``out``.

    ``out`` gets four 32-bit words, low first: the digest read big-endian.
    """
    digits = np.empty(20, dtype=np.uint8)
    k = 0
    i = index
    while True:
        digits[k] = 48 + i % 10
        k += 1
        i //= 10
        if i == 0:
            break
    n = at
    for j in range(k - 1, -1, -1):
        block[n] = digits[j]
        n += 1
    for j in range(tail.shape[0]):
        block[n] = tail[j]
        n += 1
    h0, h1 = _digest16(block, n)
    # The digest's bytes are h0's then h1's, each little-endian; read big-endian, its low word is h1's high
    # four bytes reversed.
    out[0] = _bswap32(h1 >> np.uint64(32))
    out[1] = _bswap32(h1)
    out[2] = _bswap32(h0 >> np.uint64(32))
    out[3] = _bswap32(h0)


@native_alloc
def derive_words(
    head: npt.NDArray[np.uint8], first: int, words: npt.NDArray[np.int64], match: npt.NDArray[np.uint8],
    bots: npt.NDArray[np.uint8],
) -> None:
    """Row ``i`` of ``words``: match ``first + i``'s seed's four words, then its bots' four, each low first.

    ``head`` is ``"{seed}:"`` (at most :data:`MAX_HEAD` bytes), ``match`` and ``bots`` the tails
    ``":match"`` and ``":bots"``; the index is not negative.
    """
    block = np.zeros(128, dtype=np.uint8)
    for j in range(head.shape[0]):
        block[j] = head[j]
    for i in range(words.shape[0]):
        _seed(block, head.shape[0], first + i, match, words[i, :4])
        _seed(block, head.shape[0], first + i, bots, words[i, 4:])
