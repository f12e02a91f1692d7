"""Paired speed comparison of two source trees of trickrules, fair on a shared, noisy machine.

Each measurement is the random play of ``benchmarks/engine.py`` (``legal_actions()`` then
``apply()`` with choices from a fixed-seed ``random.Random``, whole matches until at least N
deals are done), run in a fresh subprocess of this same interpreter that imports the package
from one tree: the tree is put first on ``sys.path`` (ahead of any editable install), and the
child checks that ``trickrules`` really came from it. For each round and each game the old and
the new tree are measured one right after the other, with the same seed (so they play the same
deals), the order swapped every other round so that neither always goes first. Machine noise
then hits both sides of a pair alike, and the per-round ratio new/old cancels most of it.

Reported per game: the median deals/s of each tree, the ratio new/old of those medians, and
the median, min and max of the per-round (paired) ratios, by wall time and by process CPU time.
A ratio above 1 means the new tree is faster.

A tree is a directory that holds the ``trickrules`` package (``/tmp/base/src``,
``/work/main/src``); the package finds its bundled specs in ``<tree>/../specs``.

Run: ``python benchmarks/paired.py --old OLD_SRC --new NEW_SRC [--rounds K] [--deals N] [--json] [GAME ...]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

DEFAULT_GAMES = ("quadrille", "cuatrola", "manille")
WARMUP_DEALS = 20
#: The child's exit status when ``trickrules`` was imported from somewhere else than the tree.
WRONG_TREE_STATUS = 3

#: Run by ``python -c`` in the child, with argv: tree, game, deals, seed, warm-up deals.
#: It prints one JSON object on its last line of stdout.
CHILD_CODE = """
import sys
tree = sys.argv[1]
sys.path.insert(0, tree)
import json, os, random, time
import trickrules

def check_origin():
    want = os.path.join(os.path.realpath(tree), "trickrules")
    got = os.path.dirname(os.path.realpath(trickrules.__file__ or ""))
    if got != want:
        sys.stderr.write(f"trickrules was imported from {got}, not from the tree {tree}\\n")
        sys.exit(WRONG_TREE_STATUS)
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if (name == "trickrules" or name.startswith("trickrules.")) and path:
            if not os.path.realpath(path).startswith(want + os.sep):
                sys.stderr.write(f"{name} was imported from {path}, not from the tree {tree}\\n")
                sys.exit(WRONG_TREE_STATUS)

def deals_done(state):
    match = getattr(state, "match", None)
    count = getattr(match, "deals_done", None) if match is not None else None
    if count is None:
        count = getattr(state, "deals_done", None)
    if count is None:
        sys.stderr.write("cannot count deals: neither state.match.deals_done nor state.deals_done exists\\n")
        sys.exit(2)
    return int(count() if callable(count) else count)

def play_deals(game, deals, seed):
    rng = random.Random(seed)
    done = 0
    actions = 0
    match_seed = seed
    wall0 = time.perf_counter()
    cpu0 = time.process_time()
    while done < deals:
        state = game.new_match(seed=match_seed)
        match_seed += 1
        while not state.is_terminal:
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.random() * len(legal))])
            actions += 1
        done += deals_done(state)
    return time.perf_counter() - wall0, time.process_time() - cpu0, done, actions

check_origin()
game = trickrules.load(sys.argv[2])
play_deals(game, int(sys.argv[5]), 99)
wall, cpu, deals, actions = play_deals(game, int(sys.argv[3]), int(sys.argv[4]))
check_origin()
print(json.dumps({
    "trickrules_file": trickrules.__file__,
    "wall_s": wall,
    "cpu_s": cpu,
    "deals": deals,
    "actions": actions,
    "deals_per_s": deals / wall,
    "actions_per_s": actions / wall,
    "deals_per_cpu_s": deals / cpu if cpu > 0 else float("inf"),
}))
""".replace("WRONG_TREE_STATUS", str(WRONG_TREE_STATUS))


@dataclass(frozen=True)
class Measurement:
    """One child's result: a tree, a game, a round, and what the timed play took."""

    tree: str
    side: str
    game: str
    round: int
    seed: int
    wall_s: float
    cpu_s: float
    deals: int
    actions: int
    deals_per_s: float
    actions_per_s: float
    deals_per_cpu_s: float


@dataclass(frozen=True)
class Summary:
    """The comparison for one game over all rounds."""

    game: str
    old_deals_per_s: float
    new_deals_per_s: float
    old_actions_per_s: float
    new_actions_per_s: float
    ratio_of_medians: float
    paired_median: float
    paired_min: float
    paired_max: float
    paired_cpu_median: float
    same_play: bool


class BenchmarkError(Exception):
    """A child failed, or imported the package from the wrong place."""


def check_tree(path: str) -> str:
    """The absolute form of a tree given on the command line; exits if it holds no package."""
    tree = Path(path).resolve()
    if not (tree / "trickrules" / "__init__.py").is_file():
        sys.exit(f"paired.py: {path} does not hold the trickrules package (no {tree / 'trickrules' / '__init__.py'})")
    return str(tree)


def child_env(tree: str) -> dict[str, str]:
    """The child's environment: ours, with only the tree on PYTHONPATH and a fixed hash seed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = tree
    env["PYTHONHASHSEED"] = "0"  # same set/dict orders on both sides, run after run
    return env


def measure(tree: str, side: str, game: str, deals: int, seed: int, round_: int) -> Measurement:
    """Play ``deals`` deals of ``game`` with the package of ``tree``, in a fresh subprocess."""
    cmd = [sys.executable, "-c", CHILD_CODE, tree, game, str(deals), str(seed), str(WARMUP_DEALS)]
    proc = subprocess.run(cmd, env=child_env(tree), capture_output=True, text=True, check=False)
    if proc.returncode == WRONG_TREE_STATUS:
        raise BenchmarkError(f"the {side} child did not import trickrules from {tree}: {proc.stderr.strip()}")
    if proc.returncode != 0:
        raise BenchmarkError(
            f"the {side} child ({tree}, {game}) failed with status {proc.returncode}:\n{proc.stderr.rstrip()}"
        )
    lines = proc.stdout.strip().splitlines()
    if not lines:
        raise BenchmarkError(f"the {side} child ({tree}, {game}) printed nothing")
    data: dict[str, Any] = json.loads(lines[-1])
    return Measurement(
        tree=tree,
        side=side,
        game=game,
        round=round_,
        seed=seed,
        wall_s=float(data["wall_s"]),
        cpu_s=float(data["cpu_s"]),
        deals=int(data["deals"]),
        actions=int(data["actions"]),
        deals_per_s=float(data["deals_per_s"]),
        actions_per_s=float(data["actions_per_s"]),
        deals_per_cpu_s=float(data["deals_per_cpu_s"]),
    )


def run_rounds(old: str, new: str, games: list[str], rounds: int, deals: int) -> list[Measurement]:
    """Measure every game in every round, old and new back to back, the order swapped each round."""
    results: list[Measurement] = []
    for round_ in range(rounds):
        order = [("old", old), ("new", new)] if round_ % 2 == 0 else [("new", new), ("old", old)]
        for game in games:
            for side, tree in order:
                m = measure(tree, side, game, deals, seed=round_, round_=round_)
                results.append(m)
                print(
                    f"round {round_ + 1}/{rounds} {game:<12} {side}: {m.deals_per_s:8.0f} deals/s"
                    f" {m.actions_per_s:10.0f} actions/s  (cpu {m.cpu_s:.2f}s of wall {m.wall_s:.2f}s)",
                    file=sys.stderr,
                    flush=True,
                )
    return results


def summarize(results: list[Measurement], games: list[str]) -> list[Summary]:
    """The per-game medians and paired ratios of all rounds."""
    summaries = []
    for game in games:
        old = {m.round: m for m in results if m.game == game and m.side == "old"}
        new = {m.round: m for m in results if m.game == game and m.side == "new"}
        rounds = sorted(old)
        ratios = [new[r].deals_per_s / old[r].deals_per_s for r in rounds]
        cpu_ratios = [new[r].deals_per_cpu_s / old[r].deals_per_cpu_s for r in rounds]
        old_median = statistics.median(old[r].deals_per_s for r in rounds)
        new_median = statistics.median(new[r].deals_per_s for r in rounds)
        summaries.append(
            Summary(
                game=game,
                old_deals_per_s=old_median,
                new_deals_per_s=new_median,
                old_actions_per_s=statistics.median(old[r].actions_per_s for r in rounds),
                new_actions_per_s=statistics.median(new[r].actions_per_s for r in rounds),
                ratio_of_medians=new_median / old_median,
                paired_median=statistics.median(ratios),
                paired_min=min(ratios),
                paired_max=max(ratios),
                paired_cpu_median=statistics.median(cpu_ratios),
                same_play=all((old[r].deals, old[r].actions) == (new[r].deals, new[r].actions) for r in rounds),
            )
        )
    return summaries


def print_table(summaries: list[Summary], rounds: int, deals: int) -> None:
    """Print the comparison as a table, one game a line."""
    print(f"deals/s, median of {rounds} rounds x {deals} deals; ratios are new/old (above 1: new is faster)")
    print(f"{'game':<12}{'old':>9}{'new':>9}{'new/old':>9}{'paired':>9}{'min':>8}{'max':>8}{'cpu':>8}")
    for s in summaries:
        print(
            f"{s.game:<12}{s.old_deals_per_s:>9.0f}{s.new_deals_per_s:>9.0f}{s.ratio_of_medians:>9.3f}"
            f"{s.paired_median:>9.3f}{s.paired_min:>8.3f}{s.paired_max:>8.3f}{s.paired_cpu_median:>8.3f}"
            + ("" if s.same_play else "   (old and new played different action counts)")
        )
    print("new/old: ratio of the medians; paired: median (min, max) of the per-round ratios; cpu: paired, by CPU time")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(DEFAULT_GAMES), help="games to measure")
    parser.add_argument("--old", required=True, help="directory holding the old trickrules package")
    parser.add_argument("--new", required=True, help="directory holding the new trickrules package")
    parser.add_argument("--rounds", type=int, default=7, help="rounds of paired measurements (default 7)")
    parser.add_argument("--deals", type=int, default=400, help="deals per measurement (default 400)")
    parser.add_argument("--json", action="store_true", help="print the summary and every measurement as JSON")
    args = parser.parse_args()
    if args.rounds < 1 or args.deals < 1:
        parser.error("--rounds and --deals must be at least 1")
    old = check_tree(args.old)
    new = check_tree(args.new)
    games: list[str] = args.games
    try:
        results = run_rounds(old, new, games, args.rounds, args.deals)
    except BenchmarkError as exc:
        sys.exit(f"paired.py: {exc}")
    summaries = summarize(results, games)
    if args.json:
        document = {
            "old": old,
            "new": new,
            "python": sys.executable,
            "rounds": args.rounds,
            "deals": args.deals,
            "warmup_deals": WARMUP_DEALS,
            "summary": [asdict(s) for s in summaries],
            "measurements": [asdict(m) for m in results],
        }
        print(json.dumps(document, indent=2))
    else:
        print_table(summaries, args.rounds, args.deals)


if __name__ == "__main__":
    main()
