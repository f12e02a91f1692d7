"""Random-play throughput of the engine, through the public API.

For each bundled game: deals per second and player actions per second of
random play (``legal_actions()`` then ``apply()``, events on, as an app or a
bot would use it), as the median of several repetitions. A repetition plays
whole matches until at least the given number of deals is done. The random
choices come from a fixed-seed ``random.Random``, so every run plays the
same deals.

Run: ``python benchmarks/engine.py [--deals N] [--repeat K] [GAME ...]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import trickrules


def play_deals(game: trickrules.Game, deals: int, seed: int) -> tuple[float, int, int]:
    """Play whole matches of random play until at least ``deals`` deals are done.

    Returns (seconds, deals played, actions taken).
    """
    rng = random.Random(seed)
    done = 0
    actions = 0
    match_seed = seed
    start = time.perf_counter()
    while done < deals:
        state = game.new_match(seed=match_seed)
        match_seed += 1
        while not state.is_terminal:
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.random() * len(legal))])
            actions += 1
        done += state.match.deals_done
    return time.perf_counter() - start, done, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["quadrille", "cuatrola", "manille"])
    parser.add_argument("--deals", type=int, default=1000, help="deals per repetition")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions (the median is reported)")
    args = parser.parse_args()
    print(f"{'game':<12}{'deals/s':>10}{'actions/s':>12}   (median of {args.repeat} x {args.deals} deals)")
    for name in args.games:
        game = trickrules.load(name)
        play_deals(game, 20, 99)  # warm-up
        deal_rates = []
        action_rates = []
        for rep in range(args.repeat):
            seconds, deals, actions = play_deals(game, args.deals, rep)
            deal_rates.append(deals / seconds)
            action_rates.append(actions / seconds)
        print(f"{name:<12}{statistics.median(deal_rates):>10.0f}{statistics.median(action_rates):>12.0f}")


if __name__ == "__main__":
    main()
