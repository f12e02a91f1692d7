"""Making trumps round the table (``trump.chosen_by = "made"``): the turned card's suit offered, then others.

Each round of ``making.rounds`` goes once round the table from the eldest
hand. A seat passes (``pass``) or makes trumps (``trump S``) and becomes the
declarer, the *maker*: in a ``turned`` round by accepting the turned card's
suit, in an ``others`` round by naming any other suit, in an ``any`` round
by naming any suit. With ``dealer_must_name`` the dealer, the last to speak
in the last round, may not pass. Accepting the turned card's suit has the
dealer take the card up and discard (:mod:`.discard`); then the maker and
the defenders may go alone (:mod:`.alone`). When everyone has passed in
every round the cards are thrown in and dealt again, by the next dealer or
the same one.

The seats that have spoken are counted in the mechanism's record
(:class:`Made`, ``spoken``), so the round is ``spoken // players``.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from attrs import frozen

from trickrules.compile.modes import MakingRound
from trickrules.engine.actions import Action, Verb
from trickrules.engine.events import Event, Passed, Redeal, TrumpNamed, shared
from trickrules.engine.loop import advance, moved
from trickrules.engine.mechanism import PASS, Mechanism, listed, not_legal
from trickrules.engine.phases import deal_end, discard
from trickrules.engine.phases.deal import dealing, start_deal, thrown_in
from trickrules.engine.state import State
from trickrules.engine.values import DEALER, Actor, DealInfo, MatchInfo, Phase, evolve, with_part

if TYPE_CHECKING:
    from trickrules.compile.making import Making
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "Made"]

#: This mechanism's phase, bound once (an enum member's lookup costs more than the dict lookup it keys).
_PHASE: str = Phase.MAKING


@frozen(weakref_slot=False)
class Made:
    """Making trumps' record of a deal: how many times a seat has spoken."""

    spoken: int = 0


_NONE = Made()


def _made(state: State) -> Made:
    record: Made = state.deal.parts[state.game.slot[_PHASE]]
    return record


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> Made:
    return _NONE


def _due(state: State, d: DealInfo) -> int | None:
    return (d.dealer + 1) % state.game.players if d.trump is None else None


def _making(state: State) -> Making:
    making = state.game.rules.making
    assert making is not None  # the mechanism is chosen only for such games
    return making


def _suits(state: State, kind: str) -> list[int]:
    """The suits a seat may make trumps in a round of ``kind``: the turned card's, the others, or any."""
    game = state.game
    count = len(game.cards.suit_codes)
    turned = dealing(state.deal).turned
    if kind is MakingRound.ANY or turned is None:
        return list(range(count))
    suit = game.cards.suit_of[turned]
    return [suit] if kind is MakingRound.TURNED else [s for s in range(count) if s != suit]


def _offered(state: State) -> list[Action]:
    making = _making(state)
    spoken = _made(state).spoken
    n = state.game.players
    shared_ = state.game.shared
    last = spoken == n * len(making.rounds) - 1  # the dealer, last to speak in the last round
    out = [] if making.dealer_must_name and last else [shared_.pass_action]
    out += [shared_.trump_actions[s] for s in _suits(state, making.rounds[spoken // n])]
    return out


def _why(state: State, action: Action, actions: tuple[Action, ...]) -> str:
    what = not_legal(state, action)
    legal = ", ".join(str(a) for a in actions)
    if action.verb == Verb.PASS:
        return f"{what}: the dealer may not pass in the last round (legal: {legal})."
    if action.verb == Verb.TRUMP:
        kind = _making(state).rounds[_made(state).spoken // state.game.players]
        allowed = {"turned": "only the turned card's suit", "others": "any suit but the turned card's"}
        return f"{what}: in this round trumps may be {allowed.get(kind, 'any suit')} (legal: {legal})."
    return f"{what} (legal: {legal})."


def _step(state: State, action: Action) -> State:
    game = state.game
    making = _making(state)
    seat = state.to_move
    assert seat is not None
    d = state.deal
    n = game.players
    spoken = _made(state).spoken
    d = with_part(d, game.slot[_PHASE], Made(spoken + 1))
    if action.verb == Verb.PASS:
        said = ((seat, shared(Passed, seat, Phase.MAKING.value)),)
        if spoken + 1 < n * len(making.rounds):
            return moved(state, Phase.MAKING, game.tables.next_seat[0][seat], d, said)
        events: list[tuple[Actor, Event]] = [*said, (DEALER, Redeal(d.number, d.dealer))]
        thrown = thrown_in(state, d, not making.redeal_next, "make trumps")
        if making.redeal_next:  # thrown in: the deal counts, and the next dealer deals
            return deal_end.pass_out(state, d, events)
        return start_deal(state, d.number, dealing(d).shuffle + 1, d.dealer, state.match, events, thrown=thrown)
    d = evolve(d, trump=game.cards.suit_codes.index(action.arg), declarer=seat)
    events = [(seat, shared(TrumpNamed, seat, action.arg))]
    if making.rounds[spoken // n] is MakingRound.TURNED and making.taken_by_dealer:
        state, d = discard.take_up(state, d, events)
    return advance(state, d, events)


def _named(event: TrumpNamed, game: GameLike) -> Action:
    return game.action(f"trump {event.suit}")


MECHANISM: Mechanism = listed(
    Phase.MAKING,
    _offered,
    _step,
    _why,
    replays=MappingProxyType({**PASS, TrumpNamed: _named}),
    start=_start,
    due=_due,
)
