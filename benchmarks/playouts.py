"""Random playouts on the kernel from sampled worlds: how many a second, on one core.

A seat's position at the first lead of a deal (seeded random bidding) gives its log and view;
:func:`trickrules.sample_worlds` fills in the hidden cards; from each world the kernel plays the
deal's remaining cards at random (:func:`trickrules.native.playout.playouts`) many times::

    python benchmarks/playouts.py quadrille --worlds 20 --playouts 20000

Prints the playouts a second (CPU time of this process, the kernel compiled beforehand) per world
and their median.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

import trickrules
from trickrules.native import mt as MT
from trickrules.native.playout import playouts
from trickrules.records.eventlog import EventLog
from trickrules.records.view import View
from trickrules.search.native_solve import native_arrays, play_tables


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="quadrille")
    parser.add_argument("--worlds", type=int, default=20)
    parser.add_argument("--playouts", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    game = trickrules.load(args.game)
    tables = play_tables(game)
    if isinstance(tables, str):
        raise SystemExit(f"the kernel cannot play {args.game}: {tables}")
    rng = random.Random(args.seed)
    mt = np.zeros(MT.MT_SIZE, dtype=np.int64)
    MT.seed_words(np.array([args.seed, 0, 0, 0], dtype=np.int64), 4, mt)
    tricks = np.zeros(8, dtype=np.int64)
    points = np.zeros(8, dtype=np.int64)
    rates: list[float] = []
    match = 0
    while len(rates) < args.worlds:
        state = game.new_match(seed=args.seed * 1000 + match)
        match += 1
        while not state.is_terminal and not (state.phase == "play" and not state.trick and not state.tally.winners):
            state = state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal or state.deal.number:
            continue
        seat = state.chooser
        assert seat is not None
        known = EventLog.from_state(state).for_seat(seat)
        world = trickrules.sample_worlds(known, 1, view=View.from_state(state, seat), seed=match, game=game)[0]
        st, _ = native_arrays(world, ())
        work = np.zeros_like(st)
        playouts(tables, st, work, mt, 10, tricks, points)  # compiled before timing
        start = time.process_time()
        playouts(tables, st, work, mt, args.playouts, tricks, points)
        rates.append(args.playouts / (time.process_time() - start))
        print(f"world {len(rates)}: {rates[-1]:,.0f} playouts a second")
    print(f"{args.game}: median {statistics.median(rates):,.0f} playouts a second on one core")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
