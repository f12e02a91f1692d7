"""Going alone, after trumps are made round the table: the maker, then the defenders, may play alone.

With ``making.alone`` the maker says ``alone`` (his partner sits out) or
``pass``; with ``making.defend_alone`` each defender in turn from the eldest
hand is then asked the same, until one defends alone (his partner sits out
too). A seat that sits out is in ``DealInfo.seats_out``: it holds its cards
but plays no card, and the tricks go round without it. The maker's partner
is also ``DealInfo.sitting_out``. Then the eldest hand that plays leads.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from trickrules.engine.actions import Action
from trickrules.engine.events import Event, Passed, WentAlone, shared
from trickrules.engine.mechanism import PASS, Mechanism, listed
from trickrules.engine.phases import setup
from trickrules.engine.records import Actor, DealInfo, Phase, evolve
from trickrules.engine.state import State

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "begin"]


def _defenders(state: State, d: DealInfo) -> list[int]:
    """The defenders, in order from the eldest hand."""
    n = state.game.players
    team_of = state.game._tables.team_of
    assert d.declarer is not None
    makers = team_of[d.declarer]
    order = ((d.dealer + 1 + k) % n for k in range(n))
    return [s for s in order if team_of[s] != makers]


def begin(state: State, d: DealInfo, events: list[tuple[Actor, Event]]) -> State:
    """After trumps are made (and the discard): ask the maker, else the first defender, else lead."""
    making = state.game.rules.making
    assert making is not None
    assert d.declarer is not None
    if making.alone:
        return setup.moved(state, Phase.ALONE, d.declarer, d, tuple(events))
    if making.defend_alone:
        return setup.moved(state, Phase.ALONE, _defenders(state, d)[0], d, tuple(events))
    return setup.start_play(state, d, events)


def _offered(state: State) -> tuple[Action, ...]:
    return (state.game._shared.pass_action, state.game.action("alone"))


def _step(state: State, action: Action) -> State:
    game = state.game
    making = game.rules.making
    assert making is not None
    seat = state.to_move
    assert seat is not None
    d = state.deal
    events: list[tuple[Actor, Event]]
    if action.verb == "alone":
        partners = [s for s in game.rules.teams[game._tables.team_of[seat]] if s != seat]
        out = d.seats_out
        for s in partners:
            out |= 1 << s
        if seat == d.declarer:
            d = evolve(d, sitting_out=partners[0], seats_out=out)
        else:
            d = evolve(d, seats_out=out)
        events = [(seat, WentAlone(seat))]
    else:
        events = [(seat, shared(Passed, seat, Phase.ALONE.value))]
    defenders = _defenders(state, d)
    if making.defend_alone and not (action.verb == "alone" and seat != d.declarer):
        later = defenders if seat == d.declarer else defenders[defenders.index(seat) + 1 :]
        if later:
            return setup.moved(state, Phase.ALONE, later[0], d, tuple(events))
    return setup.start_play(state, d, events)


def _went(event: WentAlone, game: GameLike) -> Action:
    return game.action("alone")


MECHANISM: Mechanism = listed(Phase.ALONE, _offered, _step, replays=MappingProxyType({**PASS, WentAlone: _went}))
