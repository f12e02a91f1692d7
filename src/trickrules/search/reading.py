"""What a seat's log says of the hidden cards of each deal, read event by event.

:class:`SeatLog` reads one seat's log (``EventLog.for_seat(seat)``) into
the facts of each deal (:class:`~trickrules.search.knowledge.DealFacts`):
the seat's own hand, the turned card, each card played and where it was,
the moves of cards (passes, gifts, discards, a widow or a talon taken up,
each a group of moves; the cards the seat saw take them), cards received,
an exposed hand, the talon's cards and order, a called card's holder. What
the rules say of another seat's decisions (the play's forbidden sets, the
cards a bid or a meld needs, the card a hidden move may not be) is asked of
the engine in a world's state just before the decision
(:meth:`SeatLog._probe`, :mod:`trickrules.search.probes`); the sampler
(:mod:`trickrules.search.worlds`) keeps that world.
"""

from __future__ import annotations

from collections.abc import Sequence

from trickrules.compile.modes import FirstLead
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
from trickrules.engine.game import load
from trickrules.engine.phases import action_of
from trickrules.engine.phases.dummy import HandExposed
from trickrules.engine.phases.open_hand import HandOpened
from trickrules.engine.phases.talon_gifts import TalonCardWon
from trickrules.engine.phases.talon_sets import DRAW as TALON_ORDER
from trickrules.engine.phases.talon_sets import SetTaken, TalonDiscarded, TalonSetsView, arrangement_index
from trickrules.engine.phases.widow import WidowDiscarded, WidowTaken, WidowView
from trickrules.engine.state import GameLike, State
from trickrules.engine.values import evolve
from trickrules.errors import ArgumentError
from trickrules.records.eventlog import EventLog
from trickrules.records.logcodec import LogEntry
from trickrules.records.view import View
from trickrules.search.knowledge import JUST, PENDING, DealFacts, MoveGroup
from trickrules.search.probes import forbidden, legal, needs

__all__ = ["ARRANGE", "SeatLog"]

#: The verb of the talon's order (a chance draw of its own).
ARRANGE = TALON_ORDER.verb
#: The events that move cards from one place to another (a pass, a gift, a discard, a widow or talon taken).
_MOVES = (CardPassed, CardGiven, Discarded, WidowDiscarded, TalonDiscarded, TurnedTaken, WidowTaken, SetTaken)


class SeatLog:
    """One seat's log, read into the facts of each deal.

    ``known`` is the seat's log (:meth:`EventLog.for_seat`); ``game`` is the
    game it is of (by default the bundled game its header names); ``view``,
    the seat's view of the state the log ends at, where the caller has it.
    :class:`~trickrules.errors.ArgumentError` if ``known`` is not a seat's
    log, or ``view`` not that seat's view.
    """

    def __init__(self, known: EventLog, game: GameLike | None = None, view: View | None = None) -> None:
        if not isinstance(known, EventLog):
            raise ArgumentError(f"known must be a seat's EventLog (log.for_seat(seat)), found {type(known).__name__}.")
        header = known.header
        if header.seat is None:
            raise ArgumentError(
                "known must be one seat's view of a log (log.for_seat(seat)): a full log holds every hand."
            )
        if header.seed is not None or known.for_seat(header.seat).entries != known.entries:
            raise ArgumentError(
                f"known claims to be seat {header.seat}'s log but shows what that seat cannot see "
                "(the seed, or another seat's hidden cards); pass log.for_seat(seat)."
            )
        if game is None:
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
        self.deals: list[DealFacts] = []
        self.deal_of: dict[int, int] = {}  # entry -> deal (its position in self.deals)
        self._steps = self._split()
        #: A derived entry's step's action entry.
        self._act_of = {i: act for act, derived in self._steps if act is not None for i in derived}
        self._deals = [any(isinstance(self.entries[i].event, Dealt) for i in derived) for _, derived in self._steps]

    def _split(self) -> list[tuple[int | None, list[int]]]:
        """The log as steps: (the action's entry, or None for the start; the entries the step derived)."""
        steps: list[tuple[int | None, list[int]]] = [(None, [])]
        for i, e in enumerate(self.entries):
            if records_action(e.event.TAG) and isinstance(e.actor, int):
                steps.append((i, []))
            else:
                steps[-1][1].append(i)
        return steps

    def _open(self, i: int, ev: Dealt, shuffle: int) -> None:
        own = ev.hands[self.seat] if ev.hands else ()
        sizes = [len(h) for h in ev.hands]
        d = DealFacts(shuffle, ev.deal, ev.dealer, i, sizes, tuple(own), ev.turned, self.players, len(self.codes))
        for code in own:
            d.at.append((self.index[code], self.seat, i + JUST))
        if ev.turned:
            place = ev.dealer if self.game.rules.turn_last_card else self.rest
            d.at.append((self.index[ev.turned], place, i + JUST))
        last = max(k for k, e in enumerate(self.entries) if isinstance(e.event, Dealt))
        talon = self.view.part(TalonSetsView) if self.view is not None and i == last else None
        if talon is not None and talon.sets:  # the talon laid out face up, before the log says so
            order = tuple(self.index[code] for group in talon.sets for code in group)
            for c in order:
                d.at.append((c, self.rest, i + JUST))
            d.draws[ARRANGE] = arrangement_index(tuple(sorted(order)), order)
        widow = self.view.part(WidowView) if self.view is not None and i == last else None
        if widow is not None and not widow.taken:  # shown to the declarer before the log says he took it
            for code in widow.cards:
                if code != HIDDEN:
                    d.at.append((self.index[code], self.rest, i + JUST))
        self.deals.append(d)
        if self.view is not None and i == last:
            self._first_lead(d)

    def _first_lead(self, d: DealFacts) -> None:
        """The view says who leads a deal's first trick, where the holder of a card the rules name leads it."""
        v, game = self.view, self.game
        card = game.tables.leads.first_card
        if v is None or card is None or v.phase != "play" or v.trick or v.played or v.to_move is None:
            return
        if game.lead_hooks or any(c.first_lead is FirstLead.DECLARER_ALWAYS for c in game.rules.contracts):
            return  # someone else may lead: nothing follows
        for p in range(self.players):
            if p != v.to_move:  # that card is the leader's, or no hand's (then eldest hand leads)
                d.not_at.append((card, p, len(self.entries) + JUST))

    def _deal(self, i: int) -> DealFacts:
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
            group = MoveGroup(src, dst, when, arrives=PENDING if pending else when)
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
            if d.last_play < 0:
                self._plays_ahead(i, d)
            c = self.index[ev.card]
            d.at.append((c, ev.seat, i))
            d.stays[c] = i
            d.last_play = i
        else:
            self._moves(i, ev, d)

    def _plays_ahead(self, i: int, d: DealFacts) -> None:
        """The plays the log shows after the deal's first, at entry ``i``, up to the next move of cards or deal.

        Facts the worlds drawn while the log is read keep (``DealFacts.ahead``), before they are read.
        """
        for k in range(i + 1, len(self.entries)):
            ev = self.entries[k].event
            if isinstance(ev, Dealt | Misdealt) or self._moves_cards(ev):
                return
            if isinstance(ev, CardPlayed):
                d.ahead.append((self.index[ev.card], ev.seat, k))

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
                for x in forbidden(before, ev.seat, self.index[ev.card]):
                    d.not_at.append((x, ev.seat, i))
        elif isinstance(ev, CardPassed | CardGiven | Discarded | WidowDiscarded | TalonDiscarded):
            self._may_move(before, i, ev, d)
        elif not self._moves_cards(ev):
            self._needs(before, i, actor, d)

    @staticmethod
    def _moves_cards(ev: Event) -> bool:
        return isinstance(ev, _MOVES)

    def _moves(self, i: int, ev: Event, d: DealFacts) -> bool:
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
            d.draws[ARRANGE] = arrangement_index(stock, tuple(self.index[code] for code in ev.talon))
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
                if g.arrives == PENDING:
                    g.arrives = i
            for code in ev.received[self.seat] if ev.received else ():
                c = self.index[code]
                for gid, g in enumerate(d.groups):
                    if g.dst == self.seat and g.src != self.seat and g.time > d.start:
                        d.via.append((c, gid))
                        break
        elif isinstance(ev, HandExposed | HandOpened):  # a hand laid face up: the dummy's, an open game's
            for code in ev.cards:
                d.at.append((self.index[code], ev.seat, i))
        elif isinstance(ev, PartnerRevealed):
            # The partner held the called card when it was called; a declarer named his own partner may
            # also have called a card that lay in the talon.
            c = self.index[ev.card]
            when = d.called.get(c, d.start + JUST)
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
            d.at.append((c, self.rest, d.start + JUST))
            if ev.trick - 1 not in d.talon_at and c not in d.talon_at.values():
                d.talon_at[ev.trick - 1] = c

    # -- the rules probed --------------------------------------------------------------------

    def _may_move(self, before: State, i: int, ev: Event, d: DealFacts) -> None:
        """A hidden card moved by a decision: the cards the rules would not let it be (the card just taken up)."""
        if getattr(ev, "card", None) != HIDDEN or before.to_move is None:
            return
        seat = before.to_move
        gid = next(g for g, group in enumerate(d.groups) if i in group.hidden)
        for x in range(len(self.codes)):
            action = action_of(self.game, evolve(ev, card=self.codes[x]))
            if action is not None and not legal(before, seat, before.hands[seat] | (1 << x), action):
                d.not_via.append((x, gid))

    def _needs(self, before: State, i: int, seat: int, d: DealFacts) -> None:
        """A decision other than a card: what it says of the hand then (:func:`~trickrules.search.probes.needs`).

        The facts are kept only where they hold of the world's hand when the
        decision is legal with it, and leave some world: a rule that is not
        of the form they assume (each card needed, or barred, or a few not
        all held) gives none, rather than wrong ones.
        """
        action = action_of(self.game, self.entries[i].event)
        if action is None or before.to_move != seat:
            return
        marks = (len(d.at), len(d.not_at), len(d.not_all))
        needs(before, seat, action, d, i)
        hand = before.hands[seat]
        wrong = legal(before, seat, hand, action) and (
            any(not hand >> x & 1 for x, _, _ in d.at[marks[0] :])
            or any(hand >> x & 1 for x, _, _ in d.not_at[marks[1] :])
            or any(all(hand >> x & 1 for x in cards) for cards, _, _ in d.not_all[marks[2] :])
        )
        if wrong or (marks != (len(d.at), len(d.not_at), len(d.not_all)) and d.count() == 0):
            del d.at[marks[0] :], d.not_at[marks[1] :], d.not_all[marks[2] :]
