"""Shared test setup: Hypothesis profiles and the loaded games.

Pick a profile with the ``HYPOTHESIS_PROFILE`` environment variable (where it
is unset, ``ci`` when the ``CI`` variable is set, as in CI runs, else ``dev``):

* ``dev`` (the default): few examples, so the whole suite stays quick;
* ``ci``: many more examples, derandomized (the same examples on every run,
  so a failure in CI reproduces locally with the same profile).

Both turn the per-example deadline off: an example here can play a whole
match, and its time depends on how long the match lasts.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

from strategies import GAMES, PROFILE, full_game, short_game
from trickrules import Game

settings.register_profile(
    "dev",
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
# CI runs set CI=true: there the thorough profile runs (at least 1,000 random deals per game).
# strategies.PROFILE applies that rule, so the example counts it scales agree with the profile.
settings.load_profile(PROFILE)


@pytest.fixture(scope="session", params=GAMES)
def game_name(request: pytest.FixtureRequest) -> str:
    """Each bundled game's name in turn."""
    name: str = request.param
    return name


@pytest.fixture(scope="session")
def game(game_name: str) -> Game:
    """Each bundled game with short-match options (loaded once per session)."""
    return short_game(game_name)


@pytest.fixture(scope="session")
def long_game(game_name: str) -> Game:
    """Each bundled game with its default options: full-length matches."""
    return full_game(game_name)
