"""Playing a whole match with bots: the loop every front end needs.

>>> import trickrules
>>> from trickrules.faces.bots import make_bots
>>> from trickrules.faces.match import play_match
>>> game = trickrules.load("cuatrola", {"target": "11"})
>>> final = play_match(game, make_bots(game, "heuristic", seed=3), seed=3)
>>> final.is_terminal, len(final.winners) > 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from trickrules.engine.state import GameLike, State
from trickrules.faces.bots import Bot
from trickrules.faces.random_bot import decide

__all__ = ["play_match"]


def play_match(
    game: GameLike,
    players: Sequence[Bot],
    seed: int | None = None,
    *,
    max_deals: int | None = None,
    on_step: Callable[[State], None] | None = None,
    dealer: int = 0,
    deals: Mapping[int, Sequence[Sequence[str]]] | None = None,
) -> State:
    """Play a match of ``game``, each seat's bot choosing from that seat's view; return the last state.

    ``on_step`` is called with the first state and with the state after every
    step (its ``last_events`` are what the step produced). With ``max_deals``
    the match stops once that many deals are done, over or not. ``dealer``
    and ``deals`` (stacked deals by number) are ``new_match``'s.
    """
    state = game.new_match(seed=seed, dealer=dealer, deals=deals)
    if on_step is not None:
        on_step(state)
    while not state.is_terminal and (max_deals is None or state.match.deals_done < max_deals):
        seat = state.chooser
        assert seat is not None
        state = state.apply(decide(players[seat], state, seat))
        if on_step is not None:
            on_step(state)
    return state
