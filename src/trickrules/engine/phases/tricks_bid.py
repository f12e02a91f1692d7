"""Bidding a number of tricks: every player says how many tricks he will take, once round the table.

The spec's ``[tricks_bid]`` section (compiled into
:class:`~trickrules.compile.bids.TricksBid`) gives the lowest and highest
bid (the highest by default the number of tricks in the deal) and two
limits: partners' bids together may not exceed the tricks in the deal, and
the last to bid may not make the bids add up to the tricks in the deal. The
eldest hand bids first (``bid 3``); when every seat has bid, the eldest
hand leads. The bids are public, and the mechanism's record keeps them for
the scoring variables ``bid``, ``opp_bid`` and ``own_bid``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from attrs import frozen

from trickrules.compile.bids import TricksBid
from trickrules.engine.actions import Action, Verb
from trickrules.engine.events import Event, shared
from trickrules.engine.events import TricksBid as TricksBidEvent
from trickrules.engine.loop import advance, moved
from trickrules.engine.mechanism import Mechanism, listed, not_legal
from trickrules.engine.state import State
from trickrules.engine.values import Actor, DealInfo, MatchInfo, Phase, with_part

if TYPE_CHECKING:
    from trickrules.compile.tables import Tables
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "Bids", "BidsView", "bid_range", "bids"]

#: This mechanism's phase, bound once (an enum member's lookup costs more than the dict lookup it keys).
_PHASE: str = Phase.TRICKS_BID


@frozen(weakref_slot=False)
class Bids:
    """A deal's bids of a number of tricks: each seat's bid (``None``: not yet); empty before the first."""

    bids: tuple[int | None, ...] = ()


@frozen(weakref_slot=False)
class BidsView:
    """What a seat sees of the bids: every seat's bid (``None``: not yet); empty before the first. All are public."""

    bids: tuple[int | None, ...]


_NONE = Bids()


def bids(game: GameLike, d: DealInfo) -> tuple[int | None, ...]:
    """Each seat's bid of a number of tricks in deal ``d`` (empty before the first bid)."""
    record: Bids = d.parts[game.slot[_PHASE]]
    return record.bids


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> Bids:
    return _NONE


def _due(state: State, d: DealInfo) -> int | None:
    said = bids(state.game, d)
    return None if said and all(b is not None for b in said) else (d.dealer + 1) % state.game.players


def _view(state: State, seat: int) -> BidsView:
    return BidsView(bids(state.game, state.deal))


def _facts(game: GameLike, d: DealInfo) -> Mapping[str, object]:
    """Each seat's bid (0 where nobody bid): the ``bid`` scoring variables."""
    return {"bid": tuple(b or 0 for b in bids(game, d)) or (0,) * game.players}


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
    said = bids(game, d) or (None,) * game.players
    high = rules.max or tricks
    if rules.partners_within_tricks:
        partners = game.rules.teams[game.tables.team_of[seat]]
        high = min(high, tricks - sum(said[s] or 0 for s in partners))
    excluded = None
    if rules.last_not_total and all(b is not None for s, b in enumerate(said) if s != seat):
        excluded = tricks - sum(b or 0 for b in said)
    return rules.min, high, excluded


def _offered(state: State) -> list[Action]:
    low, high, excluded = bid_range(state)
    return [_action(k) for k in range(low, high + 1) if k != excluded]


def _why(state: State, action: Action, actions: tuple[Action, ...]) -> str:
    what = not_legal(state, action)
    if action.verb != Verb.BID or not action.arg.isdigit():
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
    said = list(bids(game, state.deal) or (None,) * n)
    said[seat] = tricks
    d = with_part(state.deal, game.slot[_PHASE], Bids(tuple(said)))
    events: list[tuple[Actor, Event]] = [(seat, shared(TricksBidEvent, seat, tricks))]
    following = (seat + 1) % n
    if said[following] is None:
        return moved(state, Phase.TRICKS_BID, following, d, tuple(events))
    return advance(state, d, events)


def _bid(event: TricksBidEvent, game: GameLike) -> Action:
    return game.action(f"bid {event.tricks}")


def _actions(t: Tables) -> tuple[Action, ...]:
    """``bid 0`` up to the most a seat may bid: the rule's cap, else the most cards a hand can hold."""
    found = t.rules.bids.tricks_bid
    assert found is not None
    return tuple(_action(k) for k in range((found.max or t.cards.size // t.players) + 1))


MECHANISM: Mechanism = listed(
    Phase.TRICKS_BID,
    _offered,
    _step,
    _why,
    replays=MappingProxyType({TricksBidEvent: _bid}),
    actions=_actions,
    start=_start,
    due=_due,
    view=_view,
    view_type=BidsView,
    facts=_facts,
)
