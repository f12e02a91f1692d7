"""The named records a state is made of.

A :class:`~trickrules.engine.state.State` keeps what changes with every card
(the hands, the trick, whose turn) on itself, and shares three records
between successive states: :class:`DealInfo` (what is fixed for a deal once
set), :class:`Tally` (what the tricks so far decided) and :class:`MatchInfo`
(what carries over from deal to deal). Cards are small integers (indices
into ``game.cards.codes``) and hands are bit masks of them. "Nothing yet" is
``None``.
"""

from __future__ import annotations

import enum
from operator import attrgetter
from typing import Any, NamedTuple, TypeVar

from attrs import fields, frozen

from trickrules.engine.events import Event
from trickrules.spec.sealed import Sealed

__all__ = [
    "DEALER",
    "Actor",
    "Auction",
    "DealInfo",
    "MatchInfo",
    "Meld",
    "Phase",
    "Revoke",
    "Step",
    "Tally",
    "evolve",
]

_R = TypeVar("_R")


class Phase(enum.StrEnum):
    """What the seat to move is asked to do; each phase is one mechanism module.

    A phase is a string (``Phase.PLAY == "play"``) and shows as one, so a
    state's phase reads the same in a printout, a view and a log.
    """

    BIDDING = "bidding"
    TRUMP = "trump"
    CALL = "call"
    EXCHANGE = "exchange"
    ANNOUNCE = "announce"
    PLAY = "play"
    DECLARE = "declare"
    PASSING = "passing"
    MAKING = "making"
    DISCARD = "discard"
    ALONE = "alone"
    TRICKS_BID = "tricks_bid"
    OVER = "over"

    def __repr__(self) -> str:
        return repr(self.value)


#: The actor of the events the rules derive (dealing, trick ends, payments).
DEALER = "dealer"
#: Who produced an event: a seat, or :data:`DEALER`.
Actor = int | str


class Step(NamedTuple):
    """The events of one step, linked to the steps before it (a chain no step copies)."""

    before: Step | None
    events: tuple[tuple[Actor, Event], ...]


@frozen(weakref_slot=False)
class Auction(Sealed):
    """The auction so far.

    ``Auction()`` is every new deal's auction, in every game of the process:
    like the events, it cannot be initialised again (:class:`~trickrules.spec.sealed.Sealed`).
    """

    #: The highest contract bid (its index in the ladder), if any.
    high: int | None = None
    #: The seat that bid it.
    bidder: int | None = None
    #: The seats that have passed, as a bit mask.
    passed: int = 0
    #: How many times a seat has spoken.
    spoken: int = 0


@frozen(weakref_slot=False)
class Meld:
    """A declaration by ``seat``: its index in the spec's declarations, and its suit."""

    seat: int
    declaration: int
    suit: int


@frozen(weakref_slot=False)
class Revoke:
    """A card played against an obligation, where the rules penalise rather than forbid it."""

    seat: int
    reason: str


@frozen(weakref_slot=False)
class DealInfo:
    """What is fixed for a deal once set: dealer, contract, trumps, partner, announcements."""

    number: int
    #: Which shuffle of the match dealt it (a misdeal or a redeal takes the next one).
    shuffle: int
    dealer: int
    #: Every seat's hand as dealt, as masks.
    dealt: tuple[int, ...]
    turned: int | None = None
    #: The trump key (a suit index, or ``NO_TRUMP``); ``None`` while not yet known.
    trump: int | None = None
    contract: int | None = None
    declarer: int | None = None
    #: Whether the contract was forced on the declarer (everyone passed).
    forced: bool = False
    called: int | None = None
    partner: int | None = None
    #: Whether the partner of a called card is publicly known.
    revealed: bool = False
    #: The declarer's partner, when the contract (or going alone) has him sit out.
    sitting_out: int | None = None
    #: Every seat that sits out, as a bit mask: ``sitting_out``, and a lone defender's partner.
    #: The play order is looked up by it (``Tables.next_seat``).
    seats_out: int = 0
    #: The cards discarded face down after the turned card was taken up, as a mask (out of the deal).
    discarded: int = 0
    announced: tuple[str, ...] = ()
    #: The cards the declarer gave, and those the partner returned, in an exchange.
    given: tuple[int, ...] = ()
    returned: tuple[int, ...] = ()
    #: Whether the announcements before the first lead are over.
    announce_done: bool = False
    #: The late announcement being decided, if any.
    late: str | None = None
    #: Whether the declarer has said yes to it and the partner is asked.
    consent: bool = False
    #: The late announcements declined.
    declined: tuple[str, ...] = ()
    #: How many seats on passed cards go in this deal (0: no passing), and the cards each
    #: seat has passed, as masks (empty until someone passes; kept once they are delivered).
    pass_offset: int = 0
    passed: tuple[int, ...] = ()
    #: How many cards each seat was dealt, and so how many tricks the deal has.
    tricks: int = 0
    #: Each seat's bid of a number of tricks (``None``: not yet), once the first bid is made.
    bids: tuple[int | None, ...] = ()


@frozen(weakref_slot=False)
class Tally:
    """What the tricks of the deal so far have decided."""

    #: The cards each seat has won, as masks.
    won: tuple[int, ...]
    #: The winner of each trick so far.
    winners: tuple[int, ...] = ()
    declared: tuple[Meld, ...] = ()
    revokes: tuple[Revoke, ...] = ()
    #: The seats still to be asked in a declaration window, and how many melds it took.
    window: tuple[int, ...] = ()
    window_count: int = 0
    auction: Auction = Auction()
    #: Melds passed over where that forfeits them (``late = "forfeit"``).
    forfeited: tuple[Meld, ...] = ()


@frozen(weakref_slot=False)
class MatchInfo:
    """What carries over from deal to deal: scores, the pot, the seed."""

    seed: int
    scores: tuple[int, ...]
    pot: int = 0
    deals_done: int = 0
    winners: tuple[int, ...] = ()
    #: The first deal's stacked hands, and its turned card, when the match was started from them.
    stacked: tuple[tuple[str, ...], ...] = ()
    first_dealer: int = 0
    stacked_turned: str = ""
    #: The totals the match was started from, when given.
    start_scores: tuple[int, ...] = ()
    start_pot: int = 0
    #: Per counter of ``scoring.counters`` (in the spec's order), its value per seat (partners alike).
    counters: tuple[tuple[int, ...], ...] = ()


_FIELDS: dict[type, tuple[dict[str, int], attrgetter[Any]]] = {}


def evolve(record: _R, **changes: Any) -> _R:
    """A copy of one of the engine's records with some fields changed.

    Like :func:`attrs.evolve`, but reads every field with one ``attrgetter``
    call and builds the copy positionally: the engine copies its deal
    records several times a deal, and ``attrs.evolve`` costs about three
    times as much.
    """
    cls = type(record)
    found = _FIELDS.get(cls)
    if found is None:
        names = [a.name for a in fields(cls)]  # type: ignore[arg-type]
        found = _FIELDS[cls] = ({n: i for i, n in enumerate(names)}, attrgetter(*names))
    index, get = found
    values = list(get(record))
    for name, value in changes.items():
        values[index[name]] = value
    return cls(*values)
