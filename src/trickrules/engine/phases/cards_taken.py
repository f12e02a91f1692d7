"""Cards taken: scoring variables that count, per seat, the cards of a named set it took in tricks.

A spec uses it with a ``[mechanisms.cards_taken]`` section whose ``sets``
table maps the name of a scoring variable listed in ``scoring.external`` to
a list of card codes. Each such variable is, for each seat, how many of those
cards it took in the deal's tricks; for a side it is the side's sum, and
``opp_<name>`` the others' (so ``kings == 4`` says that the side took all four
kings, a silent bonus of Tarok; ``trula == 3`` the three trula cards). Only
cards won in tricks count: not a talon's cards nor discards.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from attrs import frozen

from trickrules.engine.events import TrickWon
from trickrules.engine.mechanism import Events, register, rule_only
from trickrules.engine.phases.sections import check_keys, named_and_checked, section_error
from trickrules.engine.state import State
from trickrules.engine.values import DealInfo, MatchInfo, Tally, with_part

if TYPE_CHECKING:
    from trickrules.compile.tables import Tables
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "PHASE", "CardsTaken", "cards_taken_params", "install"]

#: This mechanism's phase, and the name of its spec section.
PHASE = "cards_taken"


@frozen(weakref_slot=False)
class CardsTaken:
    """The record of a deal: per variable (in the section's order), how many of its cards each seat took."""

    counts: tuple[tuple[int, ...], ...] = ()


_PARAMS: dict[int, tuple[Tables, tuple[tuple[str, int], ...]]] = {}


def cards_taken_params(t: Tables) -> tuple[tuple[str, int], ...]:
    """Each variable's name and its cards (a mask); :class:`~trickrules.errors.SpecError` for a bad section."""
    found = _PARAMS.get(id(t))
    if found is not None and found[0] is t:
        return found[1]
    section = t.mechanism_sections[PHASE]
    check_keys(PHASE, section, ("sets",))
    sets = section.get("sets", MappingProxyType({}))
    if not isinstance(sets, Mapping) or not sets:
        raise section_error(PHASE, "sets", f"expected a table variable name -> card codes, found {sets!r}.")
    out = []
    for name, codes in sets.items():
        if name not in t.rules.external:
            raise section_error(PHASE, f"sets.{name}", "name a variable of scoring.external.")
        if not isinstance(codes, (list, tuple)) or not codes or any(type(c) is not str for c in codes):
            raise section_error(PHASE, f"sets.{name}", f"expected a list of card codes, found {codes!r}.")
        mask = 0
        for code in codes:
            if code not in t.card_of:
                raise section_error(PHASE, f"sets.{name}", f"{code!r} is not a card of the deck.")
            mask |= 1 << t.card_of[code]
        out.append((name, mask))
    params = tuple(out)
    _PARAMS[id(t)] = (t, params)
    return params


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> CardsTaken:
    zero = (0,) * game.players
    return CardsTaken(tuple(zero for _ in cards_taken_params(game.tables)))


def _on_trick(state: State, d: DealInfo, tally: Tally, winner: int, events: Events) -> tuple[DealInfo, Tally, Events]:
    game = state.game
    ended = next(e for _, e in reversed(events) if isinstance(e, TrickWon))
    cards = 0
    for code in ended.cards:
        cards |= 1 << game.tables.card_of[code]
    record: CardsTaken = d.parts[game.slot[PHASE]]
    counts = []
    for (_, mask), row in zip(cards_taken_params(game.tables), record.counts, strict=True):
        taken = (cards & mask).bit_count()
        counts.append(row if not taken else tuple(n + taken * (s == winner) for s, n in enumerate(row)))
    return with_part(d, game.slot[PHASE], CardsTaken(tuple(counts))), tally, events


def _facts(game: GameLike, d: DealInfo) -> Mapping[str, Any]:
    record: CardsTaken = d.parts[game.slot[PHASE]]
    names = (name for name, _ in cards_taken_params(game.tables))
    return {"external": dict(zip(names, record.counts, strict=True))}


_uses = named_and_checked(PHASE, cards_taken_params)


MECHANISM = rule_only(PHASE, start=_start, on_trick=_on_trick, facts=_facts)


def install() -> None:
    """Register this mechanism (done once when :mod:`trickrules.engine.phases` is imported)."""
    register(MECHANISM, uses=_uses)
