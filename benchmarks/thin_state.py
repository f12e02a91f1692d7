"""How fast the thinnest immutable Python state could play Hearts' cards, against pyspiel.

Run: ``python benchmarks/thin_state.py``

A reference for the public-API target (docs/performance.md, "What bounds the
engine"): a state that is a tuple subclass holding the hands as bit masks,
the seat to move, the trick, the leader and the tricks won; its legal cards
(follow suit) come from a dict keyed by mask, and ``apply`` builds one new
tuple. No events, no checks, no scoring, no passing: only what the card
play itself must do. It is compared, interleaved, with pyspiel's Hearts
driven from Python with ``child()`` (a new state per action, as
trickrules' ``apply`` makes) and with ``apply_action`` (in place, as
``benchmarks/run.py`` drives it).
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

SUIT = [c // 13 for c in range(52)]
SUIT_MASK = [sum(1 << c for c in range(52) if SUIT[c] == s) for s in range(4)]
_ACTIONS: dict[int, tuple[int, ...]] = {}


def _actions_of(mask: int) -> tuple[int, ...]:
    found = _ACTIONS.get(mask)
    if found is None:
        found = _ACTIONS[mask] = tuple(c for c in range(52) if mask >> c & 1)
    return found


class Thin(tuple[Any, ...]):
    """(hands, to_move, trick, leader, won, tricks): the card play of four seats, nothing else."""

    __slots__ = ()

    def legal_actions(self) -> tuple[int, ...]:
        """The cards the seat to move may play: of the suit led if it has one."""
        hands, seat, trick = self[0], self[1], self[2]
        hand = hands[seat]
        if trick:
            same = hand & SUIT_MASK[SUIT[trick[0]]]
            if same:
                hand = same
        return _actions_of(hand)

    def apply(self, card: int) -> Thin:
        """The state after ``card`` (a legal one) is played."""
        hands, seat, trick, leader, won, tricks = self
        held = list(hands)
        held[seat] &= ~(1 << card)
        trick = (*trick, card)
        if len(trick) < 4:
            return tuple.__new__(Thin, (tuple(held), (seat + 1) % 4, trick, leader, won, tricks))
        led, best = SUIT[trick[0]], 0
        for i in range(1, 4):
            if SUIT[trick[i]] == led and trick[i] > trick[best]:
                best = i
        winner = (leader + best) % 4
        won = (*won[:winner], won[winner] + 1, *won[winner + 1 :])
        return tuple.__new__(Thin, (tuple(held), winner, (), winner, won, tricks + 1))


def _deal(seed: int) -> Thin:
    cards = list(range(52))
    random.Random(seed).shuffle(cards)
    hands = tuple(sum(1 << c for c in cards[13 * s : 13 * s + 13]) for s in range(4))
    return tuple.__new__(Thin, (hands, 0, (), 0, (0, 0, 0, 0), 0))


def thin_rate(deals: int) -> float:
    """Player actions per second of random play on :class:`Thin`."""
    start, taken = time.perf_counter(), 0
    for d in range(deals):
        state, rng = _deal(d), random.Random(d)
        for _ in range(52):
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.random() * len(legal))])
            taken += 1
    return taken / (time.perf_counter() - start)


def pyspiel_rate(game: Any, deals: int, clone: bool) -> float:
    """Player actions per second of random play of pyspiel's Hearts (``child()`` with ``clone``)."""
    start, taken = time.perf_counter(), 0
    for d in range(deals):
        state, rng = game.new_initial_state(), random.Random(d)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                continue
            legal = state.legal_actions()
            action = legal[int(rng.random() * len(legal))]
            if clone:
                state = state.child(action)
            else:
                state.apply_action(action)
            taken += 1
    return taken / (time.perf_counter() - start)


def main() -> None:
    """Print the three rates (medians of 5, interleaved) and the ratios."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    thin, child, in_place = [], [], []
    for _ in range(5):
        thin.append(thin_rate(2000))
        child.append(pyspiel_rate(game, 300, clone=True))
        in_place.append(pyspiel_rate(game, 300, clone=False))
    a, b, c = (statistics.median(x) for x in (thin, child, in_place))
    print(f"thinnest Python state: {a:,.0f} actions/s")
    print(f"pyspiel, child():       {b:,.0f} actions/s ({a / b:.2f}x)")
    print(f"pyspiel, apply_action(): {c:,.0f} actions/s ({a / c:.2f}x)")


if __name__ == "__main__":
    main()
