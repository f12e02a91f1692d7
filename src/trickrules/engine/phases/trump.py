"""Naming trumps: the declarer, the dealer or the called card's holder names a suit (or none, where allowed)."""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from trickrules.compile.cards import NO_TRUMP
from trickrules.engine.actions import Action
from trickrules.engine.events import Event, TrumpNamed, shared
from trickrules.engine.mechanism import Mechanism, listed
from trickrules.engine.phases import setup
from trickrules.engine.records import Actor, Phase, evolve
from trickrules.engine.state import State

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM"]


def _offered(state: State) -> tuple[Action, ...]:
    return state.game._shared.trump_actions  # the same every time


def _step(state: State, action: Action) -> State:
    game = state.game
    trump = NO_TRUMP if action.arg == "none" else game.cards.suit_codes.index(action.arg)
    seat = state.to_move
    assert seat is not None
    d = evolve(state.deal, trump=trump)
    events: list[tuple[Actor, Event]] = [(seat, shared(TrumpNamed, seat, action.arg))]
    if d.contract is not None:
        return setup.next_setup(state, d, events)
    return setup.start_play(state, d, events)


def _named(event: TrumpNamed, game: GameLike) -> Action:
    return game.action(f"trump {event.suit}")


MECHANISM: Mechanism = listed(Phase.TRUMP, _offered, _step, replays=MappingProxyType({TrumpNamed: _named}))
