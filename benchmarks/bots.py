"""Duplicate matches of two bots: the same deals with the seats rotated, so that the luck of the cards cancels.

For each deal (a one-deal match from seed ``k``), bot A sits at the even seats and bot B at the odd ones,
then the other way round, with the same cards. A deal's result is A's mean score per seat less B's
(B's less A's where the lowest score wins),
averaged over the two seatings; the report gives its mean with a 95% interval, and A's share of the
deals (a deal A's seats outscored B's counts 1, a tie 1/2), also with a 95% interval. An interval that
excludes 0 (or a share of 1/2) says one bot is the stronger on this game.

Run: ``python benchmarks/bots.py [--a ismcts] [--b heuristic] [--deals 400] [--playouts 200]
[--budget-ms 200] [GAME ...]`` (every bundled game by default). The search bots' budget is their
playouts a decision, or a time a decision with ``--budget-ms``. ``determinized`` is the bot the CLI seats
by that name (:class:`~trickrules.faces.bots.ModelledDeterminizedBot`: the heuristic bot its model of the
bidding); ``determinized-h`` the determinized bot with the heuristic bot taking its decisions before the
play (its ``bidder``); ``determinized-plain`` the determinized bot searching every decision by itself.

A long measurement can be split: ``--skip K`` plays deals ``K`` to ``deals - 1`` only (another process
takes the others), and ``--record FILE`` appends one JSON line per deal played (the game, the bots, the
budget, the deal's seed, its two seatings' results and the commit measured). ``--report FILE ...``
plays nothing: it reads such lines, keeps one per game, bots, budget, commit and seed, and prints the
table over the deals recorded. ``--alike OLD=NEW`` counts the deals recorded at commit ``OLD`` as ``NEW``'s,
for commits that take the same decisions (say why where the table is quoted)::

    python benchmarks/bots.py --a determinized-h --budget-ms 200 --deals 400 --record runs.jsonl euchre
    python benchmarks/bots.py --a determinized-h --budget-ms 200 --deals 400 --skip 200 --record runs.jsonl euchre
    python benchmarks/bots.py --report runs.jsonl
    python benchmarks/bots.py --report runs.jsonl --alike 0c536ff=fd1d22a
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import trickrules
from trickrules.faces.bots import BOTS, HeuristicBot, ModelledDeterminizedBot
from trickrules.faces.match import play_match
from trickrules.faces.random_bot import Bot
from trickrules.faces.search_bots import DeterminizedBot, IsmctsBot
from trickrules.spec.loader import bundled_names


def _bot(game: trickrules.Game, kind: str, seed: int, playouts: int, budget_ms: float | None) -> Bot:
    if kind == "ismcts":
        return IsmctsBot(game, seed, playouts=playouts, budget_ms=budget_ms)
    if kind in ("determinized-plain", "determinized-h"):
        bidder = HeuristicBot(game, seed) if kind == "determinized-h" else None
        return DeterminizedBot(game, seed, worlds=16, playouts=2, budget_ms=budget_ms, bidder=bidder)
    if kind == "determinized":
        return ModelledDeterminizedBot(game, seed, budget_ms=budget_ms)
    return BOTS[kind](game, seed)


def duplicate(
    name: str,
    a: str,
    b: str,
    deals: int,
    playouts: int,
    budget_ms: float | None = None,
    skip: int = 0,
    keep: Callable[[int, list[float]], None] | None = None,
) -> tuple[float, float, float, float, float, float, float]:
    """:func:`summary` of A's results against B over the deals, and the seconds taken.

    Deals ``skip`` to ``deals - 1`` are played; ``keep(seed, pair)`` is told each deal's two results.
    """
    game = trickrules.load(name)
    n = game.players
    sign = -1 if game.spec.match.winner == "lowest" else 1  # Hearts: the lower score is the better
    start = time.monotonic()
    results = []
    for seed in range(skip, deals):
        pair = []
        for turn in range(2):
            kinds = [a if (seat + turn) % 2 == 0 else b for seat in range(n)]
            bots = [_bot(game, kind, seed * 16 + seat, playouts, budget_ms) for seat, kind in enumerate(kinds)]
            final = play_match(game, bots, seed=seed, max_deals=1)
            scores = final.match.scores
            mine = [scores[s] for s in range(n) if kinds[s] == a]
            theirs = [scores[s] for s in range(n) if kinds[s] == b]
            pair.append(sign * (sum(mine) / len(mine) - sum(theirs) / len(theirs)))
        results.append(sum(pair) / 2)
        if keep is not None:
            keep(seed, [float(x) for x in pair])
    return (*summary(results), time.monotonic() - start)


def summary(results: Sequence[float]) -> tuple[float, float, float, float, float, float]:
    """The deals' mean result, A's share of the points and A's share of the deals, each with its 95% half-width.

    A's share of the points is what A's results came out ahead by, over the deals A came out ahead in,
    divided by how far apart the two bots' results were over all deals: of the points by which the two
    bots' results differ, the share that went A's way (above 1/2 exactly when the mean result is above 0).
    Its interval is the ratio's, by the delta method.
    """
    count = len(results)
    wins = [1.0 if r > 0 else 0.5 if r == 0 else 0.0 for r in results]
    mean = statistics.fmean(results)
    half = 1.96 * statistics.stdev(results) / math.sqrt(count) if count > 1 else math.inf
    apart = statistics.fmean(abs(r) for r in results)
    points = 0.5 + mean / (2 * apart) if apart else 0.5
    residuals = [max(r, 0.0) - points * abs(r) for r in results]
    points_half = 1.96 * statistics.stdev(residuals) / (apart * math.sqrt(count)) if count > 1 and apart else math.inf
    share = statistics.fmean(wins)
    share_half = 1.96 * statistics.stdev(wins) / math.sqrt(count) if count > 1 else math.inf
    return mean, half, points, points_half, share, share_half


def _commit() -> str:
    """The commit measured (with ``+`` where the work tree differs from it), or ``unknown``."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "src"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")


def report(paths: Sequence[str], alike: Sequence[str] = ()) -> None:
    """The table of the deals recorded in ``paths``: one row per game, bots, budget and commit.

    ``alike`` holds ``OLD=NEW`` pairs: a deal recorded at ``OLD`` counts as ``NEW``'s, under the label
    ``OLD=NEW`` (a deal recorded at both keeps ``NEW``'s result).
    """
    same: dict[str, str] = {}
    for pair in alike:
        old, sep, new = pair.partition("=")
        if not (sep and old and new):
            raise SystemExit(f"--alike takes OLD=NEW, found {pair!r}")
        same[old] = new
    labels = {new: f"{old}={new}" for old, new in same.items()}
    runs: dict[tuple[str, str, str, str, str], dict[int, float]] = {}
    for path in paths:
        for number, line in enumerate(Path(path).read_text().splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                commit = same.get(row["commit"], row["commit"])
                key = (row["game"], row["a"], row["b"], row["budget"], labels.get(commit, commit))
                deals = runs.setdefault(key, {})
                if commit == row["commit"] or int(row["seed"]) not in deals:
                    deals[int(row["seed"])] = sum(row["pair"]) / 2
            except (ValueError, KeyError, TypeError) as error:
                raise SystemExit(f"{path}:{number}: not a deal's record ({error})") from None
    head = f"{'game':<22} {'A':<15} {'B':<10} {'budget':<12} {'commit':<16} {'deals':>5}"
    print(f"{head} {'A - B a seat':>18} {'A points share':>16} {'A deals share':>16}")
    for (game, a, b, budget, commit), deals in sorted(runs.items()):
        mean, half, points, points_half, share, share_half = summary(list(deals.values()))
        print(
            f"{game:<22} {a:<15} {b:<10} {budget:<12} {commit:<16} {len(deals):>5} "
            f"{mean:>9.2f} ± {half:<6.2f} {points:>7.3f} ± {points_half:<5.3f} {share:>7.3f} ± {share_half:<5.3f}"
        )


def main() -> None:
    """Print one line per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(bundled_names()))
    parser.add_argument("--a", default="ismcts", choices=sorted([*BOTS, "determinized-h", "determinized-plain"]))
    parser.add_argument("--b", default="heuristic", choices=sorted(BOTS))
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--playouts", type=int, default=200)
    parser.add_argument("--budget-ms", type=float, default=None, help="a time budget a decision instead of playouts")
    parser.add_argument("--skip", type=int, default=0, help="deals not played, from the first")
    parser.add_argument("--record", default=None, help="a file each deal's results are appended to, as JSON lines")
    parser.add_argument("--report", nargs="+", default=None, help="print the table of recorded deals; play nothing")
    parser.add_argument("--alike", nargs="+", default=(), help="OLD=NEW: count commit OLD's recorded deals as NEW's")
    args = parser.parse_args()
    if args.report:
        report(args.report, args.alike)
        return
    if not 0 <= args.skip < args.deals:
        raise SystemExit(f"--skip must be from 0 to {args.deals - 1}, found {args.skip}")
    budget = f"{args.budget_ms:g} ms" if args.budget_ms else f"{args.playouts} playouts"
    commit = _commit()
    print(f"{args.a} against {args.b}, deals {args.skip}-{args.deals - 1}, {budget} a decision, {commit}", flush=True)
    print(f"{'game':<30} {'A - B a seat':>18} {'A points share':>16} {'A deals share':>16} {'seconds':>8}")
    for name in args.games:

        def keep(seed: int, pair: list[float], name: str = name) -> None:
            if args.record is not None:
                row = {"game": name, "a": args.a, "b": args.b, "budget": budget, "commit": commit}
                with open(args.record, "a") as out:
                    out.write(json.dumps({**row, "seed": seed, "pair": pair}) + "\n")

        mean, half, points, points_half, share, share_half, seconds = duplicate(
            name, args.a, args.b, args.deals, args.playouts, args.budget_ms, args.skip, keep
        )
        line = f"{name:<30} {mean:>9.2f} ± {half:<6.2f} {points:>7.3f} ± {points_half:<5.3f} "
        line += f"{share:>7.3f} ± {share_half:<5.3f} {seconds:>8.0f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
