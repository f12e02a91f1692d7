"""Worlds consistent with what one seat knows: the hidden cards filled in, sampled exactly uniformly.

:func:`sample_worlds` reads a seat's log (``EventLog.for_seat(seat)``, or the
log of a state read through it) and returns full states of the
match, one per world: the deals dealt as the world has them and every
action of the log replayed, so that each world, seen from the seat, is the
seat's own log again. The sampler never reads anything but that per-seat
log, so it cannot see a card the seat could not know.

What it infers, deal by deal (``docs/search.md`` lists it with its limits):

- where each card is, as a *route* (:mod:`trickrules.faces.routes`): the
  place it was dealt to and the moves it took after (passes, gifts,
  discards, a widow or a talon set taken up, the turned card taken);
- every card the seat saw (its hand, cards played, received, exposed,
  taken up face up, a turned card);
- the play's duties, from the engine's own legality
  (:func:`trickrules.engine.phases.play.play_mask`, every duty and every
  mechanism's ``narrow``): for a card ``c`` another seat played, the cards
  ``x`` for which ``c`` is illegal from the two-card hand ``{c, x}`` form its
  *forbidden set*, and the hand then held none of them;
- a decision other than a card whose legality needs cards in the hand (a
  meld declared): the cards without which it is illegal were held.

The worlds are counted exactly and drawn uniformly over the assignments of
routes (each world equally likely; see ``WS1`` in ``docs/decisions.md``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence

import attrs
from attrs import define, field, frozen

from trickrules.compile.modes import FirstLead
from trickrules.engine.actions import Action
from trickrules.engine.events import (
    HIDDEN,
    AuctionWon,
    CardCalled,
    CardGiven,
    CardPassed,
    CardPlayed,
    Dealt,
    Discarded,
    Event,
    Misdealt,
    PartnerRevealed,
    PassingDone,
    TurnedTaken,
    records_action,
)
from trickrules.engine.phases import action_of, redact
from trickrules.engine.phases.deal import deal_draws
from trickrules.engine.phases.dummy import HandExposed
from trickrules.engine.phases.play import play_mask
from trickrules.engine.phases.starting import new_match
from trickrules.engine.phases.talon_gifts import TalonCardWon
from trickrules.engine.phases.talon_sets import DRAW as TALON_ORDER
from trickrules.engine.phases.talon_sets import SetTaken, TalonDiscarded, TalonSetsView, arrangement_index
from trickrules.engine.phases.widow import WidowDiscarded, WidowTaken
from trickrules.engine.state import GameLike, State
from trickrules.engine.values import Stacked, evolve
from trickrules.errors import ArgumentError, TrickrulesError
from trickrules.faces.routes import RouteProblem
from trickrules.records.eventlog import EventLog
from trickrules.records.logcodec import LogEntry
from trickrules.records.view import View

__all__ = ["SamplerError", "WorldSampler", "sample_worlds", "weighted_worlds"]


class SamplerError(TrickrulesError, RuntimeError):
    """No world is consistent with a seat's log, or the log holds something the sampler cannot read."""


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


#: A group's arrival not known yet (passed cards before everyone has passed).
_PENDING = 1 << 62
#: How many facts the sampler may read by search (:meth:`WorldSampler._search`) before it gives up on a step.
_SEARCHES = 12
#: The verb of the talon's order (a chance draw of its own).
_ARRANGE = TALON_ORDER.verb
#: Just after an entry (a deal's cards as dealt: before any move, even one a step makes before its action).
_JUST = 0.1
#: The events that move cards from one place to another (a pass, a gift, a discard, a widow or talon taken).
_MOVES = (CardPassed, CardGiven, Discarded, WidowDiscarded, TalonDiscarded, TurnedTaken, WidowTaken, SetTaken)
#: How many worlds a draw may refuse for breaking a fact on several cards before it gives up.
_REJECTIONS = 10_000
#: How many steps back a search for a missed fact looks (the step that did not replay, and those before it).
_BACK = 16
#: The place of a card on its way (passed, not yet received).
_TRANSIT = -1


# -- what a seat knows of one deal ---------------------------------------------------------------


@define
class _Group:
    """Moves of cards from one place to another, in a window without a card played: one counter."""

    src: int
    dst: int
    time: float
    hidden: list[int] = field(factory=list)  # the entries whose card the seat does not see
    seen: list[int] = field(factory=list)  # the cards the seat saw take this move
    count: int = 0
    #: The entry at which the cards reach ``dst`` (passed cards: when everyone has passed; until then they
    #: are on their way, in no hand).
    arrives: float = -1


@define
class _Deal:
    """What the seat knows of one deal: its places' sizes, the moves and the facts about cards."""

    shuffle: int
    number: int
    dealer: int
    start: int  # the entry of the deal's Dealt event
    sizes: list[int]
    own: tuple[str, ...]
    turned: str
    groups: list[_Group] = field(factory=list)
    at: list[tuple[int, int, float]] = field(factory=list)  # (card, place, time): where the card was then
    not_at: list[tuple[int, int, float]] = field(factory=list)
    stays: dict[int, int] = field(factory=dict)  # card -> the entry it was played at (it moves no more)
    via: list[tuple[int, int]] = field(factory=list)  # (card, group): a move the seat saw it take
    not_via: list[tuple[int, int]] = field(factory=list)  # (card, group): a move the rules forbid it
    #: (cards, place, time): the cards were not all there then (one does not call a king holding all of them).
    not_all: list[tuple[tuple[int, ...], int, float]] = field(factory=list)
    draws: dict[str, int] = field(factory=dict)
    called: dict[int, int] = field(factory=dict)  # card -> the entry that called it
    talon_at: dict[int, int] = field(factory=dict)
    declarer: int | None = None  # the talon's cards shown one a trick, by place in its order
    last_play: int = -1


@frozen
class _Route:
    start: int
    groups: tuple[int, ...]


class WorldSampler:
    """The worlds consistent with one seat's log: built once, then sampled as often as wanted.

    ``known`` is the seat's log (:meth:`EventLog.for_seat`); ``game`` is the
    game it is of (by default the bundled game its header names).
    :class:`~trickrules.errors.ArgumentError` if ``known`` is not a seat's
    log; :class:`SamplerError` if no world is consistent with it.
    """

    def __init__(self, known: EventLog, game: GameLike | None = None, view: View | None = None) -> None:
        if not isinstance(known, EventLog):
            raise ArgumentError(f"known must be a seat's EventLog (log.for_seat(seat)), found {type(known).__name__}.")
        header = known.header
        if header.seat is None:
            raise ArgumentError(
                "known must be one seat's view of a log (log.for_seat(seat)): a full log holds every hand."
            )
        if game is None:
            from trickrules.engine.game import load

            game = load(header.game, dict(header.options))
        if game.fingerprint != header.fingerprint:
            raise ArgumentError(f"the log is of {header.game!r} with other rules than the game given.")
        if view is not None and (not isinstance(view, View) or view.seat != header.seat):
            raise ArgumentError(f"view must be seat {header.seat}'s View of the state the log ends at.")
        self.game = game
        self.view = view
        self.seat: int = header.seat
        self.header = header
        self.entries: tuple[LogEntry, ...] = known.entries
        self.players = game.players
        self.rest = self.players  # the cards no hand was dealt
        self.out = self.players + 1  # cards laid away face down
        self.codes: tuple[str, ...] = game.cards.codes
        self.index = {c: i for i, c in enumerate(self.codes)}
        self.deals: list[_Deal] = []
        self.deal_of: dict[int, int] = {}  # entry -> deal (its position in self.deals)
        self._steps = self._split()
        #: A derived entry's step's action entry.
        self._act_of = {i: act for act, derived in self._steps if act is not None for i in derived}
        self._deals = [any(isinstance(self.entries[i].event, Dealt) for i in derived) for _, derived in self._steps]
        self._learn()

    # -- the log as steps ------------------------------------------------------------------

    def _split(self) -> list[tuple[int | None, list[int]]]:
        """The log as steps: (the action's entry, or None for the start; the entries the step derived)."""
        steps: list[tuple[int | None, list[int]]] = [(None, [])]
        for i, e in enumerate(self.entries):
            if records_action(e.event.TAG) and isinstance(e.actor, int):
                steps.append((i, []))
            else:
                steps[-1][1].append(i)
        return steps

    # -- learning the facts, with a world consistent so far to probe the rules on ---------------

    def _learn(self) -> None:
        rng = random.Random(0x5A3)
        self._fills: dict[int, str] = {}
        self._stacks: dict[int, Stacked] = {}
        shuffles = 0
        state: State | None = None
        anchors: list[tuple[State | None, int]] = []  # per deal: the state before the step that dealt it, the step
        for k, (act, derived) in enumerate(self._steps):
            before = state
            probed = act is None
            if act is not None:
                assert before is not None
                self._facts_of_action(act)
                if self._expects(before, act):
                    self._probe(before, act)
                    probed = True
            dealt_here = False
            for i in derived:
                ev = self.entries[i].event
                if isinstance(ev, Misdealt):
                    shuffles += 1
                elif isinstance(ev, Dealt):
                    self._open(i, ev, shuffles)
                    anchors.append((before, k))
                    shuffles += 1
                    dealt_here = True
                else:
                    self._facts_of_event(i)
            if dealt_here:
                for d in self.deals:
                    if d.shuffle not in self._stacks:
                        self._stacks[d.shuffle] = self._stack(d, self._sample_deal(d, rng), rng)
            nxt = self._try(before, k) if probed else None
            searched = 0
            while nxt is None:
                j = self.deal_of.get(act, len(self.deals) - 1) if act is not None else len(self.deals) - 1
                d = self.deals[j]
                self._stacks[d.shuffle] = self._stack(d, self._sample_deal(d, rng, fills=True), rng)
                trail, nxt, failed = self._rebuild(anchors, j, k)
                if nxt is None:
                    prior = trail[-1][0] if trail else None
                    reached = prior is not None and act is not None and self._expects(prior, act)
                    if failed == k and not probed and reached:
                        assert prior is not None
                        assert act is not None
                        self._probe(prior, act)  # the world reaches the action now: read the rules there first
                        probed = True
                        continue
                    searched += 1
                    self._learn_at(trail, failed, searched)
                elif not probed:  # the world now reaches the action as the log does: read the rules there
                    assert act is not None
                    prior = trail[-1][0]
                    assert prior is not None
                    self._probe(prior, act)
                    probed = True
                    nxt = None  # and draw a world that meets what they said
            state = nxt

    def _open(self, i: int, ev: Dealt, shuffle: int) -> None:
        own = ev.hands[self.seat] if ev.hands else ()
        d = _Deal(shuffle, ev.deal, ev.dealer, i, [len(h) for h in ev.hands], tuple(own), ev.turned)
        for code in own:
            d.at.append((self.index[code], self.seat, i + _JUST))
        if ev.turned:
            place = ev.dealer if self.game.rules.turn_last_card else self.rest
            d.at.append((self.index[ev.turned], place, i + _JUST))
        last = max(k for k, e in enumerate(self.entries) if isinstance(e.event, Dealt))
        talon = self.view.part(TalonSetsView) if self.view is not None and i == last else None
        if talon is not None and talon.sets:  # the talon laid out face up, before the log says so
            order = tuple(self.index[code] for group in talon.sets for code in group)
            for c in order:
                d.at.append((c, self.rest, i + _JUST))
            d.draws[_ARRANGE] = arrangement_index(tuple(sorted(order)), order)
        self.deals.append(d)
        if self.view is not None and i == last:
            self._first_lead(d)

    def _first_lead(self, d: _Deal) -> None:
        """The view says who leads a deal's first trick, where the holder of a card the rules name leads it."""
        v, game = self.view, self.game
        card = game.tables.leads.first_card
        if v is None or card is None or v.phase != "play" or v.trick or v.played or v.to_move is None:
            return
        if game.lead_hooks or any(c.first_lead is FirstLead.DECLARER_ALWAYS for c in game.rules.contracts):
            return  # someone else may lead: nothing follows
        for p in range(self.players):
            if p != v.to_move:  # that card is the leader's, or no hand's (then eldest hand leads)
                d.not_at.append((card, p, len(self.entries) + _JUST))

    def _deal(self, i: int) -> _Deal:
        self.deal_of[i] = len(self.deals) - 1
        return self.deals[-1]

    def _move(self, i: int, src: int, dst: int, cards: Sequence[str], pending: bool = False) -> None:
        d = self._deal(i)
        group = None
        for g in d.groups:
            if g.src == src and g.dst == dst and g.time > d.last_play:
                group = g
        if group is None:
            # A move the rules make within a step (a widow taken up as the declarer acts) comes before the
            # step's action; a player's move is at its own entry.
            act = self._act_of.get(i)
            when = i if act is None else act - 0.5
            group = _Group(src, dst, when, arrives=_PENDING if pending else when)
            d.groups.append(group)
        gid = d.groups.index(group)
        for code in cards:
            group.count += 1
            if code == HIDDEN:
                group.hidden.append(i)
            else:
                group.seen.append(self.index[code])
                d.via.append((self.index[code], gid))

    def _facts_of_action(self, i: int) -> None:
        """What an action shows: a card played where it was, a card called, a move of cards."""
        ev = self.entries[i].event
        d = self._deal(i)
        if isinstance(ev, CardCalled):
            d.called[self.index[ev.card]] = i
        if isinstance(ev, CardPlayed):
            c = self.index[ev.card]
            d.at.append((c, ev.seat, i))
            d.stays[c] = i
            d.last_play = i
        else:
            self._moves(i, ev, d)

    def _probe(self, before: State, i: int) -> None:
        """What the rules say of an action another seat took in ``before`` (a world's state just before it).

        A card played: its forbidden set; a hidden card moved: the cards it may not be; another decision: the
        cards it needs. ``before`` must ask for that action (its seat, its kind), so the probes read the
        right rules.
        """
        ev = self.entries[i].event
        d = self.deals[self.deal_of[i]]
        actor = self.entries[i].actor
        if not isinstance(actor, int) or actor == self.seat:
            return
        if isinstance(ev, CardPlayed):
            if ev.seat != self.seat and before.phase == "play" and before.to_move == ev.seat and not ev.revoke:
                for x in self.forbidden(before, ev.seat, self.index[ev.card]):
                    d.not_at.append((x, ev.seat, i))
        elif isinstance(ev, CardPassed | CardGiven | Discarded | WidowDiscarded | TalonDiscarded):
            self._may_move(before, i, ev, d)
        elif not self._moves_cards(ev):
            self._needs(before, i, actor, d)

    @staticmethod
    def _moves_cards(ev: Event) -> bool:
        return isinstance(ev, _MOVES)

    def _moves(self, i: int, ev: Event, d: _Deal) -> bool:
        """The moves of cards an event records (whether it records any)."""
        if isinstance(ev, CardPassed):
            self._move(i, ev.seat, ev.to, (ev.card,), pending=True)
        elif isinstance(ev, CardGiven):
            self._move(i, ev.seat, ev.to, (ev.card,))
        elif isinstance(ev, Discarded | WidowDiscarded | TalonDiscarded):
            self._move(i, ev.seat, self.out, (ev.card,))
        elif isinstance(ev, TurnedTaken):
            self._move(i, self.rest, ev.seat, (ev.card,))
        elif isinstance(ev, WidowTaken):
            self._move(i, self.rest, ev.seat, ev.cards)
        elif isinstance(ev, SetTaken):
            self._move(i, self.rest, ev.seat, ev.cards)
            for code in ev.talon:
                d.at.append((self.index[code], self.rest, i))
            stock = tuple(sorted(self.index[code] for code in ev.talon))
            d.draws[_ARRANGE] = arrangement_index(stock, tuple(self.index[code] for code in ev.talon))
        else:
            return False
        return True

    def _facts_of_event(self, i: int) -> None:
        ev = self.entries[i].event
        if isinstance(ev, Dealt | Misdealt) or not self.deals:
            return
        d = self._deal(i)
        if self._moves(i, ev, d):
            return
        if isinstance(ev, PassingDone):
            d.draws["direction"] = ev.offset
            for g in d.groups:
                if g.arrives == _PENDING:
                    g.arrives = i
            for code in ev.received[self.seat] if ev.received else ():
                c = self.index[code]
                for gid, g in enumerate(d.groups):
                    if g.dst == self.seat and g.src != self.seat and g.time > d.start:
                        d.via.append((c, gid))
                        break
        elif isinstance(ev, HandExposed):
            for code in ev.cards:
                d.at.append((self.index[code], ev.seat, i))
        elif isinstance(ev, PartnerRevealed):
            # The partner held the called card when it was called; a declarer named his own partner may
            # also have called a card that lay in the talon.
            c = self.index[ev.card]
            when = d.called.get(c, d.start + _JUST)
            if ev.seat == d.declarer:
                for p in range(self.players):
                    if p != ev.seat:
                        d.not_at.append((c, p, when))
            else:
                d.at.append((c, ev.seat, when))
        elif isinstance(ev, AuctionWon):
            d.declarer = ev.seat
        elif isinstance(ev, CardCalled):
            d.called[self.index[ev.card]] = i
        elif isinstance(ev, TalonCardWon):  # the talon's card of that trick, shown as the trick's winner takes it
            c = self.index[ev.card]
            d.at.append((c, self.rest, d.start + _JUST))
            if ev.trick - 1 not in d.talon_at and c not in d.talon_at.values():
                d.talon_at[ev.trick - 1] = c

    # -- the rules probed --------------------------------------------------------------------

    def forbidden(self, before: State, seat: int, card: int) -> list[int]:
        """The cards whose presence in ``seat``'s hand would have made ``card`` illegal to play in ``before``.

        For each card ``x``, ``card`` is played from the hand ``{card, x}``
        through the engine's own legal mask (every duty and every mechanism's
        ``narrow``); ``x`` is forbidden where that refuses ``card``.
        """
        out = []
        bit = 1 << card
        for x in range(len(self.codes)):
            if x == card:
                continue
            mask, _ = play_mask(_with_hand(before, seat, bit | (1 << x)))
            if not mask & bit:
                out.append(x)
        return out

    def _may_move(self, before: State, i: int, ev: Event, d: _Deal) -> None:
        """A hidden card moved by a decision: the cards the rules would not let it be (the card just taken up)."""
        if getattr(ev, "card", None) != HIDDEN or before.to_move is None:
            return
        seat = before.to_move
        gid = next(g for g, group in enumerate(d.groups) if i in group.hidden)
        for x in range(len(self.codes)):
            action = action_of(self.game, evolve(ev, card=self.codes[x]))
            if action is not None and not _legal(before, seat, before.hands[seat] | (1 << x), action):
                d.not_via.append((x, gid))

    def _needs(self, before: State, i: int, seat: int, d: _Deal) -> None:
        """A decision other than a card: the cards it cannot be taken without (a bid, a meld declared) were held.

        Where it is legal with no card in the hand but not with every card, the cards that alone make it
        illegal were not held (one does not call a card one holds). Where the decision is legal with every
        card not yet played in the hand (or with all but one, which
        was then not held: one does not call a card one holds), the cards without any one of which it is
        not are needed. Where it is not, the smallest hands of one or two cards it is legal with are looked
        for: where there is exactly one, its cards were held.
        """
        action = action_of(self.game, self.entries[i].event)
        if action is None or before.to_move != seat:
            return
        everything = (1 << len(self.codes)) - 1
        played = 0
        for c in d.stays:
            played |= 1 << c
        base = everything & ~played
        cards = _bits(base)
        if _legal(before, seat, 0, action):
            if _legal(before, seat, base, action):  # a world's hand may still refuse it (all the kings held)
                base = before.hands[seat]
            if not _legal(before, seat, base, action):  # legal with no card: some cards may not be held
                for x in _bits(base):
                    if not _legal(before, seat, 1 << x, action):
                        d.not_at.append((x, seat, i))
                        base &= ~(1 << x)
                if not _legal(before, seat, base, action):  # nor all of a few (the fewest found, one by one)
                    for x in cards:
                        if base >> x & 1 and not _legal(before, seat, base & ~(1 << x), action):
                            base &= ~(1 << x)
                    d.not_all.append((tuple(_bits(base)), seat, i))
            return
        if not _legal(before, seat, base, action):
            # One card that may not be held (one's own card is not called): the rest may make it legal.
            barred = [x for x in cards if _legal(before, seat, base & ~(1 << x), action)]
            if len(barred) == 1:
                d.not_at.append((barred[0], seat, i))
                base &= ~(1 << barred[0])
        if _legal(before, seat, base, action):
            for x in _bits(base):
                if not _legal(before, seat, base & ~(1 << x), action):
                    d.at.append((x, seat, i))
            return
        small = [1 << x for x in cards if _legal(before, seat, 1 << x, action)]
        if not small:
            small = [
                (1 << x) | (1 << y)
                for k, x in enumerate(cards)
                for y in cards[k + 1 :]
                if _legal(before, seat, (1 << x) | (1 << y), action)
            ]
        if len(small) == 1:
            for x in _bits(small[0]):
                d.at.append((x, seat, i))

    # -- routes ----------------------------------------------------------------------------

    def _routes(self, d: _Deal) -> list[_Route]:
        out: list[_Route] = []

        def extend(start: int, place: int, taken: tuple[int, ...], after: float) -> None:
            out.append(_Route(start, taken))
            for gid, g in enumerate(d.groups):
                if g.time > after and g.src == place and g.count:
                    extend(start, g.dst, (*taken, gid), g.arrives)

        for start in range(self.players + 1):
            extend(start, start, (), d.start)
        return out

    @staticmethod
    def _place(d: _Deal, route: _Route, time: float) -> int:
        place = route.start
        for gid in route.groups:
            g = d.groups[gid]
            if g.arrives < time:
                place = g.dst
            elif g.time < time:
                place = _TRANSIT
        return place

    def problem(self, d: _Deal) -> tuple[RouteProblem, list[_Route]]:
        """The deal's routes, each card's allowed routes and the counters, as a :class:`RouteProblem`."""
        routes = self._routes(d)
        n = len(self.codes)
        allowed = [set(range(len(routes))) for _ in range(n)]

        def place(r: int, time: float) -> int:
            return self._place(d, routes[r], time)

        for card, where, time in d.at:
            allowed[card] = {r for r in allowed[card] if place(r, time) == where}
        for card, where, time in d.not_at:
            if card not in d.stays or d.stays[card] > time:
                allowed[card] = {r for r in allowed[card] if place(r, time) != where}
        for card, time in d.stays.items():
            allowed[card] = {r for r in allowed[card] if all(d.groups[g].time < time for g in routes[r].groups)}
        for card, gid in d.via:
            allowed[card] = {r for r in allowed[card] if gid in routes[r].groups}
        for card, gid in d.not_via:
            allowed[card] = {r for r in allowed[card] if gid not in routes[r].groups}
        dealt = sum(d.sizes)
        capacity = [*d.sizes, len(self.codes) - dealt, *(g.count for g in d.groups)]
        uses = [(r.start, *(self.players + 1 + g for g in r.groups)) for r in routes]
        found = RouteProblem(tuple(range(n)), tuple(frozenset(a) for a in allowed), tuple(uses), tuple(capacity))
        return found, routes

    def count(self, deal: int = -1) -> int:
        """The number of worlds of one deal (by default the last) consistent with the log.

        A fact that some of a few cards were not all in one place (:attr:`_Deal.not_all`) is counted by
        inclusion and exclusion: the worlds, less those with all of them there, and so on.
        """
        d = self.deals[deal]
        total = 0
        for size in range(len(d.not_all) + 1):
            for group in itertools.combinations(d.not_all, size):
                extra = [(c, place, time) for cards, place, time in group for c in cards]
                with_all = attrs.evolve(d, at=[*d.at, *extra], not_all=[])
                total += (-1) ** size * self.problem(with_all)[0].count()
        return total

    def _sample_deal(self, d: _Deal, rng: random.Random, fills: bool = False) -> dict[int, _Route]:
        found, routes = self.problem(d)
        if found.count() == 0 or (d.not_all and self.count(self.deals.index(d)) == 0):
            raise SamplerError(f"deal {d.number}: no world is consistent with seat {self.seat}'s log")
        for _ in range(_REJECTIONS):
            picked = found.sample(rng)
            chosen = {card: routes[r] for card, r in picked.items()}
            # The few facts that are not each card's own: drawn uniformly by refusing the worlds that break one.
            if not any(
                all(self._place(d, chosen[c], time) == place for c in cards) for cards, place, time in d.not_all
            ):
                break
        else:
            raise SamplerError(f"deal {d.number}: the worlds that break a fact on several cards are nearly all")
        if fills:
            self._fill(d, chosen, rng)
        return chosen

    def _fill(self, d: _Deal, chosen: dict[int, _Route], rng: random.Random) -> None:
        """The hidden cards of the deal's moves, as the world has them (in a random order within a group)."""
        for gid, g in enumerate(d.groups):
            cards = [c for c, r in sorted(chosen.items()) if gid in r.groups and c not in g.seen]
            rng.shuffle(cards)
            for i in dict.fromkeys(g.hidden):  # an entry may move several hidden cards (a widow taken up)
                k = g.hidden.count(i)
                self._fills[i] = " ".join(self.codes[c] for c in cards[:k])
                del cards[:k]

    def _stack(self, d: _Deal, chosen: dict[int, _Route], rng: random.Random) -> Stacked:
        """The deal as the world has it: the hands, the turned card, and the draws the seat saw."""
        hands: list[tuple[str, ...]] = []
        for s in range(self.players):
            if s == self.seat:
                hands.append(d.own)
            else:
                hands.append(tuple(self.codes[c] for c, r in sorted(chosen.items()) if r.start == s))
        drawn = {draw.verb for draw, _ in deal_draws(self.game, d.number)}
        given = dict(d.draws)
        if _ARRANGE in drawn and _ARRANGE not in given and d.talon_at:
            # Talon cards shown one by one (won with tricks): at their places, the others in any order.
            stock = sorted(c for c, r in chosen.items() if r.start == self.rest)
            others = [c for c in stock if c not in d.talon_at.values()]
            rng.shuffle(others)
            order = [d.talon_at[k] if k in d.talon_at else others.pop() for k in range(len(stock))]
            given[_ARRANGE] = arrangement_index(tuple(stock), tuple(order))
        draws = tuple(sorted((v, x) for v, x in given.items() if v in drawn))
        return Stacked(tuple(hands), d.turned, draws)

    # -- worlds built through the engine -------------------------------------------------------

    def _start(self, seed: int) -> State:
        h = self.header
        return new_match(
            self.game,
            seed=seed,
            dealer=h.dealer,
            scores=h.scores or None,
            pot=h.pot,
            chosen=tuple(sorted(self._stacks.items())),
        )

    def _event(self, i: int) -> Event:
        ev = self.entries[i].event
        fill = self._fills.get(i)
        if fill is None:
            return ev
        if isinstance(ev, WidowTaken):
            return evolve(ev, cards=tuple(fill.split()))
        return evolve(ev, card=fill)

    def _apply(self, before: State | None, k: int, seed: int = 0, any_hidden: bool = False) -> State | None:
        """Step ``k`` of the log in this world (the start for ``k == 0``), or ``None`` where it does not fit the log.

        With ``any_hidden``, an action whose card the seat does not see may be any legal one that fits (a
        search asks whether the steps can replay at all, whatever the hidden cards moved).
        """
        act = self._steps[k][0]
        if act is None:
            try:
                after = self._start(seed)
            except TrickrulesError:
                return None
            return self._fits(after, k, [ev for _, ev in after.entries()])
        assert before is not None
        if self._deals[k]:  # the step deals: the world's stacks go into the match first
            m = evolve(before.match, chosen=tuple(sorted(self._stacks.items())))
            b = before
            before = State(b.game, b.phase, b.to_move, b.hands, b.trick, b.leader, b.deal, b.tally, m, b.history)
        if self.entries[act].actor != before.chooser:
            return None
        wanted = action_of(self.game, self.entries[act].event)
        filled = action_of(self.game, self._event(act))
        tries: list[Action | None] = [filled]
        if any_hidden and wanted is not None and wanted.arg == HIDDEN:
            tries += [a for a in before.legal_actions() if a.verb == wanted.verb and a != filled]
        for action in tries:
            if action is None:
                continue
            try:
                after = before.apply(action)
            except TrickrulesError:
                continue
            events = [e for _, e in after.last]
            if redact(events[0], self.seat) != self.entries[act].event:
                continue
            found = self._fits(after, k, events[1:])
            if found is not None:
                return found
        return None

    def _fits(self, after: State, k: int, events: list[Event]) -> State | None:
        """``after`` where the events of step ``k`` are, as the seat sees them, the log's; else ``None``."""
        derived = self._steps[k][1]
        if len(events) != len(derived):
            return None
        for ev, i in zip(events, derived, strict=True):
            if redact(ev, self.seat) != self.entries[i].event:
                return None
        # After the last step, what the seat's view says and the log does not yet (whose turn, which phase).
        if k + 1 == len(self._steps) and self.view is not None:
            v = self.view
            if (str(after.phase), after.to_move, after.chooser) != (v.phase, v.to_move, v.chooser):
                return None
        return after

    def _expects(self, state: State, i: int) -> bool:
        """Whether ``state`` asks for the action of entry ``i``: its actor, and an action of its kind."""
        if state.chooser != self.entries[i].actor:
            return False
        wanted = action_of(self.game, self.entries[i].event)
        if wanted is None:
            return False
        # Of that kind only, and for some hand: which cards the hand must hold is the next step's to learn.
        if any(a.verb == wanted.verb for a in state.legal_actions()):
            return True
        seat = state.to_move
        if seat is None:
            return False
        rich = _with_hand(state, seat, (1 << len(self.codes)) - 1, dealt=True)
        return any(a.verb == wanted.verb for a in rich.legal_actions())

    def _try(self, before: State | None, k: int) -> State | None:
        if k == 0:
            return self._apply(None, 0, seed=1)
        return self._apply(before, k)

    def _rebuild(
        self, anchors: list[tuple[State | None, int]], deal: int, k: int
    ) -> tuple[list[tuple[State | None, int]], State | None, int]:
        """The world again from the step that dealt ``deal`` through step ``k``; later deals' anchors move with it.

        Returns the last few steps tried (the state before each, and the step), the state after step ``k``
        (``None`` where a step does not replay) and the step that did not.
        """
        state, first = anchors[deal]
        trail: list[tuple[State | None, int]] = []
        for j in range(first, k + 1):
            for n in range(deal + 1, len(anchors)):
                if anchors[n][1] == j:
                    anchors[n] = (state, j)
            trail = [*trail[-(_BACK - 1) :], (state, j)]
            after = self._apply(state, j, seed=1) if j else self._apply(None, 0, seed=1)
            if after is None:
                return trail, None, j
            state = after
        return trail, state, k

    def _learn_at(self, trail: list[tuple[State | None, int]], failed: int, tries: int) -> None:
        """A world sampled from the facts read does not replay step ``failed``: read the fact it missed."""
        act = self._steps[failed][0]
        if tries <= _SEARCHES and act is not None and trail and trail[-1][0] is not None:
            before = trail[-1][0]
            d = self.deals[self.deal_of[act]]
            known = _facts(d)
            if self._expects(before, act):
                self._probe(before, act)  # the rules asked again in this world may say more (all the kings held)
            if _facts(d) != known:
                return
        if tries <= _SEARCHES and act is not None:
            for back in range(len(trail) - 1, -1, -1):  # the step itself first, then the ones before it
                state, first = trail[back]
                at = self._steps[first][0]
                if state is None or at is None or self.deal_of.get(at) != self.deal_of.get(act):
                    break
                if self._search(state, first, failed, self.deals[self.deal_of[at]], at):
                    return
        raise SamplerError(
            f"seat {self.seat}'s log, event {act}: no world consistent with the facts read so far replays it "
            "(a rule the sampler does not read)"
        )

    def _replays(self, state: State | None, first: int, last: int) -> bool:
        for k in range(first, last + 1):
            state = self._apply(state, k, any_hidden=True)
            if state is None:
                return False
        return True

    def _search(self, before: State, first: int, last: int, d: _Deal, at: int) -> bool:
        """Steps ``first`` to ``last`` replay in no world sampled so far: find the one card whose place decides it.

        Each card of another seat is put in each other seat's hand in turn (swapped with each card of that
        hand) in the state before step ``first``; where the steps then replay for some places of one card
        (whatever card it changes places with) and not for others, and for no other card, that card was in
        one of those places then (a fact, added to ``d``; returns whether one was found). The caller of a card
        who holds it himself is asked for no exchange, say.
        """
        found: list[tuple[int, frozenset[int]]] = []
        holder = {c: s for s in range(self.players) if s != self.seat for c in _bits(before.hands[s])}
        # The cards the world moves face down in these steps stay put: changing their places changes the moves.
        moved = {
            self.index[code]
            for k in range(first, last + 1)
            for i in (self._steps[k][0], *self._steps[k][1])
            if i is not None and i in self._fills
            for code in self._fills[i].split()
        }
        seats = [s for s in range(self.players) if s != self.seat]
        for x, now in holder.items():
            fits = set()
            for p in seats:
                if p == now:
                    if self._replays(before, first, last):
                        fits.add(p)
                    continue
                # x alone decides where every card of p's hand it may change places with gives the same answer
                partners = [y for y in _bits(before.hands[p]) if y not in moved]
                if partners and all(self._replays(_swapped(before, x, now, y, p), first, last) for y in partners):
                    fits.add(p)
            if fits and len(fits) < len(seats):
                found.append((x, frozenset(fits)))
        if len(found) != 1:
            return False
        x, places = found[0]
        for p in seats:
            if p not in places:
                d.not_at.append((x, p, at))
        return True

    def sample(self, n: int, rng: random.Random) -> tuple[State, ...]:
        """``n`` worlds drawn uniformly and independently.

        Where a world drawn does not replay the log (a fact no rule read gave: the facts are read as the
        log is, and one a lucky world met may be missed), the fact is read there and the whole draw starts
        again, so every world returned comes from the same, refined, facts.
        """
        for attempt in range(_SEARCHES + 1):
            out = []
            for _ in range(n):
                world, trail, failed = self._world(rng)
                if world is None:
                    self._learn_at(trail, failed, attempt + 1)
                    break
                out.append(world)
            else:
                return tuple(out)
        raise SamplerError(f"seat {self.seat}'s log: the worlds drawn kept failing to replay it")

    def _world(self, rng: random.Random) -> tuple[State | None, list[tuple[State | None, int]], int]:
        """One world drawn and replayed; where a step does not replay, the last steps tried and that step."""
        self._fills = {}
        self._stacks = {}
        for d in self.deals:
            self._stacks[d.shuffle] = self._stack(d, self._sample_deal(d, rng, fills=True), rng)
        state: State | None = self._apply(None, 0, seed=rng.getrandbits(128))
        if state is None:
            return None, [], 0
        trail: list[tuple[State | None, int]] = []
        for k in range(1, len(self._steps)):
            trail = [*trail[-(_BACK - 1) :], (state, k)]
            after = self._apply(state, k)
            if after is None:
                return None, trail, k
            state = after
        return state, [], -1


def _facts(d: _Deal) -> tuple[frozenset[object], ...]:
    """What is known of a deal's cards, to tell whether something new was learned."""
    return (frozenset(d.at), frozenset(d.not_at), frozenset(d.not_all), frozenset(d.not_via))


def _with_hand(state: State, seat: int, hand: int, dealt: bool = False) -> State:
    """``state`` with ``seat`` holding ``hand`` (and, with ``dealt``, having been dealt it: a bid may ask that)."""
    hands = list(state.hands)
    hands[seat] = hand
    s = state
    d = s.deal
    if dealt:
        d = evolve(d, dealt=tuple(hand if k == seat else x for k, x in enumerate(d.dealt)))
    return State(s.game, s.phase, s.to_move, tuple(hands), s.trick, s.leader, d, s.tally, s.match, s.history)


def _swapped(state: State, x: int, xs: int, y: int, ys: int) -> State:
    """``state`` with card ``x`` (held by ``xs``) and card ``y`` (held by ``ys``) changing hands, as dealt too."""
    hands = list(state.hands)
    dealt = list(state.deal.dealt)
    bx, by = 1 << x, 1 << y
    hands[xs] = hands[xs] & ~bx | by
    hands[ys] = hands[ys] & ~by | bx
    if dealt[xs] & bx and dealt[ys] & by:
        dealt[xs] = dealt[xs] & ~bx | by
        dealt[ys] = dealt[ys] & ~by | bx
    s = state
    d = evolve(s.deal, dealt=tuple(dealt))
    return State(s.game, s.phase, s.to_move, tuple(hands), s.trick, s.leader, d, s.tally, s.match, s.history)


def _legal(state: State, seat: int, hand: int, action: Action) -> bool:
    return action in _with_hand(state, seat, hand, dealt=True).legal_actions()


def sample_worlds(
    known: EventLog, n: int, *, view: View | None = None, seed: int | None = None, game: GameLike | None = None
) -> tuple[State, ...]:
    """``n`` full states of the match, each a world consistent with what one seat knows, drawn uniformly.

    ``known`` is that seat's log, ``EventLog.for_seat(seat)`` (for a state:
    ``EventLog.from_state(state).for_seat(seat)``): the sampler reads
    nothing else, so no world depends on a card the seat could not know.
    Each world replays the log with the hidden cards filled in, so
    ``View.from_state(world, seat)`` is the seat's view and the world's log
    seen by the seat is ``known`` again. ``view``, the seat's
    :class:`View` of the state the log ends at, adds what the log does not
    say yet: whose turn it is now and in which phase (where a hidden card
    decides it: the caller of his own card is asked for no exchange). Give
    it where you have it; without it the worlds agree with the log alone.
    ``seed`` makes the draw repeatable.
    """
    if type(n) is not int or n < 0:
        raise ArgumentError(f"n must be a whole number of worlds (0 or more), found {n!r}.")
    return WorldSampler(known, game, view).sample(n, random.Random(seed))


def weighted_worlds(
    known: EventLog,
    n: int,
    weight: Callable[[State], float],
    *,
    view: View | None = None,
    seed: int | None = None,
    game: GameLike | None = None,
) -> tuple[tuple[State, float], ...]:
    """:func:`sample_worlds` with each world's importance weight: ``weight(world)``, normalized to sum to 1.

    The worlds are drawn uniformly; the weights turn an average over them
    into an average under the distribution proportional to ``weight``
    (self-normalized importance sampling). :class:`ArgumentError` if the
    weights are negative or all zero.
    """
    worlds = sample_worlds(known, n, view=view, seed=seed, game=game)
    raw = [float(weight(w)) for w in worlds]
    if any(not x >= 0 for x in raw) or (worlds and sum(raw) == 0):
        raise ArgumentError(f"weight must give numbers of 0 or more, not all 0; it gave {raw[:5]!r}.")
    total = sum(raw)
    return tuple((w, x / total) for w, x in zip(worlds, raw, strict=True))
