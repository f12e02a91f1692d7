"""Every bundled game as an OpenSpiel game (``trickrules.openspiel``), checked by OpenSpiel itself.

- ``pyspiel.random_sim_test`` (OpenSpiel's own test of a game: chance,
  legal actions, tensors and strings, serialisation, cloning) passes on each
  bundled game's adapter.
- OpenSpiel's algorithms run on it: its MCTS bot plays a whole match of
  Manille, and its CFR solves a reduced game (``docs/examples/rl/tiny_whist.toml``,
  six cards for two) towards equilibrium.
- The adapter's legal actions are compared with OpenSpiel's own Hearts,
  Spades, Euchre, Oh Hell, Bridge, Skat and Tarok at every decision of the
  cross-engine tests (``tests/crossengine``: ``parts.adapter_legal``).
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import trickrules
from strategies import GAMES
from trickrules import ArgumentError

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")

import trickrules.openspiel as adapter  # noqa: E402  (after the skip: it needs the extra)

TINY = str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "rl" / "tiny_whist.toml")


@pytest.mark.parametrize("name", GAMES)
def test_openspiels_random_sim_test_passes(name: str) -> None:
    game = pyspiel.load_game(adapter.game_name(name), {"episode": "deal"})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_a_game_loads_by_its_name_with_options_and_plays() -> None:
    game = pyspiel.load_game("trickrules_quadrille", {"forced_spadille": "off"})
    assert game.num_players() == 4
    assert "forced_spadille=off" in str(game)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == 40
    assert pyspiel.load_game(str(game)).num_distinct_actions() == game.num_distinct_actions()
    with pytest.raises(ArgumentError, match="episode must be one of"):
        pyspiel.load_game("trickrules_manille", {"episode": "rubber"})
    with pytest.raises(ArgumentError, match="not a chance outcome's id here"):
        state.apply_action(9999)
    with pytest.raises(trickrules.SpecError, match="option 'match_end' has no choice '7'"):
        pyspiel.load_game("trickrules_manille", {"match_end": 7})


def test_openspiels_mcts_bot_plays_a_whole_match_of_manille() -> None:
    """OpenSpiel's MCTS bot (its Python one: the C++ bot crashes on any Python game in this pyspiel) for seats 0 and 2.

    Deal by deal: each deal is an episode (``episode="deal"``) whose rollouts end with it, and the next deal
    goes on from the state the last one ended in.
    """
    from open_spiel.python.algorithms import mcts

    inner = trickrules.load("manille", {"match_end": "12"}).new_match(seed=3, chance="caller")
    game = adapter.wrap(inner, "deal").get_game()
    rng = np.random.RandomState(7)
    bot = mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    chance = random.Random(1)
    searched = deals = 0
    while not inner.is_terminal:
        state = adapter.wrap(inner, "deal")
        deals += 1
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[chance.randrange(len(outcomes))][0])
                continue
            seat = state.current_player()
            action = bot.step(state) if seat in (0, 2) else chance.choice(state.legal_actions())
            assert action in state.legal_actions()
            searched += seat in (0, 2)
            state.apply_action(action)
        assert state.returns() == [
            float(x) for x in (state.inner.scoreboard[s] - inner.scoreboard[s] for s in range(4))
        ]
        inner = state.inner
    assert deals > 1
    assert searched > 30


def test_openspiels_cfr_solves_a_reduced_game() -> None:
    """CFR on two-card hands from six cards: its average policy's NashConv falls by an order of magnitude."""
    from open_spiel.python.algorithms import cfr, exploitability

    short = "trickrules_test_tiny_whist"
    if short not in pyspiel.registered_names():
        adapter.register(TINY, short)
    game = pyspiel.load_game(short, {"episode": "deal"})
    solver = cfr.CFRSolver(game)
    first = exploitability.nash_conv(game, solver.average_policy())
    for _ in range(12):
        solver.evaluate_and_update_policy()
    last = exploitability.nash_conv(game, solver.average_policy())
    assert first > 0.1
    assert last < first / 8
