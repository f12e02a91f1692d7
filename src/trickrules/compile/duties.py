"""The play obligations, compiled into small rule records applied in order.

:func:`trickrules.compile.play.compile_play` turns the spec's
``play.obligations`` into three tuples of these records, one per situation
of the player to move, in the order they apply:

* on a lead (:data:`LeadDuty`): the first record that concerns the player
  settles the cards he may lead; else any card of his hand;
* holding the suit led (:data:`FollowDuty`): likewise, the first record that
  concerns him settles it; else any card of that suit (``follow_suit``);
* unable to follow suit (:data:`VoidDuty`): each record narrows what the
  ones before it allowed, starting from the whole hand.

Each record holds only its parameters and, last, the reason code it names
when it narrows the choice (the texts are ``trickrules.engine.obligations.REASONS``;
a field, not a class constant, so that even a record without parameters has
a slot, is sealed like every other value of a game, and reads as fast);
:mod:`trickrules.engine.obligations` applies them with card-mask arithmetic,
one small function per kind of record. A rule the spec does not use has no
record, so the engine tests nothing for it.
"""

from __future__ import annotations

from attrs import frozen

from trickrules.compile.modes import HeadTrickMode, OvertrumpIfUnable
from trickrules.spec.sealed import Sealed

__all__ = [
    "CalledCardFollow",
    "CalledCardLead",
    "FollowDuty",
    "HeadTrick",
    "LeadDuty",
    "NoUndertrump",
    "Overtrump",
    "PrivilegedExempt",
    "TrumpToBeat",
    "TrumpWhenVoid",
    "VoidDuty",
]


@frozen
class CalledCardLead(Sealed):
    """``called_card`` (mode ``no_lead``): its holder may not lead it while he holds another card."""

    reason: str = "called_card_lead"


@frozen
class PrivilegedExempt(Sealed):
    """``privileged_cards`` (``forced_by = "higher_lead"``): a trump lead that none of them beats leaves them free.

    A player whose only cards of the trump suit led are privileged ones that
    beat the card led may play any card; with ``sole``, only if he holds
    just one of them.
    """

    sole: bool
    reason: str = ""


@frozen
class CalledCardFollow(Sealed):
    """``called_card``: its holder must play it when its suit is led (and it is not the card led)."""

    reason: str = "called_card"


@frozen
class HeadTrick(Sealed):
    """``head_trick``: a player following suit must beat the cards on the table when he can."""

    #: Always, or only when trumps are led.
    mode: HeadTrickMode
    #: Where the trick has been trumped: beat the highest card of the suit led (else any card of it will do).
    when_ruffed: bool
    #: A player whose partner is winning the trick need not head it.
    partner_exempt: bool
    reason: str = "head_trick"


@frozen
class TrumpWhenVoid(Sealed):
    """``trump_when_void``: a player who cannot follow suit must play a trump if he holds one."""

    #: A player whose partner is winning the trick need not trump.
    partner_exempt: bool
    reason: str = "trump_when_void"


@frozen
class TrumpToBeat(Sealed):
    """``trump_when_void`` (mode ``if_beats``): trump only with a trump that beats the trick, if he holds one."""

    partner_exempt: bool
    reason: str = "trump_to_beat"


@frozen
class Overtrump(Sealed):
    """``trump_when_void`` with ``overtrump``: trump, and over a trump already played, overtrump it if he can.

    Reasons: ``overtrump``; ``undertrump`` (unable to overtrump, he must still
    trump: ``if_unable = "trump"``); ``trump_when_void`` (no trump in the trick yet).
    """

    #: The ``partner_exempt`` of ``trump_when_void``: no duty at all while the partner wins the trick.
    trump_partner_exempt: bool
    #: The ``partner_exempt`` of ``overtrump``: no duty to overtrump the partner.
    partner_exempt: bool
    #: What a player who cannot overtrump may play.
    if_unable: OvertrumpIfUnable
    reason: str = "overtrump"


@frozen
class NoUndertrump(Sealed):
    """``no_undertrump``: no trump below the one winning the trick while another allowed card is held."""

    reason: str = "no_undertrump"


LeadDuty = CalledCardLead
"""A record that may settle what the player to lead may lead."""
FollowDuty = PrivilegedExempt | CalledCardFollow | HeadTrick
"""A record that may settle what a player holding the suit led may play."""
VoidDuty = TrumpWhenVoid | TrumpToBeat | Overtrump | NoUndertrump
"""A record that narrows what a player unable to follow suit may play."""
