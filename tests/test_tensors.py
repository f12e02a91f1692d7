"""Tensors of a seat's knowledge (``trickrules.faces.tensors``): leak-free, and telling apart what the seat can.

- Leak-free: in every world consistent with a seat's log and view (the
  hidden cards dealt again, :func:`~trickrules.search.worlds.sample_worlds`),
  the seat's observation and information-state tensors are those of the
  true state (random positions of every bundled game).
- Complete: two positions the seat can tell apart (its view, or its log of
  the deal so far, differ) never give the same information-state tensor
  (every position and seat of random matches of every bundled game, grouped
  by tensor).
- The layout is the spec's: its sections follow one another and fill the
  tensor; a mechanism without an encoder is named.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings

from strategies import GAMES, POSITIONS, Policy, played_to, scaled, short_game
from trickrules import ArgumentError, EventLog, Game, State, View
from trickrules.engine.events import Dealt
from trickrules.faces.tensors import (
    information_layout,
    information_state_tensor,
    observation_layout,
    observation_tensor,
)
from trickrules.search.worlds import sample_worlds


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=scaled(5, 20), derandomize=True, deadline=None)
@given(**POSITIONS)
def test_no_world_consistent_with_the_seat_changes_its_tensors(
    name: str, seed: int, pass_bias: float, stop: int, seat: int
) -> None:
    game = short_game(name)
    state = played_to(game, seed, pass_bias, stop)
    seat %= game.players
    observed = observation_tensor(state, seat)
    informed = information_state_tensor(state, seat)
    assert observed.shape == (observation_layout(game).size,)
    assert informed.shape == (information_layout(game).size,)
    known = EventLog.from_state(state).for_seat(seat)
    worlds = sample_worlds(known, 3, seed=seed, view=View.from_state(state, seat))
    for world in worlds:
        assert np.array_equal(observation_tensor(world, seat), observed)
        assert np.array_equal(information_state_tensor(world, seat), informed)


def _deal_log(state: State, seat: int) -> str:
    """The seat's log of the deal so far (from its deal's ``Dealt``), as text."""
    entries = EventLog.from_state(state).for_seat(seat).entries
    start = max((i for i, e in enumerate(entries) if isinstance(e.event, Dealt)), default=0)
    return repr([(e.actor, e.event) for e in entries[start:]])


@pytest.mark.parametrize("name", GAMES)
def test_positions_a_seat_tells_apart_have_different_information_states(name: str) -> None:
    game = short_game(name)
    seen: dict[tuple[int, bytes], str] = {}
    checked = 0
    for seed in range(scaled(4, 12)):
        rng = random.Random(seed)
        for branch in range(3):  # the same deal, played three ways
            policy = Policy(seed * 10 + branch, rng.choice([0.0, 0.6, 0.9]))
            state = game.new_match(seed=seed)
            for _ in range(rng.randrange(20, 160)):
                if state.is_terminal:
                    break
                for seat in range(game.players):
                    key = (seat, information_state_tensor(state, seat).tobytes())
                    known = View.from_state(state, seat).to_json() + _deal_log(state, seat)
                    assert seen.setdefault(key, known) == known, f"two positions of seat {seat} share a tensor"
                    checked += 1
                state = state.apply(policy.choose(state))
        for state in _two_tricks(game, seed, 20):  # the same cards gone, taken in other orders
            key = (0, information_state_tensor(state, 0).tobytes())
            known = View.from_state(state, 0).to_json() + _deal_log(state, 0)
            assert seen.setdefault(key, known) == known, "two positions of seat 0 share a tensor"
    assert checked > 100


def _two_tricks(game: Game, seed: int, branches: int) -> list[State]:
    """Positions two tricks into the play of one deal, each reached by other random cards."""
    state = game.new_match(seed=seed)
    policy = Policy(seed, 0.8)
    while not state.is_terminal and state.phase != "play":
        state = state.apply(policy.choose(state))
    out = []
    for branch in range(branches):
        rng = random.Random(branch)
        s = state
        for _ in range(2 * game.players):
            if s.is_terminal or s.phase != "play":
                break
            s = s.apply(rng.choice(s.legal_actions()))
        out.append(s)
    return out


@pytest.mark.parametrize("name", ["oh-hell", "quintille"])
def test_the_play_in_order_tells_apart_what_the_observation_cannot(name: str) -> None:
    """Two tricks of the same cards taken in another order look alike now, but not in the information state."""
    game = short_game(name)
    first: dict[bytes, tuple[str, bytes]] = {}
    told_apart = 0
    for state in _two_tricks(game, 3, 200):
        log = View.from_state(state, 0).to_json() + _deal_log(state, 0)
        informed = information_state_tensor(state, 0).tobytes()
        earlier = first.setdefault(observation_tensor(state, 0).tobytes(), (log, informed))
        if earlier[0] != log:
            assert earlier[1] != informed
            told_apart += 1
    assert told_apart


def test_the_sections_follow_one_another_and_fill_the_tensor() -> None:
    for name in GAMES:
        game = short_game(name)
        for layout in (observation_layout(game), information_layout(game)):
            ends = [s.start + s.size for s in layout.sections]
            assert [s.start for s in layout.sections] == [0, *ends[:-1]]
            assert ends[-1] == layout.size
            assert "hand" in layout.describe()
    layout = information_layout(short_game("bridge"))
    assert layout.section("plays").shape == (52, 4 + 52)
    with pytest.raises(ArgumentError, match="no section 'nothing'"):
        layout.section("nothing")


def test_the_seat_to_encode_is_checked() -> None:
    state = short_game("manille").new_match(seed=1)
    with pytest.raises(ArgumentError, match="seat must be a seat from 0 to 3"):
        observation_tensor(state, 4)
