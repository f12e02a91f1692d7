"""Which cards a player may play: the play obligations as bit-mask arithmetic.

:func:`legal_play_mask` is on the hot path. It returns the mask of legal cards
and the name of the obligation that last narrowed the choice, so an illegal
play can be refused with the rule that forbids it, without a second,
slower implementation of the same rules.
"""

from __future__ import annotations

from trickrules.cards import NO_TRUMP, TRUMP_BASE

__all__ = ["REASONS", "legal_play_mask", "trick_winner_index"]

#: What each reason code says in an error message.
REASONS = {
    "": "",
    "follow_suit": "must follow suit",
    "head_trick": "must head the trick (play a card that beats the cards on the table)",
    "called_card": "must play the called card when its suit is led",
    "trump_when_void": "must trump when unable to follow suit",
    "trump_to_beat": "must trump with a card that beats the trick when unable to follow suit",
    "overtrump": "must overtrump (play a higher trump than the one winning the trick)",
    "undertrump": "must play a trump even when unable to overtrump",
}


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def trick_winner_index(trick: tuple[int, ...], eff: tuple[int, ...], power: tuple[int, ...]) -> int:
    """The index in ``trick`` of the card that wins it so far."""
    led = eff[trick[0]]
    best_i = 0
    best = power[trick[0]]
    for i in range(1, len(trick)):
        c = trick[i]
        p = power[c]
        if (p >= TRUMP_BASE or eff[c] == led) and p > best:
            best, best_i = p, i
    return best_i


def legal_play_mask(
    game: object,
    hand: int,
    trick: tuple[int, ...],
    trick_seats: tuple[int, ...],
    seat: int,
    trump: int,
    called: int,
) -> tuple[int, str]:
    """The cards ``seat`` may play from ``hand`` to ``trick``, and why it is narrowed.

    ``game`` is the compiled :class:`~trickrules.game.Game` (typed loosely to
    keep this module free of an import cycle).
    """
    if not trick:
        return hand, ""
    g = game
    pr = g.rules.play  # type: ignore[attr-defined]
    table = g.tables[trump]  # type: ignore[attr-defined]
    eff = table.eff_suit
    power = table.power
    led_card = trick[0]
    led = eff[led_card]
    suit_masks = g.suit_masks[trump]  # type: ignore[attr-defined]
    if not pr.follow_suit:
        return hand, ""
    follow = hand & suit_masks[led]
    if follow and pr.privileged and led == trump:
        priv = follow & g.privileged[trump]  # type: ignore[attr-defined]
        if priv and pr.privileged_forced_by == "higher_lead":
            lead_power = power[led_card]
            exempt = 0
            for c in _bits(priv):
                if power[c] > lead_power:
                    exempt |= 1 << c
            if exempt and not follow & ~exempt:
                return hand, ""
    best_i = trick_winner_index(trick, eff, power)
    best = trick[best_i]
    if follow:
        if pr.called_card and called >= 0 and (follow >> called) & 1 and called != led_card:
            return 1 << called, "called_card"
        if pr.head_trick and (pr.head_trick == "always" or led == trump):
            partner_wins = pr.head_partner_exempt and g.team_of[trick_seats[best_i]] == g.team_of[seat]  # type: ignore[attr-defined]
            if not partner_wins:
                target = power[best]
                if target >= TRUMP_BASE and led != trump:
                    if not pr.head_when_ruffed:
                        return follow, "follow_suit"
                    target = 0
                    for c in trick:
                        if eff[c] == led and power[c] > target:
                            target = power[c]
                higher = 0
                for c in _bits(follow):
                    if power[c] > target:
                        higher |= 1 << c
                if higher:
                    return higher, "head_trick"
        return follow, "follow_suit"
    if not pr.trump_when_void or trump == NO_TRUMP:
        return hand, ""
    trumps = hand & suit_masks[trump]
    if not trumps:
        return hand, ""
    partner_wins = g.team_of[trick_seats[best_i]] == g.team_of[seat]  # type: ignore[attr-defined]
    best_power = power[best]
    if pr.trump_when_void == "if_beats":
        if pr.trump_partner_exempt and partner_wins:
            return hand, ""
        if best_power < TRUMP_BASE:
            return trumps, "trump_to_beat"
        higher = 0
        for c in _bits(trumps):
            if power[c] > best_power:
                higher |= 1 << c
        return (higher, "trump_to_beat") if higher else (hand, "")
    if pr.trump_partner_exempt and partner_wins:
        return hand, ""
    if pr.overtrump and best_power >= TRUMP_BASE:
        if pr.overtrump_partner_exempt and partner_wins:
            return trumps, "trump_when_void"
        higher = 0
        for c in _bits(trumps):
            if power[c] > best_power:
                higher |= 1 << c
        if higher:
            return higher, "overtrump"
        if pr.overtrump_if_unable == "trump":
            return trumps, "undertrump"
        return hand, ""
    return trumps, "trump_when_void"
