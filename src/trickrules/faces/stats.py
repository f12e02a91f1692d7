"""Aggregate statistics of simulated deals: counts and sums that merge exactly.

Everything here is a whole number (counts, sums, sums of squares), so the
statistics of two chunks of a simulation add up to those of the whole, in any
order, bit for bit; means and confidence intervals are worked out only when
they are read. :class:`StatisticsCounter` is the mutable counter a simulation
loop fills; :meth:`StatisticsCounter.freeze` gives the immutable
:class:`Statistics` value.

>>> a, b = StatisticsCounter(2), StatisticsCounter(2)
>>> a.add_deal("solo", 0, False, True, 6, (2, 8), ("won",), (5, -5))
>>> b.add_deal("solo", 1, False, False, 4, (6, 4), ("remise",), (-3, 3))
>>> both = a.freeze().merged(b.freeze())
>>> both.deals, both.contract("solo").count, both.contract("solo").successes
(2, 2, 1)
>>> both.seat_result(0).mean
1.0
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from attrs import frozen

__all__ = ["Z95", "ContractStats", "Estimate", "SeatStats", "Statistics", "StatisticsCounter", "Sum", "merge_all"]

#: The normal quantile of a two-sided 95% confidence interval.
Z95 = 1.959963984540054


@frozen
class Estimate:
    """A mean with the half-width of its 95% confidence interval (normal approximation)."""

    n: int
    mean: float
    half_width: float

    def __str__(self) -> str:
        return f"{self.mean:.3f} ± {self.half_width:.3f}"


@frozen
class Sum:
    """The count, sum and sum of squares of a quantity: enough for its mean and confidence interval."""

    n: int = 0
    total: int = 0
    squares: int = 0

    def __add__(self, other: Sum) -> Sum:
        return Sum(self.n + other.n, self.total + other.total, self.squares + other.squares)

    def estimate(self) -> Estimate:
        """The mean and its 95% interval; the interval is infinite with fewer than two values."""
        if self.n == 0:
            return Estimate(0, math.nan, math.inf)
        mean = self.total / self.n
        if self.n < 2:
            return Estimate(1, mean, math.inf)
        # Exact integer arithmetic up to the last step, so no cancellation loses precision.
        variance = (self.n * self.squares - self.total * self.total) / (self.n * (self.n - 1))
        return Estimate(self.n, mean, Z95 * math.sqrt(max(variance, 0.0) / self.n))


def _add_maps(a: tuple[tuple[str, int], ...], b: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    out = dict(a)
    for key, value in b:
        out[key] = out.get(key, 0) + value
    return tuple(sorted(out.items()))


def _add_hist(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    size = max(len(a), len(b))
    return tuple((a[i] if i < len(a) else 0) + (b[i] if i < len(b) else 0) for i in range(size))


@frozen
class ContractStats:
    """What became of one contract: how often it was played and forced, how often it made, and its declarers' results.

    ``successes`` counts the deals in which the declarer's own total went up;
    ``tricks`` is the histogram of the tricks the declaring side took
    (``tricks[n]`` deals with ``n`` tricks).
    """

    name: str
    count: int = 0
    forced: int = 0
    successes: int = 0
    result: Sum = Sum()
    tricks: tuple[int, ...] = ()

    def merged(self, other: ContractStats) -> ContractStats:
        """The statistics of both."""
        return ContractStats(
            self.name,
            self.count + other.count,
            self.forced + other.forced,
            self.successes + other.successes,
            self.result + other.result,
            _add_hist(self.tricks, other.tricks),
        )

    @property
    def success_rate(self) -> float:
        """The share of this contract's deals in which the declarer gained (``nan`` if none was played)."""
        return self.successes / self.count if self.count else math.nan


@frozen
class SeatStats:
    """One seat's results: per deal, per match (its final total), its tricks and its match wins."""

    seat: int
    per_deal: Sum = Sum()
    final: Sum = Sum()
    tricks: int = 0
    wins: int = 0

    def merged(self, other: SeatStats) -> SeatStats:
        """The statistics of both."""
        return SeatStats(
            self.seat,
            self.per_deal + other.per_deal,
            self.final + other.final,
            self.tricks + other.tricks,
            self.wins + other.wins,
        )


@frozen
class Statistics:
    """The statistics of a number of whole matches; add two with :meth:`merged`.

    ``outcomes`` counts each outcome or bonus the game's scoring named
    (``remise``, ``codille``, ``capot``...), by deal; ``contracts`` holds one
    entry per contract played (``"(none)"`` for deals with no contract);
    ``spread`` is the difference between the highest and the lowest final
    total of a match; ``unfinished`` counts the matches stopped before their
    end (their deals are counted, their totals as they stood).
    """

    players: int
    matches: int = 0
    unfinished: int = 0
    deals: int = 0
    actions: int = 0
    contracts: tuple[ContractStats, ...] = ()
    outcomes: tuple[tuple[str, int], ...] = ()
    seats: tuple[SeatStats, ...] = ()
    spread: Sum = Sum()

    def merged(self, other: Statistics) -> Statistics:
        """The statistics of both (exact: counts and sums add)."""
        if other.players != self.players:
            raise ValueError(f"cannot merge statistics of {self.players} and {other.players} seats")
        contracts = {c.name: c for c in self.contracts}
        for c in other.contracts:
            contracts[c.name] = contracts[c.name].merged(c) if c.name in contracts else c
        seats = self.seats or tuple(SeatStats(s) for s in range(self.players))
        if other.seats:
            seats = tuple(a.merged(b) for a, b in zip(seats, other.seats, strict=True))
        return Statistics(
            self.players,
            self.matches + other.matches,
            self.unfinished + other.unfinished,
            self.deals + other.deals,
            self.actions + other.actions,
            tuple(contracts[name] for name in sorted(contracts)),
            _add_maps(self.outcomes, other.outcomes),
            seats,
            self.spread + other.spread,
        )

    def contract(self, name: str) -> ContractStats:
        """The statistics of one contract (all zero if it was never played)."""
        return next((c for c in self.contracts if c.name == name), ContractStats(name))

    def seat_result(self, seat: int) -> Estimate:
        """A seat's mean result per deal, in the game's unit, with its 95% interval."""
        return self.seats[seat].per_deal.estimate() if self.seats else Sum().estimate()

    def outcome(self, name: str) -> int:
        """How many deals named this outcome or bonus."""
        return dict(self.outcomes).get(name, 0)


def merge_all(parts: Iterable[Statistics], players: int) -> Statistics:
    """The statistics of all ``parts`` together (an empty table's if there are none)."""
    out = Statistics(players)
    for part in parts:
        out = out.merged(part)
    return out


class _ContractCounter:
    """One contract's counts, mutable while a chunk is played."""

    __slots__ = ("count", "forced", "hist", "n", "squares", "successes", "total")

    def __init__(self) -> None:
        self.count = self.forced = self.successes = self.n = self.total = self.squares = 0
        self.hist: list[int] = []


class StatisticsCounter:
    """The mutable counter of a simulation's statistics, filled deal by deal and match by match.

    (Not the engine's :class:`trickrules.engine.values.Tally`, which records
    what the tricks of one deal decided.)
    """

    def __init__(self, players: int) -> None:
        self.players = players
        self.matches = 0
        self.unfinished = 0
        self.deals = 0
        self.actions = 0
        self._contracts: dict[str, _ContractCounter] = {}
        self._outcomes: dict[str, int] = {}
        self._deal_sums = [[0, 0] for _ in range(players)]
        self._final_sums = [[0, 0] for _ in range(players)]
        self._tricks = [0] * players
        self._wins = [0] * players
        self._spread = [0, 0]

    def add_deal(
        self,
        contract: str,
        declarer: int | None,
        forced: bool,
        success: bool,
        side_tricks: int,
        tricks: tuple[int, ...],
        outcomes: tuple[str, ...],
        deltas: tuple[int, ...],
    ) -> None:
        """Count one deal: its contract (``declarer`` ``None`` if none), outcomes, and each seat's tricks and result."""
        self.deals += 1
        entry = self._contracts.get(contract)
        if entry is None:
            entry = self._contracts[contract] = _ContractCounter()
        entry.count += 1
        if declarer is not None:
            gain = deltas[declarer]
            entry.forced += forced
            entry.successes += success
            entry.n += 1
            entry.total += gain
            entry.squares += gain * gain
            hist = entry.hist
            if len(hist) <= side_tricks:
                hist.extend([0] * (side_tricks + 1 - len(hist)))
            hist[side_tricks] += 1
        for name in outcomes:
            self._outcomes[name] = self._outcomes.get(name, 0) + 1
        for seat in range(self.players):
            d = deltas[seat]
            sums = self._deal_sums[seat]
            sums[0] += d
            sums[1] += d * d
            self._tricks[seat] += tricks[seat]

    def add_match(self, final: tuple[int, ...], winners: tuple[int, ...], actions: int, finished: bool = True) -> None:
        """Count one match: its final totals, its winners, how many player actions it took, and whether it ended."""
        self.matches += 1
        self.unfinished += not finished
        self.actions += actions
        for seat in range(self.players):
            sums = self._final_sums[seat]
            sums[0] += final[seat]
            sums[1] += final[seat] * final[seat]
        for seat in winners:
            self._wins[seat] += 1
        spread = max(final) - min(final) if final else 0
        self._spread[0] += spread
        self._spread[1] += spread * spread

    def freeze(self) -> Statistics:
        """The statistics counted so far, as a value."""
        contracts = []
        for name in sorted(self._contracts):
            e = self._contracts[name]
            contracts.append(
                ContractStats(name, e.count, e.forced, e.successes, Sum(e.n, e.total, e.squares), tuple(e.hist))
            )
        seats = tuple(
            SeatStats(
                seat,
                Sum(self.deals, *self._deal_sums[seat]),
                Sum(self.matches, *self._final_sums[seat]),
                self._tricks[seat],
                self._wins[seat],
            )
            for seat in range(self.players)
        )
        return Statistics(
            self.players,
            self.matches,
            self.unfinished,
            self.deals,
            self.actions,
            tuple(contracts),
            tuple(sorted(self._outcomes.items())),
            seats,
            Sum(self.matches, *self._spread),
        )
