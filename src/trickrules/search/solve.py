"""A perfect-information solver for any spec: the exact value of each legal action if every hand were known.

:func:`solve` searches the rest of the deal from a full state (every hand
known, as in a sampled world), by alpha-beta with a transposition table,
through the engine itself: the spec's own legality, trick winners and
scoring decide every node, so it solves any game a spec can write. The seat
that decides at the root (the state's ``chooser``: the declarer for the
dummy's card) and the seats of its side in this deal maximise the value;
every other seat minimises it. Where a deal has more than two sides (Hearts,
each for himself) this is the "paranoid" reading: the others are taken to
play together against the root's side.

Two measures:

- ``"score"`` (default): what the deal does to the scores, from the root's
  side: the mean change of its seats' scores less the mean change of the
  others' (in the game's unit; where the lowest score wins, a point taken
  counts against). In a game of two sides whose payments cancel, twice what
  the root's side gains.
- ``"tricks"``: the tricks the root's side has taken when the deal ends.
- ``"points"``: the card points of the cards the root's side has taken in
  tricks when the deal ends (the cards' points of the spec's deck).

For the measures ``"tricks"`` and ``"points"`` the search runs on the
kernel (:mod:`trickrules.native.dd`: equivalent cards searched once, sure
tricks counted, a transposition table keyed by the cards' places in their
suits) wherever the game's play fits it
(:func:`~trickrules.search.native_solve.why_not_native`), and through the
engine elsewhere; both give the same values.

>>> import trickrules
>>> from trickrules.search import solve
>>> state = trickrules.load("whist").new_match(seed=4)
>>> while len(state.hand(state.to_move or 0)) > 3 or state.trick:  # on to the lead of the last three tricks
...     state = state.apply(state.legal_actions()[0])
>>> state.to_move, state.hand(0)
(0, ('QC', '9C', '3C'))
>>> solution = solve(state, measure="tricks")
>>> solution.values, solution.best
((('play QC', 8), ('play 9C', 8), ('play 3C', 9)), 'play 3C')
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from attrs import frozen

from trickrules.compile.cards import bits
from trickrules.compile.modes import ContractSide
from trickrules.engine.actions import Action
from trickrules.engine.events import TrickWon
from trickrules.engine.obligations import called_card
from trickrules.engine.scoring import sides_of_deal
from trickrules.engine.state import State
from trickrules.engine.values import evolve
from trickrules.errors import ArgumentError

__all__ = ["MEASURES", "Solution", "side_of", "solve"]

#: What a solution measures: the deal's effect on the scores, the tricks or the card points of the root's side.
MEASURES = ("score", "tricks", "points")

Value = int | Fraction


@frozen
class Solution:
    """The exact value of each legal action at a state, for the seat that decides there and its side."""

    #: The seat that decides (the state's ``chooser``), and the seats of its side in this deal.
    seat: int
    side: tuple[int, ...]
    measure: str
    #: Each legal action's text and its value, in the order of ``state.legal_actions()``.
    values: tuple[tuple[str, Value], ...]
    #: Positions searched.
    nodes: int

    @property
    def best(self) -> str:
        """The first action of the highest value."""
        top = max(v for _, v in self.values)
        return next(a for a, v in self.values if v == top)

    def value(self, action: str | Action) -> Value:
        """The value of one of the legal actions."""
        text = str(action)
        for a, v in self.values:
            if a == text:
                return v
        raise ArgumentError(f"{text!r} is not one of the legal actions ({', '.join(a for a, _ in self.values)}).")


def solve(state: State, measure: str = "score", max_nodes: int | None = None, native: bool = True) -> Solution:
    """The exact value of each legal action at ``state`` if every hand were known, to the end of its deal.

    ``state`` is a full state (every hand known to the engine) at a seat's
    decision in the play of a deal. ``measure`` is ``"score"``,
    ``"tricks"`` or ``"points"`` (the module's docstring says what each counts).
    ``max_nodes`` bounds the positions searched: a search that would pass it
    stops with an :class:`~trickrules.errors.ArgumentError` saying so.
    ``native=False`` searches through the engine even where the kernel could.
    """
    if measure not in MEASURES:
        raise ArgumentError(f"measure must be one of {', '.join(MEASURES)}, found {measure!r}.")
    if not isinstance(state, State):
        raise ArgumentError(f"solve() takes a State, found {type(state).__name__}.")
    if state.is_terminal or state.is_chance or state.chooser is None:
        raise ArgumentError("solve() needs a state at a seat's decision (this one is over, or chance's to take).")
    if state.phase != "play":
        raise ArgumentError(f"solve() searches the play of a deal; this state is in its {state.phase!r} phase.")
    seat = state.chooser
    side = side_of(state, seat)
    if native:
        try:
            from trickrules.search.native_solve import native_values, why_not_native
        except ImportError:  # the `native` extra (NumPy, Numba) is not installed: the engine searches
            native = False
    if native and why_not_native(state, measure) is None:
        found, nodes = native_values(state, side, measure, max_nodes)
        return Solution(seat, side, measure, found, nodes)
    search = _Search(state, side, measure, max_nodes)
    values = tuple((str(a), search.exact(state.apply(a), state)) for a in state.legal_actions())
    return Solution(seat, side, measure, values, search.nodes)


def side_of(state: State, seat: int) -> tuple[int, ...]:
    """The seats on ``seat``'s side in this deal, every hand known (a secretly called card's holder included).

    The side :func:`solve` maximises for, where ``seat`` decides at its root.
    """
    t = state.game.tables
    d = state.deal
    if d.contract is not None and d.declarer is not None and d.partner is None:
        c = t.rules.contracts[d.contract]
        card = called_card(t, d)
        if c.side is ContractSide.WITH_CALLED and card is not None:
            holder = next((s for s, h in enumerate(state.hands) if (h >> card) & 1), None)
            if holder is not None:
                d = evolve(d, partner=holder)
    for group in sides_of_deal(t, d):
        if seat in group:
            return tuple(group)
    return (seat,)


#: A position's key: everything that decides how the rest of the deal can go and what it scores.
_Key = tuple[object, ...]


def _key(state: State) -> _Key:
    return (state.phase, state.to_move, state.leader, state.hands, state.trick, state.deal, state.tally)


class _Search:
    """One solve: the root, the side that maximises, and the table of positions' bounds."""

    def __init__(self, root: State, side: tuple[int, ...], measure: str, max_nodes: int | None) -> None:
        self.root = root
        self.side = frozenset(side)
        self.nodes = 0
        self.max_nodes = max_nodes
        self.table: dict[_Key, tuple[Value | None, Value | None]] = {}
        leaves = {"tricks": self._tricks, "points": self._points, "score": self._score}
        self.leaf: Callable[[State, State], Value] = leaves[measure]
        self.lowest = root.game.spec.match.winner == "lowest"
        n = root.game.players
        self.others = tuple(s for s in range(n) if s not in self.side)

    def ended(self, state: State) -> bool:
        """Whether the root's deal is over at ``state``."""
        return state.is_terminal or state.deal.number != self.root.deal.number

    def exact(self, state: State, parent: State) -> Value:
        """The value of ``state``, reached from ``parent``."""
        return self.search(state, parent, None, None)

    def search(self, state: State, parent: State, alpha: Value | None, beta: Value | None) -> Value:
        """Alpha-beta: the value of ``state`` if it lies in (alpha, beta), else a bound beyond the window."""
        if self.ended(state):
            return self.leaf(parent, state)
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise ArgumentError(f"the search passed max_nodes={self.max_nodes} positions.")
        if state.is_chance or state.chooser is None:
            raise ArgumentError("solve() cannot search through a chance step inside the deal.")
        key = _key(state)
        low, high = self.table.get(key, (None, None))
        if low is not None and ((beta is not None and low >= beta) or low == high):
            return low
        if high is not None and alpha is not None and high <= alpha:
            return high
        if low is not None and (alpha is None or low > alpha):
            alpha = low
        if high is not None and (beta is None or high < beta):
            beta = high
        start_alpha, start_beta = alpha, beta
        maximise = state.chooser in self.side
        best: Value | None = None
        for action in state.legal_actions():
            value = self.search(state.apply(action), state, alpha, beta)
            if maximise:
                if best is None or value > best:
                    best = value
                if alpha is None or value > alpha:
                    alpha = value
            else:
                if best is None or value < best:
                    best = value
                if beta is None or value < beta:
                    beta = value
            if alpha is not None and beta is not None and alpha >= beta:
                break
        assert best is not None  # a seat's decision has a legal action
        old_low, old_high = self.table.get(key, (None, None))
        if start_alpha is not None and best <= start_alpha:
            self.table[key] = (old_low, best)  # failed low: an upper bound
        elif start_beta is not None and best >= start_beta:
            self.table[key] = (best, old_high)  # failed high: a lower bound
        else:
            self.table[key] = (best, best)
        return best

    def _tricks(self, parent: State, state: State) -> Value:
        """The tricks the root's side took in the deal, counted as its last step ends it."""
        winners = list(parent.tally.winners)
        for event in state.last_events:
            if isinstance(event, TrickWon) and len(winners) < event.number:
                winners.append(event.seat)
        return sum(1 for w in winners if w in self.side)

    def _points(self, parent: State, state: State) -> Value:
        """The card points of the cards the root's side took in the deal."""
        worth = self.root.game.tables.cards.points
        won = list(parent.tally.won)
        for event in state.last_events:
            if isinstance(event, TrickWon) and len(parent.tally.winners) < event.number:
                for card in event.cards:
                    won[event.seat] |= 1 << self.root.game.tables.cards.card(card)
        return sum(worth[c] for s in self.side for c in bits(won[s]))

    def _score(self, parent: State, state: State) -> Value:
        """The mean score change of the root's side less that of the others, a higher score being better."""
        before, after = self.root.match.scores, state.match.scores
        sign = -1 if self.lowest else 1

        def mean(seats: tuple[int, ...] | frozenset[int]) -> Value:
            if not seats:
                return 0
            total = sum(after[s] - before[s] for s in seats)
            share = Fraction(total, len(seats))
            return int(share) if share.denominator == 1 else share

        return sign * (mean(self.side) - mean(self.others))
