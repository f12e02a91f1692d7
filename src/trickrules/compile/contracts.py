"""The compiled records of the contracts, declarations and late announcements of a game.

:func:`trickrules.compile.rules.compile_rules` builds them (and re-exports
them); the engine reads them on its hot path.
"""

from __future__ import annotations

from attrs import frozen

from trickrules.compile.cards import CardTable
from trickrules.compile.modes import (
    AnnouncedBy,
    ContractSide,
    DeclarationSuit,
    ExchangeReturns,
    FirstLead,
    LateAnswer,
    LateDeclaration,
    LateRefusal,
    TrumpChooser,
    WindowSeats,
)
from trickrules.errors import SpecError
from trickrules.spec.formula import Formula
from trickrules.spec.sealed import Sealed

__all__ = ["CompiledContract", "CompiledDeclaration", "LateAnnouncement", "contract_trumps"]


@frozen
class CompiledContract(Sealed):
    """A contract of the ladder, ready for the engine."""

    index: int
    name: str
    label: str
    side: ContractSide
    trump_by: TrumpChooser
    call: bool
    exchange: int
    requires_mask: int
    eligible: Formula | None
    vars: tuple[tuple[str, Formula], ...]
    public_call: bool = False
    exchange_returns: ExchangeReturns = ExchangeReturns.ANY
    first_lead: FirstLead = FirstLead.ELDEST
    end_when: Formula | None = None
    #: The trump key the contract fixes when it is won (``bidding.contracts[].trumps``), else ``None``.
    trumps: int | None = None


@frozen
class CompiledDeclaration(Sealed):
    """A meld: its name, the ranks that make it, which suits, its points."""

    index: int
    name: str
    ranks: tuple[int, ...]
    suit: DeclarationSuit
    points: int
    max_per_window: int
    contracts: frozenset[str]
    window_seats: WindowSeats = WindowSeats.SIDE
    max_first_window: int = 0
    late: LateDeclaration = LateDeclaration.ALLOWED


@frozen
class LateAnnouncement(Sealed):
    """An announcement offered during the play, after the declarer's side has won a run of tricks."""

    name: str
    #: The contracts it is offered in.
    contracts: frozenset[str]
    #: How many tricks in a row, from the first, the declarer's side must have won.
    after_run: int
    #: Who decides: the declarer alone, or the declarer's side (both partners).
    by: AnnouncedBy
    #: How a declarer without a partner answers: announce, lead or automatic.
    alone: LateAnswer
    #: What declining it does: nothing, or end the deal at once.
    refused: LateRefusal


def contract_trumps(code: str, cards: CardTable, where: str, path: str) -> int | None:
    """The trump key a contract fixes (``None`` for ``""``): a suit, a trump set, or ``none`` where the game has it."""
    if not code:
        return None
    try:
        key = cards.trump_key(code)
    except ValueError:
        known = ", ".join([*cards.suit_codes, *cards.set_names])
        raise SpecError(
            f"{where}: {path}: {code!r} is not a suit code, a trump set or 'none' (known: {known})."
        ) from None
    if key not in cards.trump_keys():
        raise SpecError(f"{where}: {path}: 'none' needs a deal without trumps (trump.allow_none = true).")
    return key
