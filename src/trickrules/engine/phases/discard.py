"""Taking up the turned card and discarding: the dealer adds the turned card to his hand and discards one.

When the turned card's suit is made trumps (:mod:`.making`, ``taken_by =
"dealer"``), the dealer takes the card from the stock into his hand
(:class:`~trickrules.engine.events.TurnedTaken`, seen by all) and discards a
card face down (``discard CARD``; the turned card itself only with
``discard_turned``). The discarded card is out of the deal.

What each seat sees: a :class:`~trickrules.engine.events.Discarded` card only
if it discarded it; others see ``"?"``.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from attrs import frozen

from trickrules.engine.actions import Action, Verb
from trickrules.engine.events import HIDDEN, Discarded, Event, TurnedTaken
from trickrules.engine.loop import advance
from trickrules.engine.mechanism import Mechanism, listed, not_legal
from trickrules.engine.phases.deal import dealing
from trickrules.engine.state import State
from trickrules.engine.values import DEALER, Actor, DealInfo, MatchInfo, Phase, evolve, with_part

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "Discard", "take_up"]

#: This mechanism's phase, bound once (an enum member's lookup costs more than the dict lookup it keys).
_PHASE: str = Phase.DISCARD


@frozen(weakref_slot=False)
class Discard:
    """The discard's record of a deal: whether the dealer took up the turned card, and what he discarded."""

    taken: bool = False
    #: The cards discarded face down (out of the deal), as a mask.
    discarded: int = 0


_NONE = Discard()


def _record(game: GameLike, d: DealInfo) -> Discard:
    record: Discard = d.parts[game.slot[_PHASE]]
    return record


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> Discard:
    return _NONE


def _due(state: State, d: DealInfo) -> int | None:
    record = _record(state.game, d)
    return d.dealer if record.taken and not record.discarded else None


def take_up(state: State, d: DealInfo, events: list[tuple[Actor, Event]]) -> tuple[State, DealInfo]:
    """The dealer takes the turned card into his hand (and is then due to discard)."""
    game = state.game
    card = dealing(d).turned
    assert card is not None  # a turned round needs a turned card (checked when the spec is compiled)
    hands = list(state.hands)
    hands[d.dealer] |= 1 << card
    events.append((DEALER, TurnedTaken(d.dealer, game.cards.codes[card])))
    d = with_part(d, game.slot[_PHASE], Discard(taken=True))
    s = state
    return State(game, s.phase, s.to_move, tuple(hands), (), s.leader, d, s.tally, s.match, s.history), d


def _offered(state: State) -> list[Action]:
    seat = state.to_move
    assert seat is not None
    game = state.game
    making = game.rules.making
    assert making is not None
    hand = state.hands[seat]
    turned = dealing(state.deal).turned
    if turned is not None and not making.discard_turned:
        hand &= ~(1 << turned)
    return [game.action(f"discard {code}") for code in game.tables.codes_of(hand)]


def _why(state: State, action: Action, actions: tuple[Action, ...]) -> str:
    what = not_legal(state, action)
    legal = ", ".join(str(a) for a in actions)
    turned = dealing(state.deal).turned
    if action.verb == Verb.DISCARD and turned is not None and action.arg == state.game.cards.codes[turned]:
        return f"{what}: the turned card just taken up may not be discarded (legal: {legal})."
    return f"{what}: the dealer discards a card of his hand (legal: {legal})."


def _step(state: State, action: Action) -> State:
    game = state.game
    seat = state.to_move
    assert seat is not None
    bit = 1 << game.tables.card_of[action.arg]
    hands = list(state.hands)
    hands[seat] &= ~bit
    events: list[tuple[Actor, Event]] = [(seat, Discarded(seat, action.arg))]
    s = state
    record = _record(game, s.deal)
    d = with_part(s.deal, game.slot[_PHASE], evolve(record, discarded=record.discarded | bit))
    after = State(game, s.phase, seat, tuple(hands), (), s.leader, d, s.tally, s.match, s.history)
    return advance(after, d, events)


def _discarded_for(event: Discarded, seat: int) -> Discarded:
    return event if seat == event.seat else evolve(event, card=HIDDEN)


def _discarded(event: Discarded, game: GameLike) -> Action:
    return game.action(f"discard {event.card}")


MECHANISM: Mechanism = listed(
    Phase.DISCARD,
    _offered,
    _step,
    _why,
    reveals=MappingProxyType({Discarded: _discarded_for}),
    replays=MappingProxyType({Discarded: _discarded}),
    start=_start,
    due=_due,
)
