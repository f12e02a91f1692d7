"""Stepping an environment with random legal actions: trickrules' PettingZoo Hearts against pyspiel's own Hearts.

Both are stepped from Python, interleaved in one process, round after round::

    python benchmarks/rl_env.py --rounds 5 --seconds 2

pyspiel: ``legal_actions()`` then ``apply_action`` (chance outcomes sampled
from ``chance_outcomes()``), from a new initial state at each end; and the
same reading each seat's ``information_state_tensor()`` before it acts (its
Hearts has no observation tensor), what reading a tensor costs there. PettingZoo:
``env.last()`` (the observation tensor and the mask) then ``env.step`` with a
random legal id, ``env.reset`` at each end; and the same without reading the
observation (``env.mask()`` alone), which is what the tensor costs. pyspiel
is also counted by its seats' actions alone (the environment deals at its
reset, so its steps are decisions). A last row steps an AEC environment with
no game in it (:class:`Idle`: four seats in turn, 64 steps a deal, a fixed
observation and mask) the same way: what PettingZoo's own interface costs,
the most any environment stepped from Python through it can reach. Prints
each one's median steps a second and its ratios to pyspiel's decisions,
without and with the tensor read.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from pettingzoo import AECEnv

import trickrules.pettingzoo as tp


def spiel_steps(seconds: float, rng: random.Random, decisions_only: bool = False, tensor: bool = False) -> float:
    """Pyspiel Hearts' steps a second.

    ``decisions_only``: counting the seats' actions alone, not chance's; ``tensor``: reading the seat's
    information-state tensor, as an array, before each of its actions.
    """
    game = pyspiel.load_game("hearts")
    state = game.new_initial_state()
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            if state.is_terminal():
                state = game.new_initial_state()
            elif state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                steps += not decisions_only
            else:
                if tensor:
                    np.asarray(state.information_state_tensor(), dtype=np.float32)
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
    return steps / (time.perf_counter() - start)


def zoo_steps(seconds: float, rng: random.Random, observe: bool) -> float:
    """Steps a second of trickrules' PettingZoo Hearts: reading the observation and mask, or the mask alone."""
    env = tp.env("hearts", pass_direction="chance", match_end="one_deal")
    if observe:
        return _stepped(env, seconds, rng, lambda: env.last()[0]["action_mask"])
    return _stepped(env, seconds, rng, env.mask)


def _stepped(env: Any, seconds: float, rng: random.Random, mask: Callable[[], Any]) -> float:
    """Steps a second of ``env`` with random legal ids read from ``mask()``, reset at each deal's end."""
    env.reset(seed=rng.randrange(2**32))
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            agent = env.agent_selection
            if env.terminations[agent]:
                env.reset(seed=rng.randrange(2**32))
                continue
            legal = np.flatnonzero(mask())
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps / (time.perf_counter() - start)


class Idle(AECEnv):  # type: ignore[misc]
    """An AEC environment with no game: four seats in turn, the deal over after 64 steps."""

    metadata = {"name": "idle_v0"}  # noqa: RUF012 - PettingZoo reads it from the class

    def __init__(self) -> None:
        super().__init__()
        self.possible_agents = [f"player_{i}" for i in range(4)]
        mask = np.ones(52, dtype=np.int8)
        self._obs: dict[str, object] = {"observation": np.zeros(100, dtype=np.float32), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        """A new deal: the first seat to step, nothing won."""
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {a: {} for a in self.agents}
        self._steps = 0
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, object]:
        """The same observation and mask every time."""
        return self._obs

    def step(self, action: int) -> None:
        """The next seat's turn; the deal over at its 64th step."""
        self._steps += 1
        if self._steps == 64:
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.agents[self._steps % 4]
        self._accumulate_rewards()


def idle_steps(seconds: float, rng: random.Random) -> float:
    """Steps a second of :class:`Idle`, stepped as :func:`zoo_steps` steps the game."""
    env = Idle()
    return _stepped(env, seconds, rng, lambda: env.last()[0]["action_mask"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args(argv)
    rng = random.Random(1)
    runs: dict[str, list[float]] = {
        "pyspiel hearts": [],
        "pyspiel, decisions": [],
        "pyspiel, decisions+tensor": [],
        "pettingzoo hearts": [],
        "pettingzoo, mask only": [],
        "pettingzoo, no game": [],
    }
    for _ in range(args.rounds):
        runs["pyspiel hearts"].append(spiel_steps(args.seconds, rng))
        runs["pyspiel, decisions"].append(spiel_steps(args.seconds, rng, decisions_only=True))
        runs["pyspiel, decisions+tensor"].append(spiel_steps(args.seconds, rng, decisions_only=True, tensor=True))
        runs["pettingzoo hearts"].append(zoo_steps(args.seconds, rng, True))
        runs["pettingzoo, mask only"].append(zoo_steps(args.seconds, rng, False))
        runs["pettingzoo, no game"].append(idle_steps(args.seconds, rng))
    base = statistics.median(runs["pyspiel, decisions"])
    with_tensor = statistics.median(runs["pyspiel, decisions+tensor"])
    for name, values in runs.items():
        median = statistics.median(values)
        ratios = f"{median / base:6.3f}x decisions {median / with_tensor:8.3f}x with tensor"
        print(f"{name:26} {median:10,.0f} steps/s   {ratios}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
