"""Calling a card: the declarer names a card, and its holder becomes the partner (secretly, unless public).

The spec says which ranks may be called, whether a card of one's own or a
trump may be, and the fallback ranks when the declarer holds every callable
card. A call is never impossible: holding them all, the declarer calls one
of his own and plays alone (``docs/decisions.md``).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from attrs import frozen

from trickrules.engine.actions import Action, Verb
from trickrules.engine.events import CardCalled, Event, PartnerRevealed, shared
from trickrules.engine.loop import advance
from trickrules.engine.mechanism import Events, Mechanism, listed, not_legal
from trickrules.engine.phases.auction import auction
from trickrules.engine.state import State
from trickrules.engine.values import DEALER, Actor, DealInfo, MatchInfo, Phase, Tally, evolve, with_part

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "Call", "CallView", "call", "callable_cards", "reveal"]

#: This mechanism's phase, bound once (an enum member's lookup costs more than the dict lookup it keys).
_PHASE: str = Phase.CALL


@frozen(weakref_slot=False)
class Call:
    """The call's record of a deal: the card called, and whether its holder (``DealInfo.partner``) is known."""

    called: int | None = None
    #: Whether the partner of the called card is publicly known.
    revealed: bool = False


@frozen(weakref_slot=False)
class CallView:
    """What a seat sees of the call: the card called, and its holder once the seat may know him."""

    called: str
    #: The called card's holder: once revealed, or to the holder himself (``None`` otherwise).
    partner: int | None


_NONE = Call()


def call(game: GameLike, d: DealInfo) -> Call:
    """The call record of deal ``d``."""
    record: Call = d.parts[game.slot[_PHASE]]
    return record


def reveal(state: State, d: DealInfo, tally: Tally) -> tuple[DealInfo, Tally]:
    """The partner of the called card made public: the deal's call record and the watched cards updated."""
    record = call(state.game, d)
    d = with_part(d, state.game.slot[_PHASE], evolve(record, revealed=True))
    if record.called is not None and (tally.watched >> record.called) & 1:
        tally = evolve(tally, watched=tally.watched & ~(1 << record.called))
    return d, tally


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> Call:
    return _NONE


def _due(state: State, d: DealInfo) -> int | None:
    if d.contract is None or not state.game.rules.contracts[d.contract].call:
        return None
    return d.declarer if call(state.game, d).called is None else None


def _on_card(state: State, d: DealInfo, tally: Tally, card: int, events: Events) -> tuple[DealInfo, Tally, Events]:
    """The called card played while its holder is secret: the partnership becomes known."""
    record = call(state.game, d)
    if card != record.called or record.revealed:
        return d, tally, events
    # The partner is whoever held the called card when it was called, even if
    # an exchange has moved the card since.
    partner = d.partner
    assert partner is not None
    d, tally = reveal(state, d, tally)
    return d, tally, (*events, (DEALER, PartnerRevealed(partner, state.game.cards.codes[card])))


def _view(state: State, seat: int) -> CallView:
    record = call(state.game, state.deal)
    d = state.deal
    partner = d.partner if record.called is not None and (record.revealed or seat == d.partner) else None
    return CallView(state.game.cards.codes[record.called] if record.called is not None else "", partner)


def callable_cards(state: State) -> list[int]:
    """The cards the declarer may call, in deck order (the primary ranks first)."""
    game = state.game
    rules = game.rules
    d = state.deal
    cards = game.cards
    assert d.declarer is not None
    hand = state.hands[d.declarer]
    trump_mask = game.tables.trumps[d.trump].trump_mask if d.trump is not None else 0
    # Before trumps are named, only the cards promoted whatever the trump suit are sure trumps.
    always = game.tables.always_trumps if d.trump is None else 0

    def pick(ranks: tuple[int, ...], own: bool, allow_trump: bool) -> tuple[list[int], bool]:
        found = []
        all_held = True
        for c in range(cards.size):
            if cards.rank_of[c] not in ranks:
                continue
            if not allow_trump and ((trump_mask >> c) & 1 or (always >> c) & 1):
                continue
            held = bool((hand >> c) & 1)
            all_held = all_held and held
            if held and not own:
                continue
            found.append(c)
        return found, all_held

    trumps_ok = rules.call_allow_trump_forced if auction(game, d).forced else rules.call_allow_trump
    primary, all_held = pick(rules.call_ranks, rules.call_allow_own, trumps_ok)
    if all_held and rules.call_fallback_ranks:
        extra, _ = pick(rules.call_fallback_ranks, rules.call_allow_own_fallback, rules.call_allow_trump_fallback)
        if rules.call_fallback_replaces:
            primary = extra
        else:
            primary.extend(c for c in extra if c not in primary)
    if not primary:
        primary = [
            c
            for c in range(cards.size)
            if (hand >> c) & 1
            and cards.rank_of[c] in (*rules.call_ranks, *rules.call_fallback_ranks)
            and not (trump_mask >> c) & 1
        ]
    return primary


def _offered(state: State) -> list[Action]:
    action = state.game.action
    codes = state.game.cards.codes
    return [action(f"call {codes[c]}") for c in callable_cards(state)]


def _why(state: State, action: Action, actions: tuple[Action, ...]) -> str:
    if action.verb != Verb.CALL:
        return f"{not_legal(state, action)} (legal: {', '.join(str(a) for a in actions)})."
    return f"{not_legal(state, action)}: the cards that may be called are {', '.join(a.arg for a in actions)}."


def _step(state: State, action: Action) -> State:
    game = state.game
    card = game.cards.codes.index(action.arg)
    d = state.deal
    assert d.contract is not None
    assert d.declarer is not None
    # A card no hand holds (it lies undealt, ``calling.undealt = "alone"``) leaves the declarer alone.
    partner = next((s for s in range(game.players) if (state.hands[s] >> card) & 1), d.declarer)
    public = game.rules.call_public or game.rules.contracts[d.contract].public_call
    declarer = d.declarer
    d = evolve(d, partner=partner)
    d = with_part(d, game.slot[_PHASE], Call(card, public))
    events: list[tuple[Actor, Event]] = [(declarer, shared(CardCalled, declarer, action.arg))]
    if public:
        events.append((DEALER, PartnerRevealed(partner, action.arg)))
        return advance(state, d, events)
    # Its play makes the partnership known (_on_card).
    return advance(state, d, events, evolve(state.tally, watched=state.tally.watched | 1 << card))


def _called(event: CardCalled, game: GameLike) -> Action:
    return game.action(f"call {event.card}")


MECHANISM: Mechanism = listed(
    Phase.CALL,
    _offered,
    _step,
    _why,
    replays=MappingProxyType({CardCalled: _called}),
    start=_start,
    due=_due,
    on_card=_on_card,
    view=_view,
    view_type=CallView,
)
