"""The play: cards played to tricks under the obligations, trick ends, and what a trick's end opens.

After the last card of a trick the winner takes it and leads the next; the
deal ends after the last trick (or when the contract's ``end_when`` says so),
and between tricks a late announcement or a declaration window may open.
Which cards are legal is :mod:`trickrules.engine.obligations`' job.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from trickrules.engine.actions import Action
from trickrules.engine.events import CardPlayed, Event, PartnerRevealed, TrickWon
from trickrules.engine.mechanism import Mechanism
from trickrules.engine.obligations import REASONS, legal_play_mask, play_mask, winner_index
from trickrules.engine.phases import announce, deal_end, declare
from trickrules.engine.records import DEALER, Actor, DealInfo, Phase, Revoke, Step, Tally, evolve
from trickrules.engine.state import State, set_cache
from trickrules.errors import IllegalActionError

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM"]

# Step(before, events) without the named tuple's Python-level __new__ (the commonest step builds one).
_new_step = tuple.__new__


def _flip(masks: tuple[int, ...], seat: int, bits: int) -> tuple[int, ...]:
    """``masks`` with ``bits`` flipped in ``seat``'s mask (a card leaves a hand, or a trick joins a pile)."""
    out = list(masks)
    out[seat] ^= bits
    return tuple(out)


def _legal_mask(state: State) -> tuple[int, str]:
    found = state._cache
    if found is None:
        found = play_mask(state)
        set_cache(state, found)
    return found  # type: ignore[no-any-return]


def _legal(state: State) -> tuple[Action, ...]:
    found = state._cache
    if found is None:
        trick = state.trick
        t = state.game._tables
        seat = state.to_move
        assert seat is not None
        if t.leads.restricted:
            found = play_mask(state)
        elif trick or (t.rules.play.called_card_no_lead and seat == state.deal.partner):
            found = legal_play_mask(t, state.hands[seat], trick, state.leader, seat, state.deal)
        else:
            found = (state.hands[seat], "")  # a free lead
        set_cache(state, found)
    return state.game._shared.play_actions_of(found[0])


def _card(state: State, action: Action) -> int:
    """Check a play; return its card, or raise naming the rule that forbids it."""
    game = state.game
    seat = state.to_move
    if action.verb != "play":
        raise IllegalActionError(f"{action}: seat {seat} must play a card now.")
    card = game._tables.card_of.get(action.arg)
    if card is None:
        raise IllegalActionError(f"{action}: {action.arg!r} is not a card of this deck.")
    assert seat is not None
    if not (state.hands[seat] >> card) & 1:
        raise IllegalActionError(f"{action}: seat {seat} does not hold {action.arg}.")
    mask, reason = _legal_mask(state)
    if not (mask >> card) & 1 and not game.rules.play.revoke_penalised:
        held = game.cards.format(c for c in range(game.cards.size) if (mask >> c) & 1)
        raise IllegalActionError(f"{action}: {REASONS[reason]}: seat {seat} holds {held}.")
    return card


def _check(state: State, action: Action) -> None:
    _card(state, action)


def _apply(state: State, action: object) -> State:
    game = state.game
    t = game._tables
    found = state._cache
    card = t.card_of.get(action.arg) if type(action) is Action and action.verb == "play" else None
    if card is None or found is None or not (found[0] >> card) & 1:
        # Anything but a card already known to be legal: checked in full (and refused with the rule).
        chosen = game.as_action(action)
        return _after_play(state, _card(state, chosen), chosen)
    d = state.deal
    trick = state.trick
    if len(trick) < t.trick_last[d.seats_out] and card != d.called:
        # A legal card that neither ends the trick nor reveals anything: the commonest step of a deal.
        seat = state.to_move
        assert seat is not None
        return State(
            game,
            Phase.PLAY,
            t.next_seat[d.seats_out][seat],
            _flip(state.hands, seat, t.bit[card]),
            (*trick, card),
            state.leader,
            d,
            state.tally,
            state.match,
            _new_step(Step, (state.history, game._shared.play_events[seat][card])),
        )
    return _after_play(state, card, action)  # type: ignore[arg-type]


def _after_play(state: State, card: int, action: Action) -> State:
    game = state.game
    t = game._tables
    seat = state.to_move
    assert seat is not None
    hands = _flip(state.hands, seat, t.bit[card])  # _card has checked that the seat holds it
    trick = (*state.trick, card)
    d = state.deal
    tally = state.tally
    revoke = ""
    if t.rules.play.revoke_penalised:
        mask, reason = _legal_mask(state)
        if not (mask >> card) & 1:
            revoke = reason
            tally = evolve(tally, revokes=(*tally.revokes, Revoke(seat, reason)))
    events: tuple[tuple[Actor, Event], ...]
    if revoke:
        events = ((seat, CardPlayed(seat, action.arg, revoke)),)
    else:
        events = game._shared.play_events[seat][card]  # shared: built once per game
    if card == d.called and not d.revealed:
        # The partner is whoever held the called card when it was called, even if
        # an exchange has moved the card since.
        partner = d.partner
        assert partner is not None
        d = evolve(d, revealed=True)
        events = (*events, (DEALER, PartnerRevealed(partner, action.arg)))
    if len(trick) <= t.trick_last[d.seats_out]:
        nxt = t.next_seat[d.seats_out][seat]
        history = Step(state.history, events)
        return State(game, Phase.PLAY, nxt, hands, trick, state.leader, d, tally, state.match, history)
    return _end_trick(state, hands, trick, d, tally, events)


def _end_trick(
    state: State,
    hands: tuple[int, ...],
    trick: tuple[int, ...],
    d: DealInfo,
    tally: Tally,
    events: tuple[tuple[Actor, Event], ...],
) -> State:
    game = state.game
    t = game._tables
    trump = d.trump
    assert trump is not None
    index = winner_index(t, trick, trump)
    taken = 0
    for card in trick:
        taken |= t.bit[card]
    codes = t.cards.codes
    texts = tuple([codes[card] for card in trick])
    winner = t.trick_seats[d.seats_out][state.leader][index]
    won = _flip(tally.won, winner, taken)  # the cards of a trick were won by nobody before
    winners = (*tally.winners, winner)
    tally = Tally(won, winners, tally.declared, tally.revokes, forfeited=tally.forfeited)
    events = (*events, (DEALER, TrickWon(winner, len(winners), texts)))
    if len(winners) == d.tricks or (t.ends_early and deal_end.ends_early(state, d, tally)):
        return deal_end.finish_deal(state, hands, d, tally, list(events))
    match = state.match
    if t.between_tricks:
        if len(winners) in t.late_runs:
            late = announce.late_window(state, d, tally)
            if late is not None:
                after = State(game, Phase.PLAY, winner, hands, (), winner, d, tally, match, state.history)
                return announce.open_late_window(after, late, events)
        if game.rules.declarations:
            window = declare.window(state, d, tally, hands, winner)
            if window:
                tally = evolve(tally, window=window, window_count=0)
                history = Step(state.history, events)
                return State(game, Phase.DECLARE, window[0], hands, (), winner, d, tally, match, history)
    return State(game, Phase.PLAY, winner, hands, (), winner, d, tally, match, Step(state.history, events))


def _played(event: CardPlayed, game: GameLike) -> Action:
    return game.action(f"play {event.card}")


MECHANISM = Mechanism(Phase.PLAY, _legal, _check, _apply, replays=MappingProxyType({CardPlayed: _played}))
