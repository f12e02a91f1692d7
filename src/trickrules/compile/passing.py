"""Compiling the ``[passing]`` section: how many cards each player passes, and to which seat.

Each word of ``passing.cycle`` becomes a seat offset (``next`` is 1,
``previous`` is ``players - 1``, ``across`` is ``players / 2``, ``hold`` is
0); :mod:`trickrules.engine.phases.passing` plays the phase from them.
"""

from __future__ import annotations

from attrs import frozen

from trickrules.errors import SpecError
from trickrules.spec.model import PASS_DIRECTIONS, Spec
from trickrules.spec.sealed import Sealed

__all__ = ["PassingRules", "compile_passing"]


@frozen
class PassingRules(Sealed):
    """How many cards each player passes, and the seat offset of each deal of the cycle."""

    #: How many cards every player passes (0: no passing).
    cards: int = 0
    #: Per deal of the cycle: how many seats on the cards go (0: that deal holds).
    offsets: tuple[int, ...] = ()
    #: Whether each deal draws its entry of the cycle at random rather than in turn.
    by_chance: bool = False

    @property
    def used(self) -> bool:
        """Whether cards are ever passed."""
        return self.cards > 0 and any(self.offsets)


def _fail(where: str, path: str, message: str) -> SpecError:
    return SpecError(f"{where}: {path}: {message}")


def compile_passing(spec: Spec, hand_size: int, where: str) -> PassingRules:
    """Check ``spec.passing`` against the table and the hand size; its seat offsets."""
    p = spec.passing
    players = spec.seating.players
    if not p.cards:
        if p.cycle:
            raise _fail(where, "passing.cycle", "no cards are passed (passing.cards is 0): leave the cycle out.")
        return PassingRules(by_chance=p.order == "chance")
    if not 0 < p.cards <= hand_size:
        raise _fail(where, "passing.cards", f"expected 1 to {hand_size} cards (the hand size), found {p.cards}.")
    if not p.cycle:
        raise _fail(where, "passing.cycle", "give where the cards go, deal after deal (e.g. ['next', 'hold']).")
    offsets = []
    for k, word in enumerate(p.cycle):
        if word not in PASS_DIRECTIONS:
            raise _fail(where, f"passing.cycle[{k}]", f"expected one of {list(PASS_DIRECTIONS)}, found {word!r}.")
        if word == "across" and players % 2:
            raise _fail(where, f"passing.cycle[{k}]", f"'across' needs an even number of players, not {players}.")
        offsets.append({"next": 1, "previous": players - 1, "across": players // 2, "hold": 0}[word])
    return PassingRules(cards=p.cards, offsets=tuple(offsets), by_chance=p.order == "chance")
