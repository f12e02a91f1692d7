"""The kernel's Mersenne Twister against CPython's: seeding, draws, and the engine's deal streams."""

from __future__ import annotations

import random

import numpy as np
import pytest

from trickrules.engine import rng
from trickrules.native import mt
from trickrules.native.tables import word

SEEDS = [0, 1, 2**32 - 1, 2**32, 2**63 + 5, 2**64 - 1, 2**96 + 7, 2**128 - 1, *range(3, 40, 7)]


def _key(value: int) -> tuple[np.ndarray, int]:
    """``value``'s 32-bit words for ``seed_words``, as ``random.seed`` takes them (at least one word)."""
    words = []
    while True:
        words.append(value & 0xFFFFFFFF)
        value >>= 32
        if not value:
            break
    return np.array(words, dtype=np.int64), len(words)


@pytest.mark.parametrize("value", [*SEEDS, "long"])
def test_seeding_gives_cpythons_state(value: int | str) -> None:
    """``seed_words`` leaves the 624 words and the index of ``random.Random(value)`` (also past 624 key words)."""
    if value == "long":
        value = 2**22400 + 12345  # 701 key words
    assert isinstance(value, int)
    key, count = _key(value)
    state = np.zeros(mt.MT_SIZE, dtype=np.int64)
    mt.seed_words(key, count, state)
    assert tuple(int(w) for w in state) == random.Random(value).getstate()[1]


def test_draws_follow_cpython() -> None:
    """``random`` and ``choose`` draw what ``Random.random()`` draws, across several twists."""
    ours = mt.from_random(random.Random(99))
    theirs = random.Random(99)
    for count in range(1, 3000):
        if count % 2:
            assert mt.random(ours) == theirs.random()
        else:
            assert mt.choose(ours, count) == int(theirs.random() * count)


@pytest.mark.parametrize("seed", SEEDS)
def test_deal_streams_follow_the_engine(seed: int) -> None:
    """The deal's shuffle and its two chance streams are the engine's (``shuffled``, ``chosen``, ``chosen_size``)."""
    words = mt.words_of(seed)
    order = np.zeros(300, dtype=np.int64)
    ahead = np.zeros(mt.MT_SIZE, dtype=np.int64)
    for shuffle_no in (0, 1, 17):
        for n in (24, 52, 300):
            assert mt.deal_shuffle_ahead(words, shuffle_no, order, n, ahead, 0) == shuffle_no + 2
            assert [int(c) for c in order[:n]] == rng.shuffled(seed, shuffle_no, n)
        for salt, chosen in ((rng.CHOICE_SALT, rng.chosen), (rng.SIZE_SALT, rng.chosen_size)):
            draw = mt.deal_random(words, shuffle_no, word(salt))
            assert int(draw * 1000) == chosen(seed, shuffle_no, 1000)


@pytest.mark.parametrize("seed", SEEDS)
def test_shuffles_seeded_ahead(seed: int) -> None:
    """A match's consecutive shuffles are the engine's, every other one drawn from the generator seeded ahead.

    A generator held for another shuffle than the one dealt is not drawn from.
    """
    words = mt.words_of(seed)
    order = np.zeros(52, dtype=np.int64)
    ahead = np.zeros(mt.MT_SIZE, dtype=np.int64)
    held = 0
    for shuffle_no in (0, 1, 2, 3, 4, 9, 10, 12):
        was = held
        held = mt.deal_shuffle_ahead(words, shuffle_no, order, 52, ahead, held)
        assert [int(c) for c in order] == rng.shuffled(seed, shuffle_no, 52), shuffle_no
        assert held == (0 if was == shuffle_no + 1 else shuffle_no + 2)


@pytest.mark.parametrize("seed", SEEDS)
def test_streams_seeded_as_a_pair(seed: int) -> None:
    """``seed_two`` seeds each generator as ``seed_words`` does; the shuffle with the size draw is the engine's."""
    words = mt.words_of(seed)
    for shuffle_no in (0, 5):
        order = np.zeros(52, dtype=np.int64)
        drawn = mt.deal_shuffle_and_random(words, shuffle_no, word(rng.SIZE_SALT), order, 52)
        assert [int(c) for c in order] == rng.shuffled(seed, shuffle_no, 52)
        assert int(drawn * 7) == rng.chosen_size(seed, shuffle_no, 7)
    key_a, count_a = _key(seed)
    key_b, count_b = _key(seed * 3 + 1)
    a = np.zeros(mt.MT_SIZE, dtype=np.int64)
    b = np.zeros(mt.MT_SIZE, dtype=np.int64)
    mt.seed_two(key_a, count_a, a, key_b, count_b, b)
    assert tuple(int(w) for w in a) == random.Random(seed).getstate()[1]
    assert tuple(int(w) for w in b) == random.Random(seed * 3 + 1).getstate()[1]
