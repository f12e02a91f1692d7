"""Scoring a deal: the formula variables, the outcomes and bonuses, and the payments they make.

The variables the formulas see are listed in ``docs/dsl.md``; ``pot`` is
the pot as the deal's scoring begins, whatever earlier payments moved. Outcomes apply
*first match* per subject (the deal, each side, or each player); bonuses
apply wherever their condition holds. Chips move from payer to payee (the
pot is seat ``-1`` and never pays out more than it holds); points are added
to every seat of the receiving role.

A formula that fails while a deal is scored (a division by a score that is
0: the loader refuses what the ranges of the variables show can fail, but a
score's range is unknown) raises its :class:`~trickrules.errors.FormulaError`
with the deal's number and the values of the formula's variables added
(:func:`evaluate_in_deal`). States are immutable, so the state the failing
action was applied to stays as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from attrs import frozen

from trickrules.compile.modes import ContractSide, OutcomeScope
from trickrules.compile.rules import CompiledContract
from trickrules.compile.tables import Tables
from trickrules.compile.variables import fact_ranges
from trickrules.engine.evaluation import evaluate_in_deal, in_deal
from trickrules.engine.events import Event
from trickrules.engine.ledger import Ledger, others
from trickrules.engine.values import Actor, DealInfo, MatchInfo, Tally
from trickrules.errors import FormulaError
from trickrules.spec.formula import Formula, Number
from trickrules.spec.sealed import Sealed

if TYPE_CHECKING:
    from trickrules.engine.state import GameLike, State

__all__ = [
    "ContractScoring",
    "ScoringPlan",
    "contract_scoring",
    "deal_constants",
    "eligibility_env",
    "is_eligible",
    "is_extra_deal",
    "pay_deal",
    "scoring_plan",
    "side_variables",
    "sides_of_deal",
]

#: The sides of a contract in which the declarer plays with his team (fixed partnerships).
_TEAM_SIDES = frozenset((ContractSide.WITH_PARTNER, ContractSide.PARTNER_SITS_OUT, ContractSide.TEAMS))

Env = dict[str, Number | bool]


def deal_constants(game: GameLike, match: MatchInfo, number: int) -> Env:
    """Variables that do not depend on how the deal went."""
    rules = game.rules
    return {
        "players": rules.players,
        "tricks_total": rules.tricks_per_deal,
        "pot": match.pot,
        "ante": 0,
        "target": rules.match_target,
        "deal": number,
        "no_contract": True,
        "no_trump": False,
        "forced": False,
        "hand": False,
        "extra_deal": is_extra_deal(game, match),
    }


def is_extra_deal(game: GameLike, match: MatchInfo) -> bool:
    """Whether the deal about to be scored or dealt is one played past the agreed number (a tie-break)."""
    rules = game.rules
    return bool(rules.match_deals) and match.deals_done >= rules.match_deals


def eligibility_env(state: State, seat: int, contract: CompiledContract) -> Env:
    """Variables of a contract's ``eligible`` formula for ``seat``.

    The spec's ``vars`` are defined where their own variables are known
    before the play (a var that needs the tricks is not); a formula error
    propagates.
    """
    game = state.game
    match = state.match
    rules = game.rules
    team_of = game.tables.team_of
    score = match.scores[seat]  # in a partnership both partners carry the side's score
    others = [match.scores[s] for s in range(rules.players) if team_of[s] != team_of[seat]]
    named = (*rules.vars, *contract.vars)
    # The mechanisms' facts are asked only for a named var that reads ``hand`` (asked at every bid's check).
    reads_hand = any("hand" in formula.variables for _, formula in named)
    env: Env = {
        "score": score,
        "opp_score": max(others) if others else 0,
        "target": rules.match_target,
        "players": rules.players,
        "deal": state.deal.number,
        "hand": reads_hand and deal_facts(game, state.deal).get("hand", False),
    }
    known: Env = {**deal_constants(game, match, state.deal.number), **env}
    for name, formula in named:
        if formula.variables <= known.keys():
            env[name] = known[name] = evaluate_in_deal(formula, known, state.deal.number)
    return env


def is_eligible(state: State, seat: int, contract: CompiledContract) -> bool:
    """Whether ``seat`` may bid ``contract`` by its ``eligible`` formula (true where it has none)."""
    if contract.eligible is None:
        return True
    env = eligibility_env(state, seat, contract)
    return bool(evaluate_in_deal(contract.eligible, env, state.deal.number))


def deal_facts(game: GameLike, d: DealInfo) -> dict[str, Any]:
    """What the game's mechanisms say of deal ``d`` for the scoring variables (each mechanism's ``facts``).

    ``forced`` (the contract was forced), ``announced`` (the announcements
    made), ``declared`` and ``bid`` (per seat: points declared, tricks bid),
    ``won`` (per seat: cards counted as taken though no trick took them) and
    ``external`` (variable name -> a value per seat, ``scoring.external``).
    """
    found: dict[str, Any] = {}
    for mechanism in game.part_mechanisms:
        if mechanism.facts is not None:
            for key, value in mechanism.facts(game, d).items():
                if key == "external" and key in found:  # each mechanism's variables
                    found[key] = {**found[key], **value}
                elif key == "won" and key in found:  # the cards each seat counts as taken, from each mechanism
                    found[key] = tuple(a | b for a, b in zip(found[key], value, strict=True))
                else:
                    found[key] = value
    return found


def sides_of_deal(t: Tables, d: DealInfo) -> tuple[tuple[int, ...], ...]:
    """The sides of a deal, the declarer's side first when there is a contract."""
    rules = t.rules
    n = rules.players
    if d.contract is None or d.declarer is None:
        return rules.teams if rules.teams else tuple((s,) for s in range(n))
    c = rules.contracts[d.contract]
    side = {d.declarer}
    if c.side is ContractSide.WITH_CALLED and d.partner is not None:
        side.add(d.partner)
    elif c.side in _TEAM_SIDES:
        side.update(rules.teams[t.team_of[d.declarer]])
    ordered = tuple(sorted(side))
    return (ordered, others(n, ordered))


def _top_trumps(t: Tables, d: DealInfo, seat: int, holds: tuple[int, ...] = (), held: bool = True) -> int:
    """How many of the top trumps, from the highest down without a gap, ``seat`` held (``held=False``: lacked).

    A seat holds the cards it was dealt, and those a mechanism adds (``holds``: the widow, for its declarer).
    """
    assert d.trump is not None
    order = t.cards.table(d.trump).order
    hand = d.dealt[seat] | (holds[seat] if holds else 0)
    count = 0
    for card in order:
        if bool((hand >> card) & 1) is not held:
            break
        count += 1
    return count


_NOBODY: frozenset[int] = frozenset()


class _Deal:
    """What a finished deal decided, for computing formula variables."""

    __slots__ = (
        "bids",
        "bonus",
        "card_points",
        "d",
        "declared",
        "external",
        "holds",
        "last_winner",
        "match",
        "revokers",
        "tables",
        "tricks",
        "winners",
        "won",
    )

    def __init__(self, t: Tables, match: MatchInfo, d: DealInfo, tally: Tally, facts: Mapping[str, Any]) -> None:
        n = t.players
        winners = tally.winners
        tricks = [winners.count(s) for s in range(n)]
        won = tally.won
        extra = facts.get("won")
        if extra:  # cards a mechanism counts as taken though no trick took them (a discard kept by its side)
            won = tuple(w | e for w, e in zip(won, extra, strict=True))
        if t.has_card_points:
            points_of = t.points_of
            card_points = [sum(points_of(mask)) for mask in won]
        else:
            card_points = [0] * n
        declared: list[int] = list(facts.get("declared", (0,) * n))
        self.bids: tuple[int, ...] = facts.get("bid", ())
        self.holds: tuple[int, ...] = facts.get("holds", ())
        self.tables = t
        self.match = match
        self.d = d
        self.tricks = tricks
        self.card_points = card_points
        self.declared = declared
        self.winners = tally.winners
        self.won = won
        self.external: Mapping[str, tuple[int, ...]] = facts.get("external", {})
        self.last_winner = tally.winners[-1]
        self.revokers = {r.seat for r in tally.revokes} if tally.revokes else _NOBODY
        self.bonus = t.rules.last_trick_bonus


def _run(x: _Deal, side: tuple[int, ...]) -> int:
    count = 0
    for w in x.winners:
        if w not in side:
            break
        count += 1
    return count


def _points(x: _Deal, side: tuple[int, ...]) -> int:
    return sum(x.card_points[s] + x.declared[s] for s in side) + (x.bonus if x.last_winner in side else 0)


def _top_trumps_of(x: _Deal, seat: int, held: bool = True) -> int:
    return _top_trumps(x.tables, x.d, seat, x.holds, held) if x.d.trump is not None and x.d.trump >= 0 else 0


def _total(per_seat: list[int], seats: tuple[int, ...]) -> int:
    """The sum of ``per_seat`` over ``seats`` (a plain loop: cheaper than sum and map for a few seats)."""
    total = 0
    for s in seats:
        total += per_seat[s]
    return total


# How each built-in side variable is computed: (deal, side, other side) -> value.
_SIDE: dict[str, Any] = {
    "tricks": lambda x, side, other: _total(x.tricks, side),
    "opp_tricks": lambda x, side, other: _total(x.tricks, other),
    "card_points": lambda x, side, other: _total(x.card_points, side),
    "opp_card_points": lambda x, side, other: _total(x.card_points, other),
    "declared": lambda x, side, other: _total(x.declared, side),
    "opp_declared": lambda x, side, other: _total(x.declared, other),
    "last_trick": lambda x, side, other: x.last_winner in side,
    "points": lambda x, side, other: _points(x, side),
    "opp_points": lambda x, side, other: _points(x, other),
    "revoked": lambda x, side, other: any(s in x.revokers for s in side),
    "opp_revoked": lambda x, side, other: any(s in x.revokers for s in other),
    "is_declarer_side": lambda x, side, other: x.d.declarer is not None and x.d.declarer in side,
    "run": lambda x, side, other: _run(x, side),
    "score": lambda x, side, other: x.match.scores[side[0]],
    "opp_score": lambda x, side, other: max((x.match.scores[s] for s in other), default=0),
    "declarer_tricks": lambda x, side, other: x.tricks[x.d.declarer] if x.d.declarer is not None else 0,
    "partner_tricks": lambda x, side, other: (
        x.tricks[x.d.partner] if x.d.partner is not None and x.d.partner != x.d.declarer else 0
    ),
    "alone": lambda x, side, other: any((x.d.seats_out >> s) & 1 for s in side),
    "opp_alone": lambda x, side, other: any((x.d.seats_out >> s) & 1 for s in other),
    "point_cards": lambda x, side, other: _point_cards(x, side),
    "opp_point_cards": lambda x, side, other: _point_cards(x, other),
    "point_cards_total": lambda x, side, other: x.tables.point_cards.bit_count(),
    "max_point_cards": lambda x, side, other: max(_point_cards(x, s) for s in sides_of_deal(x.tables, x.d)),
    "bid": lambda x, side, other: _bids(x, side),
    "opp_bid": lambda x, side, other: _bids(x, other),
}


def _point_cards(x: _Deal, seats: tuple[int, ...]) -> int:
    """How many cards worth more than 0 card points ``seats`` took."""
    taken = 0
    for s in seats:
        taken |= x.won[s]
    return (taken & x.tables.point_cards).bit_count()


# How each built-in player variable is computed: (deal, seat) -> value.
_PLAYER: dict[str, Any] = {
    "top_trumps": _top_trumps_of,
    "top_trumps_without": lambda x, seat: _top_trumps_of(x, seat, held=False),
    "is_declarer": lambda x, seat: seat == x.d.declarer,
    "is_partner": lambda x, seat: x.d.partner is not None and seat == x.d.partner and seat != x.d.declarer,
    "own_tricks": lambda x, seat: x.tricks[seat],
    "own_bid": lambda x, seat: x.bids[seat] if x.bids else 0,
    "own_card_points": lambda x, seat: x.card_points[seat],
    "own_point_cards": lambda x, seat: (x.won[seat] & x.tables.point_cards).bit_count(),
    "max_own_card_points": lambda x, seat: max(x.card_points),
    "min_own_card_points": lambda x, seat: min(x.card_points),
}


def _bids(x: _Deal, seats: tuple[int, ...]) -> int:
    """The sum of the bids of a number of tricks that ``seats`` made (0 where nobody bid)."""
    bids = x.bids
    return sum(bids[s] for s in seats) if bids else 0


def _scoring_vars(rules: Any) -> dict[int | None, tuple[Env, tuple[tuple[str, Formula], ...]]]:
    """The scoring vars per contract index (``None``: no contract).

    For each: the vars that are constants, with their values, and the
    formulas left to evaluate each deal.

    A contract's var replaces a scoring var of the same name.
    """
    out: dict[int | None, tuple[Env, tuple[tuple[str, Formula], ...]]] = {}
    for index in (None, *range(len(rules.contracts))):
        own = rules.contracts[index].vars if index is not None else ()
        mine = {name for name, _ in own}
        merged = [(n, f) for n, f in rules.vars if n not in mine] + list(own)
        consts: Env = {}
        left: list[tuple[str, Formula]] = []
        for name, formula in merged:
            if not formula.variables and not left:
                consts[name] = formula.evaluate({})  # folded when compiled: it cannot fail
            else:
                left.append((name, formula))
        out[index] = (consts, tuple(left))
    return out


@frozen(weakref_slot=False)
class ContractScoring(Sealed):
    """What scoring a deal of one contract needs, worked out once per game (see :func:`contract_scoring`)."""

    #: The variables that are the same in every deal of this contract.
    base: Mapping[str, Number | bool]
    formulas: tuple[tuple[str, Formula], ...]
    #: Whether some formula reads a player variable.
    player_formulas: bool
    outcomes: tuple[Any, ...]
    bonuses: tuple[Any, ...]
    #: Whether an outcome or bonus is for each player (so player environments are needed).
    per_player: bool


def contract_scoring(
    rules: Any, index: int | None, consts: Env, formulas: tuple[tuple[str, Formula], ...]
) -> ContractScoring:
    """The :class:`ContractScoring` of contract ``index`` (``None``: deals with no contract)."""
    name = rules.contracts[index].name if index is not None else ""
    base: Env = {
        "players": rules.players,
        "tricks_total": rules.tricks_per_deal,
        "ante": 0,
        "target": rules.match_target,
        "no_contract": index is None,
        **consts,
    }
    outcomes = tuple(o for o in rules.outcomes if o.contracts is None or name in o.contracts)
    bonuses = tuple(b for b in rules.bonuses if b.contracts is None or name in b.contracts)
    return ContractScoring(
        MappingProxyType(base),
        formulas,
        any(f.variables & set(_PLAYER) for _, f in formulas),
        outcomes,
        bonuses,
        any(o.for_each is OutcomeScope.PLAYER for o in (*outcomes, *bonuses)),
    )


def _variables_used(rules: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The built-in side and player variables that some scoring formula reads.

    Only these are computed when a deal is scored. Variables read by the
    spec's own ``vars`` count too, whether or not anything reads those.
    """
    used: set[str] = set()
    for outcome in (*rules.outcomes, *rules.bonuses):
        used |= outcome.when.variables
        for pay in outcome.pay:
            used |= pay.amount.variables
    for _, formula in rules.vars:
        used |= formula.variables
    for contract in rules.contracts:
        for _, formula in contract.vars:
            used |= formula.variables
    for counter in rules.bids.counters:
        used |= counter.update.variables
    return tuple(n for n in _SIDE if n in used), tuple(n for n in _PLAYER if n in used)


@frozen(weakref_slot=False)
class ScoringPlan(Sealed):
    """What scoring any deal of a game needs, worked out once per game (see :func:`scoring_plan`)."""

    #: The built-in side and player variables some formula reads (only these are computed).
    side_names: tuple[str, ...]
    player_names: tuple[str, ...]
    #: Per contract index (``None``: no contract).
    by_contract: Mapping[int | None, ContractScoring]
    #: Each announcement with the scoring variable that says whether it was made.
    announced_keys: tuple[tuple[str, str], ...]
    #: The counters carried from deal to deal (``scoring.counters``), in the order of ``MatchInfo.counters``.
    counter_names: tuple[str, ...]
    #: The scoring variables the game's registered mechanisms give through their ``facts``.
    fact_names: tuple[str, ...] = ()
    #: The values a mechanism gives each seat (``scoring.external``), read from the deal's facts.
    external_names: tuple[str, ...] = ()


def scoring_plan(t: Tables) -> ScoringPlan:
    """The :class:`ScoringPlan` of a game's tables."""
    rules = t.rules
    side_names, player_names = _variables_used(rules)
    by_contract = {index: contract_scoring(rules, index, *found) for index, found in _scoring_vars(rules).items()}
    return ScoringPlan(
        side_names,
        player_names,
        MappingProxyType(by_contract),
        tuple((a, f"announced_{a}") for a in t.announcement_names),
        tuple(c.name for c in rules.bids.counters),
        tuple(fact_ranges(t.mechanism_sections)),
        rules.external,
    )


class _Environments:
    """The formula variables of a finished deal, per side and per player, each worked out once."""

    __slots__ = (
        "base",
        "deal",
        "formulas",
        "plan",
        "player_cache",
        "player_formulas",
        "players",
        "side_cache",
        "side_of",
    )

    def __init__(self, game: GameLike, match: MatchInfo, d: DealInfo, tally: Tally, sides: tuple[tuple[int, ...], ...]):
        t = game.tables
        scoring: ScoringPlan = game.scoring
        plan = scoring.by_contract[d.contract]
        base: Env = dict(plan.base)
        base["pot"] = match.pot
        base["deal"] = d.number
        base["tricks_total"] = d.tricks  # the deal's own hand size (it may change from deal to deal)
        base["no_trump"] = d.trump is not None and d.trump < 0
        facts = deal_facts(game, d)
        base["forced"] = facts.get("forced", False)
        base["hand"] = facts.get("hand", False)
        base["extra_deal"] = is_extra_deal(game, match)
        announced = facts.get("announced", ())
        for a, key in scoring.announced_keys:
            base[key] = a in announced
        for name in scoring.fact_names:
            base[name] = facts[name]
        self.base = base
        self.plan = scoring
        self.players = t.players
        self.deal = _Deal(t, match, d, tally, facts)
        self.side_of = {seat: side for side in sides for seat in side}
        self.formulas = plan.formulas
        self.player_formulas = plan.player_formulas
        self.side_cache: dict[tuple[int, ...], Env] = {}
        self.player_cache: dict[int, Env] = {}

    def side(self, side: tuple[int, ...]) -> Env:
        """The variables of one side."""
        found = self.side_cache.get(side)
        if found is None:
            other = others(self.players, side)
            found = dict(self.base)
            for name in self.plan.side_names:
                found[name] = _SIDE[name](self.deal, side, other)
            for name, values in zip(self.plan.counter_names, self.deal.match.counters, strict=True):
                found[name] = values[side[0]]  # a counter as it stood before the deal
                found[f"opp_{name}"] = max((values[s] for s in other), default=0)  # the others' highest
            for name in self.plan.external_names:  # a mechanism's values: the side's sum, and the others'
                values = self.deal.external.get(name, ())
                found[name] = sum(values[s] for s in side) if values else 0
                found[f"opp_{name}"] = sum(values[s] for s in other) if values else 0
            number = self.deal.d.number
            for name, formula in self.formulas:
                found[name] = evaluate_in_deal(formula, found, number)
            self.side_cache[side] = found
        return found

    def player(self, seat: int) -> Env:
        """The variables of one player (those of the player's side, and the player's own)."""
        found = self.player_cache.get(seat)
        if found is None:
            found = dict(self.side(self.side_of[seat]))
            player_names = self.plan.player_names
            for name in player_names:
                found[name] = _PLAYER[name](self.deal, seat)
            external = self.plan.external_names
            for name in external:  # a mechanism's values: the player's own, and everyone else's
                values = self.deal.external.get(name, ())
                found[name] = values[seat] if values else 0
                found[f"opp_{name}"] = sum(values) - values[seat] if values else 0
            if (player_names or external) and self.player_formulas:
                number = self.deal.d.number
                for name, formula in self.formulas:
                    found[name] = evaluate_in_deal(formula, found, number)
            self.player_cache[seat] = found
        return found

    def of(self, kind: OutcomeScope, side: tuple[int, ...], player: int) -> Env:
        """The variables an outcome of ``kind`` (deal, side or player) sees for this subject."""
        return self.player(player) if kind is OutcomeScope.PLAYER else self.side(side)


def side_variables(game: GameLike, match: MatchInfo, d: DealInfo, tally: Tally) -> Callable[[tuple[int, ...]], Env]:
    """The formula variables of a finished deal, for any side (as the deal's outcomes see them)."""
    return _Environments(game, match, d, tally, sides_of_deal(game.tables, d)).side


def pay_deal(
    game: GameLike, match: MatchInfo, d: DealInfo, tally: Tally, events: list[tuple[Actor, Event]]
) -> tuple[list[int], int, list[str]]:
    """Apply the outcomes and bonuses of a finished deal; return the scores, the pot and what applied.

    The payments' events are appended to ``events``.
    """
    t = game.tables
    sides = sides_of_deal(t, d)
    has_contract = d.contract is not None and d.declarer is not None
    envs = _Environments(game, match, d, tally, sides)
    plan = game.scoring.by_contract[d.contract]
    ledger = Ledger(t.rules, d, list(match.scores), match.pot, events, sides if has_contract else ())
    applied: list[str] = []
    # Who each kind of outcome is for: (side, player) pairs; the deal's is the declarer's side.
    by_kind: dict[OutcomeScope, tuple[tuple[tuple[int, ...], int], ...]] = {
        OutcomeScope.DEAL: ((sides[0], d.declarer),) if has_contract and d.declarer is not None else (),
        OutcomeScope.SIDE: tuple((side, side[0]) for side in sides),
    }
    if plan.per_player:
        by_kind[OutcomeScope.PLAYER] = tuple((envs.side_of[p], p) for p in range(t.players))
    # At most one outcome applies to each (kind, player); every bonus that holds applies.
    # A condition only needs its truth, so its evaluator is called directly.
    matched: set[tuple[OutcomeScope, int]] = set()
    for outcome in plan.outcomes:
        kind = outcome.for_each
        holds = outcome.when._evaluator
        for side, player in by_kind[kind]:
            if matched and (kind, player) in matched:
                continue
            env = envs.of(kind, side, player)
            try:
                hit = holds(env)
            except FormulaError as error:
                raise in_deal(error, outcome.when, env, d.number) from None
            if hit:
                matched.add((kind, player))
                applied.append(outcome.name)
                ledger.pay_out(outcome, env, side, player)
    for extra in plan.bonuses:
        holds = extra.when._evaluator
        for side, player in by_kind[extra.for_each]:
            env = envs.of(extra.for_each, side, player)
            try:
                hit = holds(env)
            except FormulaError as error:
                raise in_deal(error, extra.when, env, d.number) from None
            if hit:
                applied.append(extra.name)
                ledger.pay_out(extra, env, side, player)
    return ledger.scores, ledger.pot, applied
