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

from trickrules.engine.actions import Action
from trickrules.engine.events import HIDDEN, CardPassed, Event, PassingDone
from trickrules.engine.mechanism import Mechanism, listed
from trickrules.engine.phases import setup
from trickrules.engine.records import DEALER, Actor, Phase, Step, evolve
from trickrules.engine.rng import chosen
from trickrules.engine.state import State

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "offset"]


def offset(game: GameLike, number: int, seed: int, shuffle_no: int) -> int:
    """How many seats on the passed cards of deal ``number`` go (0: no passing in that deal).

    In turn, deal after deal; or, with ``passing.order = "chance"``, drawn
    from the seed for the deal's shuffle (see :mod:`trickrules.engine.rng`).
    """
    p = game._tables.passing
    if not p.used:
        return 0
    k = chosen(seed, shuffle_no, len(p.offsets)) if p.by_chance else number % len(p.offsets)
    return p.offsets[k]


def _offered(state: State) -> list[Action]:
    seat = state.to_move
    assert seat is not None
    action = state.game.action
    return [action(f"give {code}") for code in state.game._tables.codes_of(state.hands[seat])]


def _step(state: State, action: Action) -> State:
    game = state.game
    t = game._tables
    d = state.deal
    n = game.players
    seat = state.to_move
    assert seat is not None
    bit = t.bit[t.card_of[action.arg]]
    hands = list(state.hands)
    hands[seat] &= ~bit
    passed = list(d.passed or (0,) * n)
    passed[seat] |= bit
    d = evolve(d, passed=tuple(passed))
    events: list[tuple[Actor, Event]] = [(seat, CardPassed(seat, (seat + d.pass_offset) % n, action.arg))]
    eldest = (d.dealer + 1) % n
    for k in range(n):
        waiting = (eldest + k) % n
        if passed[waiting].bit_count() < t.passing.cards:
            history = Step(state.history, tuple(events))
            return State(
                game, Phase.PASSING, waiting, tuple(hands), (), state.leader, d, state.tally, state.match, history
            )
    received = [0] * n
    for s in range(n):
        received[(s + d.pass_offset) % n] |= passed[s]
    for s in range(n):
        hands[s] |= received[s]
    events.append((DEALER, PassingDone(d.pass_offset, t.hands_of(tuple(received)))))
    after = State(game, Phase.PASSING, seat, tuple(hands), (), state.leader, d, state.tally, state.match, state.history)
    return setup.open_deal(after, d, events)


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
)
