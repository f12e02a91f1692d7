"""Compiling a spec's bidding, play, declaration and scoring sections.

:func:`compile_rules` checks every cross-reference (with the key path in the
message) and turns the sections into the flat records the engine reads on
its hot path: bit masks for card sets, indices instead of names, formulas
parsed once. The play obligations are compiled by :mod:`trickrules.compile.play`.
"""

from __future__ import annotations

from attrs import frozen

from trickrules.compile.bids import BID_PLAYER_VARS, BID_SIDE_VARS, NO_BIDS, BidRules, compile_bid_rules
from trickrules.compile.cards import CardTable
from trickrules.compile.making import Making, compile_making
from trickrules.compile.play import PlayRules, compile_play
from trickrules.errors import SpecError
from trickrules.spec.formula import Formula, compile_formula
from trickrules.spec.model import ContractSpec, OutcomeSpec, Spec

__all__ = [
    "DEAL_VARS",
    "ELIGIBILITY_VARS",
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

#: Variables every scoring formula may use (see ``docs/dsl.md``).
DEAL_VARS = (
    "players",
    "tricks_total",
    "pot",
    "extra_deal",
    "ante",
    "target",
    "deal",
    "no_contract",
    "no_trump",
    "forced",
)
#: Variables about the side an outcome is evaluated for.
SIDE_VARS = (
    "tricks",
    "opp_tricks",
    "points",
    "opp_points",
    "card_points",
    "opp_card_points",
    "declared",
    "opp_declared",
    "last_trick",
    "revoked",
    "opp_revoked",
    "is_declarer_side",
    "run",
    "score",
    "opp_score",
    "declarer_tricks",
    "partner_tricks",
    *BID_SIDE_VARS,  # the sum of the side's bids of a number of tricks, and of the others'
    *("alone", "opp_alone"),  # a seat of the side (of the others) sits out: gone or defending alone
    *("point_cards", "opp_point_cards", "point_cards_total", "max_point_cards"),  # cards worth points above 0
)
#: Variables about the player a ``for_each = "player"`` outcome is evaluated for.
PLAYER_VARS = ("top_trumps", "is_declarer", "is_partner", "own_tricks", *BID_PLAYER_VARS)
#: Variables of a contract's ``eligible`` formula.
ELIGIBILITY_VARS = ("score", "opp_score", "target", "players", "deal")
#: Variables of a contract's ``end_when`` formula, after each trick: the declarer side's
#: tricks so far, the other side's, how many have been played, and how many a deal has.
END_VARS = ("tricks", "opp_tricks", "tricks_played", "tricks_total")
#: The roles a payment may name.
PAYMENT_ROLES = (
    "pot",
    "declarer",
    "partner",
    "declarer_side",
    "defenders",
    "side",
    "opponents",
    "player",
    "others",
    "all",
)


@frozen
class CompiledContract:
    """A contract of the ladder, ready for the engine."""

    index: int
    name: str
    label: str
    side: str
    trump_by: str
    call: bool
    exchange: int
    requires_mask: int
    eligible: Formula | None
    vars: tuple[tuple[str, Formula], ...]
    public_call: bool = False
    exchange_returns: str = "any"
    first_lead: str = "eldest"
    end_when: Formula | None = None


@frozen
class CompiledDeclaration:
    """A meld: its name, the ranks that make it, which suits, its points."""

    index: int
    name: str
    ranks: tuple[int, ...]
    suit: str
    points: int
    max_per_window: int
    contracts: frozenset[str]
    window_seats: str = "side"
    max_first_window: int = 0
    late: str = "allowed"


@frozen
class LateAnnouncement:
    """An announcement offered during the play, after the declarer's side has won a run of tricks."""

    name: str
    #: The contracts it is offered in.
    contracts: frozenset[str]
    #: How many tricks in a row, from the first, the declarer's side must have won.
    after_run: int
    #: Who decides: the declarer alone, or the declarer's side (both partners).
    by: str
    #: How a declarer without a partner answers: announce, lead or automatic.
    alone: str
    #: What declining it does: nothing, or end the deal at once.
    refused: str


@frozen
class CompiledPayment:
    """One payment line of an outcome."""

    payer: str
    to: str
    amount: Formula
    split: bool
    remainder: str = "stays"


@frozen
class CompiledOutcome:
    """A scoring outcome or bonus with its formulas compiled."""

    name: str
    when: Formula
    pay: tuple[CompiledPayment, ...]
    contracts: frozenset[str] | None
    for_each: str


@frozen
class Rules:
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
    trump_chosen_by: str
    allow_no_trump: bool
    contracts: tuple[CompiledContract, ...]
    auction: str
    all_pass: str
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
    call_public: bool
    play: PlayRules
    declarations: tuple[CompiledDeclaration, ...]
    unit: str
    ante: Formula
    ante_when: str
    rounding: str
    last_trick_bonus: int
    vars: tuple[tuple[str, Formula], ...]
    outcomes: tuple[CompiledOutcome, ...]
    bonuses: tuple[CompiledOutcome, ...]
    match_deals: int
    match_target: int
    tie_break: str
    pot_at_end: str
    privileged_mask_by_trump: tuple[tuple[int, int], ...]
    #: Trumps made round the table (``trump.chosen_by = "made"``), else ``None``.
    making: Making | None = None
    bids: BidRules = NO_BIDS  # bids of a number of tricks, hand sizes per deal, counters, the mercy rule


def _fail(where: str, path: str, message: str) -> SpecError:
    return SpecError(f"{where}: {path}: {message}")


def _formula(source: str, allowed: tuple[str, ...] | frozenset[str], where: str, path: str) -> Formula:
    return compile_formula(source, allowed, where=f"{where}: {path}")


def _var_names(spec: Spec) -> tuple[str, ...]:
    names: list[str] = [*spec.scoring.vars, *(c.name for c in spec.scoring.counters)]
    for c in spec.bidding.contracts:
        names.extend(n for n in c.vars if n not in names)
    return tuple(names)


def _compile_contract(
    n: int, c: ContractSpec, spec: Spec, cards: CardTable, where: str, var_names: tuple[str, ...]
) -> CompiledContract:
    path = f"bidding.contracts[{n}]"
    mask = 0
    for k, code in enumerate(c.requires_cards):
        if code not in cards.codes:
            raise _fail(where, f"{path}.requires_cards[{k}]", f"{code!r} is not a card of this deck.")
        mask |= 1 << cards.codes.index(code)
    trump_by = c.trump_by or spec.trump.chosen_by
    if trump_by == "called_holder" and not c.call:
        raise _fail(where, f"{path}.trump_by", "'called_holder' needs a contract that calls a card (call = true).")
    if c.side == "with_called" and not c.call:
        raise _fail(where, f"{path}.side", "'with_called' needs call = true.")
    if c.side in ("with_partner", "partner_sits_out", "teams") and spec.seating.partnerships != "fixed":
        raise _fail(where, f"{path}.side", f"{c.side!r} needs fixed partnerships (seating.partnerships = 'fixed').")
    if c.exchange and not c.call:
        raise _fail(where, f"{path}.exchange", "an exchange is made with the called card's holder: set call = true.")
    if not 0 <= c.exchange <= 13:
        raise _fail(where, f"{path}.exchange", f"expected 0 to 13 cards, found {c.exchange}.")
    local: list[tuple[str, Formula]] = []
    # A contract's vars come after the scoring vars: they may use those, and earlier ones of their own.
    earlier = [*spec.scoring.vars]
    for name, source in c.vars.items():
        if not name.isidentifier():
            raise _fail(where, f"{path}.vars.{name}", "a variable name must be an identifier.")
        local.append((name, _formula(source, (*DEAL_VARS, *SIDE_VARS, *earlier), where, f"{path}.vars.{name}")))
        earlier.append(name)
    eligible = None
    if c.eligible:
        eligible = _formula(c.eligible, (*ELIGIBILITY_VARS, *var_names), where, f"{path}.eligible")
    end_when = _formula(c.end_when, END_VARS, where, f"{path}.end_when") if c.end_when else None
    if c.exchange_returns == "called_card" and not c.exchange:
        raise _fail(where, f"{path}.exchange_returns", "needs an exchange (exchange = 1 or more).")
    return CompiledContract(
        index=n,
        name=c.name,
        label=c.label or c.name.capitalize(),
        side=c.side,
        trump_by=trump_by,
        call=c.call,
        exchange=c.exchange,
        requires_mask=mask,
        eligible=eligible,
        vars=tuple(local),
        public_call=c.public_call,
        exchange_returns=c.exchange_returns,
        first_lead=c.first_lead,
        end_when=end_when,
    )


def _compile_outcome(
    n: int, o: OutcomeSpec, kind: str, spec: Spec, where: str, var_names: tuple[str, ...], contracts: set[str]
) -> CompiledOutcome:
    path = f"scoring.{kind}[{n}]"
    allowed: tuple[str, ...] = (*DEAL_VARS, *SIDE_VARS, *var_names, *_announce_vars(spec))
    if o.for_each == "player":
        allowed = (*allowed, *PLAYER_VARS)
    for k, name in enumerate(o.contracts):
        if name and name not in contracts:
            raise _fail(where, f"{path}.contracts[{k}]", f"{name!r} is not a contract of bidding.contracts.")
    pays: list[CompiledPayment] = []
    for k, p in enumerate(o.pay):
        ppath = f"{path}.pay[{k}]"
        for key, role in (("to", p.to), ("from", p.from_)):
            if role and role not in PAYMENT_ROLES:
                raise _fail(where, f"{ppath}.{key}", f"{role!r} is not a role (roles: {', '.join(PAYMENT_ROLES)}).")
        if spec.scoring.unit == "chips" and not p.from_:
            raise _fail(where, f"{ppath}.from", "chips move from someone: give 'from' (a role, or 'pot').")
        if spec.scoring.unit == "points" and p.from_:
            raise _fail(where, f"{ppath}.from", "points are awarded, not moved: leave out 'from'.")
        if p.to == "pot" and spec.scoring.unit == "points":
            raise _fail(where, f"{ppath}.to", "a points game has no pot.")
        pays.append(
            CompiledPayment(p.from_, p.to, _formula(p.amount, allowed, where, f"{ppath}.amount"), p.split, p.remainder)
        )
    return CompiledOutcome(
        name=o.name,
        when=_formula(o.when, allowed, where, f"{path}.when"),
        pay=tuple(pays),
        contracts=frozenset(o.contracts) if o.contracts else None,
        for_each=o.for_each,
    )


def _announce_vars(spec: Spec) -> tuple[str, ...]:
    return tuple(f"announced_{a.name}" for a in spec.bidding.announcements)


def _check_deal(spec: Spec, cards: CardTable, where: str) -> int:
    """Check the seating and the deal against the deck; the hand size."""
    seating = spec.seating
    players = seating.players
    if not 2 <= players <= 8:
        raise _fail(where, "seating.players", f"expected 2 to 8 players, found {players}.")
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


def _check_names(spec: Spec, where: str) -> tuple[tuple[str, ...], list[str]]:
    """Check the names of the variables and the contracts; both, in order."""
    var_names = _var_names(spec)
    for name in var_names:
        if not name.isidentifier() or name in (*DEAL_VARS, *SIDE_VARS, *PLAYER_VARS):
            raise _fail(
                where,
                "scoring.vars",
                f"{name!r} is not a usable variable name (it must be an identifier that is not built in).",
            )
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
    return var_names, names


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
            late.append(LateAnnouncement(a.name, contracts, a.after_run, a.by, a.alone, a.refused))
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
                d.suit,
                d.points,
                d.max_per_window,
                frozenset(d.contracts or ("", *names)),
                d.window_seats,
                d.max_first_window,
                d.late,
            )
        )
    return tuple(decls)


def _compile_scoring(
    spec: Spec, where: str, var_names: tuple[str, ...], names: list[str], has_contracts: bool
) -> tuple[tuple[CompiledOutcome, ...], tuple[CompiledOutcome, ...], tuple[tuple[str, Formula], ...]]:
    """The outcomes, the bonuses and the scoring variables."""
    for kind, items in (("outcomes", spec.scoring.outcomes), ("bonuses", spec.scoring.bonuses)):
        onames = [o.name for o in items]
        if len(set(onames)) != len(onames):
            raise _fail(where, f"scoring.{kind}", f"names must be distinct (overlays merge by name), found {onames}.")
    if not has_contracts and spec.trump.chosen_by in ("declarer", "called_holder"):
        raise _fail(
            where,
            "trump.chosen_by",
            f"{spec.trump.chosen_by!r} needs a bidding ladder (bidding.contracts); "
            "a game without contracts has trumps chosen by 'dealer', 'turned' or 'none'.",
        )
    contract_names = set(names)
    outcomes = tuple(
        _compile_outcome(n, o, "outcomes", spec, where, var_names, contract_names)
        for n, o in enumerate(spec.scoring.outcomes)
    )
    bonuses = tuple(
        _compile_outcome(n, o, "bonuses", spec, where, var_names, contract_names)
        for n, o in enumerate(spec.scoring.bonuses)
    )
    svars = []
    earlier: list[str] = [c.name for c in spec.scoring.counters]
    for name, source in spec.scoring.vars.items():
        # A var may use the built-in variables, the counters and the vars defined before it.
        svars.append((name, _formula(source, (*DEAL_VARS, *SIDE_VARS, *earlier), where, f"scoring.vars.{name}")))
        earlier.append(name)
    return outcomes, bonuses, tuple(svars)


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


def compile_rules(spec: Spec, cards: CardTable, where: str) -> Rules:
    """Check and compile everything in ``spec`` beyond the card tables."""
    hand = _check_deal(spec, cards, where)
    bids = compile_bid_rules(spec, cards, where, (*DEAL_VARS, *SIDE_VARS))
    var_names, names = _check_names(spec, where)
    contracts = tuple(
        _compile_contract(n, c, spec, cards, where, var_names) for n, c in enumerate(spec.bidding.contracts)
    )
    ap_contract, ap_holder = _compile_all_pass(spec, cards, names, where)
    announcements, late = _compile_announcements(spec, names, hand, where)
    declarations = _compile_declarations(spec, cards, names, where)
    outcomes, bonuses, svars = _compile_scoring(spec, where, var_names, names, bool(contracts))
    play = compile_play(spec, where)
    _check_match(spec, where)
    ante = _formula(spec.scoring.ante, DEAL_VARS, where, "scoring.ante")
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
        trump_chosen_by=spec.trump.chosen_by,
        allow_no_trump=spec.trump.allow_none or spec.trump.chosen_by == "none",
        contracts=contracts,
        auction=spec.bidding.auction,
        all_pass=spec.bidding.all_pass.action,
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
        call_allow_trump_fallback=callspec.allow_trump or callspec.allow_trump_fallback,
        call_public=callspec.public,
        play=play,
        declarations=declarations,
        unit=spec.scoring.unit,
        ante=ante,
        ante_when=spec.scoring.ante_when,
        rounding=spec.scoring.rounding,
        last_trick_bonus=spec.scoring.last_trick_bonus,
        vars=svars,
        outcomes=outcomes,
        bonuses=bonuses,
        match_deals=spec.match.deals,
        match_target=spec.match.target,
        tie_break=spec.match.tie_break,
        pot_at_end=spec.match.pot_at_end,
        privileged_mask_by_trump=_privileged_masks(cards, play),
        making=compile_making(spec, where),
        bids=bids,
    )
