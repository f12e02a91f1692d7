"""Going alone, after trumps are made round the table: the maker, then the defenders, may play alone.

With ``making.alone`` the maker says ``alone`` (his partner sits out) or
``pass``; with ``making.defend_alone`` each defender in turn from the eldest
hand is then asked the same, until one defends alone (his partner sits out
too). A seat that sits out is in ``DealInfo.seats_out``: it holds its cards
but plays no card, and the tricks go round without it. Then the eldest hand
that plays leads.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from attrs import frozen

from trickrules.engine.actions import Action, Verb
from trickrules.engine.events import Event, Passed, WentAlone, shared
from trickrules.engine.loop import advance
from trickrules.engine.mechanism import PASS, Mechanism, listed
from trickrules.engine.state import State
from trickrules.engine.values import Actor, DealInfo, MatchInfo, Phase, evolve, with_part

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "Alone"]

#: This mechanism's phase, bound once (an enum member's lookup costs more than the dict lookup it keys).
_PHASE: str = Phase.ALONE


@frozen(weakref_slot=False)
class Alone:
    """Going alone's record of a deal: how many seats have been asked, and whether the asking is over."""

    asked: int = 0
    done: bool = False


_NONE = Alone()


def _record(game: GameLike, d: DealInfo) -> Alone:
    record: Alone = d.parts[game.slot[_PHASE]]
    return record


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> Alone:
    return _NONE


def _due(state: State, d: DealInfo) -> int | None:
    if d.declarer is None or d.trump is None:
        return None  # trumps not made yet
    record = _record(state.game, d)
    if record.done:
        return None
    making = state.game.rules.making
    assert making is not None
    k = record.asked  # the maker is asked first (with making.alone), then the defenders in turn
    if making.alone:
        if not k:
            return d.declarer
        k -= 1
    defenders = _defenders(state, d) if making.defend_alone else []
    return defenders[k] if k < len(defenders) else None


def _defenders(state: State, d: DealInfo) -> list[int]:
    """The defenders, in order from the eldest hand."""
    n = state.game.players
    team_of = state.game.tables.team_of
    assert d.declarer is not None
    makers = team_of[d.declarer]
    order = ((d.dealer + 1 + k) % n for k in range(n))
    return [s for s in order if team_of[s] != makers]


def _offered(state: State) -> tuple[Action, ...]:
    return (state.game.shared.pass_action, state.game.action("alone"))


def _step(state: State, action: Action) -> State:
    game = state.game
    seat = state.to_move
    assert seat is not None
    d = state.deal
    record = _record(game, d)
    events: list[tuple[Actor, Event]]
    if action.verb == Verb.ALONE:
        partners = [s for s in game.rules.teams[game.tables.team_of[seat]] if s != seat]
        out = d.seats_out
        for s in partners:
            out |= 1 << s
        d = evolve(d, seats_out=out)
        events = [(seat, WentAlone(seat))]
    else:
        events = [(seat, shared(Passed, seat, Phase.ALONE.value))]
    # A defender who goes alone ends the asking; otherwise the next seat is asked.
    done = action.verb == Verb.ALONE and seat != d.declarer
    d = with_part(d, game.slot[_PHASE], Alone(record.asked + 1, done))
    return advance(state, d, events)


def _went(event: WentAlone, game: GameLike) -> Action:
    return game.action("alone")


MECHANISM: Mechanism = listed(
    Phase.ALONE, _offered, _step, replays=MappingProxyType({**PASS, WentAlone: _went}), start=_start, due=_due
)
