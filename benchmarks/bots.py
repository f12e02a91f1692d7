"""Duplicate matches of two bots: the same deals with the seats rotated, so that the luck of the cards cancels.

For each deal (a one-deal match from seed ``k``), bot A sits at the even seats and bot B at the odd ones,
then the other way round, with the same cards. A deal's result is A's mean score per seat less B's
(B's less A's where the lowest score wins),
averaged over the two seatings; the report gives its mean with a 95% interval, and A's share of the
deals (a deal A's seats outscored B's counts 1, a tie 1/2), also with a 95% interval. An interval that
excludes 0 (or a share of 1/2) says one bot is the stronger on this game.

Run: ``python benchmarks/bots.py [--a ismcts] [--b heuristic] [--deals 400] [--playouts 200]
[--budget-ms 200] [GAME ...]`` (every bundled game by default). The search bots' budget is their
playouts a decision, or a time a decision with ``--budget-ms``. ``determinized-h`` is the determinized
bot with the heuristic bot taking its decisions before the play (its ``bidder``).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import trickrules
from trickrules.faces.bots import BOTS, HeuristicBot
from trickrules.faces.match import play_match
from trickrules.faces.random_bot import Bot
from trickrules.faces.search_bots import DeterminizedBot, IsmctsBot
from trickrules.spec.loader import bundled_names


def _bot(game: trickrules.Game, kind: str, seed: int, playouts: int, budget_ms: float | None) -> Bot:
    if kind == "ismcts":
        return IsmctsBot(game, seed, playouts=playouts, budget_ms=budget_ms)
    if kind in ("determinized", "determinized-h"):
        bidder = HeuristicBot(game, seed) if kind == "determinized-h" else None
        return DeterminizedBot(game, seed, worlds=16, playouts=2, budget_ms=budget_ms, bidder=bidder)
    return BOTS[kind](game, seed)


def duplicate(
    name: str, a: str, b: str, deals: int, playouts: int, budget_ms: float | None = None
) -> tuple[float, float, float, float, float]:
    """Mean result of A against B and its 95% half-width, A's share and its half-width, and the seconds taken."""
    game = trickrules.load(name)
    n = game.players
    sign = -1 if game.spec.match.winner == "lowest" else 1  # Hearts: the lower score is the better
    start = time.monotonic()
    results, wins = [], []
    for seed in range(deals):
        pair = []
        for turn in range(2):
            kinds = [a if (seat + turn) % 2 == 0 else b for seat in range(n)]
            bots = [_bot(game, kind, seed * 16 + seat, playouts, budget_ms) for seat, kind in enumerate(kinds)]
            final = play_match(game, bots, seed=seed, max_deals=1)
            scores = final.match.scores
            mine = [scores[s] for s in range(n) if kinds[s] == a]
            theirs = [scores[s] for s in range(n) if kinds[s] == b]
            pair.append(sign * (sum(mine) / len(mine) - sum(theirs) / len(theirs)))
        result = sum(pair) / 2
        results.append(result)
        wins.append(1.0 if result > 0 else 0.5 if result == 0 else 0.0)
    mean = statistics.fmean(results)
    half = 1.96 * statistics.stdev(results) / math.sqrt(deals) if deals > 1 else math.inf
    share = statistics.fmean(wins)
    share_half = 1.96 * statistics.stdev(wins) / math.sqrt(deals) if deals > 1 else math.inf
    return mean, half, share, share_half, time.monotonic() - start


def main() -> None:
    """Print one line per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(bundled_names()))
    parser.add_argument("--a", default="ismcts", choices=sorted([*BOTS, "determinized-h"]))
    parser.add_argument("--b", default="heuristic", choices=sorted(BOTS))
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--playouts", type=int, default=200)
    parser.add_argument("--budget-ms", type=float, default=None, help="a time budget a decision instead of playouts")
    args = parser.parse_args()
    budget = f"{args.budget_ms:g} ms" if args.budget_ms else f"{args.playouts} playouts"
    print(f"{args.a} against {args.b}, {args.deals} duplicate deals, {budget} a decision", flush=True)
    print(f"{'game':<30} {'A - B a seat':>18} {'A share':>16} {'seconds':>8}")
    for name in args.games:
        mean, half, share, share_half, seconds = duplicate(
            name, args.a, args.b, args.deals, args.playouts, args.budget_ms
        )
        line = f"{name:<30} {mean:>9.2f} ± {half:<6.2f} {share:>7.3f} ± {share_half:<5.3f} {seconds:>8.0f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
