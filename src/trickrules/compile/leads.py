"""Compiling the obligations about leads and the first trick into :class:`LeadRules`.

Three play obligations say what may be led, or played to the first trick,
rather than what follows a lead: ``first_lead`` (the holder of a named card
leads the first trick, with that card or a card of its suit),
``lead_when_broken`` (a suit may not be led until a card of it, or one of
the cards that break it, has been played) and ``no_points_first_trick`` (no
card worth points on the first trick unless following suit).
:mod:`trickrules.compile.play` checks which parameters they take;
:func:`compile_leads` checks their values against the deck and turns them
into card masks, which :mod:`trickrules.engine.obligations` applies.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from attrs import evolve, frozen

from trickrules.compile.cards import CardTable
from trickrules.errors import SpecError
from trickrules.spec.model import ObligationSpec, Spec
from trickrules.spec.sealed import Sealed

__all__ = ["FIRST_LEAD_MODES", "LEAD_RULE_PARAMS", "LeadRules", "compile_leads"]

#: The parameters each of these obligations takes.
LEAD_RULE_PARAMS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "first_lead": ("cards", "mode"),
        "lead_when_broken": ("suit", "broken_by", "unless_only", "mode"),
        "no_points_first_trick": ("cards",),
    }
)
#: What the holder of the first lead's card may lead: that card, any card of its suit, or any card.
FIRST_LEAD_MODES = ("card", "suit", "any")
#: When the suit of ``lead_when_broken`` is broken: once one of its cards (or of ``broken_by``) has been
#: played to a trick, or never (then only a leader who holds nothing else may lead it).
BROKEN_MODES = ("when_played", "never")


@frozen
class LeadRules(Sealed):
    """The lead and first-trick obligations, as cards and card masks (0: the rule is not used)."""

    #: The card whose holder leads the first trick (``None``: the eldest hand leads).
    first_card: int | None = None
    #: The cards that holder may lead to the first trick.
    first_allowed: int = 0
    #: The cards of the suit that may not be led until it is broken.
    unbroken: int = 0
    #: The cards whose play breaks that suit: its own, and those of ``broken_by``.
    breakers: int = 0
    #: A leader whose other cards are all among these may lead the unbroken suit anyway.
    unless_only: int = 0
    #: The cards a player who does not follow suit may not play to the first trick while holding another.
    first_trick_barred: int = 0
    #: Whether any of these rules is used (the play then asks :mod:`trickrules.engine.obligations` for leads too).
    restricted: bool = False


def _fail(where: str, path: str, message: str) -> SpecError:
    return SpecError(f"{where}: {path}: {message}")


def _mask(codes: tuple[str, ...], cards: CardTable, where: str, path: str) -> int:
    mask = 0
    for k, code in enumerate(codes):
        if code not in cards.codes:
            raise _fail(where, f"{path}[{k}]", f"{code!r} is not a card of this deck.")
        mask |= 1 << cards.codes.index(code)
    return mask


def _suit_mask(cards: CardTable, suit: int) -> int:
    return sum(1 << c for c in range(cards.size) if cards.suit_of[c] == suit)


def _first_lead(ob: ObligationSpec, cards: CardTable, where: str, path: str) -> dict[str, int]:
    if len(ob.cards) != 1:
        raise _fail(where, f"{path}.cards", f"name exactly one card, found {list(ob.cards)}.")
    card = cards.codes.index(ob.cards[0]) if ob.cards[0] in cards.codes else None
    if card is None:
        raise _fail(where, f"{path}.cards[0]", f"{ob.cards[0]!r} is not a card of this deck.")
    mode = ob.mode or "card"
    if mode not in FIRST_LEAD_MODES:
        raise _fail(where, f"{path}.mode", f"expected one of {list(FIRST_LEAD_MODES)}, found {mode!r}.")
    allowed = {"card": 1 << card, "suit": _suit_mask(cards, cards.suit_of[card]), "any": (1 << cards.size) - 1}
    return {"first_card": card, "first_allowed": allowed[mode]}


def _when_broken(ob: ObligationSpec, cards: CardTable, where: str, path: str) -> dict[str, int]:
    if ob.suit not in cards.suit_codes:
        raise _fail(where, f"{path}.suit", f"expected a suit code of this deck, found {ob.suit!r}.")
    suit = _suit_mask(cards, cards.suit_codes.index(ob.suit))
    # mode = "never": nothing breaks the suit; only a leader who holds nothing else may lead it.
    mode = ob.mode or "when_played"
    if mode not in BROKEN_MODES:
        raise _fail(where, f"{path}.mode", f"expected one of {list(BROKEN_MODES)}, found {mode!r}.")
    return {
        "unbroken": suit,
        "breakers": 0 if mode == "never" else suit | _mask(ob.broken_by, cards, where, f"{path}.broken_by"),
        "unless_only": _mask(ob.unless_only, cards, where, f"{path}.unless_only"),
    }


def _no_points(ob: ObligationSpec, cards: CardTable, where: str, path: str) -> dict[str, int]:
    if ob.cards:
        return {"first_trick_barred": _mask(ob.cards, cards, where, f"{path}.cards")}
    return {"first_trick_barred": sum(1 << c for c in range(cards.size) if cards.points[c] > 0)}


_COMPILERS = {"first_lead": _first_lead, "lead_when_broken": _when_broken, "no_points_first_trick": _no_points}


def compile_leads(spec: Spec, cards: CardTable, where: str) -> LeadRules:
    """Check the lead and first-trick obligations of ``spec`` against the deck; their masks.

    Their parameters (which ones each rule takes, and that no rule is listed
    twice) are checked by :func:`trickrules.compile.play.compile_play`.
    """
    rules = LeadRules()
    for n, ob in enumerate(spec.play.obligations):
        compile_one = _COMPILERS.get(ob.rule)
        if compile_one is not None:
            rules = evolve(rules, restricted=True, **compile_one(ob, cards, where, f"play.obligations[{n}]"))
    return rules
