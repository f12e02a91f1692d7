"""The bot protocol, and the bot that plays at random.

A bot decides from ``View.from_state(state, seat)`` alone, so it never sees more than its seat may.
"""

from __future__ import annotations

import random
from typing import Protocol

from trickrules.engine.state import GameLike, State
from trickrules.records.eventlog import EventLog
from trickrules.records.view import View

__all__ = ["Bot", "RandomBot", "decide"]


class Bot(Protocol):
    """Anything that picks an action's text from a view."""

    def choose(self, view: View) -> str:
        """The text of the action to take; it must be one of ``view.legal``."""
        ...


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, game: GameLike, seed: int = 0) -> None:
        self.game = game
        self._rng = random.Random(seed)

    def choose(self, view: View) -> str:
        """A legal action at random."""
        return view.legal[self._rng.randrange(len(view.legal))]


def decide(bot: Bot, state: State, seat: int) -> str:
    """``bot``'s action for ``seat`` at ``state``, from what the seat knows and nothing else.

    A bot that searches (it has ``choose_known(view, log)``) is given the seat's view and its log
    (``EventLog.from_state(state).for_seat(seat)``); any other bot the view alone.
    """
    view = View.from_state(state, seat)
    known = getattr(bot, "choose_known", None)
    if known is None or len(view.legal) == 1:
        return bot.choose(view)
    text: str = known(view, EventLog.from_state(state).for_seat(seat))
    return text

