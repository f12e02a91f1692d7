"""The modes of the compiled rules: each word a spec may choose, as an enum member.

The spec model keeps the words it validated (``trump.chosen_by = "turned"``);
the compiler turns each into a member of one of these enums, so that the
engine tests a mode by identity (``rules.trump_chosen_by is TrumpChooser.TURNED``)
and mypy checks that the member exists, where a misspelt string would just
never match.

Every enum is a :class:`enum.StrEnum`: a member *is* its word (it compares,
hashes, formats and JSON-serialises as the string), so messages, logs and
``trickrules rules --json`` read exactly as before.
"""

from __future__ import annotations

from enum import StrEnum, unique

__all__ = [
    "AllPass",
    "AnnouncedBy",
    "AnteWhen",
    "AuctionForm",
    "ContractSide",
    "DeclarationSuit",
    "ExchangeReturns",
    "FirstLead",
    "HandSizeOrder",
    "HeadTrickMode",
    "LateAnswer",
    "LateDeclaration",
    "LateRefusal",
    "MakingRound",
    "MatchWinner",
    "OutcomeScope",
    "OvertrumpIfUnable",
    "PaymentRole",
    "PotAtEnd",
    "PrivilegedForcedBy",
    "Remainder",
    "Rounding",
    "TieBreak",
    "TrumpChooser",
    "Unit",
    "WindowSeats",
]


@unique
class TrumpChooser(StrEnum):
    """Who chooses the trumps (``trump.chosen_by``, a contract's ``trump_by``)."""

    DECLARER = "declarer"
    CALLED_HOLDER = "called_holder"
    DEALER = "dealer"
    TURNED = "turned"
    NONE = "none"
    FIXED = "fixed"
    MADE = "made"
    #: A registered mechanism sets them (the doubling auction's contract, ``trump.chosen_by`` only).
    MECHANISM = "mechanism"


@unique
class AuctionForm(StrEnum):
    """How the auction goes round (``bidding.auction``)."""

    ONCE_AROUND = "once_around"
    UNTIL_PASSES = "until_passes"
    UNTIL_CONSECUTIVE_PASSES = "until_consecutive_passes"
    FIRST_BID = "first_bid"
    DECLARER = "declarer"


@unique
class AllPass(StrEnum):
    """What happens when every seat passes (``bidding.all_pass.action``)."""

    REDEAL = "redeal"
    FORCED = "forced"
    PLAY = "play"


@unique
class ContractSide(StrEnum):
    """Who plays a contract with the declarer (a contract's ``side``)."""

    ALONE = "alone"
    WITH_CALLED = "with_called"
    WITH_PARTNER = "with_partner"
    PARTNER_SITS_OUT = "partner_sits_out"
    TEAMS = "teams"


@unique
class ExchangeReturns(StrEnum):
    """What the declarer gives back in an exchange with the called card's holder."""

    ANY = "any"
    CALLED_CARD = "called_card"


@unique
class FirstLead(StrEnum):
    """Who leads the first trick of a contract (a contract's ``first_lead``)."""

    ELDEST = "eldest"
    DECLARER = "declarer"
    #: The declarer leads the first trick whoever sits out.
    DECLARER_ALWAYS = "declarer_always"


@unique
class DeclarationSuit(StrEnum):
    """Which suits a declaration (meld) may be made in."""

    TRUMP = "trump"
    PLAIN = "plain"
    ANY = "any"


@unique
class WindowSeats(StrEnum):
    """Who may declare in a window: the side that won the trick, or its winner alone."""

    SIDE = "side"
    WINNER = "winner"


@unique
class LateDeclaration(StrEnum):
    """What a declaration made after its first window is worth: as much, or nothing."""

    ALLOWED = "allowed"
    FORFEIT = "forfeit"


@unique
class AnnouncedBy(StrEnum):
    """Who decides a late announcement: the declarer, or both partners of the declarer's side."""

    DECLARER = "declarer"
    DECLARER_SIDE = "declarer_side"


@unique
class LateAnswer(StrEnum):
    """How a declarer without a partner answers a late announcement."""

    ANNOUNCE = "announce"
    LEAD = "lead"
    AUTOMATIC = "automatic"


@unique
class LateRefusal(StrEnum):
    """What declining a late announcement does."""

    CONTINUE = "continue"
    ENDS_DEAL = "ends_deal"


@unique
class Unit(StrEnum):
    """What a game scores in: points awarded, or chips moved between seats and the pot."""

    POINTS = "points"
    CHIPS = "chips"


@unique
class AnteWhen(StrEnum):
    """When the ante is paid into the pot (``scoring.ante_when``)."""

    NEVER = "never"
    FIRST_DEAL = "first_deal"
    EVERY_DEAL = "every_deal"
    EMPTY_POT = "empty_pot"


@unique
class Rounding(StrEnum):
    """How a fractional amount becomes a whole one (``scoring.rounding``)."""

    EXACT = "exact"
    FLOOR = "floor"
    CEIL = "ceil"
    HALF_UP = "half_up"
    HALF_EVEN = "half_even"
    HALF_DOWN = "half_down"


@unique
class TieBreak(StrEnum):
    """How a match tied at its end is settled (``match.tie_break``)."""

    EXTRA_DEAL = "extra_deal"
    SHARED = "shared"
    DEALER_SIDE = "dealer_side"


@unique
class PotAtEnd(StrEnum):
    """What becomes of the chips in the pot when the match ends (``match.pot_at_end``)."""

    STAYS = "stays"
    SHARED = "shared"
    PLAYED_OUT = "played_out"


@unique
class MatchWinner(StrEnum):
    """Whether the highest or the lowest score wins the match (``match.winner``)."""

    HIGHEST = "highest"
    LOWEST = "lowest"


@unique
class PaymentRole(StrEnum):
    """The seats (or the pot) a payment names as its payer or receiver."""

    POT = "pot"
    DECLARER = "declarer"
    PARTNER = "partner"
    DECLARER_SIDE = "declarer_side"
    DEFENDERS = "defenders"
    SIDE = "side"
    OPPONENTS = "opponents"
    PLAYER = "player"
    OTHERS = "others"
    ALL = "all"


@unique
class Remainder(StrEnum):
    """Where the chips a split payment leaves over go."""

    STAYS = "stays"
    DECLARER = "declarer"
    FIRST_AFTER_DEALER = "first_after_dealer"


@unique
class OutcomeScope(StrEnum):
    """Whom an outcome is evaluated for: the deal (the declarer's side), each side, or each player."""

    DEAL = "deal"
    SIDE = "side"
    PLAYER = "player"


@unique
class HandSizeOrder(StrEnum):
    """How the hand size of each deal is fixed (``deal.hand_size``)."""

    PACKETS = "packets"
    SCHEDULE = "schedule"
    RANDOM = "random"


@unique
class MakingRound(StrEnum):
    """A round of making trumps: the turned card's suit, any other suit, or any suit."""

    TURNED = "turned"
    OTHERS = "others"
    ANY = "any"


@unique
class HeadTrickMode(StrEnum):
    """When a player following suit must head the trick: always, or only when trumps are led."""

    ALWAYS = "always"
    TRUMP_LEAD = "trump_lead"


@unique
class OvertrumpIfUnable(StrEnum):
    """What a player bound to overtrump who cannot may play: any card, or any trump."""

    ANY = "any"
    TRUMP = "trump"


@unique
class PrivilegedForcedBy(StrEnum):
    """Which trump lead forces out a privileged card: only a higher one, or any."""

    HIGHER_LEAD = "higher_lead"
    ANY_TRUMP_LEAD = "any_trump_lead"
