"""What one seat knows of a deal's hidden cards, as routes, and the worlds it allows, counted and drawn.

A card's *route* is the place it was dealt to (a seat's hand, or the cards
no hand was dealt) and the groups of moves it took after (a pass, a gift, a
discard face down, a widow taken up). :class:`DealFacts` holds a deal's
places and groups and the facts the sampler (:mod:`trickrules.search.worlds`)
read about its cards; :meth:`DealFacts.problem` turns them into each card's
allowed routes and the counters the routes use, a
:class:`~trickrules.search.routes.RouteProblem`, which counts and draws the
worlds by card classes. The facts that are not one card's own (some cards
were not all in one hand) are counted by inclusion and exclusion and drawn
by refusing the worlds that break them (:meth:`DealFacts.count`,
:meth:`DealFacts.draw`).
"""

from __future__ import annotations

import functools
import itertools
import random

import attrs
from attrs import define, field, frozen

from trickrules.search.routes import RouteProblem

__all__ = ["JUST", "PENDING", "TRANSIT", "DealFacts", "MoveGroup", "Route"]

#: A group's arrival not known yet (passed cards before everyone has passed).
PENDING = 1 << 62
#: The place of a card on its way (passed, not yet received).
TRANSIT = -1
#: Just after an entry (a deal's cards as dealt: before any move, even one a step makes before its action).
JUST = 0.1
#: How many worlds a draw may refuse for breaking a fact on several cards before it gives up.
REJECTIONS = 10_000


@functools.lru_cache(maxsize=8)
def _route_problem(
    cards: tuple[int, ...],
    allowed: tuple[frozenset[int], ...],
    uses: tuple[tuple[int, ...], ...],
    capacity: tuple[int, ...],
) -> RouteProblem:
    """The problem of these routes, kept while the same facts are drawn from: its counts are remembered."""
    return RouteProblem(cards, allowed, uses, capacity)


@define
class MoveGroup:
    """Moves of cards from one place to another, in a window without a card played: one counter."""

    src: int
    dst: int
    #: When the cards leave ``src`` (an entry of the log; a move the rules make within a step, half an entry
    #: before the step's action).
    time: float
    #: The entries whose card the seat does not see (an entry may move several: a widow taken up).
    hidden: list[int] = field(factory=list)
    #: The cards the seat saw take this move.
    seen: list[int] = field(factory=list)
    count: int = 0
    #: When the cards reach ``dst`` (passed cards: when everyone has passed; until then they are in no hand).
    arrives: float = -1


@frozen
class Route:
    """Where a card was dealt, and the move groups it took, in order."""

    start: int
    groups: tuple[int, ...]


@define
class DealFacts:
    """What the seat knows of one deal: its places' sizes, the moves, and the facts about its cards.

    Places are the seats (``0`` to ``players - 1``), the cards no hand was
    dealt (``players``) and the cards laid away face down (``players + 1``).
    Times are entries of the seat's log: a fact at time ``t`` is about where
    a card was just before entry ``t``.
    """

    shuffle: int
    number: int
    dealer: int
    #: The entry of the deal's ``dealt`` event.
    start: int
    sizes: list[int]
    own: tuple[str, ...]
    turned: str
    players: int
    cards: int
    groups: list[MoveGroup] = field(factory=list)
    #: (card, place, time): where the card was then.
    at: list[tuple[int, int, float]] = field(factory=list)
    #: (card, place, time): where the card was not then.
    not_at: list[tuple[int, int, float]] = field(factory=list)
    #: card -> the entry it was played at (it moves no more).
    stays: dict[int, int] = field(factory=dict)
    #: (card, group): a move the seat saw the card take.
    via: list[tuple[int, int]] = field(factory=list)
    #: (card, group): a move the rules forbid the card.
    not_via: list[tuple[int, int]] = field(factory=list)
    #: (cards, place, time): the cards were not all there then (a king is not called holding all of them).
    not_all: list[tuple[tuple[int, ...], int, float]] = field(factory=list)
    #: The deal's chance draws the seat saw, by verb (a pass direction, the talon's order).
    draws: dict[str, int] = field(factory=dict)
    #: card -> the entry that called it.
    called: dict[int, int] = field(factory=dict)
    #: The talon's cards shown one a trick, by place in its order.
    talon_at: dict[int, int] = field(factory=dict)
    declarer: int | None = None
    #: The entry of the last card played so far (moves after it form new groups).
    last_play: int = -1
    #: (card, seat, entry): the deal's plays the log shows later; the worlds drawn while it is read hold them too.
    ahead: list[tuple[int, int, int]] = field(factory=list)

    def snapshot(self) -> tuple[frozenset[object], ...]:
        """The facts known, to tell whether something new was learned."""
        return (frozenset(self.at), frozenset(self.not_at), frozenset(self.not_all), frozenset(self.not_via))

    def routes(self) -> list[Route]:
        """Every route a card of this deal may take: a place it was dealt to, then moves that follow in time."""
        out: list[Route] = []

        def extend(start: int, place: int, taken: tuple[int, ...], after: float) -> None:
            out.append(Route(start, taken))
            for gid, g in enumerate(self.groups):
                if g.time > after and g.src == place and g.count:
                    extend(start, g.dst, (*taken, gid), g.arrives)

        for start in range(self.players + 1):
            extend(start, start, (), self.start)
        return out

    def place(self, route: Route, time: float) -> int:
        """Where a card on ``route`` is just before ``time`` (:data:`TRANSIT` on its way)."""
        place = route.start
        for gid in route.groups:
            g = self.groups[gid]
            if g.arrives < time:
                place = g.dst
            elif g.time < time:
                place = TRANSIT
        return place

    def problem(self) -> tuple[RouteProblem, list[Route]]:
        """The routes, each card's allowed routes and the counters, as a :class:`RouteProblem` (``not_all`` aside)."""
        routes = self.routes()
        allowed = [set(range(len(routes))) for _ in range(self.cards)]

        def place(r: int, time: float) -> int:
            return self.place(routes[r], time)

        stays = {card: entry for card, _, entry in self.ahead} | self.stays
        for card, where, time in (*self.at, *self.ahead):
            allowed[card] = {r for r in allowed[card] if place(r, time) == where}
        for card, where, time in self.not_at:
            if card not in stays or stays[card] > time:
                allowed[card] = {r for r in allowed[card] if place(r, time) != where}
        for card, time in stays.items():
            allowed[card] = {r for r in allowed[card] if all(self.groups[g].time < time for g in routes[r].groups)}
        for card, gid in self.via:
            allowed[card] = {r for r in allowed[card] if gid in routes[r].groups}
        for card, gid in self.not_via:
            allowed[card] = {r for r in allowed[card] if gid not in routes[r].groups}
        capacity = [*self.sizes, self.cards - sum(self.sizes), *(g.count for g in self.groups)]
        uses = [(r.start, *(self.players + 1 + g for g in r.groups)) for r in routes]
        found = _route_problem(
            tuple(range(self.cards)), tuple(frozenset(a) for a in allowed), tuple(uses), tuple(capacity)
        )
        return found, routes

    def count(self) -> int:
        """The number of worlds of the deal.

        The facts on several cards (``not_all``) are counted by inclusion and
        exclusion: the worlds, less those with all of one fact's cards in its
        place, plus those with all of two facts' cards, and so on.
        """
        total = 0
        for size in range(len(self.not_all) + 1):
            for group in itertools.combinations(self.not_all, size):
                extra = [(c, place, time) for cards, place, time in group for c in cards]
                with_all = attrs.evolve(self, at=[*self.at, *extra], not_all=[])
                total += (-1) ** size * with_all.problem()[0].count()
        return total

    def draw(self, rng: random.Random) -> dict[int, Route]:
        """One world drawn uniformly: card -> route. :class:`ValueError` if there is none.

        The facts on several cards are kept by drawing again where a world
        breaks one: uniform over the worlds that keep them.
        """
        found, routes = self.problem()
        if found.count() == 0 or (self.not_all and self.count() == 0):
            raise ValueError("no world is consistent with these facts")
        for _ in range(REJECTIONS):
            chosen = {card: routes[r] for card, r in found.sample(rng).items()}
            if not any(all(self.place(chosen[c], t) == p for c in cards) for cards, p, t in self.not_all):
                return chosen
        raise ValueError("nearly every world breaks a fact on several cards")
