"""Fuzzing the spec loader and the formula compiler with a fixed budget (``benchmarks/fuzz.py`` runs them long).

Every near-valid spec must load, or be refused by one of the library's
errors, within ``LIMIT`` seconds (a guard against a hang, not a speed
measurement), and a spec that loads must play a few hundred random steps the
same way. Every formula must compile, evaluate and be range-checked, or be
refused by a library error, and the range check must be sound. The
strategies are in ``tests/fuzz_specs.py``.
"""

from __future__ import annotations

import time
from datetime import timedelta

from hypothesis import HealthCheck, given, settings

from fuzz_specs import FormulaCase, SpecCase, check_formula_case, check_spec_case, formula_cases, spec_cases

#: Seconds one input may take; also the deadline (inputs take a few milliseconds, a load and play well under 1 s).
LIMIT = 2.0
_SETTINGS = settings(
    derandomize=True, deadline=timedelta(seconds=LIMIT), database=None, suppress_health_check=list(HealthCheck)
)


@settings(_SETTINGS, max_examples=120)
@given(case=spec_cases())
def test_any_near_valid_spec_loads_and_plays_or_is_refused_by_a_library_error(case: SpecCase) -> None:
    started = time.perf_counter()
    check_spec_case(case)
    assert time.perf_counter() - started < LIMIT


@settings(_SETTINGS, max_examples=1000)
@given(case=formula_cases())
def test_any_near_valid_formula_compiles_and_is_range_checked_soundly_or_is_refused(case: FormulaCase) -> None:
    started = time.perf_counter()
    check_formula_case(case)
    assert time.perf_counter() - started < LIMIT
