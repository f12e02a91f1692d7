"""The benchmark suite: every figure of docs/performance.md, with its target, in one run.

Run: ``python benchmarks/run.py [--quick] [--json FILE]``

Figures (medians of repetitions interleaved in this process, so that a noisy
shared machine hits every side of a ratio alike):

* ``import trickrules`` and a bundled game's first and second ``load()``, each
  in fresh subprocesses;
* public-API random play of every bundled game (``legal_actions()`` then
  ``apply()``), player actions and deals per second;
* the same game on both sides, for Hearts, Spades, Euchre and Oh Hell:
  the public API against pyspiel driven from Python with an equally lean
  driver, and the bulk path against OpenSpiel's C++ ``evaluate_bots`` with
  uniform random bots (one core each); the seed games against OpenSpiel's
  Spades;
* the bulk path (``trickrules.simulate`` with random bots, which plays on the
  native kernel: full rules and scoring) in deals per second, and the
  kernel's first call in a fresh process (empty and warm on-disk cache),
  against a tight hand-written
  pure-Python loop of a Quadrille-sized deal (4 seats, 40 cards, follow suit,
  trumps, tricks counted and scored);
* the heuristic bots' deals per second;
* replay from a log's text in actions per second, and ``replay(text)``
  against ``replay(text, game=...)``;
* peak traced memory of a bulk run, and the memory each state held costs;
* two worker processes against one on the bulk path, with the machine's load.

Every line ends with the target and whether it holds on this machine now.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import engine  # found through the path above: the public-API and OpenSpiel drivers

import trickrules

RESULTS: dict[str, Any] = {}


def report(key: str, text: str, value: float, target: str = "", holds: bool | None = None) -> None:
    """Print one figure with its target and record it for ``--json``."""
    verdict = "" if holds is None else ("  ok" if holds else "  MISSED")
    print(f"  {text:<58}{target:>28}{verdict}")
    RESULTS[key] = {"value": value, "target": target, "holds": holds}


def median_of(runs: int, measure: Callable[[], float]) -> float:
    """The median of ``runs`` measurements."""
    return statistics.median(measure() for _ in range(runs))


# -- import and load --------------------------------------------------------------------------


def _child_seconds(code: str) -> float:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def import_and_load(runs: int) -> None:
    """Import time and load times, each measured in fresh processes."""
    print("import and load (fresh processes)")
    imp = median_of(runs, lambda: _child_seconds(
        "import time; t = time.perf_counter(); import trickrules; print(time.perf_counter() - t)"))  # fmt: skip
    report("import_ms", f"import trickrules: {imp * 1000:.0f} ms", imp * 1000, "< 150 ms", imp < 0.150)
    code = (
        "import time, trickrules; t = time.perf_counter(); trickrules.load('quadrille'); a = time.perf_counter() - t;"
        " t = time.perf_counter(); trickrules.load('quadrille'); b = time.perf_counter() - t; print(a); print(b)"
    )
    firsts, seconds = [], []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
        firsts.append(float(out[-2]))
        seconds.append(float(out[-1]))
    first, second = statistics.median(firsts), statistics.median(seconds)
    report("load_first_ms", f"first load('quadrille'): {first * 1000:.1f} ms", first * 1000)
    report("load_second_ms", f"second load('quadrille'): {second * 1000:.3f} ms", second * 1000, "< 1 ms",
           second < 0.001)  # fmt: skip


# -- public API and OpenSpiel -------------------------------------------------------------------


def public_api(names: list[str], deals: int, runs: int) -> dict[str, float]:
    """Random play through the public API; returns player actions per second by game."""
    print(f"public API, random play (median of {runs} x {deals} deals)")
    rates: dict[str, list[float]] = {name: [] for name in names}
    deal_rates: dict[str, list[float]] = {name: [] for name in names}
    games = {name: trickrules.load(name) for name in names}
    for game in games.values():
        engine.play_deals(game, 5, 99)
    for rep in range(runs):
        for name, game in games.items():
            seconds, done, actions = engine.play_deals(game, deals, rep)
            rates[name].append(actions / seconds)
            deal_rates[name].append(done / seconds)
    out = {}
    for name in names:
        out[name] = statistics.median(rates[name])
        report(f"api_{name}", f"{name}: {out[name]:,.0f} actions/s, {statistics.median(deal_rates[name]):,.0f} deals/s",
               out[name])  # fmt: skip
    return out


def openspiel(ours: dict[str, float], deals: int, runs: int) -> None:
    """The same games as OpenSpiel's, side by side, interleaved: the public API and the bulk path.

    The public API (``legal_actions()``/``apply()``, player actions/s) against
    pyspiel driven from Python; the bulk path (``simulate``, random bots,
    one core, deals/s) against OpenSpiel's C++ ``evaluate_bots`` with uniform
    random bots (games/s; an OpenSpiel game is one deal).
    """
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel (pyspiel) is not installed: no side-by-side figures")
        return
    print(f"side by side with OpenSpiel, the same game (interleaved, median of {runs})")
    theirs: dict[str, float] = {}
    for name, their_name in engine.OPENSPIEL.items():
        game = pyspiel.load_game(their_name)
        mine = trickrules.load(name)
        engine.play_openspiel(game, 500, 99)
        engine.evaluate_bots_rate(game, 20, 99)
        bulk_rate(name, 20, 99)
        a_rates, b_rates, c_rates, d_rates = [], [], [], []
        for rep in range(runs):
            seconds, _, actions = engine.play_deals(mine, deals, rep)
            a_rates.append(actions / seconds)
            seconds, actions = engine.play_openspiel(game, actions, rep)
            b_rates.append(actions / seconds)
            c_rates.append(bulk_rate(name, 20 * deals, rep))
            d_rates.append(engine.evaluate_bots_rate(game, 20 * deals, rep))
        theirs[name] = statistics.median(b_rates)
        api = statistics.median(a_rates)
        report(f"vs_openspiel_{name}", f"{name}, public API: trickrules {api:,.0f} actions/s, pyspiel from Python "
               f"{theirs[name]:,.0f}: {api / theirs[name]:.2f}x", api / theirs[name], ">= 1.0x",
               api >= theirs[name])  # fmt: skip
        bulk, cpp = statistics.median(c_rates), statistics.median(d_rates)
        report(f"bulk_vs_evaluate_bots_{name}", f"{name}, bulk: trickrules {bulk:,.0f} deals/s, OpenSpiel C++ "
               f"evaluate_bots {cpp:,.0f} games/s: {bulk / cpp:.2f}x", bulk / cpp, ">= 1.0x", bulk >= cpp)  # fmt: skip
    for name in ("quadrille", "cuatrola", "manille"):
        if name in ours:
            ratio = ours[name] / theirs["spades"]
            report(f"vs_spades_{name}", f"{name} against OpenSpiel's Spades: {ratio:.2f}x", ratio, ">= 0.8x",
                   ratio >= 0.8)  # fmt: skip


# -- the bulk path and the tight loop -----------------------------------------------------------


def tight_loop(deals: int, seed: int) -> float:
    """A tight hand-written loop of Quadrille-sized deals: deals per second.

    Four seats, 40 cards of four suits, ten tricks; the trump suit drawn at
    random; each seat follows suit when it can (random among the legal
    cards); the trick goes to the highest trump, else the highest card of the
    suit led; the declarer (seat 0) scores the tricks past five, the others
    share the loss. No rule table, no validation, no record: the floor a
    general engine cannot go below.
    """
    rng = random.Random(seed)
    deck = list(range(40))
    scores = [0, 0, 0, 0]
    start = time.perf_counter()
    for _ in range(deals):
        rng.shuffle(deck)
        hands = [deck[0:10], deck[10:20], deck[20:30], deck[30:40]]
        trump = int(rng.random() * 4)
        leader = int(rng.random() * 4)
        won = [0, 0, 0, 0]
        for _trick in range(10):
            seat = leader
            hand = hands[seat]
            card = hand.pop(int(rng.random() * len(hand)))
            led = card // 10
            best, best_seat = card, seat
            best_trump = led == trump
            for _ in range(3):
                seat = (seat + 1) & 3
                hand = hands[seat]
                follow = [c for c in hand if c // 10 == led]
                pool = follow or hand
                card = pool[int(rng.random() * len(pool))]
                hand.remove(card)
                suit = card // 10
                if suit == trump:
                    if not best_trump or card > best:
                        best, best_seat, best_trump = card, seat, True
                elif suit == led and not best_trump and card > best:
                    best, best_seat = card, seat
            won[best_seat] += 1
            leader = best_seat
        gain = won[0] - 5
        scores[0] += 3 * gain
        scores[1] -= gain
        scores[2] -= gain
        scores[3] -= gain
    return deals / (time.perf_counter() - start)


def bulk_rate(name: str, deals: int, seed: int, bots: str = "random") -> float:
    """Deals per second of ``trickrules.simulate`` on ``name`` in this process (random bots: the native kernel)."""
    start = time.perf_counter()
    result = trickrules.simulate(name, deals=deals, seed=seed, bots=bots)
    return result.statistics.deals / (time.perf_counter() - start)


def kernel_first_calls() -> None:
    """The native kernel's first call in a fresh process: with an empty on-disk cache, then with a warm one."""
    import tempfile

    code = (
        "import time, trickrules; g = trickrules.load('hearts'); t = time.perf_counter(); "
        "trickrules.simulate(g, deals=1, seed=1); print(time.perf_counter() - t)"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        cold, warm = (float(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                           check=True).stdout) for _ in range(2))  # fmt: skip
    report("kernel_first_call_cold", f"the kernel's first call, empty cache: {cold:.1f} s", cold)
    report("kernel_first_call_warm", f"the kernel's first call, warm cache: {warm:.2f} s", warm)


def bulk(names: list[str], deals: int, runs: int) -> None:
    """The bulk path per game against the tight loop, interleaved, and the heuristic bots."""
    print(f"bulk path, random bots, one process (deals/s, interleaved, median of {runs})")
    for name in names:
        bulk_rate(name, 50, 99)
    tight_rates: list[float] = []
    rates: dict[str, list[float]] = {name: [] for name in names}
    for rep in range(runs):
        tight_rates.append(tight_loop(deals, rep))
        for name in names:
            rates[name].append(bulk_rate(name, deals, rep))
    tight = statistics.median(tight_rates)
    report("tight_loop", f"tight hand-written loop: {tight:,.0f} deals/s", tight)
    for name in names:
        rate = statistics.median(rates[name])
        report(f"bulk_{name}", f"{name}: {rate:,.0f} deals/s, {rate / tight:.2f}x the tight loop", rate,
               ">= 40,000 deals/s", rate >= 40_000)  # fmt: skip
    print("heuristic bots (deals/s)")
    for name in names:
        reps = max(1, runs // 2)
        rate = statistics.median(bulk_rate(name, max(50, deals // 10), 7, "heuristic") for _ in range(reps))
        report(f"heuristic_{name}", f"{name}: {rate:,.0f} deals/s", rate)


# -- replay, memory, workers ---------------------------------------------------------------------


def replay_figures(runs: int) -> None:
    """Replay from a log's text: actions per second, and with and without the game given."""
    print(f"replay from text (median of {runs})")
    game = trickrules.load("quadrille")
    texts = []
    actions = 0
    for seed in range(20):
        state = game.new_match(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.random() * len(legal))])
            actions += 1
        texts.append(trickrules.EventLog.from_state(state).to_json())

    def run(with_game: bool) -> float:
        gc.collect()  # each run starts from a collected heap, so neither pays for the other's garbage
        start = time.perf_counter()
        for text in texts:
            trickrules.replay(text, game=game) if with_game else trickrules.replay(text)
        return actions / (time.perf_counter() - start)

    run(True)
    given, named = [], []
    for rep in range(2 * runs):  # ABBA: each side runs first as often as second
        if rep % 2:
            named.append(run(False))
            given.append(run(True))
        else:
            given.append(run(True))
            named.append(run(False))
    a, b = statistics.median(given), statistics.median(named)
    report("replay_text", f"replay(text, game=...): {a:,.0f} actions/s", a, ">= 200,000 actions/s", a >= 200_000)
    report("replay_by_name", f"replay(text) by the header's name: {b / a:.2f}x the former", b / a, ">= 1.0x (noise)",
           b / a >= 0.95)  # fmt: skip


def memory(deals: int) -> None:
    """Peak traced memory of a bulk run of Quadrille."""
    tracemalloc.start()
    bulk_rate("quadrille", deals, 3)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    report("bulk_peak_mib", f"bulk run of {deals} Quadrille deals: peak {peak / 2**20:.1f} MiB traced", peak / 2**20)
    # Memory per held state: a search keeps many states alive, each sharing its records with the one before.
    game = trickrules.load("quadrille")
    rng = random.Random(1)
    state = game.new_match(seed=3)
    for _ in range(30):  # into the play, past the auction
        legal = state.legal_actions()
        state = state.apply(legal[int(rng.random() * len(legal))])
    tracemalloc.start()
    held = [state]
    while not state.is_terminal and len(held) < 400:
        legal = state.legal_actions()
        state = state.apply(legal[int(rng.random() * len(legal))])
        held.append(state)
    current, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    per_state = current / len(held)
    report("bytes_per_held_state", f"{len(held)} Quadrille states held: {per_state:,.0f} B traced per state", per_state,
           "<= 1,024 B", per_state <= 1024)  # fmt: skip


def workers(deals: int) -> None:
    """Two worker processes against one on the bulk path (simulate with a process pool), with the load."""
    print("two worker processes against one (trickrules.simulate, quadrille)")
    trickrules.simulate("quadrille", deals=10, seed=6)  # the kernel loaded in this process too
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    trickrules.simulate("quadrille", deals=deals, seed=5)
    one = time.perf_counter() - start  # the kernel is compiled (or read from its cache) in the first call before
    with ProcessPoolExecutor(2) as pool:
        trickrules.simulate("quadrille", deals=200, seed=6, executor=pool)  # start the workers
        start = time.perf_counter()
        trickrules.simulate("quadrille", deals=deals, seed=5, executor=pool)
        two = time.perf_counter() - start
    speedup = one / two
    report("two_workers", f"{deals} deals: 1 process {one:.1f} s, 2 workers {two:.1f} s: {speedup:.2f}x "
           f"(load {load_before:.1f}, {os.cpu_count()} cores)", speedup, ">= 1.8x", speedup >= 1.8)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer deals and repetitions (a smoke run)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    runs, deals = (1, 100) if args.quick else (5, 1000)
    print(f"{platform.platform()}, {platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; trickrules {trickrules.__version__}")  # fmt: skip
    import_and_load(runs)
    names = sorted(trickrules.bundled_names())
    ours = public_api([n for n in names if "-" not in n], deals, runs)
    openspiel(ours, deals, runs)
    bulk(["quadrille", "cuatrola", "manille"], deals * 20, runs)
    kernel_first_calls()
    replay_figures(runs)
    memory(deals)
    workers(deals * 400)
    if args.json:
        args.json.write_text(json.dumps(RESULTS, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
