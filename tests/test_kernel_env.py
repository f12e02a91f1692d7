"""Stepping a match on the kernel (``trickrules.native.step``) against stepping it on the engine.

The PettingZoo environment steps on the kernel wherever the kernel covers
the game. Here the same matches are stepped both ways, by the same random
legal ids: every decision must name the same agent and the same legal ids,
every step the same rewards and the same end, and the engine's state the
kernel's environment replays must be the engine's own. Then the stepper
alone: option ``k`` is the engine's ``k``-th legal action, where a script
past its limit or a failure leaves the match to the engine.
"""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trickrules
from strategies import GAMES, scaled, short_options
from trickrules.native.kernel import Unsupported, kernel_for
from trickrules.native.step import DEAL_END, OVER, UNNAMED, Stepper

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")

import trickrules.pettingzoo as tp  # after the skip: it needs the extra

KERNEL_GAMES = []
for _name in GAMES:
    try:
        kernel_for(trickrules.load(_name))
    except Unsupported:
        continue
    if not trickrules.load(_name).chooser_hooks:
        KERNEL_GAMES.append(_name)


def test_the_kernel_steps_most_bundled_games() -> None:
    assert len(KERNEL_GAMES) >= 14
    assert "hearts" in KERNEL_GAMES


def _twins(name: str, episode: str, full: bool = False, **options: str) -> tuple[tp.TrickTakingEnv, tp.TrickTakingEnv]:
    game = trickrules.load(name, options if options or full else short_options(name))
    fast = tp.TrickTakingEnv(game, episode=episode)
    slow = tp.TrickTakingEnv(game, episode=episode, kernel=False)
    assert fast._stepper is not None
    assert slow._stepper is None
    return fast, slow


def _agree(fast: tp.TrickTakingEnv, slow: tp.TrickTakingEnv, seed: int, steps: int) -> int:
    """Step both from ``seed`` by the same random legal ids; return how many steps were compared."""
    fast.reset(seed=seed)
    slow.reset(seed=seed)
    rng = random.Random(seed)
    taken = 0
    for _ in range(steps):
        assert fast.agent_selection == slow.agent_selection
        agent = fast.agent_selection
        assert fast.terminations == slow.terminations
        assert fast.rewards == slow.rewards
        assert fast._cumulative_rewards == slow._cumulative_rewards
        if fast.terminations[agent]:
            assert fast.state == slow.state
            return taken
        mask = fast.mask()
        assert np.array_equal(mask, slow.mask()), (agent, np.flatnonzero(mask), np.flatnonzero(slow.mask()))
        action = int(rng.choice(list(np.flatnonzero(mask))))
        fast.step(action)
        slow.step(action)
        assert fast._live is not None or fast.terminations[agent]  # the kernel never handed the match back
        taken += 1
        if taken % 97 == 0:  # the replayed engine state is the engine's own, now and then mid-match
            assert fast.state == slow.state
    return taken


@pytest.mark.parametrize("name", KERNEL_GAMES)
def test_a_match_on_the_kernel_is_the_engines_decision_for_decision(name: str) -> None:
    fast, slow = _twins(name, "match")
    assert _agree(fast, slow, seed=11, steps=3000) > 20


@pytest.mark.parametrize("name", KERNEL_GAMES)
@settings(max_examples=scaled(3, 10), derandomize=True, deadline=None)
@given(seed=st.integers(0, 2**128 - 1), episode=st.sampled_from(["match", "deal"]))
def test_any_seed_steps_the_same_on_the_kernel_and_the_engine(name: str, seed: int, episode: str) -> None:
    fast, slow = _twins(name, episode)
    _agree(fast, slow, seed=seed, steps=400)


def test_a_window_the_kernel_does_not_name_steps_the_same() -> None:
    # A whole Finnish match in which the declarer's side is offered a late announcement once: the engine
    # names that decision's options; the kernel goes on after it.
    fast, slow = _twins("quadrille-fi", "match", full=True)
    named: list[list[int]] = []
    stepper = fast._stepper
    assert stepper is not None
    name = stepper.name

    def counted(ids: list[int]) -> None:
        named.append(ids)
        name(ids)

    stepper.name = counted  # type: ignore[method-assign]
    assert _agree(fast, slow, seed=19, steps=2500) == 1815
    assert len(named) == 1


@pytest.mark.parametrize("name", ["hearts", "quadrille", "euchre", "spades"])
def test_deal_episodes_on_the_kernel_are_the_engines(name: str) -> None:
    fast, slow = _twins(name, "deal")
    for seed in range(4):
        assert _agree(fast, slow, seed=seed, steps=3000) > 10


def test_hearts_as_pyspiel_plays_it_agrees_over_many_deals() -> None:
    fast, slow = _twins("hearts", "deal", pass_direction="chance", match_end="one_deal")
    assert sum(_agree(fast, slow, seed=100 + s, steps=200) for s in range(30)) > 30 * 60


def _against_engine(name: str, seed: int, steps: int) -> tuple[int, int]:
    """Step a match on the stepper alone, option ``k`` at random, checking each decision against the engine.

    Gives back how many decisions had their options named by the kernel, and how many by the engine.
    """
    game = trickrules.load(name)
    stepper = Stepper(game)
    state = game.new_match(seed=seed)
    code = stepper.reset(seed, state.deal.dealer)
    rng = random.Random(seed)
    named = unnamed = 0
    while code != OVER and named + unnamed < steps:
        if code == DEAL_END:  # the next deal's ante is paid before its first decision, as the engine pays it
            code = stepper.step(-1)
            assert stepper.scores() == [int(v) for v in state.match.scores]
            continue
        assert code >= 0
        legal = [game.action_id(a) for a in state.legal_actions()]
        if code >= UNNAMED:
            unnamed += 1
            stepper.name(legal)
        else:
            named += 1
            assert code == (state.chooser if state.chooser is not None else state.to_move)
        assert [int(stepper.order[a]) for a in legal] == list(range(len(legal)))
        assert int(stepper.mask.sum()) == len(legal)
        k = rng.randrange(len(legal))
        state = state.apply(game.action_of(legal[k]))
        while not state.is_terminal and state.is_chance:
            state = state.apply(state.seeded_outcome())
        code = stepper.step(k)
    if code == OVER:
        assert state.is_terminal
        assert stepper.scores() == [int(v) for v in state.match.scores]
    return named, unnamed


@pytest.mark.parametrize("name", KERNEL_GAMES)
def test_the_kernel_names_every_decisions_options_as_the_engine_orders_them(name: str) -> None:
    named, unnamed = _against_engine(name, seed=11, steps=1500)
    assert named > 20
    assert unnamed == 0


def test_a_decision_the_kernel_does_not_name_takes_the_engines_legal_actions() -> None:
    # A late announcement's answer (after a trick the declarer's side won): the engine names its options.
    named, unnamed = _against_engine("quadrille-fi", seed=19, steps=1500)
    assert named > 1000
    assert unnamed >= 1


def test_an_illegal_id_changes_nothing_on_the_kernel() -> None:
    env = tp.env("hearts")
    env.reset(seed=1)
    before = env.mask()
    agent = env.agent_selection
    illegal = int(np.flatnonzero(before == 0)[0])
    for bad in (illegal, -1, env.game.num_distinct_actions, 2**70, np.uint64(2**63 + 5), None, "0", 1.0, True):
        with pytest.raises(trickrules.ArgumentError, match="is not legal here"):
            env.step(bad)  # type: ignore[arg-type]
    assert env.agent_selection == agent
    assert np.array_equal(env.mask(), before)
    assert env._history == []


def test_a_seed_past_128_bits_is_refused() -> None:
    env = tp.env("hearts")
    with pytest.raises(trickrules.ArgumentError, match="seed must be an integer"):
        env.reset(seed=2**128)
    with pytest.raises(trickrules.ArgumentError, match="seed must be an integer"):
        env.reset(seed=-1)


def test_without_numba_the_engine_steps_every_game(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = tp.env("hearts")
    assert fast._stepper is not None
    fast.reset(seed=4)
    monkeypatch.setitem(sys.modules, "trickrules.native.step", None)  # as if the `native` extra were missing
    env = tp.env("hearts")
    assert env._stepper is None
    env.reset(seed=4)
    assert env.agent_selection == fast.agent_selection
    assert np.array_equal(env.mask(), fast.mask())
