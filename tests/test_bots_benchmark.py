"""The duplicate-match benchmark's summary (``benchmarks/bots.py``): mean, share of the points, share of the deals."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bots as bench

RESULTS = st.lists(st.integers(-50, 50).map(float), min_size=2, max_size=60)


def test_the_shares_of_a_few_deals() -> None:
    mean, _, points, _, deals, _ = bench.summary([3.0, -1.0, 0.0, 2.0])
    assert mean == 1.0
    assert points == pytest.approx(5 / 6)  # A came out ahead by 3 + 2 of the 6 points the results differ by
    assert deals == pytest.approx((1 + 0 + 0.5 + 1) / 4)


@given(RESULTS)
def test_the_points_share_is_above_even_exactly_when_the_mean_result_is(results: list[float]) -> None:
    mean, _, points, _, _, _ = bench.summary(results)
    assert (points > 0.5) == (mean > 0)
    assert (points < 0.5) == (mean < 0)


@given(RESULTS)
def test_swapping_the_bots_gives_the_other_share_with_the_same_interval(results: list[float]) -> None:
    _, _, points, half, _, _ = bench.summary(results)
    _, _, other, other_half = bench.summary([-r for r in results])[:4]
    assert points + other == pytest.approx(1.0)
    assert half == pytest.approx(other_half) or (math.isinf(half) and math.isinf(other_half))


def test_the_points_share_interval_narrows_as_the_same_deals_repeat() -> None:
    few = bench.summary([4.0, -2.0, 1.0, -1.0, 3.0])
    many = bench.summary([4.0, -2.0, 1.0, -1.0, 3.0] * 16)
    assert few[2] == pytest.approx(many[2])
    assert many[3] < few[3] / 3
