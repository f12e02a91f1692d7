"""Scoring a deal.

Evaluating the spec's outcomes and bonuses, moving chips or awarding
points, and ending the match.

The variables the formulas see are listed in ``docs/dsl.md``; ``pot`` is
the pot as the deal's scoring begins, whatever earlier payments moved. Outcomes apply
*first match* per subject (the deal, each side, or each player); bonuses
apply wherever their condition holds. Chips move from payer to payee (the
pot is seat ``-1`` and never pays out more than it holds); points are added
to every seat of the receiving role.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from trickrules.engine.events import POT, Awarded, DealScored, Event, MatchEnded, paid
from trickrules.engine.fastinit import maker
from trickrules.engine.state import DEALER, OVER, _make, _start_deal, evolve
from trickrules.spec.formula import Number, to_int

if TYPE_CHECKING:
    from trickrules.compile.rules import CompiledOutcome
    from trickrules.engine.game import Game
    from trickrules.engine.state import DealInfo, MatchInfo, State, Tally
    from trickrules.spec.formula import Formula

_DEAL_SCORED = maker(DealScored)

__all__ = ["deal_constants", "eligibility_env", "finish_deal", "sides_of_deal"]

Env = dict[str, Number | bool]


def deal_constants(game: Game, match: MatchInfo, number: int) -> Env:
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
        "extra_deal": is_extra_deal(game, match),
    }


def is_extra_deal(game: Game, match: MatchInfo) -> bool:
    """Whether the deal about to be scored or dealt is one played past the agreed number (a tie-break)."""
    rules = game.rules
    return bool(rules.match_deals) and match.deals_done >= rules.match_deals


def eligibility_env(state: State, seat: int, contract: object) -> Env:
    """Variables of a contract's ``eligible`` formula for ``seat``."""
    game = state.game
    match = state.match
    rules = game.rules
    score = match.scores[seat]  # in a partnership both partners carry the side's score
    others = [match.scores[s] for s in range(rules.players) if game.team_of[s] != game.team_of[seat]]
    env: Env = {
        "score": score,
        "opp_score": max(others) if others else 0,
        "target": rules.match_target,
        "players": rules.players,
        "deal": state.deal.number,
    }
    base = deal_constants(game, match, state.deal.number)
    for name, formula in rules.vars:
        env[name] = _safe(formula, {**base, **env})
    for name, formula in getattr(contract, "vars", ()):
        env[name] = _safe(formula, {**base, **env})
    return env


def _safe(formula: object, env: Env) -> Number:
    try:
        return formula.evaluate(env)  # type: ignore[attr-defined,no-any-return]
    except Exception:
        return 0


_OTHERS: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}


def _others(players: int, side: tuple[int, ...]) -> tuple[int, ...]:
    """The seats of a ``players``-seat table not in ``side``, in order (remembered: sides recur)."""
    key = (players, side)
    found = _OTHERS.get(key)
    if found is None:
        found = tuple(s for s in range(players) if s not in side)
        if len(_OTHERS) < 4096:
            _OTHERS[key] = found
    return found


def sides_of_deal(game: Game, d: DealInfo) -> tuple[tuple[int, ...], ...]:
    """The sides of a deal, the declarer's side first when there is a contract."""
    rules = game.rules
    n = rules.players
    if d.contract < 0:
        return rules.teams if rules.teams else tuple((s,) for s in range(n))
    c = rules.contracts[d.contract]
    side = {d.declarer}
    if c.side == "with_called" and d.partner >= 0:
        side.add(d.partner)
    elif c.side in ("with_partner", "partner_sits_out", "teams"):
        side.update(rules.teams[game.team_of[d.declarer]])
    ordered = tuple(sorted(side))
    return (ordered, _others(game.players, ordered))


def _top_trumps(game: Game, d: DealInfo, seat: int) -> int:
    order = game.tables[d.trump].order
    hand = d.dealt[seat]
    count = 0
    for card in order:
        if not (hand >> card) & 1:
            break
        count += 1
    return count


_NOBODY: frozenset[int] = frozenset()


class _Deal:
    """What a finished deal decided, for computing formula variables."""

    __slots__ = (
        "bonus",
        "card_points",
        "d",
        "declared",
        "game",
        "last_winner",
        "match",
        "revokers",
        "tricks",
        "winners",
    )

    def __init__(self, game: Game, match: MatchInfo, d: DealInfo, tally: Tally) -> None:
        n = game.players
        winners = tally.winners
        tricks = [winners.count(s) for s in game.everyone]
        if game.has_card_points:
            points_of = game.points_of
            card_points = [sum(points_of(mask)) for mask in tally.won]
        else:
            card_points = [0] * n
        declared = [0] * n
        for seat, k, _ in tally.declared:
            declared[seat] += game.rules.declarations[k].points
        self.game = game
        self.match = match
        self.d = d
        self.tricks = tricks
        self.card_points = card_points
        self.declared = declared
        self.winners = tally.winners
        self.last_winner = tally.winners[-1]
        self.revokers = {seat for seat, _ in tally.revokes} if tally.revokes else _NOBODY
        self.bonus = game.rules.last_trick_bonus


def _run(x: _Deal, side: tuple[int, ...]) -> int:
    count = 0
    for w in x.winners:
        if w not in side:
            break
        count += 1
    return count


def _points(x: _Deal, side: tuple[int, ...]) -> int:
    return sum(x.card_points[s] + x.declared[s] for s in side) + (x.bonus if x.last_winner in side else 0)


def _top_trumps_of(x: _Deal, seat: int) -> int:
    return _top_trumps(x.game, x.d, seat) if x.d.trump >= 0 else 0


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
    "is_declarer_side": lambda x, side, other: x.d.declarer in side,
    "run": lambda x, side, other: _run(x, side),
    "score": lambda x, side, other: x.match.scores[side[0]],
    "opp_score": lambda x, side, other: max((x.match.scores[s] for s in other), default=0),
    "declarer_tricks": lambda x, side, other: x.tricks[x.d.declarer] if x.d.declarer >= 0 else 0,
    "partner_tricks": lambda x, side, other: (
        x.tricks[x.d.partner] if x.d.partner >= 0 and x.d.partner != x.d.declarer else 0
    ),
}
# How each built-in player variable is computed: (deal, seat) -> value.
_PLAYER: dict[str, Any] = {
    "top_trumps": _top_trumps_of,
    "is_declarer": lambda x, seat: seat == x.d.declarer,
    "is_partner": lambda x, seat: seat == x.d.partner and seat != x.d.declarer,
    "own_tricks": lambda x, seat: x.tricks[seat],
}


def scoring_vars(game: Game) -> dict[int, tuple[Env, tuple[tuple[str, Formula], ...]]]:
    """The scoring vars per contract index (``-1``: no contract).

    For each: the vars that are constants, with their values, and the
    formulas left to evaluate each deal.

    A contract's var replaces a scoring var of the same name.
    """
    rules = game.rules
    out: dict[int, tuple[Env, tuple[tuple[str, Formula], ...]]] = {}
    for index in (-1, *range(len(rules.contracts))):
        own = rules.contracts[index].vars if index >= 0 else ()
        mine = {name for name, _ in own}
        merged = [(n, f) for n, f in rules.vars if n not in mine] + list(own)
        consts: Env = {}
        left: list[tuple[str, Formula]] = []
        for name, formula in merged:
            if not formula.variables and not left:
                consts[name] = formula.evaluate({})
            else:
                left.append((name, formula))
        out[index] = (consts, tuple(left))
    return out


class ContractScoring:
    """What scoring a deal of one contract needs, worked out once per game."""

    __slots__ = ("base", "bonuses", "formulas", "outcomes", "per_player", "player_formulas")

    def __init__(self, game: Game, index: int, consts: Env, formulas: tuple[tuple[str, Formula], ...]) -> None:
        rules = game.rules
        name = rules.contracts[index].name if index >= 0 else ""
        #: The variables that are the same in every deal of this contract.
        self.base: Env = {
            "players": rules.players,
            "tricks_total": rules.tricks_per_deal,
            "ante": 0,
            "target": rules.match_target,
            "no_contract": index < 0,
            **consts,
        }
        self.formulas = formulas
        self.player_formulas = any(f.variables & set(_PLAYER) for _, f in formulas)
        self.outcomes = tuple(o for o in rules.outcomes if o.contracts is None or name in o.contracts)
        self.bonuses = tuple(b for b in rules.bonuses if b.contracts is None or name in b.contracts)
        #: Whether an outcome or bonus is for each player (so player environments are needed).
        self.per_player = any(o.for_each == "player" for o in (*self.outcomes, *self.bonuses))


def contract_scoring(game: Game) -> dict[int, ContractScoring]:
    """A :class:`ContractScoring` per contract index (``-1``: no contract)."""
    return {index: ContractScoring(game, index, *found) for index, found in scoring_vars(game).items()}


def scoring_plan(game: Game) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The built-in side and player variables that some scoring formula reads.

    Only these are computed when a deal is scored. Variables read by the
    spec's own ``vars`` count too, whether or not anything reads those.
    """
    rules = game.rules
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
    return tuple(n for n in _SIDE if n in used), tuple(n for n in _PLAYER if n in used)


def finish_deal(
    state: State, hands: tuple[int, ...], d: DealInfo, tally: Tally, events: list[tuple[object, Event]]
) -> State:
    """Score the finished deal, then deal the next one or end the match."""
    game = state.game
    rules = game.rules
    n = rules.players
    match = state.match
    everyone = game.everyone
    x = _Deal(game, match, d, tally)
    sides = sides_of_deal(game, d)
    side_of = {seat: side for side in sides for seat in side}
    contract = rules.contracts[d.contract] if d.contract >= 0 else None
    plan = game.contract_scoring[d.contract]
    base: Env = dict(plan.base)
    base["pot"] = match.pot
    base["deal"] = d.number
    base["no_trump"] = d.trump < 0
    base["forced"] = d.forced
    base["extra_deal"] = is_extra_deal(game, match)
    for a, key in game.announced_keys:
        base[key] = a in d.announced
    side_names, player_names = game.scoring_plan
    formulas = plan.formulas
    player_formulas = plan.player_formulas

    def side_env(side: tuple[int, ...]) -> Env:
        found = side_cache.get(side)
        if found is None:
            other = _others(n, side)
            found = dict(base)
            for name in side_names:
                found[name] = _SIDE[name](x, side, other)
            for name, formula in formulas:
                found[name] = formula.evaluate(found)
            side_cache[side] = found
        return found

    def player_env(seat: int) -> Env:
        found = player_cache.get(seat)
        if found is None:
            found = dict(side_env(side_of[seat]))
            for name in player_names:
                found[name] = _PLAYER[name](x, seat)
            if player_names and player_formulas:
                for name, formula in formulas:
                    found[name] = formula.evaluate(found)
            player_cache[seat] = found
        return found

    side_cache: dict[tuple[int, ...], Env] = {}
    player_cache: dict[int, Env] = {}
    scores = list(match.scores)
    pot = match.pot
    applied: list[str] = []

    def roles(role: str, side: tuple[int, ...], player: int) -> tuple[int, ...]:
        if role == "pot":
            return (POT,)
        if role == "declarer":
            return (d.declarer,) if d.declarer >= 0 else ()
        if role == "partner":
            return (d.partner,) if d.partner >= 0 and d.partner != d.declarer else ()
        if role == "declarer_side":
            return sides[0] if contract is not None else ()
        if role == "defenders":
            return sides[1] if contract is not None else ()
        if role == "side":
            return side
        if role == "opponents":
            return _others(n, side)
        if role == "player":
            return (player,)
        if role == "others":
            return _others(n, (player,))
        return everyone

    def pay_out(outcome: CompiledOutcome, env: Env, side: tuple[int, ...], player: int) -> None:
        nonlocal pot
        where = ""
        for pay in outcome.pay:
            receivers = roles(pay.to, side, player)
            if not receivers:
                continue
            amount = pay.amount.evaluate(env)
            if rules.unit == "points":
                where = f"scoring {outcome.name}"
                pts = to_int(amount, rules.rounding, where=where)
                if pay.split:
                    pts = to_int(Fraction(pts, len(receivers)), rules.rounding)
                if pts:
                    for s in receivers:
                        scores[s] += pts
                    events.append((DEALER, Awarded(receivers, pts, outcome.name)))
                continue
            for payer in roles(pay.payer, side, player):
                targets = tuple(r for r in receivers if r != payer) if payer in receivers else receivers
                if not targets:
                    continue
                if type(amount) is int and (not pay.split or amount % len(targets) == 0):
                    chips = amount // len(targets) if pay.split else amount  # whole chips: no rounding
                else:
                    where = where or f"scoring {outcome.name}"
                    each = Fraction(amount, len(targets)) if pay.split else amount
                    chips = to_int(each, rules.rounding, where=where)
                extra_to = -2
                leftover = 0
                if pay.split and pay.remainder != "stays" and type(amount) is int:
                    # The chips a split leaves over go to one receiver instead of staying put.
                    leftover = amount - chips * len(targets)
                    if leftover and pay.remainder == "declarer" and d.declarer in targets:
                        extra_to = d.declarer
                    elif leftover and pay.remainder == "first_after_dealer":
                        extra_to = min(targets, key=lambda s: (s - d.dealer - 1) % n if s >= 0 else n)
                for r in targets:
                    moved = chips + leftover if r == extra_to else chips
                    if payer == POT and moved > pot:
                        moved = pot  # the pot never pays out more than it holds
                    if moved <= 0:
                        continue
                    if payer == POT:
                        pot -= moved
                    else:
                        scores[payer] -= moved
                    if r == POT:
                        pot += moved
                    else:
                        scores[r] += moved
                    events.append((DEALER, paid(payer, r, moved, outcome.name)))

    # Who each kind of outcome is for: (side, player) pairs; the deal's is the declarer's side.
    by_kind: dict[str, tuple[tuple[tuple[int, ...], int], ...]] = {
        "deal": ((sides[0], d.declarer),) if contract is not None else (),
        "side": tuple((side, side[0]) for side in sides),
    }
    if plan.per_player:
        by_kind["player"] = tuple((side_of[p], p) for p in everyone)

    # At most one outcome applies to each (kind, player); every bonus that holds applies.
    # A condition only needs its truth, so its evaluator is called directly.
    matched: set[tuple[str, int]] = set()
    for outcome in plan.outcomes:
        kind = outcome.for_each
        holds = outcome.when._evaluator
        for side, player in by_kind[kind]:
            if matched and (kind, player) in matched:
                continue
            env = player_env(player) if kind == "player" else side_env(side)
            if holds(env):
                matched.add((kind, player))
                applied.append(outcome.name)
                pay_out(outcome, env, side, player)
    # Every bonus is tried for every subject of its kind: their environments are looked up once.
    subjects: dict[str, tuple[tuple[tuple[int, ...], int, Env], ...]] = {}
    for extra in plan.bonuses:
        kind = extra.for_each
        holds = extra.when._evaluator
        found = subjects.get(kind)
        if found is None:
            found = subjects[kind] = tuple(
                (side, player, player_env(player) if kind == "player" else side_env(side))
                for side, player in by_kind[kind]
            )
        for side, player, env in found:
            if holds(env):
                applied.append(extra.name)
                pay_out(extra, env, side, player)
    events.append((DEALER, _DEAL_SCORED(d.number, ", ".join(applied) or "none", tuple(scores), pot)))
    match = evolve(match, scores=tuple(scores), pot=pot, deals_done=match.deals_done + 1)
    winners = _match_winners(game, match, d)
    if winners:
        match = evolve(_share_pot(game, match, events), winners=winners)
        events.append((DEALER, MatchEnded(match.scores, winners)))
        return _make(game, OVER, -1, hands, (), state.leader, d, tally, match, state.history, tuple(events))
    base_state = _make(game, OVER, -1, hands, (), state.leader, d, tally, match, state.history, ())
    return _start_deal(base_state, d.number + 1, d.shuffle + 1, (d.dealer + 1) % n, match, events)


def pass_out(state: State, d: DealInfo, events: list[tuple[object, Event]]) -> State:
    """A deal everyone passed, thrown in: it counts as played, and the next dealer deals."""
    game = state.game
    match = state.match
    events.append((DEALER, DealScored(d.number, "passed out", match.scores, match.pot)))
    match = evolve(match, deals_done=match.deals_done + 1)
    winners = _match_winners(game, match, d)
    if winners:
        match = evolve(_share_pot(game, match, events), winners=winners)
        events.append((DEALER, MatchEnded(match.scores, winners)))
        return _make(game, OVER, -1, state.hands, (), state.leader, d, state.tally, match, state.history, tuple(events))
    base = _make(game, OVER, -1, state.hands, (), state.leader, d, state.tally, match, state.history, ())
    return _start_deal(base, d.number + 1, d.shuffle + 1, (d.dealer + 1) % game.players, match, events)


def _share_pot(game: Game, match: MatchInfo, events: list[tuple[object, Event]]) -> MatchInfo:
    """At the end of a match with ``pot_at_end = "shared"``: the pot shared equally (a remainder stays)."""
    n = game.players
    each = match.pot // n if game.rules.pot_at_end == "shared" else 0
    if not each:
        return match
    for seat in range(n):
        events.append((DEALER, paid(POT, seat, each, "pot shared at the end")))
    scores = tuple(x + each for x in match.scores)
    shared: MatchInfo = evolve(match, scores=scores, pot=match.pot - each * n)
    return shared


def _match_winners(game: Game, match: MatchInfo, d: DealInfo) -> tuple[int, ...]:
    """The winning seats if the match is over after this deal, else ``()``."""
    rules = game.rules
    groups = game.groups
    scores = match.scores
    totals = [scores[g[0]] for g in groups]
    done = False
    if rules.match_target and max(totals) >= rules.match_target:
        reached = [g for g, t in zip(groups, totals, strict=True) if t >= rules.match_target]
        if len(reached) > 1 and rules.tie_break == "dealer_side":
            dealer_group = [g for g in reached if d.dealer in g]
            if dealer_group:
                return tuple(sorted(dealer_group[0]))
        done = True
    # "played_out": past the agreed number, deals go on until one ends with the pot empty.
    if (
        rules.match_deals
        and match.deals_done >= rules.match_deals
        and (not match.pot or rules.pot_at_end != "played_out")
    ):
        done = True
    if not done:
        return ()
    best = max(totals)
    leaders = [g for g, t in zip(groups, totals, strict=True) if t == best]
    if len(leaders) > 1 and rules.tie_break == "extra_deal":
        return ()
    return tuple(sorted(s for g in leaders for s in g))
