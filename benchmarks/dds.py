"""The double-dummy table of trickrules' solver against DDS, as OpenSpiel bundles it, deal by deal.

For each deal (seeded), OpenSpiel's ``bridge`` with ``use_double_dummy_result=true`` computes DDS's
table when the deal is complete; ``score_by_contract()`` then gives every contract's score, from
which the double-dummy tricks of each declarer and strain follow (the highest level an undoubled
contract makes, or its undertricks at the one level). trickrules' :func:`trick_table` searches the
same deal on the kernel. Both are timed in CPU seconds of this process, the deals alternating
between them::

    python benchmarks/dds.py --deals 300 --seed 1
    python benchmarks/dds.py --deals 300 --seed 1 --skip 150   # deals 150-299 only (another core)

Prints one line per deal (tricks equal or not, both times) and a summary: deals compared, tables
that differ (must be 0), and each solver's median and largest time per table.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import pyspiel

import trickrules
from trickrules.search.native_solve import trick_table

STRAINS = ("C", "D", "H", "S", "NT")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def contract_indices(game: pyspiel.Game) -> dict[tuple[int, int, int], int]:
    """OpenSpiel's index of each undoubled contract, by (level, strain, declarer), learnt from auctions."""
    out = {}
    for declarer in range(4):
        for level in range(1, 8):
            for strain in range(5):
                s = game.new_initial_state()
                for card in range(52):
                    s.apply_action(card)
                for _ in range(declarer):
                    s.apply_action(52)  # pass
                s.apply_action(52 + 3 + (level - 1) * 5 + strain)
                for _ in range(3):
                    s.apply_action(52)
                out[(level, strain, declarer)] = s.contract_index()
    return out


def dds_tricks(scores: list[float], index: dict[tuple[int, int, int], int]) -> dict[tuple[int, int], int]:
    """(declarer, strain) -> tricks, from the score of every undoubled contract (no side vulnerable)."""
    out = {}
    for declarer in range(4):
        for strain in range(5):
            sign = 1 if declarer % 2 == 0 else -1  # the scores are North-South's
            made = [level for level in range(1, 8) if sign * scores[index[(level, strain, declarer)]] > 0]
            if made:
                out[(declarer, strain)] = 6 + max(made)
            else:
                out[(declarer, strain)] = 7 + round(sign * scores[index[(1, strain, declarer)]] / 50)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip", type=int, default=0, help="deals dealt but not compared, from the first")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    game = pyspiel.load_game("bridge(use_double_dummy_result=true)")
    ours = trickrules.load("bridge")
    codes = ours.tables.cards
    keys = {s: (-1 if s == "NT" else codes.suit_codes.index(s)) for s in STRAINS}
    index = contract_indices(game)
    rng = random.Random(args.seed)
    differ = 0
    times_dds: list[float] = []
    times_ours: list[float] = []
    trick_table(ours, [0b1111 << (4 * s) for s in range(4)])  # the kernel compiled before timing
    for deal in range(args.deals):
        order = list(range(52))
        rng.shuffle(order)
        if deal < args.skip:
            continue
        start = time.process_time()
        s = game.new_initial_state()
        for card in order:
            s.apply_action(card)
        theirs = dds_tricks(list(s.score_by_contract()), index)
        times_dds.append(time.process_time() - start)
        hands = [0, 0, 0, 0]
        for i, card in enumerate(order):
            hands[i % 4] |= 1 << codes.card(RANKS[card // 4] + "CDHS"[card % 4])
        start = time.process_time()
        table = trick_table(ours, hands)
        times_ours.append(time.process_time() - start)
        mine = {(d, STRAINS.index(s)): table[(d, keys[s])] for d in range(4) for s in STRAINS}
        same = mine == theirs
        differ += not same
        if not args.quiet or not same:
            verdict = "equal" if same else "DIFFER"
            print(f"deal {deal}: {verdict}  dds {times_dds[-1]:.2f} s  trickrules {times_ours[-1]:.2f} s")
            if not same:
                print(f"  dds {theirs}\n  trickrules {mine}")
        sys.stdout.flush()
    print(f"{len(times_ours)} deals, {differ} tables differ")
    for name, times in (("dds", times_dds), ("trickrules", times_ours)):
        print(f"{name}: median {statistics.median(times):.3f} s, max {max(times):.3f} s a table (CPU)")
    print(f"ratio of medians: {statistics.median(times_ours) / statistics.median(times_dds):.1f}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
