"""The bot protocol, and the bot that plays at random.

A bot decides from ``View.from_state(state, seat)`` alone, so it never sees more than its seat may.
"""

from __future__ import annotations

import random
from typing import Protocol

from trickrules.engine.state import GameLike
from trickrules.records.view import View

__all__ = ["Bot", "RandomBot"]


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
