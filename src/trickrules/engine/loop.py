"""The generic loop: from one phase of a deal to the next, by the game's sequence of mechanisms.

When a mechanism has done its part of a deal (a contract won, a partner
chosen, cards handed on), it hands the deal to :func:`advance`, which asks
the game's mechanisms in the order of its sequence (compiled from the spec,
:func:`trickrules.compile.sequence.phases`, with registered mechanisms
inserted) whether they are due, and gives the move to the first that is.
The play is last and always due. This module knows no mechanism by name.
"""

from __future__ import annotations

from collections.abc import Sequence

from trickrules.engine.events import Event
from trickrules.engine.state import State
from trickrules.engine.values import Actor, DealInfo, Step, Tally, evolve

__all__ = ["advance", "moved"]


def moved(
    state: State,
    phase: str,
    to_move: int,
    d: DealInfo,
    events: Sequence[tuple[Actor, Event]],
    tally: Tally | None = None,
    leader: int | None = None,
) -> State:
    """The state after a step between tricks that moves to ``phase`` (same hands, no trick on the table)."""
    history = Step(state.history, tuple(events)) if events else state.history
    return State(
        state.game,
        phase,
        to_move,
        state.hands,
        (),
        state.leader if leader is None else leader,
        d,
        state.tally if tally is None else tally,
        state.match,
        history,
    )


def advance(
    state: State, d: DealInfo, events: Sequence[tuple[Actor, Event]], tally: Tally | None = None
) -> State:
    """The deal's next decision: the first mechanism of the game's sequence that is due gets the move.

    The seat the last mechanism (the play) names also becomes the leader
    of the first trick; ``tally``, where given, replaces the state's.
    """
    sequence = state.game.sequence
    for mechanism in sequence:
        due = mechanism.due
        if due is None:
            continue
        seat = due(state, d)
        if seat is not None:
            if mechanism is not sequence[-1]:
                return moved(state, mechanism.phase, seat, d, events, tally)
            game = state.game
            if game.on_play_start_hooks:  # a mechanism's reaction to the play's beginning (a hand laid face up)
                played = state.tally if tally is None else tally
                if not played.winners:
                    found = tuple(events)
                    for start in game.on_play_start_hooks:
                        d, played, found = start(state, d, played, found)
                    tally, events = played, found
            watch = game.watch_hooks
            if watch:  # the cards some mechanism watches from the first lead on
                played = state.tally if tally is None else tally
                if not played.winners:
                    cards = played.watched
                    for hook in watch:
                        cards |= hook(game, d)
                    tally = evolve(played, watched=cards)
            return moved(state, mechanism.phase, seat, d, events, tally, seat)
    raise AssertionError("the play is always due")  # pragma: no cover
