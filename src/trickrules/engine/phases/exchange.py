"""An exchange: the declarer hands cards face down to the partner, who hands back as many.

What each seat sees: a :class:`~trickrules.engine.events.CardGiven` card only
if it gave or received it; others see ``"?"``.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from attrs import frozen

from trickrules.compile.modes import ExchangeReturns
from trickrules.engine.actions import Action
from trickrules.engine.events import HIDDEN, CardGiven, Event, ExchangeDone
from trickrules.engine.loop import advance
from trickrules.engine.mechanism import Mechanism, listed
from trickrules.engine.phases.call import call
from trickrules.engine.state import State
from trickrules.engine.values import DEALER, Actor, DealInfo, MatchInfo, Phase, evolve, with_part

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "Exchange", "ExchangeView", "exchange"]

#: This mechanism's phase, bound once (an enum member's lookup costs more than the dict lookup it keys).
_PHASE: str = Phase.EXCHANGE


@frozen(weakref_slot=False)
class Exchange:
    """The exchange's record of a deal: the cards the declarer gave, and those the partner returned."""

    given: tuple[int, ...] = ()
    returned: tuple[int, ...] = ()


@frozen(weakref_slot=False)
class ExchangeView:
    """What a seat sees of the exchange: the cards it handed over, and once it is done those it received."""

    given: tuple[str, ...]
    received: tuple[str, ...]


_NONE = Exchange()


def exchange(game: GameLike, d: DealInfo) -> Exchange:
    """The exchange record of deal ``d``."""
    record: Exchange = d.parts[game.slot[_PHASE]]
    return record


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> Exchange:
    return _NONE


def _due(state: State, d: DealInfo) -> int | None:
    if d.contract is None:
        return None
    count = state.game.rules.contracts[d.contract].exchange
    record = exchange(state.game, d)
    if not count or d.partner is None or d.partner == d.declarer or len(record.returned) >= count:
        return None
    return d.declarer if len(record.given) < count else d.partner


def _view(state: State, seat: int) -> ExchangeView:
    d = state.deal
    record = exchange(state.game, d)
    codes = state.game.cards.codes
    complete = bool(record.returned) and len(record.returned) == len(record.given)
    if seat == d.declarer and d.partner != seat:
        given = tuple(codes[c] for c in record.given)
        return ExchangeView(given, tuple(codes[c] for c in record.returned) if complete else ())
    if seat == d.partner and record.given:
        given = tuple(codes[c] for c in record.returned)
        return ExchangeView(given, tuple(codes[c] for c in record.given) if complete else ())
    return ExchangeView((), ())


def _offered(state: State) -> list[Action]:
    d = state.deal
    seat = state.to_move
    assert seat is not None
    assert d.contract is not None
    hand = state.hands[seat]
    codes = state.game.cards.codes
    action = state.game.action
    returns = state.game.rules.contracts[d.contract].exchange_returns
    called = call(state.game, d).called
    if (
        returns is ExchangeReturns.CALLED_CARD
        and seat == d.partner != d.declarer
        and called is not None
        and (hand >> called) & 1
    ):
        return [action(f"give {codes[called]}")]
    if seat not in (d.declarer, d.partner):
        return []
    return [action(f"give {codes[c]}") for c in range(len(codes)) if (hand >> c) & 1]


def _step(state: State, action: Action) -> State:
    game = state.game
    d = state.deal
    seat = state.to_move
    assert seat is not None
    assert d.contract is not None
    assert d.declarer is not None
    assert d.partner is not None
    card = game.cards.codes.index(action.arg)
    c = game.rules.contracts[d.contract]
    hands = list(state.hands)
    hands[seat] &= ~(1 << card)
    other = d.partner if seat == d.declarer else d.declarer
    events: list[tuple[Actor, Event]] = [(seat, CardGiven(seat, other, action.arg))]
    declarer, partner = d.declarer, d.partner
    record = exchange(game, d)
    if seat == declarer:
        record = evolve(record, given=(*record.given, card))
    else:
        record = evolve(record, returned=(*record.returned, card))
    d = with_part(d, game.slot[_PHASE], record)
    if len(record.returned) == c.exchange:
        for given in record.given:
            hands[partner] |= 1 << given
        for returned in record.returned:
            hands[declarer] |= 1 << returned
        events.append((DEALER, ExchangeDone((declarer, partner), c.exchange)))
    s = state
    moved = State(s.game, s.phase, s.to_move, tuple(hands), s.trick, s.leader, d, s.tally, s.match, s.history)
    return advance(moved, d, events)


def _given_for(event: CardGiven, seat: int) -> CardGiven:
    return event if seat in (event.seat, event.to) else evolve(event, card=HIDDEN)


def _given(event: CardGiven, game: GameLike) -> Action:
    return game.action(f"give {event.card}")


MECHANISM: Mechanism = listed(
    Phase.EXCHANGE,
    _offered,
    _step,
    reveals=MappingProxyType({CardGiven: _given_for}),
    replays=MappingProxyType({CardGiven: _given}),
    start=_start,
    due=_due,
    view=_view,
    view_type=ExchangeView,
)
