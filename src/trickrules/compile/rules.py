"""Compiling a spec's bidding, play, declaration and scoring sections.

:func:`compile_rules` checks every cross-reference (with the key path in the
message) and turns the sections into the flat records the engine reads on
its hot path: bit masks for card sets, indices instead of names, formulas
parsed once. The play obligations are compiled by :mod:`trickrules.compile.play`.
"""

from __future__ import annotations

from collections.abc import Mapping

from attrs import frozen

from trickrules.compile.bids import NO_BIDS, BidRules, DealSizes, check_counter_names, compile_bid_rules, deal_sizes
from trickrules.compile.cards import CardTable
from trickrules.compile.contracts import CompiledContract, CompiledDeclaration, LateAnnouncement, contract_trumps
from trickrules.compile.formulas import Formulas
from trickrules.compile.making import Making, compile_making
from trickrules.compile.modes import (
    AllPass,
    AnnouncedBy,
    AnteWhen,
    AuctionForm,
    ContractSide,
    DeclarationSuit,
    ExchangeReturns,
    FirstLead,
    LateAnswer,
    LateDeclaration,
    LateRefusal,
    MatchWinner,
    PotAtEnd,
    Rounding,
    TieBreak,
    TrumpChooser,
    Unit,
    WindowSeats,
)
from trickrules.compile.play import PlayRules, compile_play
from trickrules.compile.playable import check_contracts
from trickrules.compile.ranges import Range, union
from trickrules.compile.scoring import (
    PAYMENT_ROLES,
    CompiledOutcome,
    CompiledPayment,
    compile_outcomes,
    compile_scoring_vars,
)
from trickrules.compile.variables import (
    DEAL_VARS,
    ELIGIBILITY_VARS,
    END_VARS,
    PLAYER_VARS,
    SIDE_VARS,
    GameNumbers,
    builtin_ranges,
    check_variable_name,
    fact_ranges,
)
from trickrules.errors import SpecError
from trickrules.spec.formula import Formula
from trickrules.spec.limits import key_path
from trickrules.spec.model import ContractSpec, Spec
from trickrules.spec.sealed import Sealed

__all__ = [
    "DEAL_VARS",
    "ELIGIBILITY_VARS",
    "END_VARS",
    "PAYMENT_ROLES",
    "PLAYER_VARS",
    "SIDE_VARS",
    "CompiledContract",
    "CompiledDeclaration",
    "CompiledOutcome",
    "CompiledPayment",
    "LateAnnouncement",
    "PlayRules",
    "Rules",
    "compile_rules",
]


@frozen
class Rules(Sealed):
    """Everything compiled from a spec beyond the card tables."""

    players: int
    teams: tuple[tuple[int, ...], ...]
    packets: tuple[int, ...]
    hand_size: int
    tricks_per_deal: int
    turn_last_card: bool
    #: Whether the stock's top card is turned up (it stays in the stock).
    turn_from_stock: bool
    #: The trump suit of every deal, where it is fixed.
    fixed_trump: int | None
    trump_chosen_by: TrumpChooser
    allow_no_trump: bool
    contracts: tuple[CompiledContract, ...]
    auction: AuctionForm
    #: A player before the high bidder (from the eldest) may bid the same contract.
    earlier_may_hold: bool
    #: The seat after the eldest speaks first in the auction (the eldest last in the round).
    second_speaks_first: bool
    #: The last player left in the auction bids once more, and that bid ends it (``until_passes``).
    last_bid: bool
    #: The contracts only the eldest may bid, at his first turn once every other seat has passed, as a mask.
    eldest_only: int
    all_pass: AllPass
    all_pass_redeal_next: bool
    all_pass_contract: int
    all_pass_holder: int
    announcements: tuple[tuple[str, frozenset[str]], ...]
    #: Announcements not offered in a forced contract (``when_forced = false``).
    not_when_forced: frozenset[str]
    #: The announcements made during the play.
    late_announcements: tuple[LateAnnouncement, ...]
    call_ranks: tuple[int, ...]
    call_fallback_ranks: tuple[int, ...]
    call_allow_own: bool
    call_fallback_replaces: bool
    call_allow_own_fallback: bool
    call_allow_trump_fallback: bool
    call_allow_trump: bool
    #: ``call_allow_trump`` in a contract forced by ``all_pass``.
    call_allow_trump_forced: bool
    call_public: bool
    play: PlayRules
    declarations: tuple[CompiledDeclaration, ...]
    unit: Unit
    ante: Formula
    ante_when: AnteWhen
    rounding: Rounding
    last_trick_bonus: int
    vars: tuple[tuple[str, Formula], ...]
    outcomes: tuple[CompiledOutcome, ...]
    bonuses: tuple[CompiledOutcome, ...]
    match_deals: int
    match_target: int
    tie_break: TieBreak
    pot_at_end: PotAtEnd
    #: Whether the highest or the lowest score wins (penalty points: the lowest).
    match_winner: MatchWinner
    #: Whether play goes clockwise (``seating.direction``).
    clockwise: bool
    privileged_mask_by_trump: tuple[tuple[int, int], ...]
    #: Trumps made round the table (``trump.chosen_by = "made"``), else ``None``.
    making: Making | None = None
    bids: BidRules = NO_BIDS  # bids of a number of tricks, hand sizes per deal, counters, the mercy rule
    #: The values a mechanism gives each seat for the scoring (``scoring.external``).
    external: tuple[str, ...] = ()


_Outcomes = tuple[tuple[CompiledOutcome, ...], tuple[CompiledOutcome, ...]]


def _fail(where: str, path: str, message: str) -> SpecError:
    return SpecError(f"{where}: {path}: {message}")


def _var_names(spec: Spec) -> tuple[str, ...]:
    names: list[str] = [*spec.scoring.vars, *(n for c in spec.scoring.counters for n in (c.name, f"opp_{c.name}"))]
    names += [given for name in spec.scoring.external for given in (name, f"opp_{name}")]
    seen = set(names)
    for c in spec.bidding.contracts:
        for name in c.vars:
            if name not in seen:
                seen.add(name)
                names.append(name)
    return tuple(names)


def _eligibility_names(svars: tuple[tuple[str, Formula], ...], own: list[tuple[str, Formula]]) -> list[str]:
    """The named vars a contract's ``eligible`` formula may use: those known before the play.

    The engine defines, in order, each of the scoring vars and then the contract's own whose
    variables are all known when the bid is made (``engine.scoring.eligibility_env``).
    """
    known = {*DEAL_VARS, *ELIGIBILITY_VARS}
    names: list[str] = []
    for name, formula in (*svars, *own):
        if formula.variables <= known:
            known.add(name)
            if name not in names:
                names.append(name)
    return names


def _compile_contract(
    n: int,
    c: ContractSpec,
    spec: Spec,
    cards: CardTable,
    formulas: Formulas,
    scoring: tuple[tuple[tuple[str, Formula], ...], Mapping[str, Range]],
) -> tuple[CompiledContract, dict[str, Range]]:
    """A contract of the ladder, and the ranges of the named variables in a deal of it."""
    where = formulas.where
    path = f"bidding.contracts[{n}]"
    mask = 0
    for k, code in enumerate(c.requires_cards):
        if code not in cards.codes:
            raise _fail(where, f"{path}.requires_cards[{k}]", f"{code!r} is not a card of this deck.")
        mask |= 1 << cards.codes.index(code)
    trump_by = TrumpChooser(c.trump_by or spec.trump.chosen_by)
    if trump_by is TrumpChooser.CALLED_HOLDER and not c.call:
        raise _fail(where, f"{path}.trump_by", "'called_holder' needs a contract that calls a card (call = true).")
    if c.side == "with_called" and not c.call:
        raise _fail(where, f"{path}.side", "'with_called' needs call = true.")
    if c.side in ("with_partner", "partner_sits_out", "teams") and spec.seating.partnerships != "fixed":
        raise _fail(where, f"{path}.side", f"{c.side!r} needs fixed partnerships (seating.partnerships = 'fixed').")
    if c.exchange and not c.call:
        raise _fail(where, f"{path}.exchange", "an exchange is made with the called card's holder: set call = true.")
    if not 0 <= c.exchange <= 13:
        raise _fail(where, f"{path}.exchange", f"expected 0 to 13 cards, found {c.exchange}.")
    svars, sranges = scoring
    local: list[tuple[str, Formula]] = []
    # A contract's vars come after the scoring vars: they may use those, and earlier ones of their own.
    ranges = {name: r for name, r in sranges.items() if name in spec.scoring.vars}
    for name, source in c.vars.items():
        vpath = key_path(f"{path}.vars", name)
        check_variable_name(name, where, vpath)
        known = (*DEAL_VARS, *SIDE_VARS, *fact_ranges(spec.mechanisms), *ranges)
        formula, ranges[name] = formulas.compile(source, known, vpath, ranges)
        local.append((name, formula))
    eligible = None
    if c.eligible:
        allowed = (*ELIGIBILITY_VARS, *_eligibility_names(svars, local))
        eligible, _ = formulas.compile(c.eligible, allowed, f"{path}.eligible", {**sranges, **ranges})
    end_when = formulas.compile(c.end_when, END_VARS, f"{path}.end_when")[0] if c.end_when else None
    if c.exchange_returns == "called_card" and not c.exchange:
        raise _fail(where, f"{path}.exchange_returns", "needs an exchange (exchange = 1 or more).")
    trumps = contract_trumps(c.trumps, cards, where, f"{path}.trumps")
    compiled = CompiledContract(
        index=n,
        name=c.name,
        label=c.label or c.name.capitalize(),
        side=ContractSide(c.side),
        trump_by=trump_by,
        call=c.call,
        exchange=c.exchange,
        requires_mask=mask,
        eligible=eligible,
        vars=tuple(local),
        public_call=c.public_call,
        exchange_returns=ExchangeReturns(c.exchange_returns),
        first_lead=FirstLead(c.first_lead),
        end_when=end_when,
        trumps=trumps,
    )
    return compiled, {**sranges, **ranges}


def _check_deal(spec: Spec, cards: CardTable, where: str) -> int:
    """Check the seating and the deal against the deck; the hand size."""
    seating = spec.seating
    players = seating.players
    if not 2 <= players <= 8:
        raise _fail(where, "seating.players", f"expected 2 to 8 players, found {players}.")
    if not 0 <= seating.first_dealer < players:
        found = seating.first_dealer
        raise _fail(where, "seating.first_dealer", f"expected a seat from 0 to {players - 1}, found {found}.")
    teams = seating.teams
    if seating.partnerships == "fixed":
        flat = sorted(s for t in teams for s in t)
        if flat != list(range(players)) or len(teams) < 2:
            raise _fail(
                where,
                "seating.teams",
                f"fixed partnerships need teams that split seats 0..{players - 1}, found {teams}.",
            )
    elif teams:
        raise _fail(where, "seating.teams", "teams are only for partnerships = 'fixed'.")
    packets = spec.deal.packets
    if not packets or any(p < 1 for p in packets):
        raise _fail(where, "deal.packets", f"expected positive packet sizes, found {list(packets)}.")
    hand = sum(packets)
    stock = cards.size - hand * players
    if stock < 0:
        raise _fail(
            where,
            "deal.packets",
            f"{players} players x {hand} cards = {hand * players}, but the deck has {cards.size} cards.",
        )
    deal = spec.deal
    if deal.turn_last_card and deal.turn_from_stock:
        raise _fail(where, "deal.turn_from_stock", "turn the dealer's last card or the stock's top one, not both.")
    if deal.turn_from_stock and not stock:
        raise _fail(where, "deal.turn_from_stock", "the packets deal the whole deck: there is no stock to turn from.")
    if spec.trump.chosen_by == "turned" and not (deal.turn_last_card or deal.turn_from_stock):
        raise _fail(where, "trump.chosen_by", "'turned' needs deal.turn_last_card or deal.turn_from_stock = true.")
    if spec.trump.chosen_by == "fixed" and spec.trump.suit not in cards.suit_codes:
        raise _fail(where, "trump.suit", f"'fixed' trumps need a suit code of this deck, found {spec.trump.suit!r}.")
    if spec.trump.suit and spec.trump.chosen_by != "fixed":
        raise _fail(where, "trump.suit", "a trump suit is given only with chosen_by = 'fixed'.")
    return hand


def _check_holders(spec: Spec, cards: CardTable, sizes: DealSizes, where: str) -> None:
    """A card whose holder is sought (a called card, the forced bidder's card) must be dealt in every deal."""
    stock = cards.size - min(sizes.sizes) * spec.seating.players
    if not stock:
        return
    undealt = f"the deal leaves {stock} of the {cards.size} cards undealt"
    for n, c in enumerate(spec.bidding.contracts):
        if c.call and spec.calling.undealt != "alone":
            raise _fail(
                where, f"bidding.contracts[{n}].call", f"a called card must be in someone's hand, but {undealt}."
            )
    if spec.bidding.all_pass.action == "forced":
        raise _fail(where, "bidding.all_pass.holder_of", f"the card must be in someone's hand, but {undealt}.")


def _check_calling(spec: Spec, cards: CardTable, where: str) -> None:
    """Where a contract calls a card, some card of the callable ranks must be no trump, whatever the trumps."""
    if not any(c.call for c in spec.bidding.contracts):
        return
    calling = spec.calling
    if not calling.ranks:
        raise _fail(where, "calling.ranks", "a contract calls a card (call = true): name the ranks that may be called.")
    ranks = {*_ranks(calling.ranks, cards, where, "calling.ranks")}
    ranks |= {*_ranks(calling.fallback_ranks, cards, where, "calling.fallback_ranks")}
    for table in cards.trumps:
        if not any(cards.rank_of[c] in ranks and not table.is_trump(c) for c in range(cards.size)):
            trumps = cards.trump_code(table.trump)
            raise _fail(where, "calling.ranks", f"with trumps {trumps!r}, every card of these ranks is a trump.")


def _check_names(spec: Spec, where: str) -> list[str]:
    """Check the names of the contracts; them, in order."""
    names = [c.name for c in spec.bidding.contracts]
    if len(set(names)) != len(names):
        raise _fail(where, "bidding.contracts", f"contract names must be distinct, found {names}.")
    for n, c in enumerate(spec.bidding.contracts):
        if not c.name.isidentifier():
            raise _fail(
                where,
                f"bidding.contracts[{n}].name",
                f"{c.name!r} must be a single word (it is typed as 'bid {c.name}').",
            )
    if not names and spec.trump.chosen_by in ("declarer", "called_holder"):
        raise _fail(
            where,
            "trump.chosen_by",
            f"{spec.trump.chosen_by!r} needs a bidding ladder (bidding.contracts); "
            "a game without contracts has trumps chosen by 'dealer', 'turned' or 'none'.",
        )
    return names


def _compile_all_pass(spec: Spec, cards: CardTable, names: list[str], where: str) -> tuple[int, int]:
    """The forced contract's index and the card whose holder plays it, or -1, -1."""
    ap = spec.bidding.all_pass
    if ap.action == "forced":
        if ap.contract not in names:
            raise _fail(where, "bidding.all_pass.contract", f"{ap.contract!r} is not a contract of bidding.contracts.")
        if ap.holder_of not in cards.codes:
            raise _fail(where, "bidding.all_pass.holder_of", f"{ap.holder_of!r} is not a card of this deck.")
        return names.index(ap.contract), cards.codes.index(ap.holder_of)
    if ap.action == "play" and spec.seating.partnerships != "fixed":
        raise _fail(where, "bidding.all_pass.action", "'play' (a deal with no contract) needs fixed partnerships.")
    if ap.action == "play" and spec.trump.chosen_by in ("declarer", "called_holder"):
        raise _fail(
            where,
            "bidding.all_pass.action",
            f"'play' (a deal with no contract) has no declarer to choose trumps, but trump.chosen_by is "
            f"{spec.trump.chosen_by!r}; it needs trumps chosen by 'dealer', 'turned', 'fixed' or 'none'.",
        )
    return -1, -1


def _compile_announcements(
    spec: Spec, names: list[str], hand: int, where: str
) -> tuple[tuple[tuple[str, frozenset[str]], ...], tuple[LateAnnouncement, ...]]:
    """The announcements made before the play (name and contracts), and those made during it."""
    announcements: list[tuple[str, frozenset[str]]] = []
    late: list[LateAnnouncement] = []
    for n, a in enumerate(spec.bidding.announcements):
        path = f"bidding.announcements[{n}]"
        if not a.after_run and (a.alone != "announce" or a.refused != "continue"):
            raise _fail(
                where,
                path,
                f"alone = {a.alone!r} and refused = {a.refused!r} need after_run (an announcement during the play).",
            )
        if a.after_run and not 0 < a.after_run < hand:
            raise _fail(where, f"{path}.after_run", f"expected 1 to {hand - 1}.")
        for k, cname in enumerate(a.contracts):
            if cname not in names:
                raise _fail(where, f"{path}.contracts[{k}]", f"{cname!r} is not a contract.")
        contracts = frozenset(a.contracts or names)
        if a.after_run:
            late.append(
                LateAnnouncement(
                    a.name, contracts, a.after_run, AnnouncedBy(a.by), LateAnswer(a.alone), LateRefusal(a.refused)
                )
            )
        else:
            announcements.append((a.name, contracts))
    return tuple(announcements), tuple(late)


def _ranks(codes: tuple[str, ...], cards: CardTable, where: str, path: str) -> tuple[int, ...]:
    out = []
    for k, code in enumerate(codes):
        if code not in cards.rank_codes:
            raise _fail(where, f"{path}[{k}]", f"{code!r} is not a rank of this deck.")
        out.append(cards.rank_codes.index(code))
    return tuple(out)


def _compile_declarations(
    spec: Spec, cards: CardTable, names: list[str], where: str
) -> tuple[CompiledDeclaration, ...]:
    decls = []
    for n, d in enumerate(spec.declarations):
        if d.max_per_window < 1:
            raise _fail(where, f"declarations[{n}].max_per_window", f"expected 1 or more, found {d.max_per_window}.")
        if d.max_first_window < 0:
            found = d.max_first_window
            raise _fail(where, f"declarations[{n}].max_first_window", f"expected 0 or more, found {found}.")
        for k, cname in enumerate(d.contracts):
            if cname and cname not in names:
                raise _fail(where, f"declarations[{n}].contracts[{k}]", f"{cname!r} is not a contract.")
        decls.append(
            CompiledDeclaration(
                n,
                d.name,
                _ranks(d.ranks, cards, where, f"declarations[{n}].ranks"),
                DeclarationSuit(d.suit),
                d.points,
                d.max_per_window,
                frozenset(d.contracts or ("", *names)),
                WindowSeats(d.window_seats),
                d.max_first_window,
                LateDeclaration(d.late),
            )
        )
    return tuple(decls)


def _numbers(spec: Spec, cards: CardTable, sizes: DealSizes) -> GameNumbers:
    """The numbers of the game that bound its formula variables."""
    points = cards.points
    declared = [d.points for d in spec.declarations]
    tb = spec.tricks_bid
    return GameNumbers(
        players=spec.seating.players,
        fewest_tricks=min(sizes.sizes),
        most_tricks=sizes.largest,
        target=spec.match.target,
        negative_points=sum(p for p in points if p < 0),
        positive_points=sum(p for p in points if p > 0),
        point_cards=sum(1 for p in points if p > 0),
        declared_low=min(declared, default=0),
        declared_high=max(declared, default=0),
        last_trick_bonus=spec.scoring.last_trick_bonus,
        lowest_bid=tb.min if tb is not None else 0,
        highest_bid=(tb.max or sizes.largest) if tb is not None else 0,
    )


def _compile_formulas(
    spec: Spec, cards: CardTable, formulas: Formulas, sizes: DealSizes
) -> tuple[tuple[CompiledContract, ...], tuple[tuple[str, Formula], ...], BidRules, _Outcomes]:
    """Every formula of the spec, in the order their variables are defined: the named vars first.

    Returns the contracts, the scoring vars, the rules for bids and counters, and the outcomes and bonuses.
    """
    check_counter_names(spec, formulas.where)  # the scoring vars may use the counters
    svars, sranges = compile_scoring_vars(spec, formulas, formulas.where)
    contracts: list[CompiledContract] = []
    by_context: dict[int | None, Mapping[str, Range]] = {None: sranges}
    for n, c in enumerate(spec.bidding.contracts):
        contract, by_context[n] = _compile_contract(n, c, spec, cards, formulas, (svars, sranges))
        contracts.append(contract)
    everywhere: dict[str, Range] = {}
    for context in by_context.values():
        for name, r in context.items():
            everywhere[name] = union(everywhere[name], r) if name in everywhere else r
    bids = compile_bid_rules(spec, sizes, formulas, everywhere)
    outcomes = compile_outcomes(spec, formulas, _var_names(spec), by_context)
    return tuple(contracts), svars, bids, outcomes


def _privileged_masks(cards: CardTable, play: PlayRules) -> tuple[tuple[int, int], ...]:
    """For each trump suit, the mask of its promoted cards that are privileged."""
    priv: list[tuple[int, int]] = []
    for table in cards.trumps:
        mask = 0
        for card, pname in table.promoted:
            if pname in play.privileged:
                mask |= 1 << card
        priv.append((table.trump, mask))
    return tuple(priv)


def _check_match(spec: Spec, where: str) -> None:
    m = spec.match
    if m.deals < 0 or m.target < 0:
        raise _fail(where, "match", "deals and target must not be negative.")
    if not m.deals and not m.target:
        raise _fail(where, "match", "give a number of deals or a target score (or both).")
    if m.deals_multiple_of < 1:
        raise _fail(where, "match.deals_multiple_of", f"expected a positive integer, found {m.deals_multiple_of}.")
    if m.deals % m.deals_multiple_of:
        raise _fail(
            where,
            "match.deals",
            f"{m.deals} deals is not a multiple of {m.deals_multiple_of} (match.deals_multiple_of).",
        )


def _compile_eldest_only(spec: Spec, names: list[str], where: str) -> int:
    """The contracts only the eldest may bid (``bidding.eldest_only``), as a mask of their indices."""
    mask = 0
    for k, name in enumerate(spec.bidding.eldest_only):
        if name not in names:
            raise _fail(where, f"bidding.eldest_only[{k}]", f"{name!r} is not a contract of bidding.contracts.")
        mask |= 1 << names.index(name)
    if spec.bidding.last_bid and spec.bidding.auction != "until_passes":
        raise _fail(where, "bidding.last_bid", f"needs auction = 'until_passes', found {spec.bidding.auction!r}.")
    return mask


def compile_rules(spec: Spec, cards: CardTable, where: str) -> Rules:
    """Check and compile everything in ``spec`` beyond the card tables."""
    hand = _check_deal(spec, cards, where)
    sizes = deal_sizes(spec, cards, where)
    announced = tuple(a.name for a in spec.bidding.announcements)
    builtins = {**builtin_ranges(_numbers(spec, cards, sizes), announced), **fact_ranges(spec.mechanisms)}
    formulas = Formulas(where, builtins)
    names = _check_names(spec, where)
    _check_holders(spec, cards, sizes, where)
    _check_calling(spec, cards, where)
    check_contracts(spec, sizes, where)
    contracts, svars, bids, (outcomes, bonuses) = _compile_formulas(spec, cards, formulas, sizes)
    ap_contract, ap_holder = _compile_all_pass(spec, cards, names, where)
    announcements, late = _compile_announcements(spec, names, hand, where)
    declarations = _compile_declarations(spec, cards, names, where)
    play = compile_play(spec, where)
    _check_match(spec, where)
    ante, _ = formulas.compile(spec.scoring.ante, DEAL_VARS, "scoring.ante")
    callspec = spec.calling
    return Rules(
        players=spec.seating.players,
        teams=spec.seating.teams,
        packets=bids.sizes.packets,
        hand_size=bids.sizes.largest,
        tricks_per_deal=bids.sizes.largest,
        turn_last_card=spec.deal.turn_last_card,
        turn_from_stock=spec.deal.turn_from_stock,
        fixed_trump=cards.suit_codes.index(spec.trump.suit) if spec.trump.chosen_by == "fixed" else None,
        trump_chosen_by=TrumpChooser(spec.trump.chosen_by),
        allow_no_trump=spec.trump.allow_none or spec.trump.chosen_by == "none",
        contracts=contracts,
        auction=AuctionForm(spec.bidding.auction),
        earlier_may_hold=spec.bidding.earlier_may_hold,
        second_speaks_first=spec.bidding.first_speaker == "second",
        last_bid=spec.bidding.last_bid,
        eldest_only=_compile_eldest_only(spec, names, where),
        external=spec.scoring.external,
        all_pass=AllPass(spec.bidding.all_pass.action),
        all_pass_redeal_next=spec.bidding.all_pass.redeal_by == "next_dealer",
        all_pass_contract=ap_contract,
        all_pass_holder=ap_holder,
        announcements=announcements,
        not_when_forced=frozenset(a.name for a in spec.bidding.announcements if not a.when_forced),
        late_announcements=late,
        call_ranks=_ranks(callspec.ranks, cards, where, "calling.ranks"),
        call_fallback_ranks=_ranks(callspec.fallback_ranks, cards, where, "calling.fallback_ranks"),
        call_allow_own=callspec.allow_own,
        call_fallback_replaces=callspec.fallback_replaces,
        call_allow_own_fallback=callspec.allow_own_fallback,
        call_allow_trump=callspec.allow_trump,
        call_allow_trump_forced=callspec.allow_trump or callspec.allow_trump_forced,
        call_allow_trump_fallback=callspec.allow_trump or callspec.allow_trump_fallback,
        call_public=callspec.public,
        play=play,
        declarations=declarations,
        unit=Unit(spec.scoring.unit),
        ante=ante,
        ante_when=AnteWhen(spec.scoring.ante_when),
        rounding=Rounding(spec.scoring.rounding),
        last_trick_bonus=spec.scoring.last_trick_bonus,
        vars=svars,
        outcomes=outcomes,
        bonuses=bonuses,
        match_deals=spec.match.deals,
        match_target=spec.match.target,
        tie_break=TieBreak(spec.match.tie_break),
        pot_at_end=PotAtEnd(spec.match.pot_at_end),
        match_winner=MatchWinner(spec.match.winner),
        clockwise=spec.seating.direction == "clockwise",
        privileged_mask_by_trump=_privileged_masks(cards, play),
        making=compile_making(spec, cards.suit_codes, where),
        bids=bids,
    )
