"""Scored playouts on the kernel from engine states, against the engine's own play and scoring.

:class:`~trickrules.search.rollouts.Rollouts` fills the kernel's array from a
state (every mechanism's record and the deal's facts), plays the deal out on
the kernel and scores it with the kernel's scoring tables. At the last trick
every card is forced, so one playout must give exactly what the engine gives
for the rest of the deal; earlier, the mean of many playouts must agree with
the mean of the engine's random playouts within their sampling error.
"""

from __future__ import annotations

import random
import statistics

import pytest

import trickrules
from trickrules import State
from trickrules.faces.search_bots import deal_result
from trickrules.search.rollouts import Rollouts
from trickrules.spec.loader import bundled_names

#: The games with a kernel (the others have a registered mechanism or trump sets: their bots play out on
#: the engine).
KERNEL_GAMES = [n for n in bundled_names() if Rollouts(trickrules.load(n), 0).kernel is not None]


def test_the_games_with_a_kernel() -> None:
    assert set(bundled_names()) - set(KERNEL_GAMES) == {"bridge", "skat", "skat-openspiel", "tarok"}


def _position(game: trickrules.Game, seed: int, tricks_left: int) -> State | None:
    """A seeded random match's first deal at the start of the trick ``tricks_left`` tricks from its end."""
    rng = random.Random(seed)
    state = game.new_match(seed=seed)
    while not state.is_terminal and state.deal.number == 0:
        at_lead = state.phase == "play" and not state.trick and state.to_move is not None
        if at_lead and state.deal.tricks - len(state.tally.winners) == tricks_left:
            return state
        state = state.apply(rng.choice(state.legal_actions()))
    return None


def _play_out(state: State, rng: random.Random) -> State:
    end = state
    while not (end.is_terminal or end.deal.number != state.deal.number):
        end = end.apply(rng.choice(end.legal_actions()))
    return end


@pytest.mark.parametrize("name", KERNEL_GAMES)
def test_a_forced_last_trick_scores_as_the_engine_scores_it(name: str) -> None:
    game = trickrules.load(name)
    rollouts = Rollouts(game, seed=1)
    assert rollouts.kernel is not None
    checked = 0
    for seed in range(40):
        state = _position(game, seed, 1)
        if state is None:
            continue
        found = rollouts.results(state, 1)
        assert found is not None
        end = _play_out(state, random.Random(0))
        expected = [deal_result(game, state, end, seat) for seat in range(game.players)]
        assert found.tolist() == pytest.approx(expected), f"{name}, seed {seed}"
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("name", KERNEL_GAMES)
def test_playouts_from_the_middle_agree_with_the_engine_on_average(name: str) -> None:
    game = trickrules.load(name)
    rollouts = Rollouts(game, seed=2)
    state = next(s for seed in range(40) if (s := _position(game, seed, 3)) is not None)
    found = rollouts.results(state, 20000)
    assert found is not None
    rng = random.Random(5)
    runs = 300
    seat = state.to_move
    assert seat is not None
    engine = [deal_result(game, state, _play_out(state, rng), seat) for _ in range(runs)]
    error = statistics.stdev(engine) / runs**0.5
    assert abs(found[seat] - statistics.fmean(engine)) <= 4 * error + 1e-9, (found[seat], statistics.fmean(engine))


def test_where_the_kernel_does_not_play_out() -> None:
    bridge = Rollouts(trickrules.load("bridge"), seed=1)
    assert bridge.kernel is None  # a registered mechanism: the bots play out on the engine
    quadrille = trickrules.load("quadrille")
    rollouts = Rollouts(quadrille, seed=1)
    assert rollouts.results(quadrille.new_match(seed=1), 10) is None  # the deal is in its bidding
