"""The bulk path: tricks played by random choice on mutable working state.

A simulation plays millions of cards that no one reads. :func:`play_random`
takes a state in the play phase and plays the cards of the seats in
``seats`` (a bit mask) the way a uniform random bot would, with the hands,
the trick and the cards won as lists it changes in place and no events
recorded. It shares every rule with the public engine: which cards are
legal and who wins a trick are the play kernel's
(:func:`~trickrules.engine.kernel.mask_of`, :func:`~trickrules.engine.kernel.trick_end`),
as in the engine. Whatever else a step can do it leaves to the engine: it
stops, and gives back a :class:`State`, before

- a seat not in ``seats`` is to move;
- a card that ends the deal's last trick (the deal is scored by the engine);
- any trick's last card where a mechanism of the game may open a window
  between tricks (a late announcement, a declaration window) or a contract
  may end the play early;
- a card a mechanism watches (the called card, while its holder is secret).

A game with a mechanism that narrows the legal cards (its ``narrow``) is
played by the engine alone: the bulk path plays nothing there.

A random choice is the ``int(rng.random() * n)``-th of the ``n`` legal cards
in deck order, exactly as a random bot choosing among
:meth:`State.legal_actions` does, so the same generator gives the same deal
through either path (``tests/test_bulk.py`` checks it deal by deal). The
state given back holds no history of the cards played here.
"""

from __future__ import annotations

import random

from trickrules.compile.codegen import unpacker
from trickrules.engine.kernel import mask_of, trick_end
from trickrules.engine.records import Phase, evolve
from trickrules.engine.state import State

__all__ = ["play_random"]


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
    game = state.game
    if state.phase != Phase.PLAY or seat is None or not (seats >> seat) & 1 or d.trump is None or game._narrow:
        return state, 0, None
    t = game._tables
    tally = state.tally
    cards_in = unpacker(range(t.cards.size))
    bit = t.bit
    stop_at_trick_end = bool(game._after_trick) or t.ends_early
    last = t.trick_last[d.seats_out]
    following = t.next_seat[d.seats_out]
    watched = tally.watched
    trump = d.trump
    seats_out = d.seats_out
    hands = list(state.hands)
    won = list(tally.won)
    winners = list(tally.winners)
    trick = state.trick
    leader = state.leader
    played = 0
    pending: int | None = None
    while True:
        hand = hands[seat]
        choices = cards_in(mask_of(t, hand, trick, leader, seat, d, not winners, won)[0])
        card = choices[int(rng.random() * len(choices))]
        ends_trick = len(trick) == last
        if (watched >> card) & 1 or (ends_trick and (stop_at_trick_end or len(winners) + 1 == d.tricks)):
            pending = card
            break
        hands[seat] = hand ^ bit[card]
        trick = (*trick, card)
        played += 1
        if ends_trick:
            seat, taken = trick_end(t, trick, trump, seats_out, leader)
            won[seat] |= taken
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
