"""The bulk path: tricks played by random choice on mutable working state.

A simulation plays millions of cards that no one reads. :func:`play_random`
takes a state in the play phase and plays the cards of the seats in
``seats`` (a bit mask) the way a uniform random bot would, with the hands,
the trick and the cards won as lists it changes in place and no events
recorded. It shares every rule with the public engine: which cards are
legal is :func:`~trickrules.engine.obligations.legal_play_mask` (or
:func:`~trickrules.engine.obligations.leads_mask`), who wins a trick is
:func:`~trickrules.engine.obligations.winner_index`. Whatever else a step
can do it leaves to the engine: it stops, and gives back a :class:`State`,
before

- a seat not in ``seats`` is to move;
- a card that ends the deal's last trick (the deal is scored by the engine);
- any trick's last card where the game opens something between tricks (a
  late announcement, a declaration window) or a contract may end the play early;
- the called card, while its holder is still secret.

A random choice is the ``int(rng.random() * n)``-th of the ``n`` legal cards
in deck order, exactly as a random bot choosing among
:meth:`State.legal_actions` does, so the same generator gives the same deal
through either path (``tests/test_bulk.py`` checks it deal by deal). The
state given back holds no history of the cards played here. The card it
leaves for the engine is a card index; :func:`card_actions` gives the
action that plays it.
"""

from __future__ import annotations

import random

from trickrules.compile.codegen import unpacker
from trickrules.engine.actions import Action
from trickrules.engine.obligations import leads_mask, legal_play_mask, winner_index
from trickrules.engine.records import Phase, evolve
from trickrules.engine.state import GameLike, State

__all__ = ["card_actions", "play_random"]


def card_actions(game: GameLike) -> tuple[Action, ...]:
    """The game's ``play`` actions by card index (bit ``i`` of a mask is ``card_actions(game)[i]``).

    They are the values the engine itself offers and compares (shared per
    game), so ``card_actions(game)[pending]`` is the action to apply for the
    card :func:`play_random` left ``pending``.
    """
    return game._shared.play_actions


def play_random(state: State, seats: int, rng: random.Random) -> tuple[State, int, int | None]:
    """Play random cards for the seats in ``seats`` from ``state`` on.

    Gives back the state reached, how many cards were played, and the card
    already chosen for the next step if that step is left to the engine
    (``None`` when the next seat is not in ``seats``, or the state is not
    one of the play phase). The caller plays that card through the engine,
    as the random bot's choice of that step.
    """
    seat = state.to_move
    d = state.deal
    if state.phase is not Phase.PLAY or seat is None or not (seats >> seat) & 1 or d.trump is None:
        return state, 0, None
    game = state.game
    t = game._tables
    tally = state.tally
    cards_in = unpacker(range(t.cards.size))
    bit = t.bit
    restricted = t.leads.restricted
    stop_at_trick_end = t.between_tricks or t.ends_early
    last = t.trick_last[d.seats_out]
    following = t.next_seat[d.seats_out]
    order = t.trick_seats[d.seats_out]
    called = d.called if d.called is not None and not d.revealed else -1
    no_lead = t.rules.play.called_card_no_lead
    hands = list(state.hands)
    won = list(tally.won)
    winners = list(tally.winners)
    trick = state.trick
    leader = state.leader
    played = 0
    pending: int | None = None
    while True:
        hand = hands[seat]
        if restricted:
            mask = leads_mask(t, hand, trick, leader, seat, d, not winners, won)[0]
        elif trick:
            mask = legal_play_mask(t, hand, trick, leader, seat, d)[0]
        elif no_lead and seat == d.partner:  # the called card's holder may not lead it (public or not)
            mask = legal_play_mask(t, hand, (), leader, seat, d)[0]
        else:
            mask = hand
        choices = cards_in(mask)
        card = choices[int(rng.random() * len(choices))]
        ends_trick = len(trick) == last
        if card == called or (ends_trick and (stop_at_trick_end or len(winners) + 1 == d.tricks)):
            pending = card
            break
        hands[seat] = hand ^ bit[card]
        trick = (*trick, card)
        played += 1
        if ends_trick:
            index = winner_index(t, trick, d.trump)
            seat = order[leader][index]
            for c in trick:
                won[seat] |= bit[c]
            winners.append(seat)
            leader = seat
            trick = ()
        else:
            seat = following[seat]
        if not (seats >> seat) & 1:
            break
    if not played:
        return state, 0, pending
    tally = evolve(tally, won=tuple(won), winners=tuple(winners))
    after = State(game, Phase.PLAY, seat, tuple(hands), trick, leader, d, tally, state.match, None)
    return after, played, pending
