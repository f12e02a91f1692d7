"""Bidding a number of tricks: every player says how many tricks he will take, once round the table.

The spec's ``[tricks_bid]`` section (compiled into
:class:`~trickrules.compile.bids.TricksBid`) gives the lowest and highest
bid (the highest by default the number of tricks in the deal) and two
limits: partners' bids together may not exceed the tricks in the deal, and
the last to bid may not make the bids add up to the tricks in the deal. The
eldest hand bids first (``bid 3``); when every seat has bid, the eldest
hand leads. The bids are public, and ``DealInfo.bids`` keeps them for the
scoring variables ``bid``, ``opp_bid`` and ``own_bid``.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from trickrules.compile.bids import TricksBid
from trickrules.engine.actions import Action
from trickrules.engine.events import Event, shared
from trickrules.engine.events import TricksBid as TricksBidEvent
from trickrules.engine.mechanism import Mechanism, listed, not_legal
from trickrules.engine.phases import setup
from trickrules.engine.records import Actor, DealInfo, Phase, evolve
from trickrules.engine.state import State

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "bid_range"]

#: ``bid 0``, ``bid 1``, ...: shared action values, made once (a bid is a plain number of tricks).
#: Bounded: it grows to the highest bid offered in the process, which is at most the tricks of a deal
#: (``tricks_bid.max`` is checked against the largest deal), so at most ``spec.limits.MAX_CARDS`` + 1 actions.
_ACTIONS: list[Action] = []


def _action(tricks: int) -> Action:
    while len(_ACTIONS) <= tricks:
        _ACTIONS.append(Action("bid", str(len(_ACTIONS))))
    return _ACTIONS[tricks]


def _rules(state: State) -> TricksBid:
    found = state.game.rules.bids.tricks_bid
    assert found is not None  # the mechanism is only chosen for games with [tricks_bid]
    return found


def bid_range(state: State) -> tuple[int, int, int | None]:
    """The bids open to the seat to move: the lowest, the highest, and one excluded in between (or ``None``)."""
    rules = _rules(state)
    game = state.game
    seat = state.to_move
    assert seat is not None
    d = state.deal
    tricks = d.tricks
    bids = d.bids or (None,) * game.players
    high = rules.max or tricks
    if rules.partners_within_tricks:
        partners = game.rules.teams[game._tables.team_of[seat]]
        high = min(high, tricks - sum(bids[s] or 0 for s in partners))
    excluded = None
    if rules.last_not_total and all(b is not None for s, b in enumerate(bids) if s != seat):
        excluded = tricks - sum(b or 0 for b in bids)
    return rules.min, high, excluded


def _offered(state: State) -> list[Action]:
    low, high, excluded = bid_range(state)
    return [_action(k) for k in range(low, high + 1) if k != excluded]


def _why(state: State, action: Action, actions: tuple[Action, ...]) -> str:
    what = not_legal(state, action)
    if action.verb != "bid" or not action.arg.isdigit():
        return f"{what}: bid a number of tricks (legal: {', '.join(str(a) for a in actions)})."
    low, high, excluded = bid_range(state)
    tricks = int(action.arg)
    rules = _rules(state)
    if tricks == excluded:
        return f"{what}: the last bid may not make the bids add up to the {state.deal.tricks} tricks of the deal."
    if tricks > high and rules.partners_within_tricks and high < (rules.max or state.deal.tricks):
        return f"{what}: partners may not bid more than the {state.deal.tricks} tricks of the deal together."
    return f"{what}: bids run from {low} to {high}."


def _step(state: State, action: Action) -> State:
    game = state.game
    n = game.players
    seat = state.to_move
    assert seat is not None
    tricks = int(action.arg)
    bids = list(state.deal.bids or (None,) * n)
    bids[seat] = tricks
    d: DealInfo = evolve(state.deal, bids=tuple(bids))
    events: list[tuple[Actor, Event]] = [(seat, shared(TricksBidEvent, seat, tricks))]
    following = (seat + 1) % n
    if bids[following] is None:
        return setup.moved(state, Phase.TRICKS_BID, following, d, tuple(events))
    return setup.start_play(state, d, list(events))


def _bid(event: TricksBidEvent, game: GameLike) -> Action:
    return game.action(f"bid {event.tricks}")


MECHANISM: Mechanism = listed(
    Phase.TRICKS_BID, _offered, _step, _why, replays=MappingProxyType({TricksBidEvent: _bid})
)
