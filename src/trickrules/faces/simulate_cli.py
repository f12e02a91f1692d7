"""``trickrules simulate``: bulk simulation from the command line, with a progress bar and a summary table.

The progress bar and the tables are drawn by ``rich`` on stderr and stdout;
``--json`` prints the result alone on stdout, the same bytes for the same
game, bots, seed and deal count whatever ``--jobs`` is.

Every string that comes from a spec, a file name or the command line (a
game's, a contract's or an outcome's name) is given to ``rich`` as a
:class:`rich.text.Text`, never as markup: ``[/]``, ``[link=...]`` or
``:emoji:`` in a name is printed as written.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Any

from trickrules.engine.game import Game, load
from trickrules.errors import ArgumentError
from trickrules.faces.args import options_of
from trickrules.faces.simulate import KernelFallback, Simulation, bot_kinds, simulate
from trickrules.faces.stats import Z95, Estimate, Statistics

__all__ = ["DEFAULT_BOTS", "add_command", "bots_text", "compare_data", "variant_of"]

#: The bots ``simulate`` plays with unless ``--bots`` says otherwise: those ``play`` puts at the table.
DEFAULT_BOTS = "heuristic"


def variant_of(base: str, options: dict[str, str], compare: str) -> Game:
    """The game ``--compare`` names: an option ``KEY=VALUE`` on top of the base's, or a spec or overlay."""
    key, sep, value = compare.partition("=")
    if sep:
        if not key:
            raise ArgumentError(f"--compare expects KEY=VALUE or a game, found {compare!r}")
        return load(base, {**options, key: value})
    return load(compare, options or None)


@contextmanager
def _executor(jobs: int) -> Iterator[Executor | None]:
    from trickrules.faces.pool import worker_pool  # workers that ignore Ctrl-C, ended with the command

    with worker_pool(jobs) as pool:
        yield pool


def _difference(a: Estimate, b: Estimate) -> Estimate:
    """``b - a`` for two independent estimates, with the half-widths combined."""
    return Estimate(min(a.n, b.n), b.mean - a.mean, math.hypot(a.half_width, b.half_width))


def _share(count: int, n: int) -> Estimate:
    """A proportion with its 95% interval (normal approximation)."""
    if n == 0:
        return Estimate(0, math.nan, math.inf)
    p = count / n
    return Estimate(n, p, Z95 * math.sqrt(p * (1 - p) / n))


def _shown(e: Estimate, digits: int = 3) -> str:
    if math.isnan(e.mean):
        return "-"
    if math.isinf(e.half_width):
        return f"{e.mean:.{digits}f}"
    return f"{e.mean:.{digits}f} ± {e.half_width:.{digits}f}"


def _rows(stats: Statistics) -> list[tuple[str, Estimate]]:
    """The quantities compared between two simulations, by label."""
    rows = [(f"seat {s.seat} per deal", s.per_deal.estimate()) for s in stats.seats]
    rows += [(f"seat {s.seat} final total", s.final.estimate()) for s in stats.seats]
    rows.append(("match spread (highest - lowest final)", stats.spread.estimate()))
    rows += [(f"share of deals: {c.name}", _share(c.count, stats.deals)) for c in stats.contracts]
    rows += [(f"success rate: {c.name}", _share(c.successes, c.result.n)) for c in stats.contracts if c.result.n]
    rows += [(f"share of deals: outcome {name}", _share(count, stats.deals)) for name, count in stats.outcomes]
    return rows


def compare_data(base: Simulation, variant: Simulation) -> dict[str, Any]:
    """Both results and, for each quantity both have, the variant's value minus the base's with a 95% interval."""
    ours = dict(_rows(base.statistics))
    theirs = dict(_rows(variant.statistics))
    differences = []
    for label, a in ours.items():
        if label in theirs:
            d = _difference(a, theirs[label])
            differences.append({"quantity": label, "base": _shown(a), "variant": _shown(theirs[label]),
                                "difference": _shown(d)})  # fmt: skip
    return {"base": base.to_data(), "variant": variant.to_data(), "differences": differences}


def bots_text(bots: Sequence[str]) -> str:
    """Which bots played, for a printout: ``"heuristic bots"``, or each seat's where they differ."""
    if len(set(bots)) == 1:
        return f"{bots[0]} bots"
    return "bots " + ", ".join(f"seat {seat} {kind}" for seat, kind in enumerate(bots))


def _console(stderr: bool = False) -> Any:
    """A rich console that reads no markup, emoji codes or highlighting into what it prints."""
    from rich.console import Console

    return Console(stderr=stderr, markup=False, emoji=False, highlight=False)


def _tables(result: Simulation, console: Any) -> None:
    from rich.table import Table
    from rich.text import Text

    stats = result.statistics
    unfinished = f", {stats.unfinished} stopped unfinished" if stats.unfinished else ""
    whole = stats.deals > result.deals_asked
    asked = f" (at least {result.deals_asked} asked: matches are played whole)" if whole else ""
    console.print(
        Text.assemble(
            (result.game, "bold"),
            f" {result.fingerprint}: {stats.deals} deals{asked} in {stats.matches} matches"
            f"{unfinished}, seed {result.seed}, {bots_text(result.bots)}",
        )
    )
    table = Table(title="Contracts")
    for column in ("contract", "deals", "share", "forced", "success rate", "declarer result per deal"):
        table.add_column(column, justify="left" if column == "contract" else "right")
    for c in stats.contracts:
        table.add_row(
            Text(c.name), str(c.count), f"{c.count / stats.deals:.1%}", str(c.forced),
            "-" if not c.result.n else f"{c.success_rate:.1%}", _shown(c.result.estimate(), 2),
        )  # fmt: skip
    console.print(table)
    if stats.outcomes:
        table = Table(title="Outcomes")
        table.add_column("outcome")
        table.add_column("deals", justify="right")
        table.add_column("share", justify="right")
        for name, count in stats.outcomes:
            table.add_row(Text(name), str(count), f"{count / stats.deals:.1%}")
        console.print(table)
    table = Table(title="Seats (95% intervals)")
    for column in ("seat", "per deal", "final total", "tricks per deal", "match wins"):
        table.add_column(column, justify="right")
    for s in stats.seats:
        table.add_row(str(s.seat), _shown(s.per_deal.estimate(), 2), _shown(s.final.estimate(), 2),
                      f"{s.tricks / stats.deals:.2f}", str(s.wins))  # fmt: skip
    console.print(table)


def _run(game: Game, args: argparse.Namespace, console: Any, label: str) -> Simulation:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    # The label holds the game's name: a column that reads no markup.
    name = TextColumn("{task.description}", markup=False, highlighter=None)
    columns = (name, BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always", KernelFallback)
        with Progress(*columns, console=console, transient=False) as bar, _executor(args.jobs) as executor:
            task = bar.add_task(label, total=args.n)
            update: Callable[[int], None] = lambda done: bar.update(task, completed=min(done, args.n))  # noqa: E731
            try:
                result = simulate(game, args.n, seed=args.seed, bots=args.bots, executor=executor, progress=update)
            except BaseException:
                bar.live.transient = True  # a failed or stopped run leaves no bar: its one line on stderr says why
                raise
    for warning in said:  # one plain line each (not markup: the message quotes the spec's names)
        if issubclass(warning.category, KernelFallback):
            print(f"note: {warning.message}", file=sys.stderr)
    return result


def _cmd_simulate(args: argparse.Namespace) -> int:
    if args.n < 1:
        raise ArgumentError(f"-n must be at least 1, found {args.n}")
    if args.jobs < 1:
        raise ArgumentError(f"--jobs must be at least 1, found {args.jobs}")
    if args.seed < 0:
        raise ArgumentError(f"--seed must be 0 or more, found {args.seed}")
    options = options_of(args.option)
    game = load(args.game, options)
    variant = variant_of(args.game, options, args.compare) if args.compare else None
    errors = _console(stderr=True)
    kinds = bots_text(bot_kinds(args.bots, game.players))
    base = _run(game, args, errors, f"{game.name}, {kinds}")
    other = _run(variant, args, errors, f"{variant.name} ({args.compare}), {kinds}") if variant is not None else None
    if args.json:
        data = base.to_data() if other is None else compare_data(base, other)
        print(json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False))
        return 0
    console = _console()
    _tables(base, console)
    if other is not None:
        from rich.table import Table
        from rich.text import Text

        said = "(same seeds; variant minus base, 95% intervals)"
        console.print(Text.assemble("\n", (f"Compared with {args.compare}", "bold"), f" {said}"))
        _tables(other, console)
        table = Table(title=Text(f"{args.compare} minus {base.game}"))
        for column in ("quantity", "base", "variant", "difference"):
            table.add_column(column, justify="left" if column == "quantity" else "right")
        for row in compare_data(base, other)["differences"]:
            table.add_row(Text(row["quantity"]), row["base"], row["variant"], row["difference"])
        console.print(table)
    return 0


def add_command(sub: Any, games: str) -> None:
    """Add ``simulate`` to the command line's subcommands."""
    p = sub.add_parser("simulate", help="play many deals with bots and print statistics")
    p.add_argument("game", help=f"a bundled game ({games}) or a spec file")
    p.add_argument(
        "-n", type=int, default=1000, metavar="DEALS",
        help="play at least this many deals, in whole matches (default 1000)",
    )  # fmt: skip
    p.add_argument("--seed", type=int, default=0, help="the simulation's seed (default 0)")
    p.add_argument(
        "--bots", default=DEFAULT_BOTS,
        help=f"a bot for every seat, or one per seat: random,heuristic,... (default {DEFAULT_BOTS}, as in play; "
        "random bots play on the native kernel, much faster)",
    )  # fmt: skip
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--compare", metavar="OVERLAY_OR_OPTION", help="also play this variant on the same seeds")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=_cmd_simulate)

