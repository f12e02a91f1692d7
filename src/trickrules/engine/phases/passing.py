"""Passing cards: after the deal, every player passes some cards face down to another seat.

The spec's ``[passing]`` section says how many cards and where they go in
each deal (compiled into :class:`~trickrules.compile.passing.PassingRules`):
a cycle of seat offsets taken in turn, or one drawn at random per deal from
the match's seed. The eldest hand passes first, one card per action
(``give CODE``), then the next seat, and so on; the cards reach their
receivers only when everyone has passed, so nobody chooses knowing what
comes in. Then the deal goes on as it would have without passing: to the
auction, to the dealer's choice of trumps, or to the first lead.

What each seat sees: the card of a :class:`~trickrules.engine.events.CardPassed`
only if it passed it; of the :class:`~trickrules.engine.events.PassingDone`
that delivers them, only the cards it received.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from attrs import frozen

from trickrules.engine.actions import Action
from trickrules.engine.events import HIDDEN, CardPassed, Event, PassingDone
from trickrules.engine.loop import advance
from trickrules.engine.mechanism import Draw, Mechanism, listed
from trickrules.engine.phases.deal import dealing
from trickrules.engine.rng import chosen
from trickrules.engine.state import State
from trickrules.engine.values import DEALER, Actor, DealInfo, MatchInfo, Phase, Step, evolve, with_part

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["DRAW", "MECHANISM", "Passing", "PassingView", "offset", "passing"]

#: This mechanism's phase, bound once (an enum member's lookup costs more than the dict lookup it keys).
_PHASE: str = Phase.PASSING


@frozen(weakref_slot=False)
class Passing:
    """The passing mechanism's record of a deal."""

    #: How many seats on the passed cards go in this deal (0: no passing in this deal).
    offset: int
    #: The cards each seat has passed, as masks (empty until someone passes; kept once delivered).
    passed: tuple[int, ...] = ()
    #: Whether the cards have been delivered.
    done: bool = False


@frozen(weakref_slot=False)
class PassingView:
    """What a seat sees of the passing: where its cards go, the cards it passed, and (once delivered) received."""

    #: The seat this seat passes cards to in this deal (``None``: no passing in this deal).
    pass_to: int | None
    given: tuple[str, ...]
    received: tuple[str, ...]


def passing(state: State) -> Passing:
    """The passing record of the state's deal."""
    record: Passing = state.deal.parts[state.game.slot[_PHASE]]
    return record


def offset(game: GameLike, number: int, seed: int, shuffle_no: int) -> int:
    """How many seats on the passed cards of deal ``number`` go (0: no passing in that deal).

    In turn, deal after deal; or, with ``passing.order = "chance"``, drawn
    from the seed for the deal's shuffle (see :mod:`trickrules.engine.rng`).
    """
    p = game.tables.passing
    if not p.used:
        return 0
    k = chosen(seed, shuffle_no, len(p.offsets)) if p.by_chance else number % len(p.offsets)
    return p.offsets[k]


def _directions(game: GameLike, number: int) -> tuple[int, ...]:
    p = game.tables.passing
    return p.offsets if p.used and p.by_chance else ()


#: Where ``passing.order = "chance"``, the deal's pass direction is a chance outcome before its cards,
#: ``direction N`` (the cards go ``N`` seats on; 0: no passing), the seed's pick being :func:`offset`'s.
DRAW = Draw("direction", _directions, chosen)


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> Passing:
    for verb, value in dealing(d).drawn:  # drawn at a chance step of the deal (the seed's pick, or the caller's)
        if verb == DRAW.verb:
            return Passing(value)
    return Passing(offset(game, d.number, match.seed, dealing(d).shuffle))


def _due(state: State, d: DealInfo) -> int | None:
    record: Passing = d.parts[state.game.slot[_PHASE]]
    return (d.dealer + 1) % state.game.players if record.offset and not record.done else None


def _view(state: State, seat: int) -> PassingView:
    record = passing(state)
    game = state.game
    n = game.players
    given: tuple[str, ...] = ()
    received: tuple[str, ...] = ()
    if record.passed:  # the cards this seat passed, and once everyone has passed, those it received
        given = game.codes_of(record.passed[seat])
        source = (seat - record.offset) % n
        received = game.codes_of(record.passed[source]) if record.done else ()
    return PassingView((seat + record.offset) % n if record.offset else None, given, received)


def _offered(state: State) -> list[Action]:
    seat = state.to_move
    assert seat is not None
    action = state.game.action
    return [action(f"give {code}") for code in state.game.tables.codes_of(state.hands[seat])]


def _step(state: State, action: Action) -> State:
    game = state.game
    t = game.tables
    d = state.deal
    n = game.players
    seat = state.to_move
    assert seat is not None
    bit = t.bit[t.card_of[action.arg]]
    hands = list(state.hands)
    hands[seat] &= ~bit
    slot = game.slot[_PHASE]
    record: Passing = d.parts[slot]
    passed = list(record.passed or (0,) * n)
    passed[seat] |= bit
    record = evolve(record, passed=tuple(passed))
    events: list[tuple[Actor, Event]] = [(seat, CardPassed(seat, (seat + record.offset) % n, action.arg))]
    eldest = (d.dealer + 1) % n
    for k in range(n):
        waiting = (eldest + k) % n
        if passed[waiting].bit_count() < t.passing.cards:
            d = with_part(d, slot, record)
            history = Step(state.history, tuple(events))
            return State(
                game, Phase.PASSING, waiting, tuple(hands), (), state.leader, d, state.tally, state.match, history
            )
    received = [0] * n
    for s in range(n):
        received[(s + record.offset) % n] |= passed[s]
    for s in range(n):
        hands[s] |= received[s]
    events.append((DEALER, PassingDone(record.offset, t.hands_of(tuple(received)))))
    d = with_part(d, slot, evolve(record, done=True))
    after = State(game, Phase.PASSING, seat, tuple(hands), (), state.leader, d, state.tally, state.match, state.history)
    return advance(after, d, events)


def _passed_for(event: CardPassed, seat: int) -> CardPassed:
    return event if seat == event.seat else evolve(event, card=HIDDEN)


def _done_for(event: PassingDone, seat: int) -> PassingDone:
    received = tuple(cards if s == seat else (HIDDEN,) * len(cards) for s, cards in enumerate(event.received))
    return evolve(event, received=received)


def _passed(event: CardPassed, game: GameLike) -> Action:
    return game.action(f"give {event.card}")


MECHANISM: Mechanism = listed(
    Phase.PASSING,
    _offered,
    _step,
    reveals=MappingProxyType({CardPassed: _passed_for, PassingDone: _done_for}),
    replays=MappingProxyType({CardPassed: _passed}),
    start=_start,
    due=_due,
    view=_view,
    view_type=PassingView,
    draw=DRAW,
)
