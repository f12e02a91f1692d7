"""The dummy: the declarer's partner lays his hand face up after the opening lead, and the declarer plays it.

A spec uses it by naming its section (it has no keys)::

    [mechanisms.dummy]

In a deal with a declarer and a partner (the deal's ``partner``, as the
doubling auction sets it), the seat after the declarer in the play order
makes the opening lead. When that card is played, the partner's hand is
exposed: an event every seat sees (:class:`HandExposed`) lists it, and
from then on every seat's view holds it (:class:`DummyView`), and not
before. The dummy's cards are chosen by the declarer: while the dummy is
to play, the state's ``chooser`` is the declarer, and the log names the
declarer as the actor of the dummy's cards. The dummy takes no action of
its own.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

from attrs import frozen

from trickrules.compile.tables import Tables
from trickrules.engine.events import MechanismEvent
from trickrules.engine.mechanism import Events, register, rule_only
from trickrules.engine.state import State
from trickrules.engine.values import DEALER, DealInfo, MatchInfo, Phase, Tally, evolve, with_part
from trickrules.errors import SpecError

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["MECHANISM", "PHASE", "DummyView", "Exposure", "HandExposed", "dummy_seat", "exposed"]

#: This mechanism's phase, and the name of its spec section.
PHASE = "dummy"


@frozen
class HandExposed(MechanismEvent):
    """The dummy's hand laid face up after the opening lead (every seat sees it)."""

    TAG: ClassVar[str] = "hand_exposed"
    seat: int
    cards: tuple[str, ...]

    def describe(self) -> str:
        """One line for a printout of the match."""
        return f"seat {self.seat} is dummy: {' '.join(self.cards)}"


@frozen(weakref_slot=False)
class Exposure:
    """The record: whether the dummy's hand is face up yet."""

    exposed: bool = False


@frozen
class DummyView:
    """What every seat sees of the dummy: its seat and its cards in hand once exposed (before: ``None``, ``()``)."""

    seat: int | None
    hand: tuple[str, ...]

    def shown_hands(self) -> dict[int, tuple[str, ...]]:
        """The hands face up for every seat (a picture of the view draws them): the dummy's, once exposed."""
        return {} if self.seat is None else {self.seat: self.hand}


_HIDDEN = Exposure()
_SHOWN = Exposure(True)
_NOTHING = DummyView(None, ())


def _uses(t: Tables) -> bool:
    section = t.mechanism_sections.get(PHASE)
    if section is None:
        return False
    if section:
        raise SpecError(f"mechanisms.{PHASE}: the section takes no keys, found {sorted(section)}.")
    if not t.rules.teams:
        raise SpecError(f"mechanisms.{PHASE}: the dummy needs fixed partnerships (seating.teams).")
    return True


def dummy_seat(game: GameLike, d: DealInfo) -> int | None:
    """The dummy of deal ``d``: the declarer's partner, once there is a declarer (``None`` before, or without one)."""
    if d.declarer is None or d.partner is None or d.partner == d.declarer:
        return None
    return d.partner


def exposed(game: GameLike, d: DealInfo) -> bool:
    """Whether the dummy's hand is face up in deal ``d``."""
    record: Exposure = d.parts[game.slot[PHASE]]
    return record.exposed


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> Exposure:
    return _HIDDEN


def _leads(state: State, d: DealInfo) -> int | None:
    """The opening lead: the seat after the declarer in the play order."""
    if dummy_seat(state.game, d) is None:
        return None
    assert d.declarer is not None
    return state.game.tables.next_seat[d.seats_out][d.declarer]


def _watch(game: GameLike, d: DealInfo) -> int:
    """Every card of the deal, until the opening lead is played (only the first card played is wanted)."""
    if dummy_seat(game, d) is None:
        return 0
    everything = 0
    for hand in d.dealt:
        everything |= hand
    return everything


def _on_card(state: State, d: DealInfo, tally: Tally, card: int, events: Events) -> tuple[DealInfo, Tally, Events]:
    game = state.game
    seat = dummy_seat(game, d)
    if seat is None or exposed(game, d):
        return d, tally, events
    d = with_part(d, game.slot[PHASE], _SHOWN)
    tally = evolve(tally, watched=tally.watched & ~_watch(game, d))
    hand = game.codes_of(state.hands[seat])
    return d, tally, (*events, (DEALER, HandExposed(seat, hand)))


def _chooser(state: State) -> int | None:
    if state.phase != Phase.PLAY:
        return None
    d = state.deal
    seat = dummy_seat(state.game, d)
    return d.declarer if seat is not None and state.to_move == seat else None


def _view(state: State, seat: int) -> DummyView:
    d = state.deal
    dummy = dummy_seat(state.game, d)
    if dummy is None or not exposed(state.game, d):
        return _NOTHING
    return DummyView(dummy, state.hand(dummy))


MECHANISM = rule_only(
    PHASE,
    start=_start,
    on_card=_on_card,
    watch=_watch,
    leads=_leads,
    chooser=_chooser,
    view=_view,
    view_type=DummyView,
    replays=MappingProxyType({}),
)

register(MECHANISM, uses=_uses, events=(HandExposed,))
