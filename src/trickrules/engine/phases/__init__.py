"""The phase mechanisms: one module per phase, each building one :class:`~trickrules.engine.mechanism.Mechanism`.

Dealing (:mod:`.deal`) starts each deal; the setup phases between the auction
and the first lead follow the order :mod:`.setup` gives; the deal ends in
:mod:`.deal_end`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from trickrules.compile.modes import TrumpChooser
from trickrules.compile.tables import Tables
from trickrules.engine.actions import Action
from trickrules.engine.events import Event
from trickrules.engine.mechanism import OVER, Mechanism, Replay, Reveal
from trickrules.engine.phases import (
    alone,
    announce,
    auction,
    call,
    deal,
    declare,
    discard,
    exchange,
    making,
    passing,
    play,
    tricks_bid,
    trump,
)
from trickrules.engine.records import Phase

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike

__all__ = ["action_of", "mechanisms", "redact"]


def mechanisms(t: Tables) -> Mapping[Phase, Mechanism]:
    """The mechanisms a game's rules use, by phase."""
    rules = t.rules
    chosen = [play.MECHANISM, OVER]
    named = (TrumpChooser.DEALER, TrumpChooser.DECLARER, TrumpChooser.CALLED_HOLDER)
    if rules.trump_chosen_by in named or any(c.trump_by in named for c in rules.contracts):
        chosen.append(trump.MECHANISM)
    if rules.contracts:
        chosen.append(auction.MECHANISM)
    if any(c.call for c in rules.contracts):
        chosen.append(call.MECHANISM)
    if any(c.exchange for c in rules.contracts):
        chosen.append(exchange.MECHANISM)
    if rules.announcements or rules.late_announcements:
        chosen.append(announce.MECHANISM)
    if rules.declarations:
        chosen.append(declare.MECHANISM)
    if t.passing.used:
        chosen.append(passing.MECHANISM)
    if rules.making is not None:  # trumps made round the table; then the discard and going alone
        chosen.append(making.MECHANISM)
        if rules.making.taken_by_dealer:
            chosen.append(discard.MECHANISM)
        if rules.making.alone or rules.making.defend_alone:
            chosen.append(alone.MECHANISM)
    if rules.bids.tricks_bid is not None:  # every player bids a number of tricks
        chosen.append(tricks_bid.MECHANISM)
    return MappingProxyType({m.phase: m for m in chosen})


#: Every mechanism there is (a game uses those its rules need).
_ALL = (announce, auction, call, declare, exchange, play, trump, passing, making, discard, alone, tricks_bid)

#: How a seat sees the events that not every seat may see in full, by event class: what
#: dealing hides, and what each mechanism says of the events it produces.
_REVEALS: Mapping[type, Reveal] = MappingProxyType(
    {**deal.REVEALS, **{cls: how for module in _ALL for cls, how in module.MECHANISM.reveals.items()}}
)


def redact(event: Event, seat: int) -> Event:
    """``event`` as ``seat`` may know it (hidden cards replaced by ``"?"``)."""
    reveal = _REVEALS.get(type(event))
    return event if reveal is None else reveal(event, seat)


#: How each event that records a player's decision gives back the action, by event class.
_REPLAYS: Mapping[type, Replay] = MappingProxyType(
    {cls: how for module in _ALL for cls, how in module.MECHANISM.replays.items()}
)


def action_of(game: GameLike, event: Event) -> Action | None:
    """The player action ``event`` records, or ``None`` for an event the rules derive."""
    how = _REPLAYS.get(type(event))
    return None if how is None else how(event, game)
