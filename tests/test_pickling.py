"""Pickling: games, states, views, events and logs survive a round trip, and a process pool plays matches.

A ``Game`` pickles by its spec and is compiled again on the other side; a
``State`` pickles with its history flat (no depth limit is hit by a long
match). The round trips are checked for every bundled game at the default
protocol, and for one game at every protocol from 2 up. An unpickled state
is not only equal: it lists the same legal actions and gives the same states
and events as the original when the same actions follow. Last, a
``concurrent.futures.ProcessPoolExecutor`` with two worker processes plays
seeded matches of two games from pickled games, and each final state it
sends back equals the same match played here and replays from its log.
"""

from __future__ import annotations

import concurrent.futures
import functools
import multiprocessing
import pickle
import random
import sys
from typing import Any, TypeVar

import pytest

import trickrules
from strategies import GAMES, short_game
from trickrules import Action, EventLog, Game, State, View
from trickrules.engine import game as game_module
from trickrules.engine.events import Event

T = TypeVar("T")

#: Every protocol from 2 (the oldest a process pool could be asked to use) to the newest.
PROTOCOLS = tuple(range(2, pickle.HIGHEST_PROTOCOL + 1))


def round_trip(value: T, protocol: int = pickle.DEFAULT_PROTOCOL) -> T:
    """``value`` pickled and unpickled."""
    back: T = pickle.loads(pickle.dumps(value, protocol=protocol))
    return back


def play(game: Game, seed: int, policy: int, steps: int | None = None) -> State:
    """A random match of ``game`` from ``seed``, the actions drawn by ``random.Random(policy)`` (at most ``steps``)."""
    rng = random.Random(policy)
    state = game.new_match(seed=seed, dealer=seed % game.players)
    taken = 0
    while not state.is_terminal and (steps is None or taken < steps):
        state = state.apply(rng.choice(state.legal_actions()))
        taken += 1
    return state


@functools.cache
def match(name: str) -> tuple[State, ...]:
    """Every state of one seeded random match of ``name`` (short options), first to last."""
    game = short_game(name)
    rng = random.Random(3)
    state = game.new_match(seed=21)
    states = [state]
    while not state.is_terminal:
        state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return tuple(states)


def points_of(name: str) -> list[State]:
    """States at several points of the match: the start, a trick under way, a new deal, the middle, the end."""
    states = match(name)
    last = len(states) - 1
    in_trick = next(n for n, s in enumerate(states) if s.trick)
    new_deal = next(n for n in range(1, last + 1) if states[n].deal.number != states[n - 1].deal.number)
    return [states[n] for n in sorted({0, in_trick, new_deal, last // 3, last // 2, last})]


def assert_plays_on_the_same(state: State, back: State, rng: random.Random, steps: int = 40) -> None:
    """Check that ``back`` is ``state``: equal, the same history, and the same future under the same actions."""
    assert back == state
    assert back.entries() == state.entries()
    assert back.last_events == state.last_events
    assert back.is_terminal == state.is_terminal
    for _ in range(steps):
        assert back.legal_actions() == state.legal_actions()
        if state.is_terminal:
            break
        action = rng.choice(state.legal_actions())
        state, back = state.apply(action), back.apply(str(action))
        assert back == state
        assert back.last_events == state.last_events


# -- games ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_a_game_pickles_to_an_equal_game_that_plays_the_same(name: str) -> None:
    game = short_game(name)
    back = round_trip(game)
    assert back == game
    assert back.fingerprint == game.fingerprint
    assert back.spec == game.spec
    assert dict(back.options) == dict(game.options)
    assert back.source == game.source
    assert hash(back) == hash(game)
    assert play(back, 5, 6, steps=300) == play(game, 5, 6, steps=300)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_game_pickles_at_every_protocol(protocol: int) -> None:
    game = short_game("quadrille")
    back = round_trip(game, protocol)
    assert back == game
    assert back.new_match(seed=9) == game.new_match(seed=9)


def test_a_game_with_options_pickles_with_them() -> None:
    game = trickrules.load("quadrille", {"forced_spadille": "off", "deals": "4"})
    back = round_trip(game)
    assert back == game
    assert back.options["forced_spadille"] == "off"
    assert back != round_trip(trickrules.load("quadrille", {"deals": "4"}))


def test_unpickling_many_distinct_games_keeps_only_the_latest_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    # A long-lived worker may be sent games of ever new specs and options: each is compiled once while it
    # is among the last _RESTORED_LIMIT used, and the process keeps no more than that many.
    limit = 4
    restored: dict[tuple[str, str], Game] = {}
    monkeypatch.setattr(game_module, "_RESTORED", restored)
    monkeypatch.setattr(game_module, "_RESTORED_LIMIT", limit)
    choices = [
        {"target": target, "over_100_bonus": bonus, "must_underruff": underruff}
        for target in ("21", "16", "11")
        for bonus in ("off", "on")
        for underruff in ("off", "on")
    ]
    games = [trickrules.load("cuatrola", chosen) for chosen in choices]
    games += [trickrules.load(name) for name in ("euchre", "hearts", "manille", "whist")]
    assert len({g.fingerprint for g in games}) == len(games) > 3 * limit
    pickled = [pickle.dumps(g) for g in games]
    backs = []
    for data, game in zip(pickled, games, strict=True):
        backs.append(pickle.loads(data))
        assert backs[-1] == game
        assert len(restored) <= limit
    assert [g.fingerprint for g in restored.values()] == [g.fingerprint for g in games[-limit:]]
    # A game still kept is not compiled again, and using it keeps it: the least recently used goes first.
    assert pickle.loads(pickled[-limit]) is backs[-limit]
    again = pickle.loads(pickled[0])  # dropped long ago: compiled again, equal
    assert again == games[0]
    assert again is not backs[0]
    assert len(restored) == limit
    assert pickle.loads(pickled[-limit]) is backs[-limit]
    assert [g.fingerprint for g in restored.values()][-2:] == [games[0].fingerprint, games[-limit].fingerprint]


def test_the_unpickled_games_kept_are_bounded() -> None:
    assert type(game_module._RESTORED_LIMIT) is int
    assert 1 <= game_module._RESTORED_LIMIT <= 256
    assert len(game_module._RESTORED) <= game_module._RESTORED_LIMIT


# -- states ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_states_pickle_to_equal_states_that_play_on_the_same(name: str) -> None:
    points = points_of(name)
    assert points[-1].is_terminal
    for n, state in enumerate(points):
        back = round_trip(state)
        assert back is not state
        assert_plays_on_the_same(state, back, random.Random(n))


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_states_pickle_at_every_protocol(protocol: int) -> None:
    for n, state in enumerate(points_of("quadrille")):
        assert_plays_on_the_same(state, round_trip(state, protocol), random.Random(n), steps=10)


@pytest.mark.parametrize("name", GAMES)
def test_a_pickled_state_keeps_its_log(name: str) -> None:
    final = match(name)[-1]
    back = round_trip(final)
    assert EventLog.from_state(back) == EventLog.from_state(final)
    assert EventLog.from_state(back).to_json() == EventLog.from_state(final).to_json()
    assert trickrules.replay(EventLog.from_state(back)) == final


def test_a_state_pickled_twice_is_still_equal() -> None:
    state = points_of("manille")[2]
    assert round_trip(round_trip(state)) == state
    assert round_trip(round_trip(state)).entries() == state.entries()


def test_a_state_of_a_long_match_pickles_without_hitting_the_recursion_limit() -> None:
    """A full-length match is thousands of steps: the history must not pickle as a nested chain."""
    game = trickrules.load("quadrille-fi")
    state = play(game, 4, 4)
    assert len(state.entries()) > sys.getrecursionlimit()
    back = round_trip(state)
    assert back == state
    assert back.entries() == state.entries()


# -- views, logs, events and actions ----------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_views_pickle_to_equal_views(name: str) -> None:
    for state in points_of(name)[:3] + points_of(name)[-1:]:
        for seat in range(state.game.players):
            view = View.from_state(state, seat)
            back: View = round_trip(view)
            assert back == view
            assert back.to_json() == view.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_logs_pickle_to_equal_logs(name: str) -> None:
    final = match(name)[-1]
    log = EventLog.from_state(final)
    back: EventLog = round_trip(log)
    assert back == log
    assert back.to_json() == log.to_json()
    seat_log = log.for_seat(1)
    assert round_trip(seat_log) == seat_log
    assert trickrules.replay(back, final.game) == final


@pytest.mark.parametrize("name", GAMES)
def test_events_pickle_to_equal_events(name: str) -> None:
    events: list[Event] = []
    kinds: set[type] = set()
    for state in match(name):
        for event in state.last_events:
            if type(event) not in kinds:
                kinds.add(type(event))
                events.append(event)
    assert len(kinds) >= 5
    for event in events:
        back = round_trip(event)
        assert back == event
        assert type(back) is type(event)
        assert hash(back) == hash(event)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_views_logs_events_and_actions_pickle_at_every_protocol(protocol: int) -> None:
    final = match("manille")[-1]
    values: list[Any] = [
        View.from_state(final, 0),
        EventLog.from_state(final),
        EventLog.from_state(final).for_seat(2),
        *EventLog.from_state(final).events[:6],
        *final.legal_actions(),
        *match("manille")[5].legal_actions(),
        Action("pass"),
    ]
    for value in values:
        assert round_trip(value, protocol) == value


# -- a process pool --------------------------------------------------------------------------


def play_in_worker(game: Game, seed: int) -> State:
    """Play one seeded random match of ``game`` (as the pool pickled it) and return the final state."""
    assert isinstance(game, Game)
    return play(game, seed, policy=seed * 7 + 1)


def pool_context() -> Any:
    """The default start method, except ``fork`` where Python 3.12+ warns about it: then ``spawn``."""
    if sys.version_info >= (3, 12) and multiprocessing.get_start_method() == "fork":
        return multiprocessing.get_context("spawn")
    return None


POOL_GAMES = ("manille", "quadrille")
POOL_SEEDS = (1, 2, 3)


def test_a_process_pool_plays_matches_of_pickled_games_in_two_workers() -> None:
    games = {name: short_game(name) for name in POOL_GAMES}
    jobs = [(name, seed) for name in POOL_GAMES for seed in POOL_SEEDS]
    with concurrent.futures.ProcessPoolExecutor(max_workers=2, mp_context=pool_context()) as pool:
        futures = {job: pool.submit(play_in_worker, games[job[0]], job[1]) for job in jobs}
        results = {job: future.result(timeout=60) for job, future in futures.items()}
    for (name, seed), final in results.items():
        game = games[name]
        here = play_in_worker(game, seed)
        assert final.is_terminal, (name, seed)
        assert final == here, (name, seed)
        assert final.game == game
        assert final.entries() == here.entries()
        assert EventLog.from_state(final) == EventLog.from_state(here)
        assert trickrules.replay(EventLog.from_state(final)) == final
        assert trickrules.replay(EventLog.from_state(final).to_json()) == here
