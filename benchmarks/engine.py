"""Random-play throughput of the engine, through the public API, and side by side with OpenSpiel.

For each game asked for: deals per second and player actions per second of
random play (``legal_actions()`` then ``apply()``, events on, as an app or a
bot would use it), as the median of several repetitions. A repetition plays
whole matches until at least the given number of deals is done. The random
choices come from a fixed-seed ``random.Random``, so every run plays the
same deals.

Then, where OpenSpiel is installed (``pyspiel``) and trickrules bundles the
game, the same work side by side for the games both have (Hearts, Spades):
random play from Python in both engines, with equally lean drivers (one
random number per player choice; OpenSpiel's chance outcomes sampled with
one random number and a cumulative loop), repetitions interleaved, player
actions per second and their ratio.

Run: ``python benchmarks/engine.py [--deals N] [--repeat K] [--no-openspiel] [GAME ...]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

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


def play_openspiel(game: Any, actions: int, seed: int) -> tuple[float, int]:
    """Random play of an OpenSpiel game until at least ``actions`` player actions are taken.

    Returns (seconds, player actions taken).
    """
    rng = random.Random(seed)
    taken = 0
    start = time.perf_counter()
    while taken < actions:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                draw = rng.random()
                total = 0.0
                outcomes = state.chance_outcomes()
                for outcome, probability in outcomes:
                    total += probability
                    if draw < total:
                        state.apply_action(outcome)
                        break
                else:  # the probabilities' rounding left the draw past the last one
                    state.apply_action(outcomes[-1][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                taken += 1
    return time.perf_counter() - start, taken


#: OpenSpiel's name of each game both have.
OPENSPIEL = {"hearts": "hearts", "spades": "spades", "euchre": "euchre", "oh-hell": "oh_hell"}


def evaluate_bots_rate(game: Any, games: int, seed: int) -> float:
    """Games per second of OpenSpiel's C++ ``evaluate_bots`` with uniform random bots, one call per game."""
    import pyspiel

    bots = [pyspiel.make_uniform_random_bot(p, seed * 10 + p) for p in range(game.num_players())]
    start = time.perf_counter()
    for i in range(games):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed * 100_000 + i)
    return games / (time.perf_counter() - start)


def openspiel_python_rate(game: Any, games: int, seed: int) -> float:
    """Games per second of OpenSpiel driven from Python (``benchmarks/engine.py``'s lean driver)."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])  # uniform in these games
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
    return games / (time.perf_counter() - start)


def side_by_side(names: list[str], deals: int, repeat: int) -> None:
    """Print trickrules' and OpenSpiel's player actions per second for the games both have."""
    try:
        import pyspiel
    except ImportError:
        print("\nOpenSpiel (pyspiel) is not installed: no side-by-side figures.")
        return
    bundled = set(trickrules.bundled_names())
    print(f"\n{'game':<12}{'trickrules':>12}{'OpenSpiel':>12}{'ratio':>8}   (player actions/s, median of {repeat})")
    for name in names:
        if name not in bundled:
            print(f"{name:<12}  (not bundled yet)")
            continue
        ours = trickrules.load(name)
        theirs = pyspiel.load_game(name)
        play_deals(ours, 5, 99)
        play_openspiel(theirs, 500, 99)
        our_rates: list[float] = []
        their_rates: list[float] = []
        for rep in range(repeat):  # interleaved, so that both meet the same load
            seconds, _, actions = play_deals(ours, deals, rep)
            our_rates.append(actions / seconds)
            seconds, actions = play_openspiel(theirs, actions, rep)
            their_rates.append(actions / seconds)
        ours_median, theirs_median = statistics.median(our_rates), statistics.median(their_rates)
        print(f"{name:<12}{ours_median:>12.0f}{theirs_median:>12.0f}{ours_median / theirs_median:>8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["quadrille", "cuatrola", "manille"])
    parser.add_argument("--deals", type=int, default=1000, help="deals per repetition")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions (the median is reported)")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the side-by-side figures")
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
    if not args.no_openspiel:
        side_by_side(["hearts", "spades"], args.deals, args.repeat)


if __name__ == "__main__":
    main()
