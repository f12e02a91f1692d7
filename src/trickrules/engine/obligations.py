"""Which cards a player may play: the play obligations as bit-mask arithmetic.

The spec's ``play.obligations`` (follow suit, head the trick, trump when
void, overtrump, privileged cards, the called card's duties) are compiled
into rule records in the order they apply
(:class:`~trickrules.compile.rules.PlayRules`, :mod:`trickrules.compile.duties`);
this module applies them, one small function per kind of record.

:func:`legal_play_mask` is on the hot path. It returns the mask of legal cards
and the name of the obligation that last narrowed the choice, so an illegal
play can be refused with the rule that forbids it, without a second,
slower implementation of the same rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from trickrules.compile.cards import TRUMP_BASE
from trickrules.compile.duties import (
    CalledCardFollow,
    CalledCardLead,
    FollowDuty,
    HeadTrick,
    LeadDuty,
    NoUndertrump,
    Overtrump,
    PrivilegedExempt,
    TrumpToBeat,
    TrumpWhenVoid,
    VoidDuty,
)
from trickrules.compile.modes import HeadTrickMode, OvertrumpIfUnable
from trickrules.compile.sequence import Phase
from trickrules.compile.tables import Tables, TrumpData
from trickrules.engine.values import DealInfo

__all__ = [
    "REASONS",
    "any_suit_winner_index",
    "called_card",
    "leads_mask",
    "legal_play_mask",
    "winner_index",
]

#: What each reason code says in an error message.
REASONS = {
    "": "",
    "follow_suit": "must follow suit",
    "head_trick": "must head the trick (play a card that beats the cards on the table)",
    "called_card": "must play the called card when its suit is led",
    "called_card_lead": "may not lead the called card while holding another card",
    "trump_when_void": "must trump when unable to follow suit",
    "trump_to_beat": "must trump with a card that beats the trick when unable to follow suit",
    "overtrump": "must overtrump (play a higher trump than the one winning the trick)",
    "undertrump": "must play a trump even when unable to overtrump",
    "no_undertrump": (
        "may not undertrump (play a trump lower than the one winning the trick) while holding another playable card"
    ),
    "first_lead": "must lead the first trick with the card the rules name (or a card they allow in its place)",
    "lead_when_broken": "may not lead that suit before it is broken (while holding a card of another suit)",
    "no_points_first_trick": "may not play a card worth points to the first trick while holding another playable card",
}


def any_suit_winner_index(trick: tuple[int, ...], power: tuple[int, ...], place: tuple[int, ...]) -> int:
    """The index in ``trick`` of the winning card when any suit may win a trick without trumps.

    ``place[c]`` is the card's position in its own suit's plain order (0 at
    the top). A trick holding a trump goes to the highest trump as usual.
    """
    if any(power[c] >= TRUMP_BASE for c in trick):
        return max(range(len(trick)), key=lambda i: power[trick[i]])  # trumps never tie
    best_i = 0
    for i in range(1, len(trick)):
        if place[trick[i]] < place[trick[best_i]]:
            best_i = i
    return best_i


def winner_index(t: Tables, trick: tuple[int, ...], trump: int) -> int:
    """The index in ``trick`` of the card that wins it so far.

    It is the first card of highest ``led_power``: a card's power if it is a
    trump or of the suit led, else -1 (see :class:`~trickrules.compile.tables.TrumpData`).
    A plain loop: over a trick's few cards it costs less than ``max``.
    """
    data = t.trumps[trump]
    if t.rules.play.any_suit_wins:
        return any_suit_winner_index(trick, data.power, data.plain_place)
    value = data.led_power[data.eff_suit[trick[0]]]
    best = -2
    winner = 0
    for i, c in enumerate(trick):
        if value[c] > best:
            best = value[c]
            winner = i
    return winner


def _partner_wins(t: Tables, leader: int, seats_out: int, index: int, seat: int) -> bool:
    """Whether the card at ``index`` of the trick was played by ``seat``'s partner."""
    who = t.trick_seats[seats_out][leader][index]
    return t.team_of[who] == t.team_of[seat] and who != seat


def called_card(t: Tables, d: DealInfo) -> int | None:
    """The card called in deal ``d`` (read from the call's record), if any."""
    slot = t.slot.get(Phase.CALL)
    if slot is None:
        return None
    called: int | None = d.parts[slot].called
    return called


def legal_play_mask(
    t: Tables, hand: int, trick: tuple[int, ...], leader: int, seat: int, d: DealInfo
) -> tuple[int, str]:
    """The cards ``seat`` may play from ``hand`` to ``trick``, and why it is narrowed.

    It runs the compiled rule records of ``t.rules.play`` (:mod:`trickrules.compile.duties`)
    for the player's situation: leading, holding the suit led, or void in it.
    A rule the game does not use has no record, so nothing is tested for it.
    The deal's fields are read only where a rule needs them. Every "cards
    that beat X" set is one lookup in the precomputed ``beats`` masks.
    """
    pr = t.rules.play
    if not trick:
        for lead_duty in pr.leading:
            settled = _LEADING[type(lead_duty)](lead_duty, t, hand, seat, d)
            if settled is not None:
                return settled
        return hand, ""
    if not pr.follow_suit:
        return hand, ""
    trump = d.trump
    assert trump is not None
    data = t.trumps[trump]
    follow = hand & data.suit_masks[data.eff_suit[trick[0]]]
    if follow:
        for duty in pr.following:
            settled = _FOLLOWING[type(duty)](duty, t, data, hand, follow, trick, leader, seat, d)
            if settled is not None:
                return settled
        return follow, "follow_suit"
    allowed, reason = hand, ""
    for void_duty in pr.void:
        allowed, reason = _VOID[type(void_duty)](void_duty, t, data, allowed, reason, trick, leader, seat, d)
    return allowed, reason


# Enum members bound once: looking a member up on its class costs some 60 ns in Python 3.11,
# several times the comparison itself, and these run on every card played.
_ALWAYS = HeadTrickMode.ALWAYS
_TRUMP = OvertrumpIfUnable.TRUMP

# Each kind of rule record, applied. A record on a lead or for a player holding the suit led
# settles the choice (mask and reason) or gives None when it does not concern the player; a
# record for a player unable to follow suit narrows the choice the records before it left.


def _called_card_lead(duty: CalledCardLead, t: Tables, hand: int, seat: int, d: DealInfo) -> tuple[int, str] | None:
    """The called card's holder (not the declarer) may not lead it while holding another card."""
    if seat == d.partner and seat != d.declarer:
        called = called_card(t, d)
        if called is not None and (hand >> called) & 1 and hand != 1 << called:
            return hand & ~(1 << called), duty.reason
    return None


def _privileged_exempt(
    duty: PrivilegedExempt,
    t: Tables,
    data: TrumpData,
    hand: int,
    follow: int,
    trick: tuple[int, ...],
    leader: int,
    seat: int,
    d: DealInfo,
) -> tuple[int, str] | None:
    """A trump lead that the player's privileged trumps (all his trumps) beat leaves him free."""
    held = follow & data.privileged
    led_card = trick[0]
    if held and data.eff_suit[led_card] == data.trump:
        exempt = held & data.beats[led_card]
        if exempt and not follow & ~exempt and not (duty.sole and follow & (follow - 1)):
            return hand, duty.reason
    return None


def _called_card_follow(
    duty: CalledCardFollow,
    t: Tables,
    data: TrumpData,
    hand: int,
    follow: int,
    trick: tuple[int, ...],
    leader: int,
    seat: int,
    d: DealInfo,
) -> tuple[int, str] | None:
    """The called card's holder plays it when its suit is led."""
    if seat == d.partner:
        called = called_card(t, d)
        if called is not None and (follow >> called) & 1 and called != trick[0]:
            return 1 << called, duty.reason
    return None


def _head_trick(
    duty: HeadTrick,
    t: Tables,
    data: TrumpData,
    hand: int,
    follow: int,
    trick: tuple[int, ...],
    leader: int,
    seat: int,
    d: DealInfo,
) -> tuple[int, str]:
    """A card of the suit led that beats the trick (or, trumped, the suit led's best), if the player holds one."""
    trump = data.trump
    eff, power = data.eff_suit, data.power
    led = eff[trick[0]]
    best_i = winner_index(t, trick, trump)
    best = trick[best_i]
    if (duty.mode is _ALWAYS or led == trump) and not (
        duty.partner_exempt and _partner_wins(t, leader, d.seats_out, best_i, seat)
    ):
        target = best
        if power[best] >= TRUMP_BASE and led != trump:
            if not duty.when_ruffed:
                return follow, "follow_suit"
            target = max((c for c in trick if eff[c] == led), key=power.__getitem__)
        higher = follow & data.beats[target]
        if higher:
            return higher, duty.reason
    return follow, "follow_suit"


def _trump_when_void(
    duty: TrumpWhenVoid,
    t: Tables,
    data: TrumpData,
    hand: int,
    reason: str,
    trick: tuple[int, ...],
    leader: int,
    seat: int,
    d: DealInfo,
) -> tuple[int, str]:
    """Any trump, if the player holds one (unless exempt while his partner wins the trick)."""
    trumps = hand & data.trump_mask
    if not trumps:
        return hand, reason
    if duty.partner_exempt:
        best_i = winner_index(t, trick, data.trump)
        if _partner_wins(t, leader, d.seats_out, best_i, seat):
            return hand, reason
    return trumps, duty.reason


def _trump_to_beat(
    duty: TrumpToBeat,
    t: Tables,
    data: TrumpData,
    hand: int,
    reason: str,
    trick: tuple[int, ...],
    leader: int,
    seat: int,
    d: DealInfo,
) -> tuple[int, str]:
    """A trump that beats the trick, if the player holds one (unless exempt while his partner wins it)."""
    trumps = hand & data.trump_mask
    if not trumps:
        return hand, reason
    best_i = winner_index(t, trick, data.trump)
    if duty.partner_exempt and _partner_wins(t, leader, d.seats_out, best_i, seat):
        return hand, reason
    best = trick[best_i]
    higher = trumps & data.beats[best] if data.power[best] >= TRUMP_BASE else trumps
    return (higher, duty.reason) if higher else (hand, reason)


def _overtrump(
    duty: Overtrump,
    t: Tables,
    data: TrumpData,
    hand: int,
    reason: str,
    trick: tuple[int, ...],
    leader: int,
    seat: int,
    d: DealInfo,
) -> tuple[int, str]:
    """A trump; over a trump already played, a higher one if the player holds one, else as ``if_unable`` says."""
    trumps = hand & data.trump_mask
    if not trumps:
        return hand, reason
    best_i = winner_index(t, trick, data.trump)
    best = trick[best_i]
    partner_wins = (duty.trump_partner_exempt or duty.partner_exempt) and _partner_wins(
        t, leader, d.seats_out, best_i, seat
    )
    if duty.trump_partner_exempt and partner_wins:
        return hand, reason
    if data.power[best] < TRUMP_BASE:
        return trumps, "trump_when_void"
    must_trump = duty.if_unable is _TRUMP
    if duty.partner_exempt and partner_wins:
        # Exempt from overtrumping: the player is where one unable to overtrump is.
        return (trumps, "undertrump") if must_trump else (hand, reason)
    higher = trumps & data.beats[best]
    if higher:
        return higher, duty.reason
    return (trumps, "undertrump") if must_trump else (hand, reason)


def _no_undertrump(
    duty: NoUndertrump,
    t: Tables,
    data: TrumpData,
    allowed: int,
    reason: str,
    trick: tuple[int, ...],
    leader: int,
    seat: int,
    d: DealInfo,
) -> tuple[int, str]:
    """``allowed`` less the trumps below the trump winning the trick, unless nothing else is allowed."""
    best = trick[winner_index(t, trick, data.trump)]
    if data.power[best] < TRUMP_BASE:
        return allowed, reason  # no trump in the trick: nothing to undertrump
    low = allowed & data.trump_mask & ~data.beats[best]
    if not low or not allowed & ~low:
        return allowed, reason
    return allowed & ~low, duty.reason


# Plain dicts, private to this module: they look up faster than read-only mapping proxies.
_LEADING: dict[type[LeadDuty], Callable[[Any, Tables, int, int, DealInfo], tuple[int, str] | None]] = {
    CalledCardLead: _called_card_lead
}
_FollowStep = Callable[[Any, Tables, TrumpData, int, int, tuple[int, ...], int, int, DealInfo], tuple[int, str] | None]
_FOLLOWING: dict[type[FollowDuty], _FollowStep] = {
    PrivilegedExempt: _privileged_exempt,
    CalledCardFollow: _called_card_follow,
    HeadTrick: _head_trick,
}
_VoidStep = Callable[[Any, Tables, TrumpData, int, str, tuple[int, ...], int, int, DealInfo], tuple[int, str]]
_VOID: dict[type[VoidDuty], _VoidStep] = {
    TrumpWhenVoid: _trump_when_void,
    TrumpToBeat: _trump_to_beat,
    Overtrump: _overtrump,
    NoUndertrump: _no_undertrump,
}


def leads_mask(
    t: Tables,
    hand: int,
    trick: tuple[int, ...],
    leader: int,
    seat: int,
    d: DealInfo,
    first_trick: bool,
    won: Sequence[int],
) -> tuple[int, str]:
    """The cards ``seat`` may play from ``hand`` in a game with lead or first-trick obligations.

    The other obligations first (:func:`legal_play_mask`); then, on the first
    trick, the first lead's card, and for a player not bound to follow suit
    no card worth points while another is allowed; on any lead, the suit
    that is not yet broken (no card of ``won``, the cards each seat has
    won, breaks it) while another is allowed.
    """
    lr = t.leads
    mask, reason = legal_play_mask(t, hand, trick, leader, seat, d)
    if trick:
        if first_trick and lr.first_trick_barred and not _bound_to_follow(t, hand, trick, d):
            return _unless_nothing_left(mask, reason, lr.first_trick_barred, "no_points_first_trick")
        return mask, reason
    if first_trick and lr.first_card is not None and (hand >> lr.first_card) & 1:
        allowed = mask & lr.first_allowed
        if allowed != mask:
            return allowed, "first_lead"
    if lr.unbroken:
        played = 0
        for taken in won:
            played |= taken
        if not played & lr.breakers:
            others = mask & ~lr.unbroken
            if others & ~lr.unless_only:  # a leader whose only other cards are those may lead the suit
                mask, reason = _unless_nothing_left(mask, reason, lr.unbroken, "lead_when_broken")
    if first_trick and lr.first_trick_barred:
        return _unless_nothing_left(mask, reason, lr.first_trick_barred, "no_points_first_trick")
    return mask, reason


def _bound_to_follow(t: Tables, hand: int, trick: tuple[int, ...], d: DealInfo) -> bool:
    """Whether the player must follow suit to ``trick`` (the rules say so, and he holds the suit led)."""
    if not t.rules.play.follow_suit or d.trump is None:
        return False
    data = t.trumps[d.trump]
    return bool(hand & data.suit_masks[data.eff_suit[trick[0]]])


def _unless_nothing_left(mask: int, reason: str, barred: int, why: str) -> tuple[int, str]:
    """``mask`` less the ``barred`` cards, unless that leaves nothing (then ``mask`` as it was)."""
    kept = mask & ~barred
    if kept and kept != mask:
        return kept, why
    return mask, reason
