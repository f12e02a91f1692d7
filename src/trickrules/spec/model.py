"""The rule DSL as frozen attrs classes.

A spec file (TOML) is structured into :class:`Spec` by the one converter in
:mod:`trickrules.spec.converter`. Every class here is frozen and slotted; every
collection is a tuple or a :class:`~trickrules.spec.frozenmap.FrozenMap`. The keys
and their meaning are documented, with examples, in ``docs/dsl.md``.

Only *shape* is checked here (types, allowed words). Cross-references between
sections (a rank order naming an unknown rank, a contract naming an unknown
option) are checked by :mod:`trickrules.compile`, which knows the key paths.
"""

from __future__ import annotations

from typing import Any

from attrs import field, frozen
from attrs.validators import in_

from trickrules.spec.bids import AllPassSpec, CounterSpec, TricksBidSpec  # re-exported: part of the model
from trickrules.spec.frozenmap import FrozenMap
from trickrules.spec.sealed import Sealed  # the sections whose default value every spec shares
from trickrules.spec.trumpsets import TrumpSetSpec  # re-exported: part of the model

__all__ = [
    "AllPassSpec",
    "AnnouncementSpec",
    "BiddingSpec",
    "CallSpec",
    "ContractSpec",
    "CounterSpec",
    "DealSpec",
    "DeckSpec",
    "DeclarationSpec",
    "MakingSpec",
    "MatchSpec",
    "ObligationSpec",
    "OptionSpec",
    "OutcomeSpec",
    "PassingSpec",
    "PaymentSpec",
    "PlaySpec",
    "PromotionSpec",
    "RankSpec",
    "RanksSpec",
    "ScoringSpec",
    "SeatingSpec",
    "Spec",
    "SuitSpec",
    "TricksBidSpec",
    "TrumpSetSpec",
    "TrumpSpec",
    "VariantSpec",
]

_EMPTY_STR_MAP: FrozenMap[str, str] = FrozenMap()
_EMPTY_INT_MAP: FrozenMap[str, int] = FrozenMap()

#: Who may choose the trump suit.
TRUMP_CHOOSERS = ("declarer", "called_holder", "dealer", "turned", "none", "fixed", "made")
#: Which suit a ``rank`` promotion takes its card from: the trump suit, or the other suit of its colour.
PROMOTION_SUITS = ("trump", "same_colour")
#: The rounds of making trumps (``making.rounds``): accept the turned card's suit, name another, name any.
MAKING_ROUNDS = ("turned", "others", "any")
#: How the declarer's side is formed once a contract is won.
CONTRACT_SIDES = ("alone", "with_called", "with_partner", "partner_sits_out", "teams")
#: How the auction goes round (``bidding.auction``).
AUCTION_FORMS = ("once_around", "until_passes", "until_consecutive_passes", "first_bid", "declarer")
#: The play-obligation primitives the engine knows.
OBLIGATION_RULES = (
    "follow_suit",
    "head_trick",
    "trump_when_void",
    "overtrump",
    "no_undertrump",
    "privileged_cards",
    "called_card",
    "first_lead",
    "lead_when_broken",
    "no_points_first_trick",
)


@frozen
class SuitSpec(Sealed):
    """A suit: its code in card codes (``H``), its name, and its colour."""

    code: str
    name: str
    colour: str
    symbol: str = ""


@frozen
class RankSpec(Sealed):
    """A rank: its code in card codes (``K``, ``10``) and its name."""

    code: str
    name: str


@frozen
class DeckSpec(Sealed):
    """The cards in play: every suit crossed with every rank, less ``removed``.

    ``points`` gives card points by rank code (ranks not listed are worth 0).
    ``card_points`` (by card code) and ``suit_points`` (by suit code) give
    them too: a card is worth what the first of ``card_points``,
    ``suit_points`` and ``points`` that names it says.
    A card code is the rank code followed by the suit code (``7H``, ``10C``).
    """

    suits: tuple[SuitSpec, ...]
    ranks: tuple[RankSpec, ...]
    removed: tuple[str, ...] = ()
    points: FrozenMap[str, int] = _EMPTY_INT_MAP
    card_points: FrozenMap[str, int] = _EMPTY_INT_MAP
    suit_points: FrozenMap[str, int] = _EMPTY_INT_MAP


@frozen
class PromotionSpec(Sealed):
    """A card that leaves its printed suit and ranks as a trump at ``place``.

    Either ``card`` names one fixed card (a trump whatever the trump suit), or
    ``rank`` maps a trump suit's colour or code to a rank code, meaning "that
    rank *of the trump suit*" (for example ``{black = "2", red = "7"}``).
    With ``suit = "same_colour"`` a ``rank`` promotion takes that rank of the
    *other* suit of the trump suit's colour instead (a "left bower").
    Places count from 1, the highest trump.
    """

    name: str
    place: int
    card: str | None = None
    rank: FrozenMap[str, str] | None = None
    suit: str = field(default="trump", validator=in_(PROMOTION_SUITS))


@frozen
class RanksSpec(Sealed):
    """Rank orders, high to low, keyed by suit code, colour, or ``default``.

    ``plain`` is the order of a suit that is not trumps; ``trump`` is the order
    of the trump suit's own cards below the promoted ones (it defaults to the
    plain order). Promoted cards are left out of the trump order.
    """

    plain: FrozenMap[str, tuple[str, ...]]
    trump: FrozenMap[str, tuple[str, ...]] = field(factory=FrozenMap)


@frozen
class TrumpSpec(Sealed):
    """How the trump suit is fixed, and the promoted trumps.

    ``chosen_by`` is the default for contracts that do not say otherwise;
    ``"fixed"`` makes ``suit`` (a suit code) the trump suit of every deal; ``"mechanism"``: a registered one sets it.
    ``allow_none`` lets the chooser name no trump at all (``trump none``); ``sets``: :class:`TrumpSetSpec`.
    """

    chosen_by: str = field(default="declarer", validator=in_((*TRUMP_CHOOSERS, "mechanism")))
    suit: str = ""
    allow_none: bool = False
    none_name: str = "no trump"
    promotions: tuple[PromotionSpec, ...] = ()
    sets: tuple[TrumpSetSpec, ...] = ()


@frozen
class MakingSpec(Sealed):
    """Making trumps round the table with a turned card (``trump.chosen_by = "made"``); see ``docs/dsl.md``.

    Each of ``rounds`` goes once round the table from the eldest hand: a
    player passes or makes trumps (the turned card's suit in a ``turned``
    round, another in ``others``, any in ``any``) and becomes the declarer.
    ``taken_by = "dealer"``: the dealer takes up an accepted turned card and
    discards one. ``dealer_must_name``: stick the dealer. ``alone``: the
    maker may then play alone; ``defend_alone``: then a defender may.
    """

    rounds: tuple[str, ...] = ("turned", "others")
    taken_by: str = field(default="dealer", validator=in_(("dealer", "nobody")))
    discard_turned: bool = False
    dealer_must_name: bool = False
    all_pass: str = field(default="next_dealer", validator=in_(("next_dealer", "same_dealer")))
    alone: bool = False
    defend_alone: bool = False


@frozen
class SeatingSpec(Sealed):
    """Seats, partnerships, and the direction of play.

    Seats are numbered ``0 .. players-1`` in the order of play, so the next
    player is always ``seat + 1``; ``direction`` says which way that is at a
    real table. The eldest hand is the seat after the dealer.
    """

    players: int = 4
    direction: str = field(default="counterclockwise", validator=in_(("counterclockwise", "clockwise")))
    partnerships: str = field(default="none", validator=in_(("none", "fixed", "called")))
    teams: tuple[tuple[int, ...], ...] = ()
    #: The seat that deals a match's first deal when ``new_match`` is not told (checked against ``players``).
    first_dealer: int = 0


@frozen
class DealSpec(Sealed):
    """The deal: packet sizes per round, starting with the eldest hand.

    The cards the packets leave undealt are the *stock*, face down. With
    ``turn_last_card`` the dealer's last card is shown to everyone and fixes
    the trump suit (it stays in the dealer's hand); with ``turn_from_stock``
    the stock's top card is turned up instead (nobody holds it).
    """

    packets: tuple[int, ...]
    turn_last_card: bool = False
    turn_from_stock: bool = False
    #: ``"packets"``: every hand is the packets' sum; ``"schedule"``: deal ``k`` deals ``hand_sizes[k % len]``
    #: cards each; ``"random"``: each deal draws its size from ``hand_sizes`` (default: 1 to as many as the
    #: deck allows) with the match's seed. A varying hand is dealt one card at a time (``packets = [1]``).
    hand_size: str = field(default="packets", validator=in_(("packets", "schedule", "random")))
    hand_sizes: tuple[int, ...] = ()


@frozen
class CallSpec(Sealed):
    """Calling a card whose holder becomes the declarer's partner.

    ``ranks`` are the ranks that may be called (not of the trump suit unless
    ``allow_trump``); when the declarer holds every callable card of those
    ranks, ``fallback_ranks`` may be called too, or with ``fallback_replaces``
    only they. ``allow_own`` permits calling a card the declarer holds
    (``allow_own_fallback`` the same for the fallback ranks, and
    ``allow_trump_fallback`` lets a fallback card be a trump even when
    ``allow_trump`` is off; ``allow_trump_forced`` is ``allow_trump`` for a
    contract forced on a player when everyone passed). With ``public``
    the called card's holder is announced at once instead of staying secret.
    ``undealt = "alone"``: a called card no hand holds leaves the declarer alone.
    """

    ranks: tuple[str, ...] = ()
    fallback_ranks: tuple[str, ...] = ()
    fallback_replaces: bool = False
    allow_own: bool = False
    allow_own_fallback: bool = False
    allow_trump: bool = False
    allow_trump_fallback: bool = False
    allow_trump_forced: bool = False
    public: bool = False
    undealt: str = field(default="refused", validator=in_(("refused", "alone")))


@frozen
class ContractSpec(Sealed):
    """One rung of the bidding ladder (listed low to high).

    ``side`` says who plays with the declarer; ``trump_by`` who names trumps
    (defaults to ``trump.chosen_by``); ``call`` whether a partner card is
    called; ``exchange`` how many cards the declarer swaps face down with the
    called card's holder (``exchange_returns = "called_card"``: the holder
    hands back the called card itself). With ``public_call`` the called
    card's holder is known at once in this contract. ``first_lead =
    "declarer"`` gives the first lead to the declarer when the eldest hand sits
    out (default: the next seat that plays). ``requires_cards`` must all be in the bidder's hand,
    and ``eligible`` is a formula that must hold (see ``docs/dsl.md`` for its
    variables). ``vars`` are named values the scoring formulas may use.
    ``end_when`` is a formula checked after every trick; when it holds, the
    play stops and the deal is scored on the tricks taken so far. ``trumps``: the trumps it fixes (``docs/dsl.md``).
    """

    name: str
    label: str = ""
    side: str = field(default="alone", validator=in_(CONTRACT_SIDES))
    trump_by: str = field(default="", validator=in_((*TRUMP_CHOOSERS, "")))
    call: bool = False
    exchange: int = 0
    requires_cards: tuple[str, ...] = ()
    eligible: str = ""
    vars: FrozenMap[str, str] = _EMPTY_STR_MAP
    public_call: bool = False
    exchange_returns: str = field(default="any", validator=in_(("any", "called_card")))
    first_lead: str = field(default="eldest", validator=in_(("eldest", "declarer", "declarer_always")))
    end_when: str = ""
    trumps: str = ""


@frozen
class AnnouncementSpec(Sealed):
    """An optional announcement the declarer may make.

    With ``after_run = 0`` it is offered before the first lead; with
    ``after_run = N`` it is offered once the declarer's side has won the
    first N tricks in a row, before the next lead. ``by = "declarer_side"``
    asks the declarer and then the partner: it stands only if both announce.
    ``alone`` says how a declarer without a partner (a Solo, a call of his
    own card) answers a late one: ``"announce"`` or pass; ``"lead"``: pass,
    or lead a card, which makes the announcement; ``"automatic"``: it is made
    for him. ``refused`` says what a pass does: ``"continue"`` plays on
    without it, ``"ends_deal"`` ends the deal at once, scored on the tricks
    taken so far. ``when_forced = false`` withholds it from a contract
    forced on a player when everyone passed.
    """

    name: str
    contracts: tuple[str, ...] = ()
    after_run: int = 0
    by: str = field(default="declarer", validator=in_(("declarer", "declarer_side")))
    alone: str = field(default="announce", validator=in_(("announce", "lead", "automatic")))
    when_forced: bool = True
    refused: str = field(default="continue", validator=in_(("continue", "ends_deal")))


@frozen
class BiddingSpec(Sealed):
    """The auction: who starts, how long it runs, the ladder of contracts.

    ``auction = "once_around"``: each player speaks once; ``until_passes``: it
    goes round until all but the high bidder have passed (a player who passed
    is out of the auction); ``until_consecutive_passes``: it goes round until
    everyone else has passed in a row after the last bid (or everyone, with no
    bid), and a player who passed may bid again when his turn comes back.
    ``first_bid``: the first player who bids wins; ``declarer``: the declarer a mechanism chose (value
    bidding) names the contract, with no pass. With ``earlier_may_hold`` a player who
    speaks before the high bidder in the order from the eldest may bid the same contract (hold it).
    ``first_speaker``, ``last_bid`` and ``eldest_only``: see ``docs/dsl.md``.
    """

    contracts: tuple[ContractSpec, ...] = ()
    auction: str = field(default="once_around", validator=in_(AUCTION_FORMS))
    earlier_may_hold: bool = False
    first_speaker: str = field(default="eldest", validator=in_(("eldest", "second")))
    last_bid: bool = False
    eldest_only: tuple[str, ...] = ()
    all_pass: AllPassSpec = AllPassSpec()  # noqa: RUF009  (frozen: spec/bids.py)
    announcements: tuple[AnnouncementSpec, ...] = ()


@frozen
class ObligationSpec(Sealed):
    """One play obligation, a general primitive with parameters.

    ``rule`` is one of ``follow_suit``, ``head_trick``, ``trump_when_void``,
    ``overtrump``, ``no_undertrump``, ``privileged_cards``, ``called_card``,
    ``first_lead``, ``lead_when_broken``, ``no_points_first_trick``; which parameters each
    takes is in ``docs/dsl.md``. ``suit``, ``broken_by`` and ``unless_only`` are
    parameters of ``lead_when_broken`` (a suit code, and card codes).
    """

    rule: str = field(validator=in_(OBLIGATION_RULES))
    mode: str = ""
    cards: tuple[str, ...] = ()
    forced_by: str = ""
    partner_exempt: bool = False
    if_unable: str = ""
    suit: str = ""
    broken_by: tuple[str, ...] = ()
    unless_only: tuple[str, ...] = ()


@frozen
class PlaySpec(Sealed):
    """How cards are played: the obligations, in the order they are checked.

    ``revoke = "reject"`` refuses an illegal card; ``"penalise"`` accepts it,
    records a revoke and lets the scoring penalise the offending side.
    ``trick_winner = "any_suit"``: a trick without trumps goes to the card
    highest in its own suit's plain order, whatever its suit (the first
    played of equals), instead of the highest card of the suit led.
    """

    obligations: tuple[ObligationSpec, ...] = ()
    revoke: str = field(default="reject", validator=in_(("reject", "penalise")))
    trick_winner: str = field(default="led_suit", validator=in_(("led_suit", "any_suit")))


@frozen
class DeclarationSpec(Sealed):
    """A meld a player may declare (such as a King and Caballo of one suit).

    ``suit`` is ``trump``, ``plain`` or ``any``; the meld is the listed
    ``ranks`` of one suit. ``window`` says when it may be declared;
    ``window_seats`` whether the trick winner's whole side may declare
    then, or the winner alone. ``max_first_window`` (0: as
    ``max_per_window``) caps the side's first window separately.
    ``late = "forfeit"``: a meld its holder passes over at a window where he
    could declare it is lost for the deal (``"allowed"``: he may declare it
    at a later window).
    """

    name: str
    ranks: tuple[str, ...]
    suit: str = field(validator=in_(("trump", "plain", "any")))
    points: int
    window: str = field(default="after_side_wins_trick", validator=in_(("after_side_wins_trick",)))
    max_per_window: int = 1
    max_first_window: int = 0
    late: str = field(default="allowed", validator=in_(("allowed", "forfeit")))
    contracts: tuple[str, ...] = ()
    window_seats: str = field(default="side", validator=in_(("side", "winner")))


@frozen
class PaymentSpec(Sealed):
    """A transfer of chips (``unit = "chips"``) or an award of points.

    ``from_`` and ``to`` are roles (see ``docs/dsl.md``): ``pot``,
    ``declarer``, ``partner``, ``declarer_side``, ``defenders``, ``side``
    (the side an outcome is about), ``others``, ``holder``, ``all``. Each payer pays
    ``amount`` to each receiver, or, with ``split``, the amount is divided
    among the receivers; what does not divide evenly stays with the payer, or
    goes (``remainder``) to the declarer or to the first receiver after the
    dealer.
    """

    to: str
    amount: str
    from_: str = ""
    split: bool = False
    remainder: str = field(default="stays", validator=in_(("stays", "declarer", "first_after_dealer")))


@frozen
class OutcomeSpec(Sealed):
    """A scoring outcome: the first one whose ``when`` holds applies.

    ``contracts`` limits it to those contracts (``""`` means a deal played
    with no contract); ``for_each`` evaluates it once per ``side`` or
    ``player`` instead of once for the deal.
    """

    name: str
    when: str
    pay: tuple[PaymentSpec, ...] = ()
    contracts: tuple[str, ...] = ()
    for_each: str = field(default="deal", validator=in_(("deal", "side", "player")))


@frozen
class ScoringSpec(Sealed):
    """How deals are paid and how a match ends.

    ``unit`` is ``chips`` (zero-sum transfers with a pot) or ``points``
    (awards to sides). ``ante`` is a formula paid into the pot by every
    player when ``ante_when`` says. ``rounding`` is how a fractional amount
    becomes whole chips or points. ``vars`` are named formulas shared by the
    outcomes; ``bonuses`` apply in addition to the outcome. ``external``: values a mechanism gives each seat.
    """

    unit: str = field(default="points", validator=in_(("points", "chips")))
    ante: str = "0"
    ante_when: str = field(default="never", validator=in_(("never", "first_deal", "every_deal", "empty_pot")))
    rounding: str = field(
        default="floor", validator=in_(("exact", "floor", "ceil", "half_up", "half_even", "half_down"))
    )
    last_trick_bonus: int = 0
    vars: FrozenMap[str, str] = _EMPTY_STR_MAP
    outcomes: tuple[OutcomeSpec, ...] = ()
    bonuses: tuple[OutcomeSpec, ...] = ()
    counters: tuple[CounterSpec, ...] = ()
    external: tuple[str, ...] = ()


#: Where passed cards go, as words of ``passing.cycle``.
PASS_DIRECTIONS = ("next", "previous", "across", "hold")


@frozen
class PassingSpec(Sealed):
    """Passing cards face down to another player after the deal, before anything else.

    Every player passes ``cards`` cards (0: no passing). ``cycle`` says where
    they go, deal after deal: ``next`` (the next seat in the order of play),
    ``previous``, ``across`` (half the table on) or ``hold`` (no passing in
    that deal). With ``order = "rotation"`` deal ``k`` uses entry ``k`` modulo
    the cycle's length; with ``"chance"`` each deal draws one entry at random
    (from the match's seed). The passed cards reach their receivers only when
    everyone has passed.
    """

    cards: int = 0
    cycle: tuple[str, ...] = ()
    order: str = field(default="rotation", validator=in_(("rotation", "chance")))


@frozen
class MatchSpec(Sealed):
    """When a match ends: after ``deals`` deals, or when a side reaches ``target``.

    ``deals_multiple_of`` refuses a number of deals that is not a multiple of
    it (an agreed length that keeps the deal going round evenly).
    ``pot_at_end = "shared"`` shares the chips left in the pot equally among
    the players when the match ends (a remainder stays in the pot);
    ``"played_out"`` plays on past ``deals`` until a deal ends with the pot empty.
    ``winner = "lowest"`` makes the lowest score win (penalty points: the
    match still ends when a score reaches ``target``).
    """

    deals: int = 0
    deals_multiple_of: int = 1
    target: int = 0
    tie_break: str = field(default="extra_deal", validator=in_(("extra_deal", "shared", "dealer_side")))
    pot_at_end: str = field(default="stays", validator=in_(("stays", "shared", "played_out")))
    winner: str = field(default="highest", validator=in_(("highest", "lowest")))
    #: The mercy rule: the match also ends when a side's score is at or below ``mercy_threshold``.
    mercy: bool = False
    mercy_threshold: int = 0
    #: When the match ends: added to each winning side that reached ``target``, and taken from each
    #: other side at or below the mercy threshold.
    win_bonus: int = 0
    #: A formula checked for each side after every deal, over the counters carried and the scores:
    #: when it holds for some side, the match ends (``""``: no such rule).
    end_when: str = ""


@frozen
class OptionSpec(Sealed):
    """A named house-rule switch; each choice patches the spec.

    ``choices`` lists the choice names; the patches themselves are applied by
    the loader before the spec is structured.
    """

    default: str
    choices: tuple[str, ...]
    doc: str = ""
    changes: FrozenMap[str, tuple[str, ...]] = field(factory=FrozenMap)


@frozen
class VariantSpec(Sealed):
    """Identity of an overlay: what it is and which conformance clauses it changes."""

    name: str
    title: str = ""
    doc: str = ""
    changes: tuple[str, ...] = ()


def _frozen_value(value: Any) -> Any:
    """A TOML value with its lists as tuples and its tables as :class:`FrozenMap`, all the way down."""
    if isinstance(value, dict | FrozenMap):
        return FrozenMap({k: _frozen_value(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_frozen_value(v) for v in value)
    return value


def frozen_sections(sections: Any) -> FrozenMap[str, FrozenMap[str, Any]]:
    """The ``[mechanisms]`` sections, deeply immutable (so that a spec stays a value)."""
    return FrozenMap({name: _frozen_value(table) for name, table in dict(sections).items()})


@frozen
class Spec(Sealed):
    """A complete game spec, after overlays and options are applied."""

    name: str
    title: str
    deck: DeckSpec
    ranks: RanksSpec
    seating: SeatingSpec
    deal: DealSpec
    trump: TrumpSpec = TrumpSpec()
    bidding: BiddingSpec = BiddingSpec()
    calling: CallSpec = CallSpec()
    play: PlaySpec = PlaySpec()
    declarations: tuple[DeclarationSpec, ...] = ()
    scoring: ScoringSpec = ScoringSpec()
    match: MatchSpec = MatchSpec()
    options: FrozenMap[str, OptionSpec] = field(factory=FrozenMap)
    variant: VariantSpec | None = None
    sources: tuple[str, ...] = ()
    chosen: FrozenMap[str, str] = field(factory=FrozenMap)
    passing: PassingSpec = PassingSpec()
    making: MakingSpec = MakingSpec()
    tricks_bid: TricksBidSpec | None = None
    #: The sections of mechanisms registered from outside the library (``[mechanisms.NAME]``), as
    #: read: each registered mechanism reads its own (:func:`trickrules.engine.mechanism.register`).
    mechanisms: FrozenMap[str, FrozenMap[str, Any]] = field(factory=FrozenMap, converter=frozen_sections)


def _register() -> None:
    from trickrules.spec.converter import register_renames

    register_renames(PaymentSpec, from_="from")


_register()
