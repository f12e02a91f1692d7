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

from operator import attrgetter
from typing import Any, NamedTuple, TypeVar

from attrs import field, fields, frozen

from trickrules.compile.sequence import Phase
from trickrules.engine.events import Event

__all__ = [
    "DEALER",
    "Actor",
    "DealInfo",
    "MatchInfo",
    "Phase",
    "Revoke",
    "Stacked",
    "Step",
    "Tally",
    "evolve",
    "with_part",
]

_R = TypeVar("_R")


#: The actor of the events the rules derive (dealing, trick ends, payments).
DEALER = "dealer"
#: Who produced an event: a seat, or :data:`DEALER`.
Actor = int | str


class Step(NamedTuple):
    """The events of one step, linked to the steps before it (a chain no step copies)."""

    before: Step | None
    events: tuple[tuple[Actor, Event], ...]


@frozen(weakref_slot=False)
class Revoke:
    """A card played against an obligation, where the rules penalise rather than forbid it."""

    seat: int
    reason: str


@frozen(weakref_slot=False)
class DealInfo:
    """What every deal of every game has, once set: dealer, hands, trump, contract, sides, seats out.

    What a mechanism adds to a deal (the auction so far, the called card,
    the cards passed or exchanged, the announcements, ...) is that
    mechanism's own record, kept in ``parts`` at the mechanism's position in
    the game's list of mechanisms (:meth:`trickrules.engine.state.State.part`
    reads one; each mechanism module defines its record class).
    """

    number: int
    dealer: int
    #: Every seat's hand as dealt, as masks.
    dealt: tuple[int, ...]
    #: The trump key (a suit index, or ``NO_TRUMP``); ``None`` while not yet known.
    trump: int | None = None
    contract: int | None = None
    declarer: int | None = None
    #: The declarer's partner, once known (the holder of a called card, or the declarer's teammate).
    partner: int | None = None
    #: Every seat that sits out, as a bit mask (the declarer's partner where the contract or going
    #: alone has him sit out, a lone defender's partner). The play order is looked up by it.
    seats_out: int = 0
    #: How many cards each seat was dealt, and so how many tricks the deal has.
    tricks: int = 0
    #: The records of the game's mechanisms for this deal, by position (``None`` where one keeps none).
    parts: tuple[Any, ...] = ()


@frozen(weakref_slot=False)
class Tally:
    """What the tricks of the deal so far have decided (the play's record)."""

    #: The cards each seat has won, as masks.
    won: tuple[int, ...]
    #: The winner of each trick so far.
    winners: tuple[int, ...] = ()
    revokes: tuple[Revoke, ...] = ()
    #: The cards whose play a mechanism reacts to (its ``on_card``), such as a secretly called card.
    watched: int = 0


@frozen(weakref_slot=False)
class Stacked:
    """A deal given rather than drawn from the seed: its hands, its turned card, and what else chance drew.

    Given to ``new_match(deals=...)``, or recorded where the outcomes a caller
    chose at chance steps dealt something other than the seed would.
    """

    #: Card codes per seat.
    hands: tuple[tuple[str, ...], ...]
    #: The card turned face up (``""``: none, or the default one: the last of the dealer's list, or the
    #: first card of the stock in deck order).
    turned: str = ""
    #: The other chance draws of the deal (a pass direction), by verb, where they are not the seed's.
    draws: tuple[tuple[str, int], ...] = ()


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
    #: Later deals given to ``new_match(deals=...)``, by deal number (each for the deal's first dealing).
    stacks: tuple[tuple[int, Stacked], ...] = ()
    #: Deals whose chance outcomes the caller chose other than the seed would, by shuffle number.
    chosen: tuple[tuple[int, Stacked], ...] = ()
    #: Whether the caller chooses the chance outcomes (``new_match(chance="caller")``), so chance steps rest.
    #: How the match is driven, not what happened in it: not compared (a replay of its log equals it).
    by_caller: bool = field(default=False, eq=False)


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


def with_part(d: DealInfo, slot: int, record: Any) -> DealInfo:
    """``d`` with the record at ``slot`` of its ``parts`` replaced by ``record``."""
    parts = list(d.parts)
    parts[slot] = record
    # Built field by field rather than with evolve: mechanisms change their record at every bid.
    return DealInfo(
        d.number, d.dealer, d.dealt, d.trump, d.contract, d.declarer, d.partner, d.seats_out, d.tricks, tuple(parts)
    )
