"""Search bots: a determinized bot and an information-set MCTS bot, deciding from what their seat knows.

Both read only their seat's log and view (:func:`~trickrules.faces.random_bot.decide` gives them
``EventLog.from_state(state).for_seat(seat)``), fill in the hidden cards with worlds drawn
uniformly among those consistent with it (:func:`~trickrules.search.worlds.sample_worlds`), and
play every phase, the bidding included, through the engine, so they play any game a spec can write.

- :class:`DeterminizedBot` draws ``worlds`` worlds; in each it values every legal action, by the
  perfect-information solver where the deal is down to its last tricks (:func:`~trickrules.search.solve`)
  and else by random playouts to the end of the deal, and takes the best on average.
- :class:`IsmctsBot` is single-observer information-set MCTS: each of ``playouts`` iterations draws
  a world, walks a tree of the actions taken so far (UCT, each action's chances counted by how
  often it was available), adds one node, plays the deal out at random and backs the result up,
  each node scoring it for the seat that chose there.

A playout from a position in the play runs on the kernel where the game has one
(:class:`~trickrules.search.rollouts.Rollouts`: the kernel's random play, scored by the game's
own tables, hundreds of thousands a second), else through the engine. Either bot takes a budget
in milliseconds a decision (``budget_ms``), spent in whole rounds or iterations, instead of its
fixed count (which keeps its choices the same from run to run).

A deal's result for a seat is its score change less the mean change of the others (a point taken
counts against where the lowest score wins). Their choices depend only on the seat's log and
view and on their seed: the same seed, log and view give the same choice, whatever the hidden
cards really are.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, cast

from trickrules.engine.state import GameLike, State
from trickrules.errors import ArgumentError
from trickrules.faces.random_bot import Bot
from trickrules.records.eventlog import EventLog
from trickrules.records.view import View
from trickrules.search.solve import solve
from trickrules.search.worlds import sample_worlds

if TYPE_CHECKING:
    from trickrules.search.rollouts import Array, Rollouts

__all__ = ["DeterminizedBot", "IsmctsBot", "deal_result", "make_bot", "parse_kind"]

#: The determinized bot solves a world exactly once no hand holds more cards than this: through the
#: engine, or on the kernel where it searches the game's payments.
SOLVE_CARDS = 3
NATIVE_SOLVE_CARDS = 4
#: The positions a solve of one world may search before the bot plays that world out instead.
SOLVE_NODES = 5_000
#: The kernel's scored playouts a tree leaf is valued by, where the game has a kernel.
LEAF_PLAYOUTS = 4
#: UCT's exploration constant, in units of the results' spread.
EXPLORE = 0.7


def deal_result(game: GameLike, before: State, after: State, seat: int) -> float:
    """What the rest of the deal did for ``seat``: its score change less the others' mean, higher better."""
    n = game.players
    change = [after.match.scores[s] - before.match.scores[s] for s in range(n)]
    others = Fraction(sum(change) - change[seat], max(1, n - 1))
    sign = -1 if game.spec.match.winner == "lowest" else 1
    return float(sign * (change[seat] - others))


def parse_kind(bots: Mapping[str, Callable[..., Bot]], token: str) -> tuple[str, int | None]:
    """A bot's name among ``bots`` and its budget in milliseconds, from ``ismcts`` or ``ismcts:200ms``."""
    name, colon, budget = token.partition(":")
    if name not in bots:
        raise ValueError(f"unknown bot {name!r} (bots: {', '.join(bots)})")
    if not colon:
        return name, None
    number = budget.removesuffix("ms")
    if not issubclass(cast(type, bots[name]), _SearchBot) or not number.isdigit() or int(number) < 1:
        raise ValueError(f"{token!r}: only a search bot takes a budget, in whole milliseconds (ismcts:200ms)")
    return name, int(number)


def make_bot(bots: Mapping[str, Callable[..., Bot]], token: str, game: GameLike, seed: int) -> Bot:
    """The bot ``token`` names among ``bots``: a name, or a search bot's name and budget (``ismcts:200ms``)."""
    name, budget = parse_kind(bots, token)
    return bots[name](game, seed) if budget is None else bots[name](game, seed, budget_ms=budget)


def _rollouts(game: GameLike, seed: int) -> Rollouts | None:
    """The kernel's scored playouts for ``game``, or ``None`` without the ``native`` extra (NumPy, Numba)."""
    try:
        from trickrules.search.rollouts import Rollouts
    except ImportError:
        return None
    return Rollouts(game, seed)


def _solvable(world: State) -> bool:
    """Whether the determinized bot solves ``world`` rather than play it out: late enough in the play."""
    if world.phase != "play" or world.chooser is None:
        return False
    most = max(len(world.hand(s)) for s in range(world.game.players))
    try:
        from trickrules.search.native_solve import why_not_native
    except ImportError:  # without the `native` extra the engine solves
        return most <= SOLVE_CARDS
    return most <= (NATIVE_SOLVE_CARDS if why_not_native(world, "score") is None else SOLVE_CARDS)


def _over(root: State, state: State) -> bool:
    return state.is_terminal or state.deal.number != root.deal.number


def _playout(root: State, state: State, rng: random.Random) -> State:
    """``state`` played on at random to the end of ``root``'s deal."""
    while not _over(root, state):
        legal = state.legal_actions()
        state = state.apply(legal[int(rng.random() * len(legal))])
    return state


class _SearchBot:
    """What both bots share: their seed, their budget, and refusing to decide without their seat's log."""

    def __init__(self, game: GameLike, seed: int = 0, budget_ms: float | None = None) -> None:
        if budget_ms is not None and budget_ms <= 0:
            raise ArgumentError(f"budget_ms must be more than 0, found {budget_ms}.")
        self.game = game
        self._rng = random.Random(seed)
        self.budget_ms = budget_ms
        self._rollouts = _rollouts(game, seed)

    def _deadline(self) -> float | None:
        return None if self.budget_ms is None else time.monotonic() + self.budget_ms / 1000

    def choose(self, view: View) -> str:
        """A search bot needs its seat's log: :func:`~trickrules.faces.random_bot.decide` gives it."""
        if len(view.legal) == 1:
            return view.legal[0]
        raise ArgumentError(f"{type(self).__name__} decides from its seat's log too: call decide(bot, state, seat).")

    def _worlds(self, view: View, known: EventLog, n: int) -> tuple[State, ...]:
        return sample_worlds(known, n, view=view, seed=self._rng.randrange(2**63), game=self.game)


class DeterminizedBot(_SearchBot):
    """Samples worlds, values each action in each (solved late in the deal, else played out), takes the best.

    In a round, each world and action gets ``kernel_playouts`` random playouts on the kernel, scored
    by the game's own tables, where the game has a kernel and the world is in the play; else
    ``playouts`` through the engine. ``budget_ms``: rounds are played until the budget is spent (at
    least one); without it, ``rounds`` of them. ``bidder``: a bot that takes the decisions before
    the play instead of the search (random playouts misjudge what a bid is worth: the play that
    follows a bid is not random), where given.
    """

    def __init__(
        self,
        game: GameLike,
        seed: int = 0,
        worlds: int = 16,
        playouts: int = 2,
        budget_ms: float | None = None,
        rounds: int = 1,
        kernel_playouts: int = 64,
        bidder: Bot | None = None,
    ) -> None:
        super().__init__(game, seed, budget_ms)
        self.bidder = bidder
        if min(worlds, playouts, rounds, kernel_playouts) < 1:
            raise ArgumentError(
                f"worlds, playouts, rounds and kernel_playouts must be 1 or more, "
                f"found {worlds}, {playouts}, {rounds}, {kernel_playouts}."
            )
        self.worlds = worlds
        self.playouts = playouts
        self.rounds = rounds
        self.kernel_playouts = kernel_playouts

    def choose_known(self, view: View, known: EventLog) -> str:
        """The action of the best mean value over the sampled worlds (the bidder's before the play)."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if self.bidder is not None and view.phase != "play":
            chooser = getattr(self.bidder, "choose_known", None)
            return str(chooser(view, known)) if chooser is not None else self.bidder.choose(view)
        deadline = self._deadline()
        totals = dict.fromkeys(legal, 0.0)
        counts = dict.fromkeys(legal, 0)
        seat = view.seat
        after: dict[tuple[int, str], State] = {}
        solved: set[int] = set()
        arrays: dict[tuple[int, str], Array | None] = {}
        worlds = self._worlds(view, known, self.worlds)
        done = 0
        while done < self.rounds or (deadline is not None and time.monotonic() < deadline):
            played = False
            for w, world in enumerate(worlds):
                if w in solved:
                    continue
                if done == 0 and _solvable(world) and not (w and deadline is not None and time.monotonic() > deadline):
                    values = self._solve(world)
                    if values is not None:
                        solved.add(w)
                        for text, value in values:
                            totals[text] += value
                            counts[text] += 1
                        continue
                played = True
                for text in legal:
                    key = (w, text)
                    if key not in after:
                        after[key] = world.apply(text)
                        arrays[key] = None if self._rollouts is None else self._rollouts.arrays(after[key])
                    totals[text] += self._value(world, after[key], arrays[key], seat)
                    counts[text] += 1
            done += 1
            if not played or (deadline is None and done >= self.rounds):
                break
        return max(legal, key=lambda text: totals[text] / max(1, counts[text]))


    def _solve(self, world: State) -> tuple[tuple[str, float], ...] | None:
        """Each action's exact value in ``world``, or ``None`` where the search would pass its bound."""
        try:
            return tuple((text, float(value)) for text, value in solve(world, max_nodes=SOLVE_NODES).values)
        except ArgumentError:
            return None

    def _value(self, world: State, after: State, st: Array | None, seat: int) -> float:
        """An action's value in ``world`` by random playouts from ``after``: on the kernel where it can."""
        found = None if st is None or self._rollouts is None else self._rollouts.results_from(st, self.kernel_playouts)
        if found is not None:
            return float(found[seat])
        total = 0.0
        for _ in range(self.playouts):
            end = _playout(world, after, self._rng)
            total += deal_result(self.game, world, end, seat)
        return total / self.playouts


class _Node:
    """A node of the information-set tree: its children by action, their visits, results and availabilities."""

    __slots__ = ("available", "children", "results", "seat", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.children: dict[str, _Node] = {}
        self.visits: dict[str, int] = {}
        self.results: dict[str, float] = {}
        self.available: dict[str, int] = {}


class IsmctsBot(_SearchBot):
    """Single-observer information-set MCTS over the deal: ``playouts`` iterations a decision, or ``budget_ms``."""

    def __init__(self, game: GameLike, seed: int = 0, playouts: int = 200, budget_ms: float | None = None) -> None:
        super().__init__(game, seed, budget_ms)
        if playouts < 1:
            raise ArgumentError(f"playouts must be 1 or more, found {playouts}.")
        self.playouts = playouts

    def choose_known(self, view: View, known: EventLog) -> str:
        """The most visited action at the root after the iterations."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        deadline = self._deadline()
        root = _Node(view.seat)
        worlds = self._worlds(view, known, min(self.playouts, 32))
        k = 0
        while k < self.playouts if deadline is None else (k == 0 or time.monotonic() < deadline):
            self._iterate(root, worlds[k % len(worlds)])
            k += 1
        return max(legal, key=lambda text: (root.visits.get(text, 0), -legal.index(text)))

    def _iterate(self, root: _Node, world: State) -> None:
        rng = self._rng
        node, state, path = root, world, []
        while not _over(world, state):
            seat = state.chooser
            assert seat is not None
            legal = [str(a) for a in state.legal_actions()]
            for text in legal:
                node.available[text] = node.available.get(text, 0) + 1
            untried = [text for text in legal if text not in node.children]
            if untried:
                text = untried[int(rng.random() * len(untried))]
                node.children[text] = _Node(seat)
            else:
                text = max(legal, key=lambda t: self._uct(node, t))
            path.append((node, text))
            state = state.apply(text)
            node = node.children[text]
            if untried:
                break
        rollouts = self._rollouts
        st = None if rollouts is None or _over(world, state) else rollouts.arrays(state)
        found = None if st is None or rollouts is None else rollouts.results_from(st, LEAF_PLAYOUTS)
        if found is not None:
            for parent, text in path:
                parent.visits[text] = parent.visits.get(text, 0) + 1
                parent.results[text] = parent.results.get(text, 0.0) + float(found[parent.seat])
            return
        end = _playout(world, state, rng)
        for parent, text in path:
            parent.visits[text] = parent.visits.get(text, 0) + 1
            parent.results[text] = parent.results.get(text, 0.0) + deal_result(self.game, world, end, parent.seat)

    @staticmethod
    def _uct(node: _Node, text: str) -> float:
        visits = node.visits.get(text, 0)
        if not visits:
            return math.inf
        mean = node.results[text] / visits
        return mean + EXPLORE * (1 + abs(mean)) * math.sqrt(math.log(node.available[text]) / visits)
