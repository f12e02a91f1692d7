"""200 seeded matches give byte-identical logs, before and after any refactor.

``tests/golden/logs.json`` holds the SHA-256 of the whole log of each match
of :mod:`golden.make_logs` (every bundled game and overlay, and a few
options, by random and heuristic bots), as written at 336282f. A change that
alters any event of any of them fails here, naming the match.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from golden.make_logs import ADDED, PER_SETTING, RECORDED, cases, digest, key
from trickrules.spec.loader import bundled_names

EXPECTED: dict[str, str] = json.loads((Path(__file__).parent / "golden" / "logs.json").read_text())


def test_the_golden_cases_are_the_recorded_ones() -> None:
    assert len(cases()) == 200 + PER_SETTING * len(ADDED)
    assert sorted(key(*case) for case in cases()) == sorted(EXPECTED)


def test_every_bundled_game_has_golden_matches() -> None:
    assert sorted((*RECORDED, *ADDED)) == sorted(bundled_names())


@pytest.mark.parametrize("case", cases(), ids=[key(*case) for case in cases()])
def test_a_golden_match_gives_the_same_log(case: tuple[str, dict[str, str], int, str]) -> None:
    assert digest(*case) == EXPECTED[key(*case)]
