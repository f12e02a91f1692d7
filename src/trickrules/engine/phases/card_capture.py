"""A card captured by certain others: its player is charged (a penalty for a lost high trump, say).

A spec uses it with a ``[mechanisms.card_capture]`` section:

- ``card``: the card;
- ``by``: the cards that capture it: in a contract of ``contracts``, when a
  trick holding it is won by one of these, the player who played it is
  charged;
- ``contracts``: the contracts in which it applies;
- ``left_in_talon`` (default ``false``): where the card lay in a talon
  (:mod:`.talon_sets`) and the declarer did not take the set holding it,
  the declarer is charged; if the card later comes to the declarer's side
  with the talon's rest (:mod:`.talon_gifts`), nobody is;
- ``variable``: the name of the scoring variable (listed in
  ``scoring.external``) that is 1 for the seat charged, 0 for the others.

One seat at most is charged in a deal: the last that these rules name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from attrs import frozen

from trickrules.engine.events import TrickWon
from trickrules.engine.mechanism import Events, register, rule_only
from trickrules.engine.phases import talon_gifts, talon_sets
from trickrules.engine.phases.sections import (
    card_mask,
    check_keys,
    contract_flags,
    named_and_checked,
    one_card,
    section_error,
)
from trickrules.engine.state import State
from trickrules.engine.values import DealInfo, MatchInfo, Tally, with_part

if TYPE_CHECKING:
    from trickrules.compile.tables import Tables
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "PHASE", "CaptureParams", "Captured", "capture_params", "install"]

#: This mechanism's phase, and the name of its spec section.
PHASE = "card_capture"
#: The record's value while no trick has decided who is charged (the talon's rule applies).
_UNDECIDED = -2
#: Nobody is charged.
_NOBODY = -1


@frozen(weakref_slot=False)
class CaptureParams:
    """The section compiled."""

    card: int
    by: int
    binds: tuple[bool, ...]
    left_in_talon: bool
    variable: str


@frozen(weakref_slot=False)
class Captured:
    """The record of a deal: the seat the tricks so far charged, or ``-1`` (nobody) or ``-2`` (no trick decided)."""

    seat: int = _UNDECIDED


_START = Captured()
_PARAMS: dict[int, tuple[Tables, CaptureParams]] = {}


def capture_params(t: Tables) -> CaptureParams:
    """The compiled section of a game that uses this mechanism; :class:`~trickrules.errors.SpecError` if bad."""
    found = _PARAMS.get(id(t))
    if found is not None and found[0] is t:
        return found[1]
    section = t.mechanism_sections[PHASE]
    check_keys(PHASE, section, ("card", "by", "contracts", "left_in_talon", "variable"))
    left = section.get("left_in_talon", False)
    if type(left) is not bool:
        raise section_error(PHASE, "left_in_talon", f"expected true or false, found {left!r}.")
    variable = section.get("variable")
    if type(variable) is not str or variable not in t.rules.external:
        raise section_error(PHASE, "variable", f"name a variable of scoring.external, found {variable!r}.")
    params = CaptureParams(
        one_card(PHASE, t, section, "card"),
        card_mask(PHASE, t, section, "by"),
        contract_flags(PHASE, t, section, "contracts"),
        left,
        variable,
    )
    _PARAMS[id(t)] = (t, params)
    return params


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> Captured:
    return _START


def _on_trick(state: State, d: DealInfo, tally: Tally, winner: int, events: Events) -> tuple[DealInfo, Tally, Events]:
    if d.contract is None:
        return d, tally, events
    game = state.game
    p = capture_params(game.tables)
    if not p.binds[d.contract]:
        return d, tally, events
    t = game.tables
    record: Captured = d.parts[game.slot[PHASE]]
    seat = record.seat
    ended = next(e for _, e in reversed(events) if isinstance(e, TrickWon))
    seats = t.trick_seats[d.seats_out][state.leader]
    cards = [t.card_of[c] for c in ended.cards]
    won_by = next(c for i, c in enumerate(cards) if seats[i] == winner)
    if (p.by >> won_by) & 1 and p.card in cards:
        seat = seats[cards.index(p.card)]
    elif any(isinstance(e, talon_gifts.TalonCardWon) and t.card_of[e.card] == p.card for _, e in events):
        seat = _NOBODY  # the card came back to the declarer's side with the talon's rest
    if seat == record.seat:
        return d, tally, events
    return with_part(d, game.slot[PHASE], Captured(seat)), tally, events


def _facts(game: GameLike, d: DealInfo) -> Mapping[str, Any]:
    p = capture_params(game.tables)
    record: Captured = d.parts[game.slot[PHASE]]
    seat = record.seat
    if seat == _UNDECIDED:
        seat = _NOBODY
        talon = d.parts[game.slot[talon_sets.PHASE]] if talon_sets.PHASE in game.slot else None
        if p.left_in_talon and isinstance(talon, talon_sets.TalonSets) and talon.taken and d.declarer is not None:
            size = talon_sets.talon_params(game.tables).set_size[d.contract] if d.contract is not None else 0
            taken = talon.order[(talon.taken - 1) * size : talon.taken * size]
            if p.card in talon.order and p.card not in taken:
                seat = d.declarer
    return {"external": {p.variable: tuple(int(s == seat) for s in range(game.players))}}


_uses = named_and_checked(PHASE, capture_params)


MECHANISM = rule_only(PHASE, start=_start, on_trick=_on_trick, facts=_facts)


def install() -> None:
    """Register this mechanism (done once when :mod:`trickrules.engine.phases` is imported)."""
    register(MECHANISM, uses=_uses)
