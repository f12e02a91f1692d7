"""Talon cards won with tricks: one a trick to the first tricks' winners, or the rest with the called card.

A spec uses it with a ``[mechanisms.talon_gifts]`` section:

- ``contracts``: in these contracts the winner of trick ``k`` (from 1) also
  takes the talon's ``k``-th card, while the talon lasts;
- ``rest_to_called_card`` (default ``false``): where a card was called that
  lay in the talon, the player who wins a trick with it takes the talon's
  cards still lying there (the sets the declarer did not take).

A card won so joins the cards the winner has taken (so it counts in his card
points), and every seat sees it (a ``talon_card_won`` event). The talon is
the stock, the cards no hand was dealt, in the order :mod:`.talon_sets` laid
it out where the game uses that mechanism, else in deck order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from attrs import frozen

from trickrules.engine.events import MechanismEvent, TrickWon
from trickrules.engine.mechanism import Events, register, rule_only
from trickrules.engine.phases import talon_sets
from trickrules.engine.phases.sections import check_keys, contract_flags, section_error
from trickrules.engine.state import State
from trickrules.engine.values import DEALER, DealInfo, Tally, evolve

if TYPE_CHECKING:
    from trickrules.compile.tables import Tables

__all__ = ["MECHANISM", "PHASE", "TalonCardWon", "TalonGifts", "gifts_params", "install"]

#: This mechanism's phase, and the name of its spec section.
PHASE = "talon_gifts"


@frozen(weakref_slot=False)
class TalonGifts:
    """The section compiled: per contract index, whether the talon goes to the first tricks' winners."""

    binds: tuple[bool, ...]
    rest_to_called_card: bool = False


@frozen
class TalonCardWon(MechanismEvent):
    """The winner of trick ``trick`` (from 1) took the talon's card ``card`` with it."""

    TAG: ClassVar[str] = "talon_card_won"
    seat: int
    trick: int
    card: str

    def describe(self) -> str:
        """One line for a printout of the match."""
        return f"seat {self.seat} also takes {self.card} from the talon with trick {self.trick}"


_PARAMS: dict[int, tuple[Tables, TalonGifts]] = {}


def gifts_params(t: Tables) -> TalonGifts:
    """The compiled section of a game that uses this mechanism; :class:`~trickrules.errors.SpecError` if bad."""
    found = _PARAMS.get(id(t))
    if found is not None and found[0] is t:
        return found[1]
    section = t.mechanism_sections[PHASE]
    check_keys(PHASE, section, ("contracts", "rest_to_called_card"))
    rest = section.get("rest_to_called_card", False)
    if type(rest) is not bool:
        raise section_error(PHASE, "rest_to_called_card", f"expected true or false, found {rest!r}.")
    params = TalonGifts(contract_flags(PHASE, t, section, "contracts"), rest)
    _PARAMS[id(t)] = (t, params)
    return params


def _talon(state: State, d: DealInfo) -> tuple[int, ...]:
    record = state.part(talon_sets.PHASE)
    if isinstance(record, talon_sets.TalonSets):
        return record.order
    dealt = 0
    for hand in d.dealt:
        dealt |= hand
    return tuple(c for c in range(state.game.cards.size) if not (dealt >> c) & 1)


def _rest_to_called(
    state: State, d: DealInfo, tally: Tally, winner: int, events: Events
) -> tuple[DealInfo, Tally, Events]:
    """The talon's sets not taken go to whoever wins a trick with a called card that lay in the talon."""
    record = state.part(talon_sets.PHASE)
    card = getattr(state.part("call"), "called", None)
    if not isinstance(record, talon_sets.TalonSets) or not record.taken or card is None:
        return d, tally, events
    dealt = 0
    for hand in d.dealt:
        dealt |= hand
    if (dealt >> card) & 1:  # the called card was dealt to a hand, not to the talon
        return d, tally, events
    t = state.game.tables
    ended = next(e for _, e in reversed(events) if isinstance(e, TrickWon))
    seats = t.trick_seats[d.seats_out][state.leader]
    if [t.card_of[c] for i, c in enumerate(ended.cards) if seats[i] == winner] != [card]:
        return d, tally, events
    size = _set_size(state, d)
    taken = set(record.order[(record.taken - 1) * size : record.taken * size])
    rest = [c for c in record.order if c not in taken and not any((w >> c) & 1 for w in tally.won)]
    if not rest:
        return d, tally, events
    won = list(tally.won)
    out = list(events)
    codes = state.game.cards.codes
    for c in rest:
        won[winner] |= 1 << c
        out.append((DEALER, TalonCardWon(winner, len(tally.winners), codes[c])))
    return d, evolve(tally, won=tuple(won)), tuple(out)


def _set_size(state: State, d: DealInfo) -> int:
    if d.contract is None:
        return 0
    return talon_sets.talon_params(state.game.tables).set_size[d.contract]


def _on_trick(state: State, d: DealInfo, tally: Tally, winner: int, events: Events) -> tuple[DealInfo, Tally, Events]:
    if d.contract is None:
        return d, tally, events
    params = gifts_params(state.game.tables)
    if not params.binds[d.contract]:
        if params.rest_to_called_card:
            return _rest_to_called(state, d, tally, winner, events)
        return d, tally, events
    number = len(tally.winners)
    talon = _talon(state, d)
    if number > len(talon):
        return d, tally, events
    card = talon[number - 1]
    won = list(tally.won)
    won[winner] |= 1 << card
    event = TalonCardWon(winner, number, state.game.cards.codes[card])
    return d, evolve(tally, won=tuple(won)), (*events, (DEALER, event))


def _uses(t: Tables) -> bool:
    if PHASE not in t.mechanism_sections:
        return False
    gifts_params(t)
    return True


MECHANISM = rule_only(PHASE, on_trick=_on_trick)


def install() -> None:
    """Register this mechanism (done once when :mod:`trickrules.engine.phases` is imported)."""
    register(MECHANISM, uses=_uses, events=(TalonCardWon,))
