"""Which cards a player may play: the play obligations as bit-mask arithmetic.

The spec's ``play.obligations`` (follow suit, head the trick, trump when
void, overtrump, privileged cards, the called card's duties) are compiled
into :class:`~trickrules.compile.rules.PlayRules`; this module applies them.

:func:`legal_play_mask` is on the hot path. It returns the mask of legal cards
and the name of the obligation that last narrowed the choice, so an illegal
play can be refused with the rule that forbids it, without a second,
slower implementation of the same rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from trickrules.compile.cards import TRUMP_BASE
from trickrules.compile.rules import PlayRules
from trickrules.compile.sequence import Phase
from trickrules.compile.tables import Tables, TrumpData
from trickrules.engine.records import DealInfo

if TYPE_CHECKING:
    from trickrules.engine.state import State

__all__ = [
    "REASONS",
    "any_suit_winner_index",
    "called_card",
    "lead_rules_mask",
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


def called_card(t: Tables, d: DealInfo) -> int | None:
    """The card called in deal ``d`` (read from the call's record), if any."""
    slot = t.slot.get(Phase.CALL)
    if slot is None:
        return None
    called: int | None = d.parts[slot].called
    return called


def _partner_wins(t: Tables, leader: int, seats_out: int, index: int, seat: int) -> bool:
    """Whether the card at ``index`` of the trick was played by ``seat``'s partner."""
    who = t.trick_seats[seats_out][leader][index]
    return t.team_of[who] == t.team_of[seat] and who != seat


def legal_play_mask(
    t: Tables, hand: int, trick: tuple[int, ...], leader: int, seat: int, d: DealInfo
) -> tuple[int, str]:
    """The cards ``seat`` may play from ``hand`` to ``trick``, and why it is narrowed.

    The deal's fields are read only where a rule needs them. Every "cards
    that beat X" set is one lookup in the precomputed ``beats`` masks.
    """
    pr = t.rules.play
    if not trick:
        if pr.called_card_no_lead and seat == d.partner and seat != d.declarer:
            called = called_card(t, d)
            if called is not None and (hand >> called) & 1 and hand != 1 << called:
                return hand & ~(1 << called), "called_card_lead"
        return hand, ""
    if not pr.follow_suit:
        return hand, ""
    trump = d.trump
    assert trump is not None
    data = t.trumps[trump]
    eff, power, suit_masks, _trump_mask, priv_mask, beats = (
        data.eff_suit,
        data.power,
        data.suit_masks,
        data.trump_mask,
        data.privileged,
        data.beats,
    )
    led_card = trick[0]
    led = eff[led_card]
    follow = hand & suit_masks[led]
    if follow:
        if follow & priv_mask and led == trump and pr.privileged_forced_by == "higher_lead":
            exempt = follow & priv_mask & beats[led_card]
            if exempt and not follow & ~exempt and not (pr.privileged_sole and follow & (follow - 1)):
                return hand, ""
        if pr.called_card and seat == d.partner:
            # A duty of the called card's holder.
            called = called_card(t, d)
            if called is not None and (follow >> called) & 1 and called != led_card:
                return 1 << called, "called_card"
        if not pr.head_trick:
            return follow, "follow_suit"
        best_i = winner_index(t, trick, trump)
        best = trick[best_i]
        if (pr.head_trick == "always" or led == trump) and not (
            pr.head_partner_exempt and _partner_wins(t, leader, d.seats_out, best_i, seat)
        ):
            target = best
            if power[best] >= TRUMP_BASE and led != trump:
                if not pr.head_when_ruffed:
                    return follow, "follow_suit"
                target = max((c for c in trick if eff[c] == led), key=power.__getitem__)
            higher = follow & beats[target]
            if higher:
                return higher, "head_trick"
        return follow, "follow_suit"
    if not pr.trump_when_void and not pr.no_undertrump:
        return hand, ""
    allowed, reason = _void_mask(t, pr, hand, trick, leader, seat, d, trump, data)
    if pr.no_undertrump:
        return _without_undertrumps(t, allowed, reason, trick, trump, data)
    return allowed, reason


def _void_mask(
    t: Tables,
    pr: PlayRules,
    hand: int,
    trick: tuple[int, ...],
    leader: int,
    seat: int,
    d: DealInfo,
    trump: int,
    data: TrumpData,
) -> tuple[int, str]:
    """The cards a player who cannot follow suit may play under the duties to trump and overtrump."""
    if not pr.trump_when_void:
        return hand, ""
    trumps = hand & data.trump_mask
    if not trumps:
        return hand, ""
    beats = data.beats
    best_i = winner_index(t, trick, trump)
    best = trick[best_i]
    partner_wins = (pr.trump_partner_exempt or pr.overtrump_partner_exempt) and _partner_wins(
        t, leader, d.seats_out, best_i, seat
    )
    ruffed = data.power[best] >= TRUMP_BASE
    if pr.trump_when_void == "if_beats":
        if pr.trump_partner_exempt and partner_wins:
            return hand, ""
        higher = trumps & beats[best] if ruffed else trumps
        return (higher, "trump_to_beat") if higher else (hand, "")
    if pr.trump_partner_exempt and partner_wins:
        return hand, ""
    if pr.overtrump and ruffed:
        if pr.overtrump_partner_exempt and partner_wins:
            # Exempt from overtrumping: the player is where one unable to overtrump is.
            return (trumps, "undertrump") if pr.overtrump_if_unable == "trump" else (hand, "")
        higher = trumps & beats[best]
        if higher:
            return higher, "overtrump"
        if pr.overtrump_if_unable == "trump":
            return trumps, "undertrump"
        return hand, ""
    return trumps, "trump_when_void"


def _without_undertrumps(
    t: Tables, allowed: int, reason: str, trick: tuple[int, ...], trump: int, data: TrumpData
) -> tuple[int, str]:
    """``allowed`` less the trumps below the trump winning the trick, unless nothing else is allowed."""
    best = trick[winner_index(t, trick, trump)]
    if data.power[best] < TRUMP_BASE:
        return allowed, reason  # no trump in the trick: nothing to undertrump
    low = allowed & data.trump_mask & ~data.beats[best]
    if not low or not allowed & ~low:
        return allowed, reason
    return allowed & ~low, "no_undertrump"


def lead_rules_mask(state: State) -> tuple[int, str]:
    """The cards the seat to move may play in a game with lead or first-trick obligations (see :func:`leads_mask`)."""
    seat = state.to_move
    assert seat is not None
    t = state.game._tables
    tally = state.tally
    return leads_mask(t, state.hands[seat], state.trick, state.leader, seat, state.deal, not tally.winners, tally.won)


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
