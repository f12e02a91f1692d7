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
