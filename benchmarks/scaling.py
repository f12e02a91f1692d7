"""A large comparison on a Dask cluster: a game and a variant of it, the same seeds, many deals each.

Run: ``python benchmarks/scaling.py [--game manille] [--compare scoring=difference] [--deals 1000000]
[--workers 2] [--scheduler ADDRESS]``

Without ``--scheduler`` it starts a ``LocalCluster`` on 127.0.0.1 with one
single-threaded worker process per ``--workers``; with it, it connects to a
running Dask scheduler (any cluster whose workers can import trickrules).
It prints the time of each run, the deals per second, and every quantity
``trickrules simulate --compare`` reports with the difference and its 95%
interval. The figures in docs/scaling.md come from this script.
"""

from __future__ import annotations

import argparse
import importlib
import os
import time
from typing import Any

import trickrules
from trickrules.faces.simulate_cli import compare_data, variant_of

#: Dask's distributed scheduler, typed loosely (its functions carry no annotations for mypy --strict).
distributed: Any = importlib.import_module("distributed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="manille")
    parser.add_argument("--compare", default="scoring=difference", help="KEY=VALUE or an overlay")
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scheduler", help="the address of a running Dask scheduler")
    args = parser.parse_args()
    base_game = trickrules.load(args.game)
    other_game = variant_of(args.game, {}, args.compare)
    if args.scheduler:
        client = distributed.Client(args.scheduler)
        cluster = None
    else:
        cluster = distributed.LocalCluster(
            n_workers=args.workers, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        )
        client = distributed.Client(cluster)
    workers = len(client.scheduler_info()["workers"])
    print(f"Dask cluster: {workers} workers; this machine has {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    executor = client.get_executor()
    results = []
    for game, label in ((base_game, args.game), (other_game, f"{args.game} with {args.compare}")):
        start = time.perf_counter()
        result = trickrules.simulate(game, args.deals, seed=args.seed, executor=executor)
        seconds = time.perf_counter() - start
        stats = result.statistics
        print(f"{label}: {stats.deals:,} deals in {stats.matches:,} matches, {seconds:.0f} s, "
              f"{stats.deals / seconds:,.0f} deals/s")  # fmt: skip
        results.append(result)
    print(f"\n{'quantity':<44}{'base':>20}{'variant':>20}{'difference':>20}")
    for row in compare_data(results[0], results[1])["differences"]:
        print(f"{row['quantity']:<44}{row['base']:>20}{row['variant']:>20}{row['difference']:>20}")
    client.close()
    if cluster is not None:
        cluster.close()


if __name__ == "__main__":
    main()
