"""Counting and sampling the ways hidden cards can lie, exactly, by dynamic programming over card classes.

The sampler (:mod:`trickrules.search.worlds`) states what a seat knows of a
deal as *routes*: a route is where a card was dealt (a seat's hand, or the
cards no hand was dealt) and the moves it then took (a pass, a discard, a
widow taken up), and each card has the set of routes it may have taken.
Each place a card may be dealt to, and each group of moves, holds a known
number of cards: a *counter*. A route uses its starting place's counter
and the counter of every move group on it. A world is a choice of one
allowed route per card that uses every counter exactly.

Cards with the same set of allowed routes are interchangeable, so the
worlds are counted class by class: the state is the counters' remaining
capacities, and a class of ``k`` cards is spread over its routes one route
at a time (``C(k, a)`` ways to choose which ``a`` of its cards take a
route). :class:`RouteProblem` counts every world exactly (Python integers)
and samples one uniformly: each choice is drawn with a probability
proportional to the number of worlds it leaves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb

from attrs import field, frozen

__all__ = ["RouteProblem"]


@frozen(weakref_slot=False, eq=False)
class RouteProblem:
    """Cards, their allowed routes, and the counters the routes use.

    ``uses[r]`` lists the counters route ``r`` takes one card from;
    ``capacity[k]`` is how many cards counter ``k`` holds; ``allowed[i]`` the
    routes card ``cards[i]`` may take.
    """

    cards: tuple[int, ...]
    allowed: tuple[frozenset[int], ...]
    uses: tuple[tuple[int, ...], ...]
    capacity: tuple[int, ...]
    #: The cards by class: (the class's routes in a fixed order, its cards).
    classes: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = field(init=False)
    _memo: dict[tuple[int, int, int, tuple[int, ...]], int] = field(init=False, factory=dict)
    #: Per class and route position: for each counter, how many more cards could still use it beyond the
    #: class's own (later classes); the counters the class's routes from there use, and the others.
    _later: tuple[tuple[int, ...], ...] = field(init=False)
    _here_idx: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False)
    _other_idx: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False)

    def __attrs_post_init__(self) -> None:
        by: dict[frozenset[int], list[int]] = {}
        for card, routes in zip(self.cards, self.allowed, strict=True):
            by.setdefault(routes, []).append(card)
        # Small classes first, so that the forced choices come early and the memo stays small.
        ordered = sorted(by.items(), key=lambda item: (len(item[0]), sorted(item[0]), item[1]))
        classes = tuple((tuple(sorted(r)), tuple(c)) for r, c in ordered)
        object.__setattr__(self, "classes", classes)
        later: list[tuple[int, ...]] = []
        running = [0] * len(self.capacity)
        for class_routes, class_cards in reversed(classes):
            later.append(tuple(running))
            for k in {k for r in class_routes for k in self.uses[r]}:
                running[k] += len(class_cards)
        object.__setattr__(self, "_later", tuple(reversed(later)))
        here = tuple(
            tuple(frozenset(k for r in routes[p:] for k in self.uses[r]) for p in range(len(routes) + 1))
            for routes, _ in classes
        )
        counters = range(len(self.capacity))
        object.__setattr__(self, "_here_idx", tuple(tuple(tuple(sorted(h)) for h in row) for row in here))
        object.__setattr__(
            self, "_other_idx", tuple(tuple(tuple(k for k in counters if k not in h) for h in row) for row in here)
        )

    def _feasible(self, j: int, p: int, rem: int, caps: tuple[int, ...]) -> bool:
        """Whether every counter can still be filled by the cards left (a bound that prunes the search)."""
        later = self._later[j]
        # Plain loops, not all() over generators: this is the count's innermost test.
        for k in self._other_idx[j][p]:
            if caps[k] > later[k]:
                return False
        for k in self._here_idx[j][p]:  # noqa: SIM110
            if caps[k] > later[k] + rem:
                return False
        return True

    def count(self) -> int:
        """The number of worlds (0 when none is consistent)."""
        if not self.classes:
            return 1 if not any(self.capacity) else 0
        return self._count(0, 0, len(self.classes[0][1]), self.capacity)

    def _count(self, j: int, p: int, rem: int, caps: tuple[int, ...]) -> int:
        memo = self._memo
        key = (j, p, rem, caps)
        found = memo.get(key)
        if found is not None:
            return found
        if not self._feasible(j, p, rem, caps):
            memo[key] = 0
            return 0
        routes, _ = self.classes[j]
        total = 0
        if p == len(routes):
            if rem == 0:
                if j + 1 == len(self.classes):
                    total = 0 if any(caps) else 1
                else:
                    total = self._count(j + 1, 0, len(self.classes[j + 1][1]), caps)
        else:
            for a, after in self._choices(routes[p], rem, caps, last=p + 1 == len(routes)):
                total += comb(rem, a) * self._count(j, p + 1, rem - a, after)
        memo[key] = total
        return total

    def _choices(self, route: int, rem: int, caps: tuple[int, ...], *, last: bool) -> list[tuple[int, tuple[int, ...]]]:
        """How many of the class's ``rem`` cards may take ``route`` (all, for its last), and the counters after."""
        used = self.uses[route]
        most = min([rem, *(caps[k] for k in used)])
        out = []
        for a in (rem,) if last else range(most + 1):
            if a > most:
                continue
            if a == 0:
                out.append((0, caps))
                continue
            after = list(caps)
            for k in used:
                after[k] -= a
            out.append((a, tuple(after)))
        return out

    def sample(self, rng: random.Random) -> dict[int, int]:
        """One world drawn uniformly: card -> route. :class:`ValueError` if there is none."""
        if self.count() == 0:
            raise ValueError("no world is consistent with these routes")
        out: dict[int, int] = {}
        caps = self.capacity
        for j, (routes, cards) in enumerate(self.classes):
            rem = len(cards)
            pool = list(cards)
            rng.shuffle(pool)
            for p, route in enumerate(routes):
                options = self._choices(route, rem, caps, last=p + 1 == len(routes))
                weights = [comb(rem, a) * self._next(j, p, rem - a, after) for a, after in options]
                pick = rng.randrange(sum(weights))
                chosen = 0
                while pick >= weights[chosen]:
                    pick -= weights[chosen]
                    chosen += 1
                a, after = options[chosen]
                for card in pool[:a]:
                    out[card] = route
                del pool[:a]
                rem -= a
                caps = after
        return out

    def _next(self, j: int, p: int, rem: int, caps: tuple[int, ...]) -> int:
        """The worlds left once route ``p`` of class ``j`` is settled with ``rem`` of its cards left."""
        return self._count(j, p + 1, rem, caps)


def problem(
    cards: Sequence[int], allowed: Sequence[frozenset[int]], uses: Sequence[tuple[int, ...]], capacity: Sequence[int]
) -> RouteProblem:
    """A :class:`RouteProblem` from plain sequences."""
    return RouteProblem(tuple(cards), tuple(allowed), tuple(uses), tuple(capacity))
