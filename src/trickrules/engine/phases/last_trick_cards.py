"""Cards in the last trick: scoring variables for a card that falls in the deal's last trick (an ultimo).

A spec uses it with a ``[mechanisms.last_trick_cards]`` section whose
``cards`` table maps a card code, or ``called`` (the card called in the
deal, if any), to the name of a scoring variable listed in
``scoring.external``. Each such variable is 1 for the seat that won the
deal's last trick when that card is in it, 0 otherwise; so for a side it
says whether the side took the card in the last trick, and ``opp_<name>``
whether the others did (their sum says whether the card fell in it at all).
The last trick is the last one played, also where the play stopped early.
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

__all__ = ["CALLED", "MECHANISM", "PHASE", "LastTrick", "install", "last_trick_params"]

#: This mechanism's phase, and the name of its spec section.
PHASE = "last_trick_cards"
#: The key of the ``cards`` table that stands for the called card.
CALLED = "called"


@frozen(weakref_slot=False)
class LastTrick:
    """The record of a deal: the cards of the last trick so far (a mask) and its winner (``-1``: none yet)."""

    cards: int = 0
    winner: int = -1


_START = LastTrick()
_PARAMS: dict[int, tuple[Tables, tuple[tuple[int, str], ...]]] = {}


def last_trick_params(t: Tables) -> tuple[tuple[int, str], ...]:
    """Each card (``-1``: the called card) with the name of its variable; :class:`~trickrules.errors.SpecError`."""
    found = _PARAMS.get(id(t))
    if found is not None and found[0] is t:
        return found[1]
    section = t.mechanism_sections[PHASE]
    check_keys(PHASE, section, ("cards",))
    cards = section.get("cards", MappingProxyType({}))
    if not isinstance(cards, Mapping) or not cards:
        raise section_error(PHASE, "cards", f"expected a table card code -> variable name, found {cards!r}.")
    out = []
    for code, name in cards.items():
        if code != CALLED and code not in t.card_of:
            raise section_error(PHASE, f"cards.{code}", "not a card of the deck (nor 'called').")
        if type(name) is not str or name not in t.rules.external:
            raise section_error(PHASE, f"cards.{code}", f"name a variable of scoring.external, found {name!r}.")
        out.append((-1 if code == CALLED else t.card_of[code], name))
    params = tuple(out)
    _PARAMS[id(t)] = (t, params)
    return params


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> LastTrick:
    return _START


def _on_trick(state: State, d: DealInfo, tally: Tally, winner: int, events: Events) -> tuple[DealInfo, Tally, Events]:
    game = state.game
    ended = next(e for _, e in reversed(events) if isinstance(e, TrickWon))
    mask = 0
    for code in ended.cards:
        mask |= 1 << game.tables.card_of[code]
    return with_part(d, game.slot[PHASE], LastTrick(mask, winner)), tally, events


def _facts(game: GameLike, d: DealInfo) -> Mapping[str, Any]:
    record: LastTrick = d.parts[game.slot[PHASE]]
    called = d.parts[game.slot["call"]].called if "call" in game.slot else None
    out: dict[str, tuple[int, ...]] = {}
    for card, name in last_trick_params(game.tables):
        which = called if card == -1 else card
        held = which is not None and record.winner >= 0 and (record.cards >> which) & 1
        out[name] = tuple(int(bool(held) and s == record.winner) for s in range(game.players))
    return {"external": out}


_uses = named_and_checked(PHASE, last_trick_params)


MECHANISM = rule_only(PHASE, start=_start, on_trick=_on_trick, facts=_facts)


def install() -> None:
    """Register this mechanism (done once when :mod:`trickrules.engine.phases` is imported)."""
    register(MECHANISM, uses=_uses)
