"""The bulk path: tricks played by random choice on mutable working state.

A simulation plays millions of cards that no one reads. :func:`play_random`
takes a state in the play phase and plays the cards of the seats in
``seats`` (a bit mask) the way a uniform random bot would, with the hands,
the trick and the cards won as lists it changes in place and no events
recorded. It shares every rule with the public engine: which cards are
legal and who wins a trick are the play kernel's
(:func:`~trickrules.engine.kernel.mask_of`, :func:`~trickrules.engine.kernel.trick_end`),
as in the engine.

Where a step needs more than the kernel (a trick's end where a mechanism
may open a window between tricks, such as a declaration or a late
announcement, or a contract may end the play early; a card a mechanism
watches, such as the called card while its holder is secret), the bulk path
has the engine take that step (:meth:`State.apply`) and, while the seat
asked in a window is one of ``seats``, takes the window's random choice
itself the same way, then goes on with the cards. It stops, and gives back
the state, when a seat not in ``seats`` is to choose, or before the step that
ends the deal (the deal's last card, or a step the engine finds ends it):
that step is given back as the chosen action for the caller to apply, as
the random bot's choice of that step.

A random choice is the ``int(rng.random() * n)``-th of the ``n`` legal
actions in their stable order (cards in deck order), exactly as a random bot
choosing among :meth:`State.legal_actions` does, so the same generator
gives the same deal through either path (``tests/test_bulk.py`` checks it
deal by deal). A game with a mechanism that narrows the legal cards (its
``narrow``) or chooses for another seat (its ``chooser``) is played by the
engine alone: the bulk path plays nothing there.
"""

from __future__ import annotations

import random

from trickrules.compile.codegen import unpacker
from trickrules.engine.actions import Action
from trickrules.engine.kernel import flipped, mask_of, trick_end
from trickrules.engine.phases.play import deal_ends, window_after
from trickrules.engine.state import State, dead_end
from trickrules.engine.values import Phase, Tally, evolve

__all__ = ["play_random"]


def play_random(state: State, seats: int, rng: random.Random) -> tuple[State, int, Action | None]:
    """Play random choices for the seats in ``seats`` from ``state`` on.

    Gives back the state reached, how many actions were taken, and the
    action already chosen for the next step if that step ends the deal
    (``None`` when the next chooser is not in ``seats``, or the state is not
    one of the play phase). The caller applies that action through the
    engine, as the random bot's choice of that step.
    """
    taken = 0
    while True:
        state, played, pending = _cards(state, seats, rng)
        taken += played
        if pending is not None:
            card, ends_deal = pending
            action = state.game.shared.play_actions[card]
            if ends_deal:
                return state, taken, action
            before = state
            state = state.apply(action)  # a watched card: the engine plays it
            if state.match.deals_done != before.match.deals_done:
                return before, taken, action
            taken += 1
        elif not played:
            return state, taken, None
        while not state.is_terminal and state.phase != Phase.PLAY:  # a window: its random choice, for a seat of ours
            chooser = state.chooser
            if chooser is None or not (seats >> chooser) & 1:
                return state, taken, None
            legal = state.legal_actions()  # never empty: a dead end raises the engine's SpecError
            action = legal[int(rng.random() * len(legal))]
            after = state.apply(action)
            if after.match.deals_done != state.match.deals_done:
                return state, taken, action
            state = after
            taken += 1


def _cards(state: State, seats: int, rng: random.Random) -> tuple[State, int, tuple[int, bool] | None]:
    """Play random cards for ``seats`` on mutable lists until a step needs the engine or a window opens.

    Gives back the state reached (a window's, where one opened after a
    trick), how many cards were played, and, when the next card needs the
    engine, that card and whether it ends the deal.
    """
    seat = state.to_move
    d = state.deal
    game = state.game
    if state.phase != Phase.PLAY or seat is None or not (seats >> seat) & 1 or d.trump is None:
        return state, 0, None
    if game.narrow_hooks or game.chooser_hooks or game.trick_winner_hooks or game.on_trick_hooks:
        # a mechanism narrows the cards, chooses for a seat, or has a say at a trick's end: the engine plays
        return state, 0, None
    t = game.tables
    tally = state.tally
    cards_in = unpacker(range(t.cards.size))
    bit = t.bit
    windows = game.after_trick_hooks
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
    while True:
        hand = hands[seat]
        choices = cards_in(mask_of(t, hand, trick, leader, seat, d, not winners, won)[0])
        if not choices:  # no card to play (never with the built-in rules): the engine's error, not an IndexError
            raise dead_end(_state(state, seat, hands, trick, leader, won, winners))
        card = choices[int(rng.random() * len(choices))]
        if (watched >> card) & 1:
            return _state(state, seat, hands, trick, leader, won, winners), played, (card, False)
        if len(trick) != last:
            hands[seat] = hand ^ bit[card]
            trick = (*trick, card)
            played += 1
            seat = following[seat]
        else:
            winner, taken = trick_end(t, (*trick, card), trump, seats_out, leader)
            done = Tally(flipped(won, winner, taken), (*winners, winner), tally.revokes, watched)
            if deal_ends(state, d, done):  # the engine takes the step that ends the deal, and scores it
                return _state(state, seat, hands, trick, leader, won, winners), played, (card, True)
            hands[seat] = hand ^ bit[card]
            won[winner] |= taken
            winners.append(winner)
            played += 1
            seat = leader = winner
            trick = ()
            if windows:  # what a mechanism opens between tricks, asked as the engine asks it
                opened = window_after(state, tuple(hands), d, done, (), winner)
                if opened is not None:
                    return opened, played, None
        if not (seats >> seat) & 1:
            return _state(state, seat, hands, trick, leader, won, winners), played, None


def _state(
    state: State, seat: int, hands: list[int], trick: tuple[int, ...], leader: int, won: list[int], winners: list[int]
) -> State:
    """The state the cards played so far reach (``state`` itself if none were)."""
    tally = state.tally
    if len(winners) == len(tally.winners) and trick == state.trick:
        return state
    tally = evolve(tally, won=tuple(won), winners=tuple(winners))
    return State(state.game, Phase.PLAY, seat, tuple(hands), trick, leader, state.deal, tally, state.match, None)
