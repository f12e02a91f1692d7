"""Train one seat of a reduced game against a random bot, with plain numpy, and measure it (docs/rl.md).

The game is ``docs/examples/rl/tiny_whist.toml``: two players, two cards each from
six, two tricks, no trumps; a deal pays ``tricks - 1``. A policy for either
seat (in turn) learns a table
of action values by Monte Carlo control: each deal is an episode of
``trickrules.pettingzoo.single_agent_env``, the key is the seat's observation
tensor, the value of a legal action the mean return after taking it there;
it explores with probability ``epsilon``. Then the greedy policy plays
``evaluation`` fresh deals against the random bot, and so does a random
policy, and the mean returns are given with 95% intervals.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np

import trickrules.pettingzoo

SPEC = str(Path(__file__).with_name("tiny_whist.toml"))


def _interval(returns: list[float]) -> tuple[float, float]:
    """The mean and the half width of its 95% interval."""
    mean = sum(returns) / len(returns)
    spread = math.sqrt(sum((r - mean) ** 2 for r in returns) / (len(returns) - 1))
    return mean, 1.96 * spread / math.sqrt(len(returns))


def _play(env, choose, seed: int) -> float:
    observation, info = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        action = choose(observation, np.flatnonzero(info["action_mask"]))
        observation, reward, done, _, info = env.step(action)
        total += reward
    return total


def train(episodes: int = 2000, evaluation: int = 2000, epsilon: float = 0.2, seed: int = 1) -> dict[str, object]:
    """Learn for ``episodes`` deals, then measure the greedy and a random policy over ``evaluation`` deals."""
    envs = [trickrules.pettingzoo.single_agent_env(SPEC, seat=s, bots="random", episode="deal") for s in (0, 1)]
    rng = random.Random(seed)
    totals: dict[tuple[bytes, int], float] = {}
    counts: dict[tuple[bytes, int], int] = {}

    def value(key: bytes, action: int) -> float:
        n = counts.get((key, action), 0)
        return totals.get((key, action), 0.0) / n if n else 0.0

    def greedy(observation, legal) -> int:
        key = observation.tobytes()
        return int(max(legal, key=lambda a: (value(key, int(a)), -int(a))))

    for episode in range(episodes):
        env = envs[episode % 2]  # either seat, in turn: the table tells them apart (who leads)
        observation, info = env.reset(seed=rng.randrange(2**32))
        seen: list[tuple[bytes, int]] = []
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            explore = rng.random() < epsilon
            action = int(legal[rng.randrange(len(legal))]) if explore else greedy(observation, legal)
            seen.append((observation.tobytes(), action))
            observation, reward, done, _, info = env.step(action)
            total += reward
        for key in seen:  # every visit: the deal's return
            totals[key] = totals.get(key, 0.0) + total
            counts[key] = counts.get(key, 0) + 1

    def uniform(observation, legal) -> int:
        return int(legal[rng.randrange(len(legal))])

    seeds = [10**6 + k for k in range(evaluation)]  # the same deals and seats for both policies
    learnt = _interval([_play(envs[k % 2], greedy, s) for k, s in enumerate(seeds)])
    chance = _interval([_play(envs[k % 2], uniform, s) for k, s in enumerate(seeds)])
    return {"learnt": learnt, "random": chance, "states": len({k for k, _ in counts})}


if __name__ == "__main__":
    found = train()
    for name in ("learnt", "random"):
        mean, half = found[name]
        print(f"{name:7} mean return {mean:+.3f} ± {half:.3f} a deal (95%)")
    print(f"{found['states']} observations seen")
