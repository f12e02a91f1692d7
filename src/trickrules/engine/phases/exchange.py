"""An exchange: the declarer hands cards face down to the partner, who hands back as many.

What each seat sees: a :class:`~trickrules.engine.events.CardGiven` card only
if it gave or received it; others see ``"?"``.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from trickrules.compile.modes import ExchangeReturns
from trickrules.engine.actions import Action
from trickrules.engine.events import HIDDEN, CardGiven, Event, ExchangeDone
from trickrules.engine.mechanism import Mechanism, listed
from trickrules.engine.phases import setup
from trickrules.engine.records import DEALER, Actor, Phase, evolve
from trickrules.engine.state import State

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM"]


def _offered(state: State) -> list[Action]:
    d = state.deal
    seat = state.to_move
    assert seat is not None
    assert d.contract is not None
    hand = state.hands[seat]
    codes = state.game.cards.codes
    action = state.game.action
    returns = state.game.rules.contracts[d.contract].exchange_returns
    called = d.called
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
    if seat == declarer:
        d = evolve(d, given=(*d.given, card))
    else:
        d = evolve(d, returned=(*d.returned, card))
    if len(d.returned) == c.exchange:
        for given in d.given:
            hands[partner] |= 1 << given
        for returned in d.returned:
            hands[declarer] |= 1 << returned
        events.append((DEALER, ExchangeDone((declarer, partner), c.exchange)))
    s = state
    moved = State(s.game, s.phase, s.to_move, tuple(hands), s.trick, s.leader, d, s.tally, s.match, s.history)
    return setup.next_setup(moved, d, events)


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
)
