"""Events: what happened, as frozen values that round-trip through JSON.

Each event class has a fixed tag (``TAG``) written as ``"type"`` in JSON;
tags never change when a class is renamed, so old logs stay readable. Cards
are written as card codes, seats as integers, the pot as ``-1`` in payments.

Events fall in two groups. *Action events* record a player's decision (the
actor is that seat) and are what replay feeds back into the engine; *derived
events* (actor ``"dealer"``) follow from the rules and the seed, and replay
checks that the engine produces exactly them again.

Every event is frozen. The events the engine shares between matches and
games (:func:`shared`, and the per-seat tables of a game) are also of
:class:`~trickrules.spec.sealed.Sealed` classes: calling ``__init__`` or
``__setstate__`` again on one raises
:class:`attrs.exceptions.FrozenInstanceError` rather than rewrite every match
that holds it. The others are built afresh for one match, like its states
and records, and are not sealed: sealing every event class made a deal of
random play cost 1% more instructions (callgrind, Cuatrola and Hearts).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

import attrs
from attrs import frozen

from trickrules.errors import ArgumentError, LogFormatError
from trickrules.spec.converter import Total, converter
from trickrules.spec.sealed import Sealed

__all__ = [
    "ACTION_EVENTS",
    "EVENT_TYPES",
    "HIDDEN",
    "POT",
    "Announced",
    "AuctionWon",
    "Awarded",
    "BidMade",
    "CardCalled",
    "CardGiven",
    "CardPassed",
    "CardPlayed",
    "DealScored",
    "Dealt",
    "Declared",
    "Discarded",
    "Event",
    "ExchangeDone",
    "MatchEnded",
    "MechanismEvent",
    "Misdealt",
    "Paid",
    "PartnerRevealed",
    "Passed",
    "PassingDone",
    "Redeal",
    "TrickWon",
    "TricksBid",
    "TrumpNamed",
    "TurnedTaken",
    "WentAlone",
    "event_from_data",
    "event_to_data",
    "forget_event",
    "paid",
    "records_action",
    "register_event",
    "shared",
]

#: The seat number that stands for the pot in payments.
POT = -1
#: What a seat sees of a card hidden from it (another's hand, a card handed face down).
HIDDEN = "?"


@frozen(weakref_slot=False)
class Dealt:
    """A deal was dealt: every seat's hand, and the turned card if any."""

    TAG: ClassVar[str] = "dealt"
    deal: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    turned: str = ""


@frozen(weakref_slot=False)
class Misdealt:
    """A deal had the wrong number of cards; the same dealer deals again."""

    TAG: ClassVar[str] = "misdealt"
    deal: int
    dealer: int
    reason: str


@frozen(weakref_slot=False)
class Redeal:
    """Everyone passed and the rules say to deal again."""

    TAG: ClassVar[str] = "redeal"
    deal: int
    dealer: int


@frozen(weakref_slot=False)
class Passed(Sealed):
    """A seat passed: what it declined is the ``phase`` it passed in.

    ``"bidding"`` (no bid), ``"making"`` (no trump made), ``"alone"`` (not
    going alone), ``"declare"`` (no meld declared), ``"announce"`` (no
    announcement made, or one proposed declined).
    """

    TAG: ClassVar[str] = "pass"
    seat: int
    phase: str


@frozen(weakref_slot=False)
class BidMade(Sealed):
    """A seat bid a contract."""

    TAG: ClassVar[str] = "bid"
    seat: int
    contract: str


@frozen(weakref_slot=False)
class TricksBid(Sealed):
    """A seat bid to take ``tricks`` tricks (``[tricks_bid]``)."""

    TAG: ClassVar[str] = "bid_tricks"
    seat: int
    tricks: int


@frozen(weakref_slot=False)
class AuctionWon(Sealed):
    """The auction is over: ``seat`` is the declarer of ``contract``."""

    TAG: ClassVar[str] = "auction_won"
    seat: int
    contract: str
    forced: bool = False


@frozen(weakref_slot=False)
class TrumpNamed(Sealed):
    """Trumps were named (``suit`` is a suit code or ``none``)."""

    TAG: ClassVar[str] = "trump"
    seat: int
    suit: str


@frozen(weakref_slot=False)
class CardCalled(Sealed):
    """The declarer called a card; its holder is the partner (not said here)."""

    TAG: ClassVar[str] = "call"
    seat: int
    card: str


@frozen(weakref_slot=False)
class CardGiven:
    """A card handed face down in an exchange (private to the two seats)."""

    TAG: ClassVar[str] = "give"
    seat: int
    to: int
    card: str


@frozen(weakref_slot=False)
class ExchangeDone:
    """The exchange is complete: each side's given cards changed hands."""

    TAG: ClassVar[str] = "exchange_done"
    seats: tuple[int, ...]
    count: int


@frozen(weakref_slot=False)
class CardPassed:
    """A card passed face down from ``seat`` to ``to`` (private to the passer until delivered)."""

    TAG: ClassVar[str] = "pass_card"
    seat: int
    to: int
    card: str


@frozen(weakref_slot=False)
class PassingDone:
    """Everyone has passed: the cards go ``offset`` seats on; ``received`` are each seat's new cards."""

    TAG: ClassVar[str] = "passing_done"
    offset: int
    received: tuple[tuple[str, ...], ...]


@frozen(weakref_slot=False)
class Announced(Sealed):
    """The declarer made an announcement (``vole``)."""

    TAG: ClassVar[str] = "announce"
    seat: int
    name: str


@frozen(weakref_slot=False)
class TurnedTaken:
    """``seat`` (the dealer) took the turned card into his hand: its suit was made trumps."""

    TAG: ClassVar[str] = "turned_taken"
    seat: int
    card: str


@frozen(weakref_slot=False)
class Discarded:
    """``seat`` discarded a card face down (private to that seat)."""

    TAG: ClassVar[str] = "discard"
    seat: int
    card: str


@frozen(weakref_slot=False)
class WentAlone:
    """``seat`` plays alone: the maker, or a defender defending alone; his partner sits out."""

    TAG: ClassVar[str] = "alone"
    seat: int


@frozen(weakref_slot=False)
class CardPlayed(Sealed):
    """A card was played to the trick.

    ``revoke`` names a broken obligation (only when the rules accept revokes
    and penalise them later).
    """

    TAG: ClassVar[str] = "play"
    seat: int
    card: str
    revoke: str = ""


@frozen(weakref_slot=False)
class PartnerRevealed:
    """The called card was played: its holder is now known to everyone."""

    TAG: ClassVar[str] = "partner_revealed"
    seat: int
    card: str


@frozen(weakref_slot=False)
class TrickWon:
    """A trick was completed and won."""

    TAG: ClassVar[str] = "trick"
    seat: int
    number: int
    cards: tuple[str, ...]


@frozen(weakref_slot=False)
class Declared:
    """A meld was declared, visible to all."""

    TAG: ClassVar[str] = "declare"
    seat: int
    name: str
    suit: str
    points: int


@frozen(weakref_slot=False)
class Paid(Sealed):
    """Chips moved from ``payer`` to ``payee`` (``-1`` is the pot)."""

    TAG: ClassVar[str] = "paid"
    payer: int
    payee: int
    amount: Total
    reason: str


#: The shared events, by class and fields (see :func:`shared`). Fields come from the rules and the play
#: (seats, contract names, amounts), so a process that plays many games could meet ever new ones: once
#: ``_SHARED_LIMIT`` are kept, further events are built anew and not kept (the ones kept stay shared).
_SHARED: dict[tuple[Any, ...], Any] = {}
_SHARED_LIMIT = 65536

_E = TypeVar("_E")


def shared(cls: Callable[..., _E], *fields: Any) -> _E:
    """The event ``cls(*fields)``, shared rather than built anew where possible.

    The engine emits the same few events (a pass by seat 2, a bid of Solo, a
    payment of 4 chips) deal after deal; events are values, so one object can
    stand for all of them, in every game of the process. So that no one can
    change them all at once, not even by calling ``__init__`` again, ``cls``
    must be :class:`~trickrules.spec.sealed.Sealed` (``TypeError`` if not).
    At most 65,536 distinct events are kept.
    """
    key = (cls, *fields)
    found = _SHARED.get(key)
    if found is None:
        found = cls(*fields)
        if not issubclass(type(found), Sealed):
            raise TypeError(f"shared({cls!r}, ...): a shared event's class must be Sealed")
        if len(_SHARED) < _SHARED_LIMIT:
            _SHARED[key] = found
    return found


def paid(payer: int, payee: int, amount: int, reason: str) -> Paid:
    """The :class:`Paid` event with these fields, shared (see :func:`shared`)."""
    return shared(Paid, payer, payee, amount, reason)


@frozen(weakref_slot=False)
class Awarded:
    """Points were added to the scores of ``seats``."""

    TAG: ClassVar[str] = "awarded"
    seats: tuple[int, ...]
    points: Total
    reason: str


@frozen(weakref_slot=False)
class DealScored:
    """A deal was scored: its outcome and the totals after it."""

    TAG: ClassVar[str] = "deal_scored"
    deal: int
    outcome: str
    scoreboard: tuple[Total, ...]
    pot: Total


@frozen(weakref_slot=False)
class MatchEnded:
    """The match is over: final scores and the winning seats."""

    TAG: ClassVar[str] = "match_ended"
    scoreboard: tuple[Total, ...]
    winners: tuple[int, ...]


class MechanismEvent:
    """The base of the event classes a mechanism registered from outside the library defines.

    A subclass is a frozen attrs class with a ``TAG`` of its own, registered
    with :func:`register_event` (or with its mechanism,
    :func:`trickrules.engine.mechanism.register`); it is then an :data:`Event`
    like the built-in ones, written to and read from logs.
    """

    __slots__ = ()
    TAG: ClassVar[str] = ""


Event = (
    MechanismEvent
    | Dealt
    | Misdealt
    | Redeal
    | Passed
    | BidMade
    | TricksBid
    | AuctionWon
    | TrumpNamed
    | CardCalled
    | CardGiven
    | ExchangeDone
    | CardPassed
    | PassingDone
    | Announced
    | TurnedTaken
    | Discarded
    | WentAlone
    | CardPlayed
    | PartnerRevealed
    | TrickWon
    | Declared
    | Paid
    | Awarded
    | DealScored
    | MatchEnded
)

#: Every event class by its tag: the built-in ones, and those registered (:func:`register_event`).
_TYPES: dict[str, type[Any]] = {
    cls.TAG: cls
    for cls in (
        Dealt,
        Misdealt,
        Redeal,
        Passed,
        BidMade,
        TricksBid,
        AuctionWon,
        TrumpNamed,
        CardCalled,
        CardGiven,
        ExchangeDone,
        CardPassed,
        PassingDone,
        Announced,
        TurnedTaken,
        Discarded,
        WentAlone,
        CardPlayed,
        PartnerRevealed,
        TrickWon,
        Declared,
        Paid,
        Awarded,
        DealScored,
        MatchEnded,
    )
}
#: Every event class by its tag (read-only).
EVENT_TYPES: Mapping[str, type[Any]] = MappingProxyType(_TYPES)

#: The tags of the built-in events that record a player's decision.
ACTION_EVENTS = frozenset(
    {"pass", "bid", "trump", "call", "give", "announce", "play", "declare", "pass_card", "discard", "alone"}
    | {"bid_tricks"}
)
#: The tags of the registered events that record a player's decision.
_ACTION_TAGS: set[str] = set()


def records_action(tag: str) -> bool:
    """Whether events of this tag record a player's decision (replay checks them against the action taken)."""
    return tag in ACTION_EVENTS or tag in _ACTION_TAGS


def register_event(cls: type[MechanismEvent], records_action: bool = False) -> None:
    """Make a mechanism's event class known to logs: written and read back under its ``TAG``.

    ``records_action``: its events record a player's decision (as a card
    played does) rather than something the rules derive. Registering the
    same class again changes nothing; another class under a tag already
    taken is an :class:`~trickrules.errors.ArgumentError`.
    """
    tag = getattr(cls, "TAG", None)
    if not (isinstance(cls, type) and issubclass(cls, MechanismEvent)) or not attrs.has(cls):
        raise ArgumentError(f"an event class must be an attrs class derived from MechanismEvent, found {cls!r}.")
    if type(tag) is not str or not tag.isidentifier():
        raise ArgumentError(f"an event class needs a TAG that is an identifier, found {tag!r}.")
    found = _TYPES.get(tag)
    if found is not None and found is not cls:
        raise ArgumentError(f"the event tag {tag!r} is already taken by {found.__name__}.")
    _TYPES[tag] = cls
    if records_action:
        _ACTION_TAGS.add(tag)


def forget_event(cls: type[MechanismEvent]) -> None:
    """Remove an event class added by :func:`register_event` (logs that hold its events are then refused)."""
    if _TYPES.get(cls.TAG) is cls:
        del _TYPES[cls.TAG]
        _ACTION_TAGS.discard(cls.TAG)


#: The key of an event's tag in its JSON form.
_TAG_KEY = "type"


def event_to_data(event: Event) -> dict[str, Any]:
    """An event as a JSON-ready dict with its ``"type"`` tag first."""
    data: dict[str, Any] = {_TAG_KEY: event.TAG}
    data.update(converter.unstructure(event))
    return data


def event_from_data(data: object) -> Event:
    """Read an event from a JSON-ready dict; :class:`LogFormatError` if malformed."""
    if not isinstance(data, dict):
        raise LogFormatError(f"an event must be a JSON object, found {type(data).__name__}")
    tag = data.get(_TAG_KEY)
    cls = EVENT_TYPES.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise LogFormatError(f"unknown event type {tag!r}")
    body = {k: v for k, v in data.items() if k != _TAG_KEY}
    try:
        event: Event = converter.structure(body, cls)
    except Exception as exc:
        from trickrules.spec.converter import describe_error

        raise LogFormatError(f"malformed {tag!r} event: {'; '.join(describe_error(exc))}") from None
    return event
