"""The PettingZoo and Gymnasium environments (``trickrules.pettingzoo``) of every bundled game.

PettingZoo's own ``api_test`` passes on each game's AEC environment;
Gymnasium's ``check_env`` on a seat's environment. Stepping a whole match
with random legal ids gives every seat, in rewards, exactly its score;
observations are the seat's tensors and masks its legal actions.
"""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

from strategies import GAMES, short_game, short_options
from trickrules import ArgumentError

pettingzoo_test = pytest.importorskip("pettingzoo.test", reason="the pettingzoo extra is not installed")
env_checker = pytest.importorskip("gymnasium.utils.env_checker", reason="the pettingzoo extra is not installed")

import trickrules.pettingzoo as tp  # noqa: E402  (after the skips: it needs the extra)
from trickrules.faces.tensors import observation_tensor  # noqa: E402


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoos_api_test_passes(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # it recommends a Box to a dict of Boxes: masks need the dict
        pettingzoo_test.api_test(tp.env(name, **short_options(name)), num_cycles=300)


@pytest.mark.parametrize("name", GAMES)
def test_a_match_stepped_at_random_pays_each_seat_its_score(name: str) -> None:
    env = tp.env(name, **short_options(name))
    env.reset(seed=5)
    assert env.state is not None
    start = env.state.scoreboard  # antes paid as the match starts come before the first decision
    rng = random.Random(5)
    total = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter(max_iter=20000):
        observation, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert env.state is not None
        seat = env.agent_name_mapping[agent]
        assert np.array_equal(observation["observation"], observation_tensor(env.state, seat))
        legal = np.flatnonzero(observation["action_mask"])
        assert [env.game.action_of(int(i)) for i in legal] == sorted(
            env.state.legal_actions(), key=env.game.action_id
        )
        env.step(int(rng.choice(list(legal))))
        steps += 1
    assert env.state is not None
    assert env.state.is_terminal
    board = env.state.scoreboard
    assert total == {a: float(board[s] - start[s]) for a, s in env.agent_name_mapping.items()}
    assert steps > 10


def test_an_episode_may_be_one_deal_and_the_table_renders() -> None:
    env = tp.env("manille", render_mode="ansi", episode="deal")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str)
    assert "seat" in text.lower()
    deal = env.state.deal.number if env.state is not None else None
    for agent in env.agent_iter(max_iter=5000):
        *_, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    assert env.state is not None
    assert env.state.deal.number != deal
    picture = tp.env("manille", render_mode="svg")
    picture.reset(seed=2)
    assert str(picture.render()).startswith("<svg")


@pytest.mark.parametrize("name", ["manille", "hearts", "bridge", "skat", "tarok", "quadrille"])
def test_one_seats_gymnasium_environment_passes_check_env(name: str) -> None:
    env = tp.single_agent_env(name, seat=1, bots="heuristic", **short_options(name))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env_checker.check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=3)
    assert obs.shape == env.observation_space.shape
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        obs, _, done, _, info = env.step(np.int64(legal[0]))
    assert env.aec.state is not None
    assert env.aec.state.is_terminal


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ArgumentError, match="render_mode must be one of"):
        tp.env("manille", render_mode="human")
    with pytest.raises(ArgumentError, match="episode must be one of"):
        tp.env("manille", episode="rubber")
    with pytest.raises(ArgumentError, match="options are given with a game's name"):
        tp.env(short_game("manille"), deals="1")
    env = tp.env("manille")
    with pytest.raises(ArgumentError, match="call reset"):
        env.step(0)
    env.reset(seed=1)
    with pytest.raises(ArgumentError, match="is not legal here"):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0]))
    seat = tp.single_agent_env("manille")
    _, info = seat.reset(seed=1)
    before = seat.aec.state
    *_, info = seat.step(np.int64(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert info["illegal"]
    assert seat.aec.state is before
