"""The play: cards played to tricks under the obligations, trick ends, and what a trick's end opens.

After the last card of a trick the winner takes it and leads the next; the
deal ends after the last trick (or when the contract's ``end_when`` says so),
and between tricks any mechanism of the game may open a window (its
``after_trick``: a late announcement, a declaration). Which cards are legal
and who wins a trick is the play kernel's job (:mod:`trickrules.engine.kernel`),
narrowed by any mechanism's duty (its ``narrow``); a mechanism that watches a
card (its ``on_card``: the called card reveals the partner) hears when it is played.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from trickrules.compile.modes import FirstLead
from trickrules.engine.actions import Action, Verb
from trickrules.engine.events import CardPlayed, Event, TrickWon
from trickrules.engine.kernel import flipped, mask_of, trick_end
from trickrules.engine.mechanism import Mechanism
from trickrules.engine.obligations import winner_index
from trickrules.engine.phases import deal_end
from trickrules.engine.state import State, set_cache
from trickrules.engine.values import DEALER, Actor, DealInfo, Phase, Revoke, Step, Tally, evolve
from trickrules.errors import IllegalActionError

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "deal_ends", "play_mask", "window_after", "winning_index"]

#: The verb of a card played, bound once (an enum member's lookup costs more than the comparison, every card).
_PLAY: str = Verb.PLAY

# Step(before, events) without the named tuple's Python-level __new__ (the commonest step builds one).
_new_step = tuple.__new__


def play_mask(state: State) -> tuple[int, str]:
    """The cards the seat to move may play now, and the reason code of the narrowing (``""``: none)."""
    seat = state.to_move
    assert seat is not None
    game = state.game
    tally = state.tally
    hand = state.hands[seat]
    found = mask_of(game.tables, hand, state.trick, state.leader, seat, state.deal, not tally.winners, tally.won)
    if game.narrow_hooks:
        for narrow in game.narrow_hooks:
            found = narrow(state, seat, *found)
    return found


def _legal_mask(state: State) -> tuple[int, str]:
    found = state._cache
    if found is None:
        found = play_mask(state)
        set_cache(state, found)
    return found  # type: ignore[no-any-return]


def _legal(state: State) -> tuple[Action, ...]:
    found = state._cache  # as _legal_mask and play_mask, inlined: asked before every card
    game = state.game
    if found is None:
        if game.narrow_hooks:
            found = play_mask(state)
        else:
            seat = state.to_move
            assert seat is not None
            tally = state.tally
            hand, trick, d = state.hands[seat], state.trick, state.deal
            found = mask_of(game.tables, hand, trick, state.leader, seat, d, not tally.winners, tally.won)
        set_cache(state, found)
    return game.shared.play_actions_of(found[0])


def _due(state: State, d: DealInfo) -> int:
    """The first lead: eldest hand leads, unless it sits out, or a mechanism or the card the rules name says who."""
    game = state.game
    assert d.trump is not None, "trumps are named before the play"
    eldest = (d.dealer + 1) % game.players
    contract = game.rules.contracts[d.contract] if d.contract is not None else None
    if contract is not None and contract.first_lead is FirstLead.DECLARER_ALWAYS and d.declarer is not None:
        return d.declarer
    if (d.seats_out >> eldest) & 1:
        by_declarer = contract is not None and contract.first_lead is FirstLead.DECLARER
        eldest = d.declarer if by_declarer and d.declarer is not None else game.tables.next_seat[d.seats_out][eldest]
    for leads in game.lead_hooks:  # a mechanism that decides the first lead (the seat after a declarer)
        seat = leads(state, d)
        if seat is not None:
            return seat
    card = game.tables.leads.first_card
    if card is not None:
        for seat, hand in enumerate(state.hands):
            if (hand >> card) & 1:
                return seat
    return eldest


def _card(state: State, action: Action) -> int:
    """Check a play; return its card, or raise naming the rule that forbids it."""
    game = state.game
    seat = state.to_move
    if action.verb != _PLAY:
        raise IllegalActionError(f"{action}: seat {seat} must play a card now.")
    card = game.tables.card_of.get(action.arg)
    if card is None:
        raise IllegalActionError(f"{action}: {action.arg!r} is not a card of this deck.")
    assert seat is not None
    if not (state.hands[seat] >> card) & 1:
        raise IllegalActionError(f"{action}: seat {seat} does not hold {action.arg}.")
    mask, reason = _legal_mask(state)
    if not (mask >> card) & 1 and not game.rules.play.revoke_penalised:
        held = game.cards.format(c for c in range(game.cards.size) if (mask >> c) & 1)
        raise IllegalActionError(f"{action}: {game.reasons[reason]}: seat {seat} holds {held}.")
    return card


def _check(state: State, action: Action) -> None:
    _card(state, action)


def _apply(state: State, action: object) -> State:
    game = state.game
    t = game.tables
    card = t.card_of.get(action.arg) if type(action) is Action and action.verb == _PLAY else None
    found = state._cache
    if found is None and card is not None:
        found = _legal_mask(state)
    if card is None or not (found[0] >> card) & 1:
        # Anything but a card of the legal mask (which is in the hand): checked in full (and refused with the rule).
        chosen = game.as_action(action)
        return _after_play(state, _card(state, chosen), chosen)
    d = state.deal
    trick = state.trick
    if len(trick) < t.trick_last[d.seats_out] and not (state.tally.watched >> card) & 1 and not game.chooser_hooks:
        # A legal card that neither ends the trick nor is watched: the commonest step of a deal.
        seat = state.to_move
        assert seat is not None
        return State(
            game,
            Phase.PLAY,
            t.next_seat[d.seats_out][seat],
            flipped(state.hands, seat, t.bit[card]),
            (*trick, card),
            state.leader,
            d,
            state.tally,
            state.match,
            _new_step(Step, (state.history, game.shared.play_events[seat][card])),
        )
    return _after_play(state, card, action)  # type: ignore[arg-type]


def _after_play(state: State, card: int, action: Action) -> State:
    game = state.game
    t = game.tables
    seat = state.to_move
    assert seat is not None
    hands = flipped(state.hands, seat, t.bit[card])  # _card has checked that the seat holds it
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
    chooser = state.chooser if game.chooser_hooks else seat  # another seat may choose the card: the log names it
    assert chooser is not None
    if revoke:
        events = ((chooser, CardPlayed(seat, action.arg, revoke)),)
    elif chooser == seat:
        events = game.shared.play_events[seat][card]  # shared: built once per game
    else:
        events = ((chooser, game.shared.play_events[seat][card][0][1]),)
    if (tally.watched >> card) & 1:
        for on_card in game.on_card_hooks:
            d, tally, events = on_card(state, d, tally, card, events)
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
    t = game.tables
    trump = d.trump
    assert trump is not None
    winner, taken = trick_end(t, trick, trump, d.seats_out, state.leader)
    if game.trick_winner_hooks:
        winner = t.trick_seats[d.seats_out][state.leader][winning_index(state, d, trick)]
    codes = t.cards.codes
    texts = tuple([codes[card] for card in trick])
    won = flipped(tally.won, winner, taken)  # the cards of a trick were won by nobody before
    winners = (*tally.winners, winner)
    tally = Tally(won, winners, tally.revokes, tally.watched)
    events = (*events, (DEALER, TrickWon(winner, len(winners), texts)))
    for on_trick in game.on_trick_hooks:
        d, tally, events = on_trick(state, d, tally, winner, events)
    if deal_ends(state, d, tally):
        return deal_end.finish_deal(state, hands, d, tally, list(events))
    window = window_after(state, hands, d, tally, events, winner)
    if window is not None:
        return window
    return State(game, Phase.PLAY, winner, hands, (), winner, d, tally, state.match, Step(state.history, events))


def winning_index(state: State, d: DealInfo, trick: tuple[int, ...]) -> int:
    """The index in ``trick`` (the cards so far, in play order) of the card winning it.

    The rank tables' answer, then each mechanism's rule of who wins a trick (its ``trick_winner``) in turn.
    """
    t = state.game.tables
    assert d.trump is not None
    index = winner_index(t, trick, d.trump)
    for hook in state.game.trick_winner_hooks:
        index = hook(state, d, trick, index)
    return index


def deal_ends(state: State, d: DealInfo, tally: Tally) -> bool:
    """Whether the trick ``tally`` has just counted ends the deal: its last, or one the contract ends the play at."""
    return len(tally.winners) == d.tricks or (state.game.tables.ends_early and deal_end.ends_early(state, d, tally))


def window_after(
    state: State,
    hands: tuple[int, ...],
    d: DealInfo,
    tally: Tally,
    events: tuple[tuple[Actor, Event], ...],
    winner: int,
) -> State | None:
    """The window a mechanism opens after the trick ``winner`` took (a late announcement, declarations), if any."""
    for after_trick in state.game.after_trick_hooks:
        window = after_trick(state, hands, d, tally, events, winner)
        if window is not None:
            return window
    return None


def _played(event: CardPlayed, game: GameLike) -> Action:
    return game.action(f"play {event.card}")


MECHANISM = Mechanism(Phase.PLAY, _legal, _check, _apply, replays=MappingProxyType({CardPlayed: _played}), due=_due)
