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

A deal's result for a seat is its score change less the mean change of the others (a point taken
counts against where the lowest score wins). Their choices depend only on the seat's log and
view and on their seed: the same seed, log and view give the same choice, whatever the hidden
cards really are.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

from trickrules.engine.state import GameLike, State
from trickrules.errors import ArgumentError
from trickrules.records.eventlog import EventLog
from trickrules.records.view import View
from trickrules.search.solve import solve
from trickrules.search.worlds import sample_worlds

__all__ = ["DeterminizedBot", "IsmctsBot", "deal_result"]

#: The determinized bot solves a world exactly once no hand holds more cards than this.
SOLVE_CARDS = 3
#: UCT's exploration constant, in units of the results' spread.
EXPLORE = 0.7


def deal_result(game: GameLike, before: State, after: State, seat: int) -> float:
    """What the rest of the deal did for ``seat``: its score change less the others' mean, higher better."""
    n = game.players
    change = [after.match.scores[s] - before.match.scores[s] for s in range(n)]
    others = Fraction(sum(change) - change[seat], max(1, n - 1))
    sign = -1 if game.spec.match.winner == "lowest" else 1
    return float(sign * (change[seat] - others))


def _over(root: State, state: State) -> bool:
    return state.is_terminal or state.deal.number != root.deal.number


def _playout(root: State, state: State, rng: random.Random) -> State:
    """``state`` played on at random to the end of ``root``'s deal."""
    while not _over(root, state):
        legal = state.legal_actions()
        state = state.apply(legal[int(rng.random() * len(legal))])
    return state


class _SearchBot:
    """What both bots share: their seed, and refusing to decide without their seat's log."""

    def __init__(self, game: GameLike, seed: int = 0) -> None:
        self.game = game
        self._rng = random.Random(seed)

    def choose(self, view: View) -> str:
        """A search bot needs its seat's log: :func:`~trickrules.faces.random_bot.decide` gives it."""
        if len(view.legal) == 1:
            return view.legal[0]
        raise ArgumentError(f"{type(self).__name__} decides from its seat's log too: call decide(bot, state, seat).")

    def _worlds(self, view: View, known: EventLog, n: int) -> tuple[State, ...]:
        return sample_worlds(known, n, view=view, seed=self._rng.randrange(2**63), game=self.game)


class DeterminizedBot(_SearchBot):
    """Samples worlds, values each action in each (solved late in the deal, else played out), takes the best."""

    def __init__(self, game: GameLike, seed: int = 0, worlds: int = 8, playouts: int = 2) -> None:
        super().__init__(game, seed)
        if worlds < 1 or playouts < 1:
            raise ArgumentError(f"worlds and playouts must be 1 or more, found {worlds} and {playouts}.")
        self.worlds = worlds
        self.playouts = playouts

    def choose_known(self, view: View, known: EventLog) -> str:
        """The action of the best mean value over the sampled worlds."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        totals = dict.fromkeys(legal, 0.0)
        seat = view.seat
        for world in self._worlds(view, known, self.worlds):
            if world.phase == "play" and max(len(h) for h in map(world.hand, range(self.game.players))) <= SOLVE_CARDS:
                for text, value in solve(world).values:
                    totals[text] += float(value) * self.playouts
                continue
            for text in legal:
                after = world.apply(text)
                for _ in range(self.playouts):
                    end = _playout(world, after, self._rng)
                    totals[text] += deal_result(self.game, world, end, seat)
        return max(legal, key=lambda text: totals[text])


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
    """Single-observer information-set MCTS over the deal, ``playouts`` iterations a decision."""

    def __init__(self, game: GameLike, seed: int = 0, playouts: int = 200) -> None:
        super().__init__(game, seed)
        if playouts < 1:
            raise ArgumentError(f"playouts must be 1 or more, found {playouts}.")
        self.playouts = playouts

    def choose_known(self, view: View, known: EventLog) -> str:
        """The most visited action at the root after the iterations."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        root = _Node(view.seat)
        worlds = self._worlds(view, known, min(self.playouts, 32))
        for k in range(self.playouts):
            self._iterate(root, worlds[k % len(worlds)])
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
