"""The perfect-information solver against a plain minimax, on the last tricks of random deals of every bundled game.

The minimax here is written apart from the solver: no table, no pruning, every
legal action of every seat searched to the end of the deal, the seats of the
root's side maximising and every other seat minimising; the tricks are counted
from the log's ``trick`` events and the scores read from the match. On each
position (a seat to play with at most three cards left) every legal action must
get the same value from both, for every measure (the tricks and the card points
searched on the kernel where the game's play fits it, the score through the engine).
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import parts
import trickrules
from trickrules import ArgumentError, State
from trickrules.search import MEASURES, Solution, solve
from trickrules.spec.loader import bundled_names

#: Positions per game, and the most cards the seat to move may hold in one.
POSITIONS = 30
CARDS_LEFT = 3


def positions(name: str, cards: int = CARDS_LEFT, count: int = POSITIONS) -> list[State]:
    """Seeded random positions in the play of a deal, late enough for a plain minimax, each with a choice to make.

    From each seed's first deal played at random, one of its positions whose seat to move holds at most
    ``cards`` cards and has two legal actions or more is drawn (a lead or a follow).
    """
    game = trickrules.load(name)
    found: list[State] = []
    for seed in range(3000):
        rng = random.Random(seed)
        state = game.new_match(seed=seed)
        late: list[State] = []
        while not state.is_terminal and state.deal.number == 0:
            mover = state.to_move
            legal = state.legal_actions()
            if state.phase == "play" and mover is not None and len(state.hand(mover)) <= cards and len(legal) > 1:
                late.append(state)
            state = state.apply(rng.choice(legal))
        if late:
            found.append(rng.choice(late))
        if len(found) == count:
            return found
    pytest.fail(f"{name}: fewer than {count} late positions with a choice in 3000 seeds")


def moves_cards_after_tricks(state: State) -> bool:
    """Whether a mechanism moves cards after a trick (Tarok's talon gifts).

    The won cards are then more than the tricks' cards, which this minimax counts, so the card points
    are left to the engine's own tests there.
    """
    game = state.game
    assert isinstance(game, trickrules.Game)
    return any(m.on_trick is not None and name != "open_hand" for name, m in game.mechanisms.items())


def tricks_of(state: State, deal: int) -> list[int]:
    """The winners of deal ``deal``'s tricks, from the log."""
    return [trick.seat for trick in parts.tricks_of_deal(state, deal)]


def minimax(root: State, state: State, side: frozenset[int], measure: str) -> int | Fraction:
    """The value of ``state`` for ``side`` by plain minimax to the end of ``root``'s deal."""
    if state.is_terminal or state.deal.number != root.deal.number:
        if measure == "tricks":
            return sum(1 for w in tricks_of(state, root.deal.number) if w in side)
        if measure == "points":
            cards = root.game.tables.cards
            won = [t for t in parts.tricks_of_deal(state, root.deal.number) if t.seat in side]
            return sum(cards.points[cards.card(code)] for t in won for code in t.cards)
        sign = -1 if root.game.spec.match.winner == "lowest" else 1
        others = [s for s in range(root.game.players) if s not in side]
        mine = Fraction(sum(state.match.scores[s] - root.match.scores[s] for s in side), len(side))
        theirs = Fraction(sum(state.match.scores[s] - root.match.scores[s] for s in others), len(others) or 1)
        return sign * (mine - theirs)
    values = [minimax(root, state.apply(a), side, measure) for a in state.legal_actions()]
    return max(values) if state.chooser in side else min(values)


@pytest.mark.parametrize("name", bundled_names())
def test_the_solver_agrees_with_a_plain_minimax(name: str) -> None:
    telling = 0  # positions whose actions do not all have one value: where a wrong search would show
    for state in positions(name):
        for measure in MEASURES:
            if measure == "points" and moves_cards_after_tricks(state):
                continue
            solution = solve(state, measure=measure)
            assert isinstance(solution, Solution)
            assert solution.seat == state.chooser
            assert solution.seat in solution.side
            side = frozenset(solution.side)
            expected = [(str(a), minimax(state, state.apply(a), side, measure)) for a in state.legal_actions()]
            assert list(solution.values) == expected, f"{name}, {measure}: {state.hand(solution.seat)}"
            telling += len({v for _, v in expected}) > 1
    assert telling >= 3, f"{name}: only {telling} positions tell the actions apart"


@pytest.mark.parametrize("name", [n for n in bundled_names() if trickrules.load(n).players == 3])
def test_the_table_of_positions_holds_where_lines_of_play_meet(name: str) -> None:
    """Four tricks from the end, one seat winning two tricks in either order reaches one position twice."""
    for state in positions(name, cards=4, count=8):
        solution = solve(state, measure="tricks")
        side = frozenset(solution.side)
        expected = [(str(a), minimax(state, state.apply(a), side, "tricks")) for a in state.legal_actions()]
        assert list(solution.values) == expected, f"{name}: {state.hand(solution.seat)}"


def test_the_solver_tells_cards_apart_where_they_differ() -> None:
    """The agreement above would hold for a solver that gave every card one value: here two cards differ."""
    state = trickrules.load("whist").new_match(seed=4)
    while len(state.hand(state.to_move or 0)) > 3 or state.trick:
        state = state.apply(state.legal_actions()[0])
    solution = solve(state, measure="tricks")
    assert dict(solution.values) == {"play QC": 8, "play 9C": 8, "play 3C": 9}
    assert solution.best == "play 3C"
    assert solution.value("play 3C") == 9


def test_what_the_solver_refuses() -> None:
    game = trickrules.load("whist")
    start = game.new_match(seed=1)
    with pytest.raises(ArgumentError, match="measure must be one of score, tricks, points"):
        solve(start, measure="payment")
    bidding = trickrules.load("quadrille").new_match(seed=1)
    with pytest.raises(ArgumentError, match="searches the play of a deal; this state is in its 'bidding' phase"):
        solve(bidding)
    with pytest.raises(ArgumentError, match="passed max_nodes=10 positions"):
        solve(start, max_nodes=10)
    late = start
    while len(late.hand(late.to_move or 0)) > 2:
        late = late.apply(late.legal_actions()[0])
    solution = solve(late)
    with pytest.raises(ArgumentError, match="is not one of the legal actions"):
        solution.value("play AS")
