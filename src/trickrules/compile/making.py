"""Compiling ``[making]``: trumps made round the table with a turned card (``trump.chosen_by = "made"``).

:func:`compile_making` checks the section against the deck, the deal and the
seating (with the key path in the message) and returns the flat record the
phase mechanisms read (:mod:`trickrules.engine.phases.making`, ``.discard``
and ``.alone``), or ``None`` for a game whose trumps are not made this way.
"""

from __future__ import annotations

from attrs import frozen

from trickrules.compile.modes import MakingRound
from trickrules.errors import SpecError
from trickrules.spec.model import MAKING_ROUNDS, MakingSpec, Spec
from trickrules.spec.sealed import Sealed

__all__ = ["Making", "compile_making"]


@frozen
class Making(Sealed):
    """The rounds of making trumps and what follows them, ready for the engine."""

    #: Each round's kind, in order: ``turned``, ``others`` or ``any``.
    rounds: tuple[MakingRound, ...]
    #: Whether the dealer takes the turned card when its suit is accepted (and discards a card).
    taken_by_dealer: bool
    #: Whether that discard may be the turned card itself.
    discard_turned: bool
    #: Whether the dealer may not pass in the last round (stick the dealer).
    dealer_must_name: bool
    #: Whether the next dealer deals when everyone passed (else the same dealer deals again).
    redeal_next: bool
    #: Whether the maker may play alone, and whether a defender may then defend alone.
    alone: bool
    defend_alone: bool


def _fail(where: str, path: str, message: str) -> SpecError:
    return SpecError(f"{where}: {path}: {message}")


def _check_unused(spec: Spec, where: str) -> None:
    """A game whose trumps are not made round the table may not use ``[making]`` or ``trump_by = "made"``."""
    if spec.making != MakingSpec():
        raise _fail(where, "making", "making trumps round the table needs trump.chosen_by = 'made'.")
    for n, c in enumerate(spec.bidding.contracts):
        if c.trump_by == "made":
            raise _fail(
                where,
                f"bidding.contracts[{n}].trump_by",
                "'made' trumps replace the auction; a contract cannot use it.",
            )


def _check_partners(spec: Spec, where: str) -> None:
    """Going alone needs fixed partnerships of two; defending alone, two such teams."""
    m = spec.making
    seating = spec.seating
    pairs = seating.partnerships == "fixed" and all(len(team) == 2 for team in seating.teams)
    if m.alone and not pairs:
        raise _fail(where, "making.alone", "going alone needs fixed partnerships in teams of two (seating.teams).")
    if m.defend_alone and not (pairs and len(seating.teams) == 2):
        raise _fail(
            where,
            "making.defend_alone",
            "defending alone needs fixed partnerships of two teams of two (seating.teams).",
        )


def _check_offers(spec: Spec, suits: tuple[str, ...], where: str) -> None:
    """Every round must offer a suit to name: else the round is dead, and with stick the dealer he has no action.

    An ``others`` round offers every suit but the turned card's, so nothing
    with a deck of one suit; a ``turned`` or ``any`` round always offers one.
    """
    if len(suits) > 1:
        return
    m = spec.making
    for k, kind in enumerate(m.rounds):
        if kind == "others":
            stuck = (
                " and the dealer, who may not pass in it (making.dealer_must_name), would have no legal action"
                if m.dealer_must_name and k == len(m.rounds) - 1
                else ""
            )
            raise _fail(
                where,
                f"making.rounds[{k}]",
                f"an 'others' round offers every suit but the turned card's, and the deck has one suit "
                f"({suits[0]!r}): nobody could name trumps in it{stuck}.",
            )


def compile_making(spec: Spec, suits: tuple[str, ...], where: str) -> Making | None:
    """Check ``[making]`` and compile it; ``None`` unless ``trump.chosen_by = "made"``.

    ``suits`` are the deck's suit codes. A section whose rounds could leave a
    seat with no legal action, or nobody able to make trumps, is refused.
    """
    if spec.trump.chosen_by != "made":
        _check_unused(spec, where)
        return None
    m = spec.making
    if spec.bidding.contracts:
        raise _fail(
            where,
            "bidding.contracts",
            "trumps made round the table ('made') take the place of an auction: no contracts.",
        )
    if spec.trump.allow_none:
        raise _fail(where, "trump.allow_none", "trumps made round the table are always a suit.")
    if not m.rounds:
        raise _fail(where, "making.rounds", "give at least one round ('turned', 'others' or 'any').")
    turned = spec.deal.turn_from_stock or spec.deal.turn_last_card
    for k, kind in enumerate(m.rounds):
        if kind not in MAKING_ROUNDS:
            raise _fail(where, f"making.rounds[{k}]", f"expected one of {list(MAKING_ROUNDS)}, found {kind!r}.")
        if kind != "any" and not turned:
            raise _fail(where, f"making.rounds[{k}]", f"a {kind!r} round needs a turned card (deal.turn_from_stock).")
    taken = m.taken_by == "dealer" and "turned" in m.rounds
    if taken and not spec.deal.turn_from_stock:
        raise _fail(
            where, "making.taken_by", "the dealer takes up a card turned from the stock: set deal.turn_from_stock."
        )
    if m.discard_turned and not taken:
        raise _fail(where, "making.discard_turned", "needs the dealer to take the turned card (taken_by = 'dealer').")
    _check_offers(spec, suits, where)
    _check_partners(spec, where)
    return Making(
        rounds=tuple(MakingRound(kind) for kind in m.rounds),
        taken_by_dealer=taken,
        discard_turned=m.discard_turned,
        dealer_must_name=m.dealer_must_name,
        redeal_next=m.all_pass == "next_dealer",
        alone=m.alone,
        defend_alone=m.defend_alone,
    )
