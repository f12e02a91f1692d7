"""Long fuzzing runs of the library's readers: every input must end in success or a library error, quickly.

Run: ``python benchmarks/fuzz.py --target spec|formula|log|view --examples 100000``
``[--seed N] [--limit SECONDS] [--save FILE]``

A target is a strategy of inputs and a property that runs one input and says
what happened (``"ok"``, an error's class name, ...); the property raises
only on a real failure. The strategies live beside the tests that run them
with a small budget (``tests/fuzz_specs.py`` for ``spec`` and ``formula``,
``tests/fuzz_logs.py`` for ``log`` and ``view``);
a new target is one more entry in :data:`TARGETS`.

The run goes on past a failure: every input whose property raised something
other than a :class:`~trickrules.errors.TrickrulesError` is printed at the
end with its traceback, and so is the slowest input. The exit status is 1
if any input failed or took longer than ``--limit`` seconds, else 0. To use
both cores, run two targets as two processes.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis.strategies import SearchStrategy

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import fuzz_logs  # found through the path above
import fuzz_specs

Target = tuple[SearchStrategy[Any], Callable[[Any], str]]

#: Each target by name: a function giving its strategy and its property (built only when the target runs).
TARGETS: dict[str, Callable[[], Target]] = {
    "spec": lambda: (fuzz_specs.spec_cases(), fuzz_specs.check_spec_case),
    "formula": lambda: (fuzz_specs.formula_cases(), fuzz_specs.check_formula_case),
    "log": lambda: (fuzz_logs.log_texts(), fuzz_logs.check_log_text),
    "view": lambda: (fuzz_logs.view_texts(), fuzz_logs.check_view_text),
}


class Run:
    """What a run has seen so far: outcomes, the slowest input, the failures."""

    def __init__(self, every: int, save: Path | None = None) -> None:
        self.save = save
        self.started = time.perf_counter()
        self.every = every
        self.outcomes: Counter[str] = Counter()
        self.slowest = (0.0, "")
        self.failures: list[tuple[str, str]] = []

    @property
    def count(self) -> int:
        """How many inputs have been run."""
        return sum(self.outcomes.values())

    def one(self, check: Callable[[Any], str], value: Any) -> None:
        """Run the property on one input and record what happened.

        The cyclic garbage collector is paused while the clock runs: over a long run the
        fuzzer's own records grow, and a collection of them must not be blamed on an input.
        """
        gc.disable()
        start = time.perf_counter()
        try:
            outcome = check(value)
        except Exception as exc:
            outcome = "FAILED"
            self.failures.append((_shown(value), traceback.format_exc()))
            print(f"  FAILED ({type(exc).__name__}: {exc}) on {_shown(value)[:300]}", file=sys.stderr)
            if self.save is not None:  # the whole input, one a line (the report cuts long ones short)
                with self.save.open("a", encoding="utf-8") as out:
                    out.write(fuzz_specs.safe_repr(value).replace("\n", "\\n") + "\n")
        finally:
            elapsed = time.perf_counter() - start
            gc.enable()
        if elapsed > self.slowest[0]:
            self.slowest = (elapsed, _shown(value))
        self.outcomes[outcome] += 1
        if self.count % self.every == 0:
            minutes = (time.perf_counter() - self.started) / 60
            print(f"  {self.count} inputs, {minutes:.1f} min, slowest {self.slowest[0]:.3f} s", file=sys.stderr)

    def report(self, target: str, limit: float) -> int:
        """Print the figures and the failures; the exit status."""
        minutes = (time.perf_counter() - self.started) / 60
        print(f"target {target}: {self.count} inputs in {minutes:.1f} min")
        for outcome, n in self.outcomes.most_common():
            print(f"  {n:8}  {outcome}")
        print(f"slowest input: {self.slowest[0]:.3f} s\n  {self.slowest[1]}")
        for shown, trace in self.failures:
            print(f"\nFAILED on {shown}\n{trace}")
        too_slow = self.slowest[0] > limit
        if too_slow:
            print(f"\nthe slowest input took more than {limit} s")
        print(f"\n{len(self.failures)} failures" + (", too slow" if too_slow else ""))
        return 1 if self.failures or too_slow else 0


def _shown(value: Any) -> str:
    text = fuzz_specs.safe_repr(value)
    return text if len(text) <= 4000 else text[:4000] + "..."


def run(target: str, examples: int, seed_value: int, limit: float, save: Path | None = None) -> int:
    """Run ``target`` on ``examples`` inputs; the exit status (see the module's docstring).

    ``save``: a file each failing input is added to, whole, one a line.
    """
    strategy, check = TARGETS[target]()
    state = Run(every=max(1000, examples // 20), save=save)

    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=[Phase.generate],  # no shrinking: a failure is recorded and the run goes on
        suppress_health_check=list(HealthCheck),
    )
    @seed(seed_value)
    @given(strategy)
    def each(value: Any) -> None:
        state.one(check, value)

    each()
    return state.report(target, limit)


def main(argv: list[str] | None = None) -> int:
    """The command line; the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", choices=sorted(TARGETS), required=True)
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=float, default=2.0, help="seconds one input may take")
    parser.add_argument("--save", type=Path, help="add each failing input, whole, to this file (one a line)")
    args = parser.parse_args(argv)
    return run(args.target, args.examples, args.seed, args.limit, args.save)


if __name__ == "__main__":
    sys.exit(main())
