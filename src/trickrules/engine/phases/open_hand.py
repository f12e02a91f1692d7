"""An open hand: in some contracts the declarer lays his hand face up, and plays it from the table.

A spec uses it with a ``[mechanisms.open_hand]`` section::

    [mechanisms.open_hand]
    contracts = ["null_ouvert"]        # these contracts open the declarer's hand
    announcements = ["ouvert"]         # as does any contract with one of these announced
    when = "before_first_lead"         # or "after_first_trick"

``contracts`` names contracts of ``bidding.contracts`` and ``announcements``
announcements of ``bidding.announcements`` (either may be left out, not
both). The declarer's hand is opened in a deal whose contract is one of
``contracts``, or in which one of ``announcements`` was made before the play.
``when`` says at which moment: ``before_first_lead`` (the default), as the
play begins, once the contract and the announcements before the play are
settled; or ``after_first_trick``, when the first trick is won (not if
that trick ends the deal). At that moment an event every seat sees
(:class:`HandOpened`) lists the declarer's hand as it then is, and from then
on every seat's view holds his remaining cards (:class:`OpenHandView`), and
not before. The declarer still plays his own cards; the mechanism takes no
action of its own.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

from attrs import frozen

from trickrules.engine.events import MechanismEvent
from trickrules.engine.mechanism import Events, register, rule_only
from trickrules.engine.phases.announce import announcements
from trickrules.engine.phases.play import deal_ends
from trickrules.engine.phases.sections import check_keys, codes, contract_flags, named_and_checked, section_error
from trickrules.engine.state import State
from trickrules.engine.values import DEALER, DealInfo, MatchInfo, Phase, Tally, with_part

if TYPE_CHECKING:
    from trickrules.compile.tables import Tables
    from trickrules.engine.state import GameLike

__all__ = [
    "AFTER_FIRST_TRICK",
    "BEFORE_FIRST_LEAD",
    "MECHANISM",
    "PHASE",
    "HandOpened",
    "OpenHand",
    "OpenHandView",
    "Opening",
    "open_hand_params",
    "opened",
]

#: This mechanism's phase, and the name of its spec section.
PHASE = "open_hand"
#: The values of the section's ``when``: as the play begins, or once the first trick is won.
BEFORE_FIRST_LEAD = "before_first_lead"
AFTER_FIRST_TRICK = "after_first_trick"


@frozen
class HandOpened(MechanismEvent):
    """The declarer's hand laid face up for every seat, as it is at that moment (every seat sees it)."""

    TAG: ClassVar[str] = "hand_opened"
    seat: int
    cards: tuple[str, ...]

    def describe(self) -> str:
        """One line for a printout of the match."""
        return f"seat {self.seat} plays open: {' '.join(self.cards)}"


@frozen(weakref_slot=False)
class OpenHand:
    """The section compiled: the contracts and the announcements that open the hand, and when."""

    #: Per contract index, whether that contract opens the declarer's hand.
    contracts: tuple[bool, ...]
    #: The announcements that open it, whatever the contract.
    announcements: frozenset[str]
    #: Whether the hand opens once the first trick is won (else as the play begins).
    after_first_trick: bool


@frozen(weakref_slot=False)
class Opening:
    """The record: whether the declarer's hand is face up yet."""

    opened: bool = False


@frozen
class OpenHandView:
    """What every seat sees of an open hand: its seat and cards still held once opened (before: ``None``, ``()``)."""

    seat: int | None
    hand: tuple[str, ...]

    def shown_hands(self) -> dict[int, tuple[str, ...]]:
        """The hands face up for every seat (a picture of the view draws them): the declarer's, once opened."""
        return {} if self.seat is None else {self.seat: self.hand}


_CLOSED = Opening()
_OPENED = Opening(True)
_NOTHING = OpenHandView(None, ())
_KEYS = ("contracts", "announcements", "when", "before")
_PARAMS: dict[int, tuple[Tables, OpenHand]] = {}


def open_hand_params(t: Tables) -> OpenHand:
    """The compiled section of a game that uses this mechanism; :class:`~trickrules.errors.SpecError` if bad."""
    found = _PARAMS.get(id(t))
    if found is not None and found[0] is t:
        return found[1]
    section = t.mechanism_sections[PHASE]
    check_keys(PHASE, section, _KEYS)
    contracts = contract_flags(PHASE, t, section, "contracts")
    known = {name for name, _ in t.rules.announcements}
    named = codes(PHASE, section, "announcements")
    for name in named:
        if name not in known:
            raise section_error(PHASE, "announcements", f"{name!r} is not an announcement of bidding.announcements.")
    if not any(contracts) and not named:
        raise section_error(PHASE, "contracts", "the section names no contract and no announcement that opens a hand.")
    when = section.get("when", BEFORE_FIRST_LEAD)
    if when not in (BEFORE_FIRST_LEAD, AFTER_FIRST_TRICK):
        raise section_error(PHASE, "when", f"expected {BEFORE_FIRST_LEAD!r} or {AFTER_FIRST_TRICK!r}, found {when!r}.")
    params = OpenHand(contracts, frozenset(named), when == AFTER_FIRST_TRICK)
    _PARAMS[id(t)] = (t, params)
    return params


def _opens(game: GameLike, d: DealInfo) -> bool:
    """Whether deal ``d``'s contract, or an announcement made before the play, opens the declarer's hand."""
    if d.contract is None or d.declarer is None:
        return False
    params = open_hand_params(game.tables)
    if params.contracts[d.contract]:
        return True
    if not params.announcements or Phase.ANNOUNCE not in game.slot:
        return False
    return any(name in params.announcements for name in announcements(game, d).announced)


def opened(game: GameLike, d: DealInfo) -> bool:
    """Whether the declarer's hand is face up in deal ``d``."""
    record: Opening = d.parts[game.slot[PHASE]]
    return record.opened


def _start(game: GameLike, d: DealInfo, match: MatchInfo) -> Opening:
    return _CLOSED


def _open(state: State, d: DealInfo, hand: int, events: Events) -> tuple[DealInfo, Events]:
    game = state.game
    seat = d.declarer
    assert seat is not None
    d = with_part(d, game.slot[PHASE], _OPENED)
    return d, (*events, (DEALER, HandOpened(seat, game.codes_of(hand))))


def _on_play_start(state: State, d: DealInfo, tally: Tally, events: Events) -> tuple[DealInfo, Tally, Events]:
    game = state.game
    if open_hand_params(game.tables).after_first_trick or opened(game, d) or not _opens(game, d):
        return d, tally, events
    assert d.declarer is not None
    d, events = _open(state, d, state.hands[d.declarer], events)
    return d, tally, events


def _on_trick(state: State, d: DealInfo, tally: Tally, winner: int, events: Events) -> tuple[DealInfo, Tally, Events]:
    game = state.game
    if len(tally.winners) != 1 or not open_hand_params(game.tables).after_first_trick:
        return d, tally, events
    if opened(game, d) or not _opens(game, d) or deal_ends(state, d, tally):
        return d, tally, events
    assert d.declarer is not None
    taken = 0
    for won in tally.won:  # the trick's cards are counted: what the declarer still holds is the rest
        taken |= won
    d, events = _open(state, d, state.hands[d.declarer] & ~taken, events)
    return d, tally, events


def _view(state: State, seat: int) -> OpenHandView:
    d = state.deal
    if d.declarer is None or not opened(state.game, d):
        return _NOTHING
    return OpenHandView(d.declarer, state.hand(d.declarer))


MECHANISM = rule_only(
    PHASE,
    start=_start,
    on_play_start=_on_play_start,
    on_trick=_on_trick,
    view=_view,
    view_type=OpenHandView,
    replays=MappingProxyType({}),
)

register(MECHANISM, uses=named_and_checked(PHASE, open_hand_params), events=(HandOpened,))
