"""Bulk simulation: the same result however it is chunked and run, counted from the rules' own outcomes."""

from __future__ import annotations

import random
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any

import pytest
from attrs import evolve

import trickrules
from trickrules import ArgumentError
from trickrules.engine.events import AuctionWon, DealScored, MatchEnded, TrickWon
from trickrules.faces import simulate as sim
from trickrules.faces.stats import Statistics, merge_all


class InlineExecutor(Executor):
    """Runs each task at once, in submission order, and counts them."""

    def __init__(self) -> None:
        self.tasks = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.tasks += 1
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


@pytest.mark.parametrize("name", ["quadrille", "cuatrola", "manille", "hearts", "spades"])
def test_the_result_is_the_same_whatever_the_chunking(name: str) -> None:
    game = trickrules.load(name)
    whole = sim.play_chunk(sim.Chunk(game, ("random",) * game.players, 5, 0, 6))
    parts = [sim.play_chunk(sim.Chunk(game, ("random",) * game.players, 5, first, count)) for first, count in
             ((0, 1), (1, 3), (4, 2))]  # fmt: skip
    assert merge_all([p.statistics for p in parts], game.players) == whole.statistics
    assert sum((p.deals_per_match for p in parts), ()) == whole.deals_per_match


@pytest.mark.parametrize("native", [False, True])
@pytest.mark.parametrize("cut", [1, sim.BLOCK - 1, sim.BLOCK, sim.BLOCK + 3, 3 * sim.BLOCK])
def test_a_chunk_cut_short_counts_exactly_its_first_matches(cut: int, native: bool) -> None:
    # On the engine, a cut chunk is counted from its whole blocks plus part of one block played again;
    # on the native kernel, which keeps no blocks, its first ``cut`` matches are played again. Either
    # way, the same statistics as playing just its first ``cut`` matches.
    game = trickrules.load("quadrille")
    chunk = sim.Chunk(game, ("random",) * 4, 8, 5, 3 * sim.BLOCK + 2, native)
    full = sim.play_chunk(chunk)
    if native:
        assert full.blocks == ()
    else:
        assert len(full.blocks) == 4
        assert merge_all(full.blocks, 4) == full.statistics
    short = sim._cut_short(chunk, full, cut)
    alone = sim.play_chunk(evolve(chunk, count=cut))
    assert short.statistics == alone.statistics
    assert short.deals_per_match == alone.deals_per_match == full.deals_per_match[:cut]


def test_simulate_plays_the_first_matches_that_reach_the_deals_asked_for() -> None:
    result = trickrules.simulate("manille", deals=30, seed=3)
    game = trickrules.load("manille")
    per_match = sim.play_chunk(sim.Chunk(game, ("random",) * 4, 3, 0, 10)).deals_per_match
    needed = next(n for n in range(1, 11) if sum(per_match[:n]) >= 30)
    assert result.statistics.matches == needed
    assert result.statistics.deals == sum(per_match[:needed])


def test_an_executor_gives_the_same_result_as_this_process() -> None:
    alone = trickrules.simulate("quadrille", deals=300, seed=11)
    executor = InlineExecutor()
    pooled = trickrules.simulate("quadrille", deals=300, seed=11, executor=executor)
    assert executor.tasks > 1
    assert pooled == alone
    assert pooled.to_json() == alone.to_json()


def test_a_process_pool_gives_the_same_result_as_this_process() -> None:
    alone = trickrules.simulate("cuatrola", deals=120, seed=2, bots="heuristic,random,random,random")
    with ProcessPoolExecutor(2) as pool:
        pooled = trickrules.simulate("cuatrola", deals=120, seed=2, bots="heuristic,random,random,random",
                                     executor=pool)  # fmt: skip
    assert pooled.to_json() == alone.to_json()


def _replayed_outcomes(game: trickrules.Game, kinds: tuple[str, ...], seed: int, index: int) -> list[Any]:
    """Match ``index`` of a simulation played through the public API step by step, its events read afterwards."""
    last, _ = sim.play_simulation_match(game, kinds, seed, index, lambda before, after: None, bulk=False)
    deals: list[Any] = []
    contract, forced, tricks = sim.NO_CONTRACT, False, [0] * game.players
    for _, event in last.entries():
        if isinstance(event, AuctionWon):
            contract, forced = event.contract, event.forced
        elif isinstance(event, TrickWon):
            tricks[event.seat] += 1
        elif isinstance(event, DealScored):
            deals.append((contract, forced, tuple(tricks), event.outcome, event.scoreboard))
            contract, forced, tricks = sim.NO_CONTRACT, False, [0] * game.players
        elif isinstance(event, MatchEnded):
            deals.append(("end", event.winners, event.scoreboard))
    return deals


@pytest.mark.parametrize("name", ["quadrille", "cuatrola"])
def test_the_statistics_count_what_the_events_of_the_same_matches_say(name: str) -> None:
    """Every deal of the same seeds read from the events: contracts, forced ones, tricks, outcomes, totals."""
    game = trickrules.load(name)
    kinds = ("random",) * game.players
    result = sim.play_chunk(sim.Chunk(game, kinds, 9, 0, 3)).statistics
    contracts: dict[str, int] = {}
    forced = 0
    tricks = [0] * game.players
    outcomes: dict[str, int] = {}
    deals = 0
    wins = [0] * game.players
    for index in range(3):
        for entry in _replayed_outcomes(game, kinds, 9, index):
            if entry[0] == "end":
                for seat in entry[1]:
                    wins[seat] += 1
                continue
            contract, was_forced, deal_tricks, outcome, _ = entry
            deals += 1
            contracts[contract] = contracts.get(contract, 0) + 1
            forced += was_forced
            tricks = [a + b for a, b in zip(tricks, deal_tricks, strict=True)]
            for part in outcome.split(", "):
                if part != "none":
                    outcomes[part] = outcomes.get(part, 0) + 1
    assert result.deals == deals
    assert {c.name: c.count for c in result.contracts} == contracts
    assert sum(c.forced for c in result.contracts) == forced
    assert [s.tricks for s in result.seats] == tricks
    assert dict(result.outcomes) == outcomes
    assert [s.wins for s in result.seats] == wins


def test_per_seat_results_add_up_to_the_final_totals() -> None:
    game = trickrules.load("quadrille")
    stats = sim.play_chunk(sim.Chunk(game, ("random",) * 4, 4, 0, 5)).statistics
    assert [s.per_deal.total for s in stats.seats] == [s.final.total for s in stats.seats]
    assert sum(s.final.total for s in stats.seats) <= 0  # chips: the pot keeps what nobody took


def test_statistics_merge_exactly_and_in_any_order() -> None:
    game = trickrules.load("cuatrola")
    parts = [sim.play_chunk(sim.Chunk(game, ("random",) * 4, 1, i, 1)).statistics for i in range(5)]
    shuffled = parts[:]
    random.Random(0).shuffle(shuffled)
    assert merge_all(parts, 4) == merge_all(shuffled, 4)
    assert merge_all([], 4) == Statistics(4)


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"deals": 0}, "deals"),
        ({"deals": -5}, "deals"),
        ({"deals": 1.5}, "deals"),
        ({"deals": 10, "seed": -1}, "seed"),
        ({"deals": 10, "bots": "genius"}, "bots"),
        ({"deals": 10, "bots": "random,random"}, "bots"),
    ],
)
def test_bad_arguments_are_argument_errors(kwargs: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ArgumentError, match=fragment):
        trickrules.simulate("manille", **kwargs)


def test_a_match_that_never_ends_is_stopped_and_counted_as_unfinished(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim, "MAX_DEALS_PER_MATCH", 2)
    result = trickrules.simulate("manille", deals=5, seed=1)
    assert result.statistics.unfinished == result.statistics.matches == 3
    assert result.statistics.deals == 6


def test_a_chunk_pickles_with_its_game() -> None:
    import pickle

    game = trickrules.load("quadrille", {"deals": "4"})
    chunk = sim.Chunk(game, ("random",) * 4, 1, 0, 1)
    again = pickle.loads(pickle.dumps(chunk))
    assert again == chunk
    assert sim.play_chunk(again) == sim.play_chunk(evolve(chunk))


@pytest.mark.parametrize(("name", "deals"), [("quadrille", 2000), ("cuatrola", 3000), ("manille", 2000)])
def test_inline_simulate_plays_little_more_than_it_counts(
    monkeypatch: pytest.MonkeyPatch, name: str, deals: int
) -> None:
    """Without an executor no chunk is played ahead.

    Chunks aim under what remains and end in single matches, so what is played is what is counted,
    but for a chunk whose matches run much longer than the estimate (it played 1.24-1.27x what it
    counted, keeping two chunks pending with no worker).
    """
    played = [0]
    play = sim.play_chunk

    def counting(chunk: sim.Chunk) -> sim.ChunkResult:
        result = play(chunk)
        played[0] += sum(result.deals_per_match)
        return result

    monkeypatch.setattr(sim, "play_chunk", counting)
    counted = sim.simulate(name, deals, seed=3).statistics.deals
    assert counted >= deals
    assert played[0] <= counted * 1.02, (played[0], counted)
