"""The simulation's bookkeeping around the kernel: seeds derived in bulk and final totals summed in int64.

Both are fast paths of values the engine's path computes one by one; each is checked against that.
"""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from trickrules.faces.kernel_stats import _final_sums  # noqa: E402
from trickrules.faces.simulate import _derived, derive  # noqa: E402
from trickrules.native.mt import words_of  # noqa: E402


@pytest.mark.parametrize("seed", [0, 7, -5, 2**64 + 11, 2**127 - 1])
def test_seeds_derived_in_bulk_are_derive(seed: int) -> None:
    """Each row is ``derive``'s seed for that match, as the kernel's words."""
    for purpose in ("match", "bots"):
        rows = _derived(seed, range(5, 17), purpose)
        expected = [list(words_of(derive(seed, i, purpose))) for i in range(5, 17)]
        assert [[int(w) for w in row] for row in rows] == expected


def _exact(finals: list[list[int]]) -> tuple[list[int], list[int], tuple[int, int]]:
    seats = len(finals[0]) if finals else 0
    spread = [max(f) - min(f) for f in finals]
    return (
        [sum(f[s] for f in finals) for s in range(seats)],
        [sum(f[s] ** 2 for f in finals) for s in range(seats)],
        (sum(spread), sum(d * d for d in spread)),
    )


@pytest.mark.parametrize("largest", [0, 1, 50, 10**6, 2**30, 2**40, 2**61])
def test_final_sums_are_exact(largest: int) -> None:
    """Small totals are summed in int64, large ones on Python integers: the sums are exact either way."""
    rng = np.random.default_rng(largest)
    finals = rng.integers(-largest, largest + 1, size=(300, 4), dtype=np.int64)
    assert _final_sums(finals) == _exact(finals.tolist())


def test_final_sums_of_no_matches() -> None:
    """No rows: every sum is zero."""
    assert _final_sums(np.zeros((0, 3), dtype=np.int64)) == ([0, 0, 0], [0, 0, 0], (0, 0))


@pytest.mark.parametrize("seed", [0, 7, -5, 2**64 + 11, 10**97, -(10**97)])
def test_seeds_derived_natively_are_derive(seed: int) -> None:
    """The kernel's BLAKE2b gives ``derive``'s seeds, at indices of every length up to 19 digits."""
    from trickrules.native.derive import MAX_HEAD, derive_words

    head = f"{seed}:".encode()
    assert len(head) <= MAX_HEAD
    tails = [np.frombuffer(f":{p}".encode(), dtype=np.uint8) for p in ("match", "bots")]
    for first in (0, 9, 99_999, 2**62):
        words = np.empty((12, 8), dtype=np.int64)
        derive_words(np.frombuffer(head, dtype=np.uint8), first, words, *tails)
        for i in range(12):
            assert [int(w) for w in words[i, :4]] == list(words_of(derive(seed, first + i, "match")))
            assert [int(w) for w in words[i, 4:]] == list(words_of(derive(seed, first + i, "bots")))


def test_a_seed_too_long_for_the_kernel_is_derived_in_python() -> None:
    """A seed of more digits than the kernel's block holds gives the same simulation as the engine's."""
    import trickrules
    from trickrules.native.derive import MAX_HEAD

    seed = 10 ** (MAX_HEAD + 5)
    game = trickrules.load("oh-hell")
    assert trickrules.simulate(game, deals=6, seed=seed) == trickrules.simulate(game, deals=6, seed=seed, native=False)
    assert trickrules.simulate(game, deals=6, seed=7) == trickrules.simulate(game, deals=6, seed=7, native=False)
