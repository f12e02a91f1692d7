"""Worlds consistent with what one seat knows: the hidden cards filled in, drawn exactly uniformly.

:func:`sample_worlds` reads a seat's log (``EventLog.for_seat(seat)``; for
a state, ``EventLog.from_state(state).for_seat(seat)``), and optionally the
seat's view, and returns full states of the match, one per world: the deals
as the world has them and every action of the log replayed, so that each
world, seen from the seat, is the seat's own log again. The sampler reads
nothing else, so no world depends on a card the seat could not know.

:class:`WorldSampler` reads the log step by step
(:class:`~trickrules.search.reading.SeatLog` gathers each deal's facts),
keeping one world consistent with what it has read so far: in that world's
state just before another seat's decision it asks the engine what the
decision says of the seat's hand (:mod:`trickrules.search.probes`), and where
no world drawn from the facts replays a step it searches for the card whose
place decides it. The worlds are then counted and drawn by card classes
(:mod:`trickrules.search.knowledge`, :mod:`trickrules.search.routes`), each
equally likely (``WS1`` in ``docs/decisions.md``). ``docs/search.md`` lists
what is read and its limits.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from trickrules.compile.cards import bits
from trickrules.engine.actions import Action
from trickrules.engine.events import (
    HIDDEN,
    Dealt,
    Event,
    Misdealt,
)
from trickrules.engine.phases import action_of, redact
from trickrules.engine.phases.deal import deal_draws
from trickrules.engine.phases.starting import new_match
from trickrules.engine.phases.talon_sets import arrangement_index
from trickrules.engine.phases.widow import WidowTaken
from trickrules.engine.state import GameLike, State
from trickrules.engine.values import Stacked, evolve
from trickrules.errors import ArgumentError, TrickrulesError
from trickrules.records.eventlog import EventLog
from trickrules.records.view import View
from trickrules.search.knowledge import JUST, DealFacts, Route
from trickrules.search.probes import swapped, swapped_dealt, with_hand
from trickrules.search.reading import ARRANGE, SeatLog

__all__ = ["SamplerError", "WorldSampler", "sample_worlds", "weighted_worlds"]


class SamplerError(TrickrulesError, RuntimeError):
    """No world is consistent with a seat's log, or the log holds something the sampler cannot read."""


#: How many facts the sampler may read by search (:meth:`WorldSampler._search`) before it gives up on a step.
_SEARCHES = 12
#: How many worlds a search for a called card's holder draws for each seat it may have been with.
_PARTNER_TRIES = 4
#: How many steps back a search for a missed fact looks (the step that did not replay, and those before it).
_BACK = 16


class WorldSampler(SeatLog):
    """The worlds consistent with one seat's log: built once, then sampled as often as wanted.

    ``known`` is the seat's log (:meth:`EventLog.for_seat`); ``game`` is the
    game it is of (by default the bundled game its header names); ``view``
    the seat's view of the state the log ends at, where the caller has it.
    :class:`~trickrules.errors.ArgumentError` if ``known`` is not a seat's
    log; :class:`SamplerError` if no world is consistent with it.
    """

    def __init__(self, known: EventLog, game: GameLike | None = None, view: View | None = None) -> None:
        super().__init__(known, game, view)
        self._learn()

    def _learn(self) -> None:
        """Read the log step by step, keeping a world that replays it so far to ask the rules in.

        The worlds drawn while reading already hold the cards each seat plays later in the deal
        (``DealFacts.ahead``), so few are drawn again when a seat plays a card.
        """
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
        for d in self.deals:
            d.ahead.clear()  # every play is a fact read now

    def count(self, deal: int = -1) -> int:
        """The number of worlds of one deal (by default the last) consistent with the log."""
        return self.deals[deal].count()

    def _sample_deal(self, d: DealFacts, rng: random.Random, fills: bool = False) -> dict[int, Route]:
        try:
            chosen = self._draw(d, rng)
        except ValueError as exc:
            raise SamplerError(f"deal {d.number}: {exc} (seat {self.seat}'s log)") from None
        if fills:
            self._fill(d, chosen, rng)
        return chosen

    @staticmethod
    def _draw(d: DealFacts, rng: random.Random) -> dict[int, Route]:
        """One world of deal ``d``; where no world holds its plays ahead too, one drawn without them."""
        try:
            return d.draw(rng)
        except ValueError:
            if not d.ahead:
                raise
        d.ahead.clear()  # a play ahead the facts read so far cannot place
        return d.draw(rng)

    def _fill(self, d: DealFacts, chosen: dict[int, Route], rng: random.Random) -> None:
        """The hidden cards of the deal's moves, as the world has them (in a random order within a group)."""
        for gid, g in enumerate(d.groups):
            cards = [c for c, r in sorted(chosen.items()) if gid in r.groups and c not in g.seen]
            rng.shuffle(cards)
            for i in dict.fromkeys(g.hidden):  # an entry may move several hidden cards (a widow taken up)
                k = g.hidden.count(i)
                self._fills[i] = " ".join(self.codes[c] for c in cards[:k])
                del cards[:k]

    def _stack(self, d: DealFacts, chosen: dict[int, Route], rng: random.Random) -> Stacked:
        """The deal as the world has it: the hands, the turned card, and the draws the seat saw."""
        hands: list[tuple[str, ...]] = []
        for s in range(self.players):
            if s == self.seat:
                hands.append(d.own)
            else:
                hands.append(tuple(self.codes[c] for c, r in sorted(chosen.items()) if r.start == s))
        drawn = {draw.verb for draw, _ in deal_draws(self.game, d.number)}
        given = dict(d.draws)
        if ARRANGE in drawn and ARRANGE not in given and d.talon_at:
            # Talon cards shown one by one (won with tricks): at their places, the others in any order.
            stock = sorted(c for c, r in chosen.items() if r.start == self.rest)
            others = [c for c in stock if c not in d.talon_at.values()]
            rng.shuffle(others)
            order = [d.talon_at[k] if k in d.talon_at else others.pop() for k in range(len(stock))]
            given[ARRANGE] = arrangement_index(tuple(stock), tuple(order))
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
        rich = with_hand(state, seat, (1 << len(self.codes)) - 1, dealt=True)
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
            known = d.snapshot()
            if self._expects(before, act):
                self._probe(before, act)  # the rules asked again in this world may say more (all the kings held)
            if d.snapshot() != known:
                return
        if tries <= _SEARCHES and act is not None:
            for back in range(len(trail) - 1, -1, -1):  # the step itself first, then the ones before it
                state, first = trail[back]
                at = self._steps[first][0]
                if state is None or at is None or self.deal_of.get(at) != self.deal_of.get(act):
                    break
                if self._search(state, first, failed, self.deals[self.deal_of[at]], at):
                    return
            latest, first = trail[-1] if trail else (None, failed)
            if latest is not None and self._search(latest, first, failed, self.deals[self.deal_of[act]], act, True):
                return
            if self._partner_search(self.deals[self.deal_of[act]], failed):
                return
        raise SamplerError(
            f"seat {self.seat}'s log, event {act}: no world consistent with the facts read so far replays it "
            "(a rule the sampler does not read)"
        )

    def _partner_search(self, d: DealFacts, failed: int) -> bool:
        """Where who holds a called card (the partner, fixed when it was called) decides step ``failed``.

        For each seat the called card may have been with when it was called,
        worlds with it there are drawn and replayed up to that step; the seats
        for which none of a few does were not the partner (a fact, added to
        ``d``). The alliance's tricks, say, open an announcement or not.
        """
        rng = random.Random(failed)
        for card, when in d.called.items():
            fits: list[int] = []
            seats = [p for p in range(self.players) if p != self.seat]
            for p in seats:
                d.at.append((card, p, when))
                if d.count() and any(self._replays_from_start(d, failed, rng) for _ in range(_PARTNER_TRIES)):
                    fits.append(p)
                d.at.pop()
            if fits and len(fits) < len(seats):
                d.not_at.extend((card, p, when) for p in seats if p not in fits)
                return True
        return False

    def _replays_from_start(self, d: DealFacts, last: int, rng: random.Random) -> bool:
        """Whether a world drawn anew for deal ``d`` (the others as they are) replays the log to step ``last``."""
        self._stacks[d.shuffle] = self._stack(d, self._sample_deal(d, rng, fills=True), rng)
        state = self._apply(None, 0, seed=1)
        for k in range(1, last + 1):
            if state is None:
                return False
            state = self._apply(state, k)
        return state is not None

    def _replays(self, state: State | None, first: int, last: int) -> bool:
        for k in range(first, last + 1):
            state = self._apply(state, k, any_hidden=True)
            if state is None:
                return False
        return True

    def _search(self, before: State, first: int, last: int, d: DealFacts, at: int, dealt: bool = False) -> bool:
        """Steps ``first`` to ``last`` replay in no world sampled so far: find the card whose place decides it.

        Each card of another seat is put in each other seat's hand in turn (swapped with each card of that
        hand) in the state before step ``first``; where the steps then replay for some places of one card
        (whatever card it changes places with) and not for others, and for no other card, that card was in
        one of those places then (a fact, added to ``d``; returns whether one was found). The caller of a card
        who holds it himself is asked for no exchange, say. Where several cards each fix it by leaving the
        same hand, they were not all in it (not all the top trumps a premium is paid for). With ``dealt``,
        the cards change places in the hands as dealt only (what the scoring reads of them), at the deal's
        start.
        """
        found: list[tuple[int, frozenset[int]]] = []
        hands = before.deal.dealt if dealt else before.hands
        holder = {c: s for s in range(self.players) if s != self.seat for c in bits(hands[s])}
        # The cards the world moves face down in these steps stay put: changing their places changes the moves.
        moved = {
            self.index[code]
            for k in range(first, last + 1)
            for i in (self._steps[k][0], *self._steps[k][1])
            if i is not None and i in self._fills
            for code in self._fills[i].split()
        }
        seats = [s for s in range(self.players) if s != self.seat]
        swap = swapped_dealt if dealt else swapped
        for x, now in holder.items():
            fits = set()
            for p in seats:
                if p == now:
                    if self._replays(before, first, last):
                        fits.add(p)
                    continue
                # x alone decides where every card of p's hand it may change places with gives the same answer
                partners = [y for y in bits(hands[p]) if y not in moved]
                if partners and all(self._replays(swap(before, x, now, y, p), first, last) for y in partners):
                    fits.add(p)
            if fits and len(fits) < len(seats):
                found.append((x, frozenset(fits)))
        when = d.start + JUST if dealt else at
        if len(found) == 1:
            x, places = found[0]
            for p in seats:
                if p not in places:
                    d.not_at.append((x, p, when))
            return True
        away = {frozenset(seats) - places for _, places in found}
        if len(found) > 1 and len(away) == 1 and len(next(iter(away))) == 1:
            (h,) = next(iter(away))
            d.not_all.append((tuple(x for x, _ in found), h, when))
            return True
        return False

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
