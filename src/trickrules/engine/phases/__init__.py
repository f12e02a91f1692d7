"""The built-in phase mechanisms: one module per phase, each building one mechanism (a plug-in).

A game's deals run the phases its compiled tables list
(:func:`trickrules.compile.sequence.phases`), with any registered mechanism
its spec uses (:func:`trickrules.engine.mechanism.register`) inserted;
:func:`game_mechanisms` puts the list together.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from attrs import frozen

from trickrules.compile.tables import Tables
from trickrules.engine.actions import Action
from trickrules.engine.events import Event
from trickrules.engine.mechanism import OVER, Mechanism, Replay, Reveal, registered, replayer, revealer
from trickrules.engine.obligations import REASONS
from trickrules.engine.phases import (
    alone,
    announce,
    auction,
    call,
    card_capture,
    cards_taken,
    deal,
    declare,
    discard,
    exchange,
    last_trick_cards,
    making,
    must_win,
    passing,
    play,
    talon_gifts,
    talon_sets,
    tricks_bid,
    trump,
    trump_upset,
    trumps_led_only,
    value_bidding,  # noqa: F401  (registered on import: a game uses it by naming [mechanisms.value_bidding])
    widow,  # noqa: F401  (registered on import: a game uses it by naming [mechanisms.widow])
)
from trickrules.engine.values import Phase
from trickrules.errors import SpecError

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

# The mechanisms of this package that are registered rather than built in (a spec names their section). The
# order is the order their rules apply in: who wins a trick (trumps led only, then the upset), then the duties.
for _module in (
    talon_sets,
    trumps_led_only,
    trump_upset,
    must_win,
    talon_gifts,
    card_capture,
    last_trick_cards,
    cards_taken,
):
    _module.install()

__all__ = ["BUILT_IN", "GameMechanisms", "action_of", "game_mechanisms", "redact"]

#: The built-in mechanisms by phase.
BUILT_IN: Mapping[str, Mechanism] = MappingProxyType(
    {
        m.phase: m
        for m in (
            deal.MECHANISM,
            passing.MECHANISM,
            auction.MECHANISM,
            tricks_bid.MECHANISM,
            making.MECHANISM,
            discard.MECHANISM,
            alone.MECHANISM,
            trump.MECHANISM,
            call.MECHANISM,
            exchange.MECHANISM,
            announce.MECHANISM,
            declare.MECHANISM,
            play.MECHANISM,
            OVER,
        )
    }
)


@frozen(weakref_slot=False, eq=False)
class GameMechanisms:
    """A game's mechanisms, put together once when the game is compiled."""

    #: In the order of their records in a deal's ``parts``: the built-in ones, then the registered ones.
    parts: tuple[Mechanism, ...]
    #: Each phase's position in ``parts``.
    slot: Mapping[str, int]
    #: In the order the generic loop asks them which is due (the play last).
    sequence: tuple[Mechanism, ...]
    #: Every mechanism by phase (``over`` included).
    by_phase: Mapping[str, Mechanism]
    #: What each reason code of a narrowed play says in a refusal.
    reasons: Mapping[str, str]


def game_mechanisms(t: Tables) -> GameMechanisms:
    """The mechanisms a game's tables use: the built-in phases, and the registered mechanisms it names.

    A registered mechanism comes in the sequence just before the phase it
    names (the play, by default), or the one its section names (``before``); :class:`~trickrules.errors.SpecError`
    if that phase is not one of the game's, or the spec names a section
    of ``[mechanisms]`` that no registered mechanism has.
    """
    built = [BUILT_IN[p] for p in t.phases]
    extra: list[tuple[Mechanism, str]] = []
    known = registered()
    for name in t.mechanism_sections:
        if name not in known:
            raise SpecError(f"mechanisms.{name}: no mechanism is registered under this name.")
    for name, (mechanism, uses, before) in known.items():
        if uses(t):
            placed = t.mechanism_sections.get(name, {}).get("before", before)  # the spec may place it
            before = placed if isinstance(placed, str) else before
            if before not in t.phases or before == Phase.DEAL:
                raise SpecError(f"mechanisms.{name}: it comes before {before!r}, which is not a phase of this game.")
            extra.append((mechanism, before))
    parts = (*built, *(m for m, _ in extra))
    sequence: list[Mechanism] = []
    for m in built:
        sequence += [e for e, before in extra if before == m.phase]
        sequence.append(m)
    by_phase = {m.phase: m for m in parts}
    by_phase[OVER.phase] = OVER
    reasons = dict(REASONS)
    for m in parts:
        reasons.update(m.reasons)
    return GameMechanisms(
        parts=parts,
        slot=MappingProxyType({m.phase: k for k, m in enumerate(parts)}),
        sequence=tuple(sequence),
        by_phase=MappingProxyType(by_phase),
        reasons=MappingProxyType(reasons),
    )


#: How a seat sees the built-in events that not every seat may see in full, by event class.
_REVEALS: Mapping[type, Reveal] = MappingProxyType(
    {cls: how for m in BUILT_IN.values() for cls, how in m.reveals.items()}
)
#: How each built-in event that records a player's decision gives back the action, by event class.
_REPLAYS: Mapping[type, Replay] = MappingProxyType(
    {cls: how for m in BUILT_IN.values() for cls, how in m.replays.items()}
)


def redact(event: Event, seat: int) -> Event:
    """``event`` as ``seat`` may know it (hidden cards replaced by ``"?"``)."""
    cls = type(event)
    reveal = _REVEALS.get(cls) or revealer(cls)
    return event if reveal is None else reveal(event, seat)


def action_of(game: GameLike, event: Event) -> Action | None:
    """The player action ``event`` records, or ``None`` for an event the rules derive."""
    cls = type(event)
    how = _REPLAYS.get(cls) or replayer(cls)
    return None if how is None else how(event, game)


# The mechanisms that ship with the library but register themselves, as one written outside it would:
# a game uses each by naming its section ([mechanisms.doubling_auction], [mechanisms.dummy],
# [mechanisms.vulnerability], [mechanisms.open_hand]).
from trickrules.engine.phases import doubling_auction, dummy, open_hand, vulnerability  # noqa: E402

__all__ += ["doubling_auction", "dummy", "open_hand", "vulnerability"]
