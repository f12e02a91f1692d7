"""Value bidding: players bid game values, one speaking to another, and the highest bidder declares.

A game uses it by naming its section, ``[mechanisms.value_bidding]`` (a mechanism
registered with :func:`trickrules.engine.mechanism.register`, asked before the
``bidding`` phase, whose ``auction = "declarer"`` then has the declarer name his
contract). Three players: the forehand (the eldest hand), the middlehand and the
rearhand (the dealer). The middlehand, the *talker*, bids values to the forehand,
the *listener* (``bid 18``, each bid higher than the last; or ``pass``); the
listener answers each bid: ``hold`` (he would play at that value) or ``pass``.
Whoever passes is out. Then the rearhand bids in the same way to the one left, who
answers. The one left last is the declarer, at the value last bid or held. Where
the middlehand and the rearhand both pass without a bid, the forehand may bid the
lowest value, and plays; if he passes too, the deal is thrown in (it counts as
played, and the next dealer deals).

Keys of the section: ``values`` (required), the values that may be bid, lowest
first (Skat's game values: 18, 20, 22, 23, 24, 27, ...); ``before`` (optional),
the phase it comes before (``"bidding"``).

Every seat sees the bidding (:class:`ValueBiddingView`). The value the declarer
bid is the scoring variable ``bid`` of his side (``own_bid`` of his seat), so
that a game worth less than the bid can be lost as overbid.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from attrs import frozen

from trickrules.compile.tables import Tables
from trickrules.engine.actions import Action
from trickrules.engine.events import Event, MechanismEvent, Passed, Redeal
from trickrules.engine.loop import advance, moved
from trickrules.engine.mechanism import PASS, Mechanism, listed, not_legal, register
from trickrules.engine.phases import deal_end
from trickrules.engine.phases.deal import thrown_in
from trickrules.engine.state import State
from trickrules.engine.values import DEALER, Actor, DealInfo, MatchInfo, evolve, with_part
from trickrules.errors import SpecError

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = [
    "MECHANISM",
    "VALUE_BIDDING",
    "ValueAuction",
    "ValueAuctionWon",
    "ValueBid",
    "ValueBiddingView",
    "ValueHeld",
    "value_auction",
]

#: This mechanism's phase, and the name of its spec section.
VALUE_BIDDING = "value_bidding"


@frozen(weakref_slot=False)
class ValueBid(MechanismEvent):
    """``seat`` bid a game value in a value auction ([mechanisms.value_bidding])."""

    TAG: ClassVar[str] = "value_bid"
    seat: int
    value: int

    def describe(self) -> str:
        """One line for a printout of the match."""
        return f"seat {self.seat}: bids {self.value}"


@frozen(weakref_slot=False)
class ValueHeld(MechanismEvent):
    """``seat``, answering, held the value bid to it: it would play a game of that value."""

    TAG: ClassVar[str] = "hold"
    seat: int
    value: int

    def describe(self) -> str:
        """One line for a printout of the match."""
        return f"seat {self.seat}: holds {self.value}"


@frozen(weakref_slot=False)
class ValueAuctionWon(MechanismEvent):
    """The value auction is over: ``seat`` is the declarer, having bid or held ``value``."""

    TAG: ClassVar[str] = "value_won"
    seat: int
    value: int

    def describe(self) -> str:
        """One line for a printout of the match."""
        return f"seat {self.seat} wins the bidding at {self.value}"


@frozen
class ValueAuction:
    """The value auction's record of a deal."""

    #: The seat bidding now, and the seat it bids to (``None``: the forehand alone, both others out).
    talker: int
    listener: int | None
    #: The last value bid (0: none yet), and whether the listener is to answer it.
    high: int = 0
    answering: bool = False
    #: The seats that passed, as a mask.
    out: int = 0
    #: Whether the rearhand has had his turn (the second stage).
    second: bool = False
    #: The declarer, once the auction is over.
    winner: int | None = None
    done: bool = False


@frozen
class ValueBiddingView:
    """What every seat sees of the value auction: who bids to whom, the last value, who passed, the winner."""

    talker: int
    listener: int | None
    high: int
    out: tuple[int, ...]
    winner: int | None


def _values(tables: Tables) -> tuple[int, ...]:
    found: tuple[int, ...] = tuple(tables.mechanism_sections[VALUE_BIDDING]["values"])
    return found


def _uses(tables: Tables) -> bool:
    """Whether the game names ``[mechanisms.value_bidding]``; checks its keys (three players, values rising)."""
    section = tables.mechanism_sections.get(VALUE_BIDDING)
    if section is None:
        return False
    for key in section:
        if key not in ("values", "before"):
            raise SpecError(f"mechanisms.value_bidding.{key}: unknown key (known: values, before).")
    values = section.get("values")
    if (
        not isinstance(values, tuple)
        or not values
        or any(type(v) is not int or v <= 0 for v in values)
        or list(values) != sorted(set(values))
    ):
        raise SpecError(f"mechanisms.value_bidding.values: expected positive integers, rising, found {values!r}.")
    if tables.players != 3:
        players = tables.players
        raise SpecError(f"mechanisms.value_bidding: forehand, middlehand and rearhand are 3 players, not {players}.")
    return True


def value_auction(game: GameLike, d: DealInfo) -> ValueAuction:
    """The value auction's record of deal ``d``."""
    record: ValueAuction = d.parts[game.slot[VALUE_BIDDING]]
    return record


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> ValueAuction:
    forehand = (d.dealer + 1) % 3
    return ValueAuction(talker=(forehand + 1) % 3, listener=forehand)


def _seat(record: ValueAuction) -> int:
    """The seat to speak: the listener answering a bid, else the talker."""
    if record.answering and record.listener is not None:
        return record.listener
    return record.talker


def _due(state: State, d: DealInfo) -> int | None:
    record = value_auction(state.game, d)
    return None if record.done else _seat(record)


def _offered(state: State) -> list[Action]:
    game = state.game
    record = value_auction(game, state.deal)
    if record.answering:
        return [game.action("hold"), game.action("pass")]
    values = _values(game.tables)
    higher = values[:1] if record.listener is None else [v for v in values if v > record.high]
    return [game.action("pass"), *(game.action(f"bid {v}") for v in higher)]


def _why(state: State, action: Action, actions: tuple[Action, ...]) -> str:
    legal = ", ".join(str(a) for a in actions)
    record = value_auction(state.game, state.deal)
    if record.answering:
        return f"{not_legal(state, action)}: the listener holds {record.high} or passes (legal: {legal})."
    return f"{not_legal(state, action)}: a bid must be one of the values, above {record.high} (legal: {legal})."


def _next_stage(record: ValueAuction, dealer: int) -> ValueAuction:
    """After a pass: the rearhand bids to the one left, or the auction is won, or the forehand decides alone."""
    if not record.second:
        forehand, middlehand = (dealer + 1) % 3, (dealer + 2) % 3
        survivor = middlehand if (record.out >> forehand) & 1 else forehand
        return evolve(record, talker=dealer, listener=survivor, answering=False, second=True)
    assert record.listener is not None
    left = record.listener if (record.out >> dealer) & 1 else dealer
    if record.high:
        return evolve(record, winner=left, done=True, answering=False)
    return evolve(record, talker=left, listener=None, answering=False)  # nobody bid: the forehand alone


def _step(state: State, action: Action) -> State:
    game = state.game
    seat = state.to_move
    assert seat is not None
    d = state.deal
    slot = game.slot[VALUE_BIDDING]
    record = value_auction(game, d)
    events: list[tuple[Actor, Event]] = []
    if action.verb == "bid":
        value = int(action.arg)
        events.append((seat, ValueBid(seat, value)))
        if record.listener is None:  # the forehand alone bids the lowest value, and plays
            record = evolve(record, high=value, winner=seat, done=True)
        else:
            record = evolve(record, high=value, answering=True)
    elif action.verb == "hold":
        events.append((seat, ValueHeld(seat, record.high)))
        record = evolve(record, answering=False)
    else:
        events.append((seat, Passed(seat, "bidding")))
        record = evolve(record, out=record.out | 1 << seat)
        if record.listener is None:  # the forehand passes too: nobody plays
            record = evolve(record, done=True)
        else:
            record = _next_stage(record, d.dealer)
    d = with_part(d, slot, record)
    if not record.done:
        return moved(state, VALUE_BIDDING, _seat(record), d, events)
    if record.winner is None:
        events.append((DEALER, Redeal(d.number, d.dealer)))
        thrown_in(state, d, False, "bid a value")
        return deal_end.pass_out(state, d, events)
    events.append((DEALER, ValueAuctionWon(record.winner, record.high)))
    return advance(state, evolve(d, declarer=record.winner), events)


def _view(state: State, seat: int) -> ValueBiddingView:
    r = value_auction(state.game, state.deal)
    return ValueBiddingView(r.talker, r.listener, r.high, tuple(s for s in range(3) if (r.out >> s) & 1), r.winner)


def _facts(game: GameLike, d: DealInfo) -> Mapping[str, object]:
    record = value_auction(game, d)
    return {"bid": tuple(record.high if s == record.winner else 0 for s in range(game.players))}


def _bid(event: ValueBid, game: Any) -> Action:
    return game.action(f"bid {event.value}")  # type: ignore[no-any-return]


def _held(event: ValueHeld, game: Any) -> Action:
    return game.action("hold")  # type: ignore[no-any-return]


def _actions(t: Tables) -> tuple[Action, ...]:
    """``pass``, ``hold``, then ``bid VALUE`` for every value, lowest first."""
    return (Action("pass"), Action("hold"), *(Action("bid", str(v)) for v in _values(t)))


MECHANISM: Mechanism = listed(
    VALUE_BIDDING,
    _offered,
    _step,
    _why,
    actions=_actions,
    replays=MappingProxyType({**PASS, ValueBid: _bid, ValueHeld: _held}),
    start=_start,
    due=_due,
    facts=_facts,
    view=_view,
    view_type=ValueBiddingView,
)

register(
    MECHANISM,
    uses=_uses,
    before="bidding",
    events=(ValueBid, ValueHeld, ValueAuctionWon),
    verbs={"hold": False},
)
