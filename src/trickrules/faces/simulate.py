"""Bulk simulation: many deals played by bots, aggregate statistics, any executor.

>>> import trickrules
>>> result = trickrules.simulate("manille", deals=24, seed=1)
>>> result.statistics.deals, result.statistics.matches  # one whole match (to 101 points) reaches 24 deals
(29, 1)

A simulation plays whole matches, match ``i`` from a seed derived from the
simulation's seed and ``i`` (its first dealer is seat ``i`` modulo the table),
until the matches played hold at least ``deals`` deals: the matches
``0 .. M-1`` for the least such ``M``. Matches are played in chunks, inline
or on any :class:`concurrent.futures.Executor` (a process pool, a Dask
``Client.get_executor()``, ...); a chunk's statistics depend only on its
matches, and statistics merge exactly (:mod:`trickrules.faces.stats`), so the
result for a seed is the same whatever the chunking and the executor.

Bots are named per seat: ``"random"`` picks uniformly among the legal
actions (from the state, with no view, so it is the fast one);
``"heuristic"`` is :class:`~trickrules.faces.bots.HeuristicBot`, deciding
from its seat's view. Each match's bots are seeded from the simulation's
seed and the match's index.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import warnings
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import BrokenExecutor, Executor, Future
from pathlib import Path
from typing import Any

from attrs import evolve, frozen

from trickrules.engine.actions import Action
from trickrules.engine.bulk import play_random
from trickrules.engine.events import DealScored, MatchEnded, TrickWon
from trickrules.engine.game import Game, load
from trickrules.engine.scoring import deal_facts
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.errors import ArgumentError
from trickrules.faces.bots import BOTS, Bot
from trickrules.faces.pool import WorkerLost, kill_hook
from trickrules.faces.random_bot import decide
from trickrules.faces.search_bots import make_bot, parse_kind
from trickrules.faces.stats import Estimate, Statistics, StatisticsCounter, merge_all

__all__ = [
    "BLOCK",
    "MAX_DEALS_PER_MATCH",
    "Chunk",
    "ChunkResult",
    "KernelFallback",
    "Simulation",
    "bot_kinds",
    "derive",
    "play_chunk",
    "play_simulation_match",
    "simulate",
]

#: A match still going after this many deals is stopped and counted as unfinished (a house rule may never end).
MAX_DEALS_PER_MATCH = 10_000
#: The label of deals played without a contract (no auction, or everyone passed with nothing forced).
NO_CONTRACT = "(none)"
#: About how many deals a chunk holds at most, so that progress is reported often.
_CHUNK_DEALS = 4000
#: A chunk's statistics are also kept per this many matches (see :class:`ChunkResult`).
BLOCK = 8


def derive(seed: int, index: int, purpose: str) -> int:
    """A 128-bit seed for match ``index`` of a simulation seeded ``seed``, one per ``purpose``."""
    digest = hashlib.blake2b(f"{seed}:{index}:{purpose}".encode(), digest_size=16).digest()
    return int.from_bytes(digest, "big")


@frozen
class Chunk:
    """Matches ``first .. first + count - 1`` of a simulation: all a worker needs to play them."""

    game: Game
    bots: tuple[str, ...]
    seed: int
    first: int
    count: int
    #: Whether random bots may play on the native kernel (where it covers the game).
    native: bool = True


@frozen
class ChunkResult:
    """The statistics of a chunk's matches, and how many deals each match held (to cut the last chunk).

    ``blocks`` holds the statistics of each run of :data:`BLOCK` matches (the
    last one shorter), so that a chunk cut short is counted from its whole
    blocks and at most one block is played again.
    """

    statistics: Statistics
    deals_per_match: tuple[int, ...]
    blocks: tuple[Statistics, ...] = ()


def _deal_scored(
    game: Game, before: State, after: State, counter: StatisticsCounter, board: tuple[int, ...]
) -> tuple[int, ...]:
    """Count the deal that ``before``'s last action finished; the totals after it."""
    deal = before.deal
    players = game.players
    tricks = [0] * players
    for seat in before.tally.winners:
        tricks[seat] += 1
    scored: DealScored | None = None
    for event in after.last_events:
        if isinstance(event, TrickWon) and scored is None:
            tricks[event.seat] += 1
        elif isinstance(event, DealScored) and scored is None:
            scored = event
    assert scored is not None
    deltas = tuple(a - b for a, b in zip(scored.scoreboard, board, strict=True))
    declarer = deal.declarer if deal.contract is not None else None
    contract = game.rules.contracts[deal.contract].name if deal.contract is not None else NO_CONTRACT
    side_tricks = 0
    if declarer is not None:
        side = {declarer}
        if deal.partner is not None:
            side.add(deal.partner)
        for team in game.rules.teams:
            if declarer in team:
                side.update(team)
        side_tricks = sum(tricks[s] for s in side)
    # Each outcome once per deal, however many seats it named (the statistics count deals that named it).
    outcomes = tuple(dict.fromkeys(name for name in scored.outcome.split(", ") if name and name != "none"))
    success = declarer is not None and deltas[declarer] > 0
    forced = bool(deal_facts(game, deal).get("forced", False))
    counter.add_deal(contract, declarer, forced, success, side_tricks, tuple(tricks), outcomes, deltas)
    return scored.scoreboard


def play_simulation_match(
    game: Game,
    kinds: tuple[str, ...],
    seed: int,
    index: int,
    on_deal: Callable[[State, State], None],
    bulk: bool = True,
) -> tuple[State, int]:
    """Play match ``index`` of a simulation; its last state and how many player actions it took.

    Unlike :func:`trickrules.faces.match.play_match`, which plays one match
    with the bots it is given, this one is the simulation's: it seeds the
    match and the bots named by ``kinds`` from the simulation's ``seed`` and
    ``index`` (see :func:`derive`), stops at :data:`MAX_DEALS_PER_MATCH`, and
    reports each deal to ``on_deal`` instead of each step.

    ``on_deal(before, after)`` is called at the end of every deal, with the
    states before and after the step that ended it. With ``bulk`` (the
    default) the random seats' cards are played by
    :func:`~trickrules.engine.bulk.play_random`; without it every step goes
    through :meth:`State.apply`. Both give the same match.
    """
    rng = random.Random(derive(seed, index, "bots"))
    bots: list[Bot | None] = [
        None if kind == "random" else make_bot(BOTS, kind, game, derive(seed, index, f"bot {seat}") % 2**63)
        for seat, kind in enumerate(kinds)
    ]
    randoms = sum(1 << seat for seat, kind in enumerate(kinds) if kind == "random") if bulk else 0
    state = game.new_match(seed=derive(seed, index, "match"), dealer=index % game.players)
    done = actions = 0
    while not state.is_terminal and done < MAX_DEALS_PER_MATCH:
        pending = None
        if randoms and state.phase is Phase.PLAY:
            state, played, pending = play_random(state, randoms, rng)
            actions += played
        before = state
        seat = state.chooser
        assert seat is not None
        bot = bots[seat]
        action: Action | str
        if pending is not None:
            action = pending
        elif bot is None:
            legal = state.legal_actions()
            action = legal[int(rng.random() * len(legal))]
        else:
            action = decide(bot, state, seat)
        state = state.apply(action)
        actions += 1
        if state.match.deals_done != done:
            on_deal(before, state)
            done = state.match.deals_done
    return state, actions


class KernelFallback(UserWarning):
    """The native kernel does not cover a game, so the engine plays its simulation (the same results, slower)."""


#: The games (by fingerprint) whose fallback to the engine has been said, so it is said once.
_SAID: set[str] = set()


def _kernel(game: Game) -> Any:
    """The game's native kernel, or ``None`` (saying once why) where it does not cover the game."""
    try:
        from trickrules.native.kernel import Unsupported, kernel_for  # Numba is imported only when needed
    except ImportError:  # the `native` extra is not installed
        if "" not in _SAID:
            _SAID.add("")
            warnings.warn(
                "the native kernel needs Numba (pip install 'trickrules[native]'); the engine plays every "
                "simulation (the same deals, slower).",
                KernelFallback,
                stacklevel=2,
            )
        return None
    try:
        return kernel_for(game)
    except Unsupported as error:
        if game.fingerprint not in _SAID:
            _SAID.add(game.fingerprint)
            warnings.warn(
                f"{game.name}: the native kernel does not cover {error}; the engine plays it (the same deals, slower).",
                KernelFallback,
                stacklevel=2,
            )
        return None


def _native_chunk(chunk: Chunk, kernel: Any) -> ChunkResult:
    """A chunk of random bots' matches played on the native kernel.

    Its statistics are counted in one pass, so it keeps no blocks: cut
    short, it is played again on the kernel up to the cut (which costs
    little there). A match whose numbers pass what the kernel carries is
    played by the engine.
    """
    import numpy as np  # with the kernel's extra

    from trickrules.faces.kernel_stats import statistics_of
    from trickrules.native.derive import MAX_HEAD, derive_words
    from trickrules.native.kernel import play_words
    from trickrules.native.record import A_ERROR

    game = chunk.game
    indices = range(chunk.first, chunk.first + chunk.count)
    head = f"{chunk.seed}:".encode()
    if len(head) <= MAX_HEAD:  # the seeds derived natively (one compression each), else here
        words = np.empty((chunk.count, 8), dtype=np.int64)
        tails = [np.frombuffer(f":{purpose}".encode(), dtype=np.uint8) for purpose in ("match", "bots")]
        derive_words(np.frombuffer(head, dtype=np.uint8), chunk.first, words, *tails)
    else:
        words = np.concatenate([_derived(chunk.seed, indices, "match"), _derived(chunk.seed, indices, "bots")], axis=1)
    played = play_words(kernel, words, [i % game.players for i in indices], MAX_DEALS_PER_MATCH)
    deals = played.deals.tolist()
    failed = np.flatnonzero(played.rows[:, A_ERROR]).tolist()
    if not failed:
        return ChunkResult(statistics_of(kernel, played.rows), tuple(deals))
    parts = [statistics_of(kernel, np.delete(played.rows, failed, axis=0))]
    for k in failed:  # a total past the kernel's 62 bits, or a payment too large to sum exactly: the engine's
        again = play_chunk(evolve(chunk, first=chunk.first + k, count=1, native=False))
        parts.append(again.statistics)
        deals[k] = again.deals_per_match[0]
    return ChunkResult(merge_all(parts, game.players), tuple(deals))


def _derived(seed: int, indices: range, purpose: str) -> Any:
    """:func:`derive`'s seeds of these matches as rows of four 32-bit words, low first (as the kernel takes them).

    The text hashed is ``derive``'s, formatted as bytes directly, and the digests are read as words in
    one piece (a seed in 0.6 us against 0.9 us, measured in a loop; a one-deal match derives two).
    """
    import numpy as np  # with the kernel's extra

    head, tail = f"{seed}:".encode(), f":{purpose}".encode()
    blake2b = hashlib.blake2b
    digests = b"".join(blake2b(b"%b%d%b" % (head, i, tail), digest_size=16).digest() for i in indices)
    # derive() reads a digest big-endian: its last four bytes are the low word.
    return np.frombuffer(digests, dtype=">u4").reshape(len(indices), 4)[:, ::-1].astype(np.int64)


def play_chunk(chunk: Chunk) -> ChunkResult:
    """Play a chunk's matches and count them (a module-level function, so that any executor can run it)."""
    kill_hook(chunk.first)
    game = chunk.game
    if chunk.native and all(kind == "random" for kind in chunk.bots):
        kernel = _kernel(game)
        if kernel is not None:
            return _native_chunk(chunk, kernel)
    counter = [StatisticsCounter(game.players)]
    blocks: list[Statistics] = []
    per_match = []
    board = [(0,) * game.players]  # the totals after the last deal counted

    def count(before: State, after: State) -> None:
        board[0] = _deal_scored(game, before, after, counter[0], board[0])

    for index in range(chunk.first, chunk.first + chunk.count):
        board[0] = (0,) * game.players  # a simulated match starts from no scores
        state, actions = play_simulation_match(game, chunk.bots, chunk.seed, index, count)
        ended = next((e for e in state.last_events if isinstance(e, MatchEnded)), None)
        counter[0].add_match(state.match.scores, ended.winners if ended else (), actions, finished=ended is not None)
        per_match.append(state.match.deals_done)
        if len(per_match) % BLOCK == 0 or len(per_match) == chunk.count:
            blocks.append(counter[0].freeze())
            counter[0] = StatisticsCounter(game.players)
    return ChunkResult(merge_all(blocks, game.players), tuple(per_match), tuple(blocks))


@frozen
class Simulation:
    """The result of :func:`simulate`: what was played and its :class:`~trickrules.faces.stats.Statistics`."""

    game: str
    fingerprint: str
    options: tuple[tuple[str, str], ...]
    seed: int
    bots: tuple[str, ...]
    deals_asked: int
    statistics: Statistics

    def to_data(self) -> dict[str, Any]:
        """The result as JSON-ready data: counts, shares, means and 95% intervals (``null`` where undefined)."""
        stats = self.statistics
        deals = stats.deals
        return {
            "game": self.game,
            "fingerprint": self.fingerprint,
            "options": dict(self.options),
            "seed": self.seed,
            "bots": list(self.bots),
            "deals_asked": self.deals_asked,
            "matches": stats.matches,
            "unfinished_matches": stats.unfinished,
            "deals": deals,
            "actions": stats.actions,
            "contracts": [
                {
                    "name": c.name,
                    "deals": c.count,
                    "share": _number(c.count / deals if deals else math.nan),
                    "forced": c.forced,
                    "successes": c.successes,
                    "success_rate": _number(c.success_rate),
                    "declarer_result": _estimate(c.result.estimate()),
                    "declarer_side_tricks": list(c.tricks),
                }
                for c in stats.contracts
            ],
            "outcomes": dict(stats.outcomes),
            "seats": [
                {
                    "seat": s.seat,
                    "per_deal": _estimate(s.per_deal.estimate()),
                    "final": _estimate(s.final.estimate()),
                    "tricks_per_deal": _number(s.tricks / deals if deals else math.nan),
                    "wins": s.wins,
                }
                for s in stats.seats
            ],
            "final_spread": _estimate(stats.spread.estimate()),
        }

    def to_json(self) -> str:
        """:meth:`to_data` as JSON with sorted keys: the same bytes for the same simulation, however it was run."""
        return json.dumps(self.to_data(), sort_keys=True, indent=1, ensure_ascii=False)


def _number(value: float) -> float | None:
    return None if math.isnan(value) or math.isinf(value) else round(value, 6)


def _estimate(e: Estimate) -> dict[str, float | int | None]:
    return {"n": e.n, "mean": _number(e.mean), "ci95": _number(e.half_width)}


def _game_of(game: Game | str | Path, options: Mapping[str, object] | None) -> Game:
    if isinstance(game, Game):
        if options:
            raise ArgumentError("options= applies to a game given by name or path; load the game with them instead.")
        return game
    if isinstance(game, str | Path):
        return load(game, options)
    raise ArgumentError(f"game must be a Game, a bundled name or a spec path, found {type(game).__name__}.")


def bot_kinds(bots: str | Sequence[str], players: int) -> tuple[str, ...]:
    """One bot name per seat, from one name for all or a comma-separated list; :class:`ArgumentError` if not."""
    given = tuple(k.strip() for k in bots.split(",")) if isinstance(bots, str) else tuple(bots)
    kinds = given * players if len(given) == 1 else given
    try:
        for k in kinds:
            parse_kind(BOTS, k)
        if len(kinds) != players:
            raise ValueError(f"{len(kinds)} bots")
    except ValueError:
        raise ArgumentError(
            f"bots must name one bot for every seat ({players}) or one for all, each one of {', '.join(BOTS)} "
            f"(a search bot with its budget a decision, as ismcts:200ms); found {', '.join(map(str, given))!r}."
        ) from None
    return kinds


def _workers(executor: Executor | None) -> int:
    if executor is None:
        return 1
    found = getattr(executor, "_max_workers", None)
    return found if isinstance(found, int) and found > 0 else os.cpu_count() or 1


def simulate(
    game: Game | str | Path,
    deals: int,
    seed: int = 0,
    bots: str | Sequence[str] = "random",
    options: Mapping[str, object] | None = None,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
    native: bool = True,
) -> Simulation:
    """Play at least ``deals`` deals in whole matches and return their statistics.

    ``game`` is a :class:`~trickrules.Game`, a bundled name or a spec path
    (with ``options`` for the last two); ``bots`` one bot name for every
    seat or one per seat (``"heuristic,random,random,random"``);
    ``executor`` anything with the ``concurrent.futures.Executor`` interface
    (``None``: this process); ``progress`` is called with the number of
    deals counted so far, each time a chunk is counted. The result depends
    only on the game, the bots, ``seed`` and ``deals``.

    Where every seat is ``"random"`` and the native kernel covers the game
    (:mod:`trickrules.native`), the matches are played on it: the same
    deals, choice for choice, as the engine plays them. ``native=False``
    has the engine play them; a game the kernel does not cover is played by
    the engine, and a :class:`KernelFallback` warning says so once.

    A chunk whose worker process dies (``BrokenExecutor``) is played once
    more, on a fresh pool where the executor can ``renew()`` itself
    (:class:`~trickrules.faces.pool.WorkerPool`); lost again, it is a
    :class:`~trickrules.faces.pool.WorkerLost` error.
    """
    played = _game_of(game, options)
    kinds = bot_kinds(bots, played.players)
    if type(deals) is not int or deals < 1:
        raise ArgumentError(f"deals must be a whole number of at least 1, found {deals!r}.")
    if type(seed) is not int or seed < 0:
        raise ArgumentError(f"seed must be a whole number of 0 or more, found {seed!r}.")
    parts = _run(Chunk(played, kinds, seed, 0, 0, native), deals, executor, progress)
    return Simulation(
        played.name,
        played.fingerprint,
        tuple(sorted(played.options.items())),
        seed,
        kinds,
        deals,
        merge_all(parts, played.players),
    )


def _run(
    base: Chunk, deals: int, executor: Executor | None, progress: Callable[[int], None] | None
) -> list[Statistics]:
    """The statistics of matches 0 .. M-1, M the first match at which ``deals`` deals are reached, in chunks."""
    workers = _workers(executor)
    # Chunks kept in flight: two per worker keep a pool busy while one is counted; played inline,
    # a chunk ahead is only work that the end of the run may throw away, so one at a time.
    depth = 1 if executor is None else 2 * workers
    # Chunks are sized on an estimate of deals per match. For a pool, a margin over what remains saves
    # a round trip at the end. Inline, another chunk costs nothing, so a chunk aims under what remains
    # (0.9) and the last ones are single matches: a chunk then never runs past the deals asked for by
    # more than a match, and is never cut short (which plays part of a block again).
    margin, extra = (0.9, 0.0) if executor is None else (1.02, 1.0)
    pending: deque[tuple[Chunk, Future[ChunkResult] | ChunkResult]] = deque()
    parts: list[Statistics] = []
    counted = matches = submitted = 0
    per_match: float | None = None  # deals per match seen so far
    retried: set[int] = set()  # the chunks (by first match) played again after a lost worker

    def submit(count: int) -> None:
        nonlocal submitted
        chunk = evolve(base, first=submitted, count=count)
        pending.append((chunk, play_chunk(chunk) if executor is None else _submit(executor, chunk)))
        submitted += count

    try:
        while True:
            while len(pending) < depth:
                if per_match is None:
                    if pending:
                        break
                    submit(2)
                    continue
                # The deals still to hand out: what remains to count, with a small margin for the estimate
                # of deals per match, less what is in flight. Sized by what is left rather than by what
                # remains to count, the chunks shrink towards the end, so that the workers finish
                # together and little is played that the run will not count.
                ahead = (submitted - matches) * per_match
                unassigned = (deals - counted) * margin + extra * per_match - ahead
                if unassigned <= 0 and pending:
                    break
                share = unassigned / per_match / depth
                submit(max(1, min(math.floor(share) if executor is None else math.ceil(share),
                                  math.ceil(_CHUNK_DEALS / per_match))))  # fmt: skip
            chunk, outcome = pending.popleft()
            while not isinstance(outcome, ChunkResult):
                try:
                    outcome = outcome.result()
                except BrokenExecutor:  # a worker died (killed, out of memory): once more on a fresh pool
                    assert executor is not None
                    if chunk.first in retried:
                        last = chunk.first + chunk.count - 1
                        raise WorkerLost(
                            f"a worker process was lost while playing matches {chunk.first} to {last} of the "
                            "simulation, and again when they were played once more (killed, or out of memory?)"
                        ) from None
                    retried.add(chunk.first)
                    outcome = _replay_lost(executor, chunk, pending)
            result = outcome
            cut = _cut(result.deals_per_match, deals - counted)
            if cut is not None and cut < chunk.count:
                result = _cut_short(chunk, result, cut)
            parts.append(result.statistics)
            counted += result.statistics.deals
            matches += len(result.deals_per_match)
            per_match = max(counted / matches, 1.0)
            if progress is not None:
                progress(counted)
            if cut is not None:
                return parts
    finally:
        for _, outcome in pending:
            if isinstance(outcome, Future):
                outcome.cancel()


def _submit(executor: Executor, chunk: Chunk) -> Future[ChunkResult]:
    """``play_chunk(chunk)`` on ``executor``; a broken pool's refusal comes back as the future's exception."""
    try:
        return executor.submit(play_chunk, chunk)
    except BrokenExecutor as exc:
        failed: Future[ChunkResult] = Future()
        failed.set_exception(exc)
        return failed


def _replay_lost(
    executor: Executor, chunk: Chunk, pending: deque[tuple[Chunk, Future[ChunkResult] | ChunkResult]]
) -> Future[ChunkResult]:
    """After a lost worker: renew the pool if it can be, and submit ``chunk`` and every chunk in flight again.

    A broken process pool fails everything it held, so the chunks in flight
    that were not done go again too; those done are kept.
    """
    renew = getattr(executor, "renew", None)
    if callable(renew):
        renew()
    for n, (other, outcome) in enumerate(pending):
        if isinstance(outcome, Future) and not (outcome.done() and not outcome.cancelled() and not outcome.exception()):
            outcome.cancel()
            pending[n] = (other, _submit(executor, other))
    return _submit(executor, chunk)


def _cut_short(chunk: Chunk, result: ChunkResult, cut: int) -> ChunkResult:
    """The result of the chunk's first ``cut`` matches: its whole blocks, and the rest of one block played again.

    A chunk played on the kernel keeps no blocks: its first ``cut`` matches are played again.
    """
    if not result.blocks:
        return play_chunk(evolve(chunk, count=cut))
    whole, rest = divmod(cut, BLOCK)
    parts = list(result.blocks[:whole])
    if rest:
        parts.append(play_chunk(evolve(chunk, first=chunk.first + whole * BLOCK, count=rest)).statistics)
    return ChunkResult(merge_all(parts, chunk.game.players), result.deals_per_match[:cut], tuple(parts))


def _cut(per_match: tuple[int, ...], needed: int) -> int | None:
    """How many of these matches reach ``needed`` deals (``None`` if all of them do not)."""
    total = 0
    for n, deals in enumerate(per_match, start=1):
        total += deals
        if total >= needed:
            return n
    return None
