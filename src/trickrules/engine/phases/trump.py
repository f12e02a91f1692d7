"""Naming trumps: the declarer, the dealer or the called card's holder names a suit (or none, where allowed)."""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from trickrules.compile.cards import NO_TRUMP
from trickrules.compile.modes import TrumpChooser
from trickrules.engine.actions import Action
from trickrules.engine.events import Event, TrumpNamed, shared
from trickrules.engine.loop import advance
from trickrules.engine.mechanism import Mechanism, listed
from trickrules.engine.phases.call import call
from trickrules.engine.state import State
from trickrules.engine.values import Actor, DealInfo, Phase, evolve

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "trump_chooser"]


def trump_chooser(state: State, d: DealInfo) -> int | None:
    """The seat that names trumps: the dealer, the called card's holder, or the declarer (``None``: not yet known).

    Where the called card's holder names them, he does once the card is
    called; where nobody can be called, the declarer does.
    """
    rules = state.game.rules
    c = rules.contracts[d.contract] if d.contract is not None else None
    by = c.trump_by if c is not None else rules.trump_chosen_by
    if by is TrumpChooser.DEALER:
        return d.dealer
    if by is TrumpChooser.CALLED_HOLDER:
        if d.partner is not None:
            return d.partner
        if c is not None and c.call and call(state.game, d).called is None:
            return None  # the card is called first
    return d.declarer


def _due(state: State, d: DealInfo) -> int | None:
    return trump_chooser(state, d) if d.trump is None else None


def _offered(state: State) -> tuple[Action, ...]:
    return state.game.shared.trump_actions  # the same every time


def _step(state: State, action: Action) -> State:
    game = state.game
    trump = NO_TRUMP if action.arg == game.cards.trump_code(NO_TRUMP) else game.cards.suit_codes.index(action.arg)
    seat = state.to_move
    assert seat is not None
    d = evolve(state.deal, trump=trump)
    events: list[tuple[Actor, Event]] = [(seat, shared(TrumpNamed, seat, action.arg))]
    return advance(state, d, events)


def _named(event: TrumpNamed, game: GameLike) -> Action:
    return game.action(f"trump {event.suit}")


MECHANISM: Mechanism = listed(Phase.TRUMP, _offered, _step, replays=MappingProxyType({TrumpNamed: _named}), due=_due)
