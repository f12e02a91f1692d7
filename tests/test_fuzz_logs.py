"""Fuzzing the log and view readers with a fixed budget (``benchmarks/fuzz.py --target log`` runs it long).

Every near-valid log or view text must end in success or one of the library's
errors, within ``LIMIT`` seconds (a guard against a hang, not a speed
measurement).
"""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings

from fuzz_logs import check_log_text, check_view_text, log_texts, view_texts

LIMIT = 2.0
_SETTINGS = settings(
    max_examples=150, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)


@_SETTINGS
@given(text=log_texts())
def test_any_near_valid_log_is_read_and_replayed_or_refused_by_a_library_error(text: str | bytes) -> None:
    started = time.perf_counter()
    check_log_text(text)
    assert time.perf_counter() - started < LIMIT


@_SETTINGS
@given(text=view_texts())
def test_any_near_valid_view_is_read_or_refused_by_a_library_error(text: str | bytes) -> None:
    started = time.perf_counter()
    check_view_text(text)
    assert time.perf_counter() - started < LIMIT
