"""Scoring a deal natively: the variables, outcomes, bonuses and payments, counters, the match's end, antes.

:func:`score` does for a deal whose play is over what the engine's
:func:`~trickrules.engine.phases.deal_end.finish_deal` does: the formula
variables of each side and player (:mod:`trickrules.engine.scoring`), the
outcomes first match per subject and every bonus that holds, the payments of
the :class:`~trickrules.engine.ledger.Ledger` (points awarded, chips moved,
the pot never paying out more than it holds, rounding), the counters carried
to the next deal (:mod:`trickrules.engine.carry`), then the end of the match
(winners, the pot shared, the bonus for winning) or the next deal's number,
shuffle and dealer. :func:`ends_early` is a contract's ``end_when`` after a
trick, :func:`ante` the ante paid at the start of a deal, :func:`passed_out`
a deal thrown in that counts as played (``deal_end.pass_out``).

The formulas run natively (:mod:`trickrules.native.formula`) over a vector
of variables: the built-in ones at fixed indices (``V_*``), then the
announcements, the counters and the spec's named variables.

The block ``MECH_SCORING`` holds (offsets ``B_*``):

* ``B_ERROR``: not 0 (the place that failed, for debugging) when a formula failed (a division by zero, a fraction under
  ``rounding = "exact"``: the engine raises ``FormulaError``) or a value
  passed 62 bits (the engine goes on to ``MAX_MAGNITUDE``): the match is not
  the engine's from there, and the caller plays it with the engine instead;
* ``B_WINNERS``: the match's winners as a seat mask (with ``st[OVER] = 1``);
* ``B_COUNTS`` (4 words): how many times each entry of :func:`outcome_names`
  applied in the last deal scored, 4 bits per entry (:func:`outcome_text`
  rebuilds the engine's ``DealScored.outcome`` from them);
* ``B_BOARD`` (a word per seat): the scores of the last ``DealScored`` (after
  the payments, before an ante), so that ``st[DELTA + s]`` is the
  simulation's delta: the scores after this deal's payments minus those after
  the last deal's (the ante of this deal and of deals thrown in between
  included, as ``faces/simulate.py`` counts it);
* ``B_ANTE``: the ante each seat paid at the start of the last deal (0: none).

``st[OUTCOMES]`` (two words) has bit ``i`` set when entry ``i`` applied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from trickrules.compile.modes import (
    AnteWhen,
    ContractSide,
    MatchWinner,
    OutcomeScope,
    PaymentRole,
    PotAtEnd,
    Remainder,
    TieBreak,
    Unit,
)
from trickrules.compile.variables import DEAL_VARS, PLAYER_VARS, SIDE_VARS
from trickrules.native import layout as L
from trickrules.native.formula import ROUNDING_CODES, compile_code, evaluate, rounded
from trickrules.native.jit import native
from trickrules.native.tables import H_CARDS, H_PLAYERS, H_POINT_CARDS, HM_SCORING, O_POINTS, Builder, Unsupported, word
from trickrules.spec.formula import Formula

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.values import DealInfo, Tally

__all__ = [
    "B_ANTE",
    "B_BOARD",
    "B_COUNTS",
    "B_ERROR",
    "B_WINNERS",
    "ante",
    "ends_early",
    "export",
    "facts_to_arrays",
    "outcome_names",
    "outcome_text",
    "passed_out",
    "score",
    "tally_to_arrays",
]

# -- the block's words ------------------------------------------------------------------------------------
B_ERROR = L.MECH_SCORING + 0
B_WINNERS = L.MECH_SCORING + 1
B_COUNTS = L.MECH_SCORING + 2  # 4 words, 4 bits per entry
B_BOARD = L.MECH_SCORING + 8  # a word per seat
B_ANTE = L.MECH_SCORING + 16
#: How many outcome and bonus entries the counts hold.
MAX_ENTRIES = 64

# -- the header's words --------------------------------------------------------------------------------------
S_NVARS = HM_SCORING + 0
S_PLANS = HM_SCORING + 1  # [contract + 1] -> the offset of its plan
S_UNIT = HM_SCORING + 2  # 1: chips
S_ROUND = HM_SCORING + 3
S_BONUS = HM_SCORING + 4  # the last trick's bonus
S_ANTE_WHEN = HM_SCORING + 5  # 0 never, 1 first deal, 2 every deal, 3 empty pot
S_ANTE = HM_SCORING + 6  # the ante formula's code
S_TARGET = HM_SCORING + 7
S_DEALS = HM_SCORING + 8
S_TIE = HM_SCORING + 9  # 0 extra deal, 1 shared, 2 dealer side
S_POT_END = HM_SCORING + 10  # 0 stays, 1 shared, 2 played out
S_LOWEST = HM_SCORING + 11
S_HAS_MERCY = HM_SCORING + 12
S_MERCY = HM_SCORING + 13
S_WIN_BONUS = HM_SCORING + 14
S_GROUPS = HM_SCORING + 15  # [g] -> seat mask
S_NGROUPS = HM_SCORING + 16
S_CONTRACTS = HM_SCORING + 17  # [c] -> side code, end_when code (-1: none)
S_NCOUNTERS = HM_SCORING + 18
S_COUNTERS = HM_SCORING + 19  # [k] -> update code
S_ORDER = HM_SCORING + 20  # [row, k] -> the k-th card of the trump order (-1 past it)
S_TEAM_MASK = HM_SCORING + 21  # [seat] -> the seats of its team (itself where there are no teams)
S_TRICKS_PER_DEAL = HM_SCORING + 22
S_NANN = HM_SCORING + 23
S_NENTRIES = HM_SCORING + 24

# -- the variables' indices -----------------------------------------------------------------------------------
_BUILTIN = (*DEAL_VARS, *SIDE_VARS, *PLAYER_VARS, "tricks_played")
V_PLAYERS = _BUILTIN.index("players")
V_TRICKS_TOTAL = _BUILTIN.index("tricks_total")
V_POT = _BUILTIN.index("pot")
V_EXTRA_DEAL = _BUILTIN.index("extra_deal")
V_ANTE = _BUILTIN.index("ante")
V_TARGET = _BUILTIN.index("target")
V_DEAL = _BUILTIN.index("deal")
V_NO_CONTRACT = _BUILTIN.index("no_contract")
V_NO_TRUMP = _BUILTIN.index("no_trump")
V_FORCED = _BUILTIN.index("forced")
V_TRICKS = _BUILTIN.index("tricks")
V_OPP_TRICKS = _BUILTIN.index("opp_tricks")
V_POINTS = _BUILTIN.index("points")
V_OPP_POINTS = _BUILTIN.index("opp_points")
V_CARD_POINTS = _BUILTIN.index("card_points")
V_OPP_CARD_POINTS = _BUILTIN.index("opp_card_points")
V_DECLARED = _BUILTIN.index("declared")
V_OPP_DECLARED = _BUILTIN.index("opp_declared")
V_LAST_TRICK = _BUILTIN.index("last_trick")
V_REVOKED = _BUILTIN.index("revoked")
V_OPP_REVOKED = _BUILTIN.index("opp_revoked")
V_IS_DECLARER_SIDE = _BUILTIN.index("is_declarer_side")
V_RUN = _BUILTIN.index("run")
V_SCORE = _BUILTIN.index("score")
V_OPP_SCORE = _BUILTIN.index("opp_score")
V_DECLARER_TRICKS = _BUILTIN.index("declarer_tricks")
V_PARTNER_TRICKS = _BUILTIN.index("partner_tricks")
V_BID = _BUILTIN.index("bid")
V_OPP_BID = _BUILTIN.index("opp_bid")
V_ALONE = _BUILTIN.index("alone")
V_OPP_ALONE = _BUILTIN.index("opp_alone")
V_POINT_CARDS = _BUILTIN.index("point_cards")
V_OPP_POINT_CARDS = _BUILTIN.index("opp_point_cards")
V_POINT_CARDS_TOTAL = _BUILTIN.index("point_cards_total")
V_MAX_POINT_CARDS = _BUILTIN.index("max_point_cards")
V_TOP_TRUMPS = _BUILTIN.index("top_trumps")
V_IS_DECLARER = _BUILTIN.index("is_declarer")
V_IS_PARTNER = _BUILTIN.index("is_partner")
V_OWN_TRICKS = _BUILTIN.index("own_tricks")
V_OWN_BID = _BUILTIN.index("own_bid")
V_TRICKS_PLAYED = _BUILTIN.index("tricks_played")
#: The announcements' variables (``announced_<name>``), then the counters, then the named variables.
V_ANNOUNCED = len(_BUILTIN)
MAX_ANNOUNCEMENTS = 16
V_COUNTERS = V_ANNOUNCED + MAX_ANNOUNCEMENTS
V_NAMED = V_COUNTERS + L.MAX_COUNTERS

_ROLES = {
    PaymentRole.POT: 0,
    PaymentRole.DECLARER: 1,
    PaymentRole.PARTNER: 2,
    PaymentRole.DECLARER_SIDE: 3,
    PaymentRole.DEFENDERS: 4,
    PaymentRole.SIDE: 5,
    PaymentRole.OPPONENTS: 6,
    PaymentRole.PLAYER: 7,
    PaymentRole.OTHERS: 8,
    PaymentRole.ALL: 9,
}
_KINDS = {OutcomeScope.DEAL: 0, OutcomeScope.SIDE: 1, OutcomeScope.PLAYER: 2}
_REMAINDERS = {Remainder.STAYS: 0, Remainder.DECLARER: 1, Remainder.FIRST_AFTER_DEALER: 2}
_ANTE_WHEN = {AnteWhen.NEVER: 0, AnteWhen.FIRST_DEAL: 1, AnteWhen.EVERY_DEAL: 2, AnteWhen.EMPTY_POT: 3}
_TIES = {TieBreak.EXTRA_DEAL: 0, TieBreak.SHARED: 1, TieBreak.DEALER_SIDE: 2}
_POT_END = {PotAtEnd.STAYS: 0, PotAtEnd.SHARED: 1, PotAtEnd.PLAYED_OUT: 2}
#: A contract's side: the declarer alone, with the called partner, or with his team.
SIDE_ALONE, SIDE_CALLED, SIDE_TEAM = 0, 1, 2


# -- export ---------------------------------------------------------------------------------------------------


def outcome_names(game: Game) -> tuple[str, ...]:
    """The entries of the bits of ``st[OUTCOMES]`` and the counts of ``B_COUNTS``: the outcomes, then the bonuses."""
    rules = game.rules
    return tuple(o.name for o in (*rules.outcomes, *rules.bonuses))


def outcome_text(game: Game, st: npt.NDArray[np.int64]) -> str:
    """The engine's ``DealScored.outcome`` of the deal :func:`score` scored last (``"none"`` if nothing applied)."""
    names = outcome_names(game)
    applied: list[str] = []
    for i, name in enumerate(names):
        count = (int(st[B_COUNTS + i // 16]) >> (4 * (i % 16))) & 15
        applied.extend([name] * count)
    return ", ".join(applied) or "none"


def _check_defined(formula: Formula, known: set[str], what: str) -> None:
    missing = formula.variables - known
    if missing:
        raise Unsupported(f"{what} reads {sorted(missing)} where the engine has no value for it")


class _Data:
    """One block of ``tb`` being written, its offsets absolute."""

    def __init__(self, b: Builder) -> None:
        self.base = len(b.header) + len(b.blocks)
        self.words: list[int] = []

    def here(self) -> int:
        return self.base + len(self.words)

    def put(self, values: list[int]) -> int:
        at = self.here()
        self.words.extend(values)
        return at


def export(game: Game, b: Builder) -> None:
    """Write the scoring's tables into ``b``; :class:`Unsupported` for what :func:`score` does not reproduce."""
    t = game.tables
    rules = t.rules
    n = rules.players
    if len(t.announcement_names) > MAX_ANNOUNCEMENTS:
        raise Unsupported(f"more than {MAX_ANNOUNCEMENTS} announcements")
    counters = rules.bids.counters
    if len(counters) > L.MAX_COUNTERS:
        raise Unsupported(f"more than {L.MAX_COUNTERS} counters")
    entries = (*rules.outcomes, *rules.bonuses)
    if len(entries) > MAX_ENTRIES:
        raise Unsupported(f"more than {MAX_ENTRIES} outcomes and bonuses")
    for g in t.groups:
        if list(g) != sorted(g):
            raise Unsupported("a team whose seats are not in order")
    names: dict[str, int] = {name: k for k, name in enumerate(_BUILTIN)}
    for k, a in enumerate(t.announcement_names):
        names[f"announced_{a}"] = V_ANNOUNCED + k
    counter_names = [c.name for c in counters]
    for k, cname in enumerate(counter_names):
        names[cname] = V_COUNTERS + k
    for var, _ in (*rules.vars, *(v for c in rules.contracts for v in c.vars)):
        names.setdefault(var, V_NAMED + len([x for x in names.values() if x >= V_NAMED]))
    nvars = max(names.values()) + 1
    data = _Data(b)
    codes: dict[int, int] = {}

    def code(f: Formula) -> int:
        key = id(f)
        if key not in codes:
            codes[key] = data.put(compile_code(f, names))
        return codes[key]

    side_known = {*DEAL_VARS, *SIDE_VARS, *counter_names, *(f"announced_{a}" for a in t.announcement_names)}
    plans = []
    for index in (None, *range(len(rules.contracts))):
        own = rules.contracts[index].vars if index is not None else ()
        mine = {name for name, _ in own}
        merged = [(nm, f) for nm, f in rules.vars if nm not in mine] + list(own)
        known = set(side_known)
        for nm, f in merged:
            _check_defined(f, known, f"scoring var {nm!r}")
            known.add(nm)
        cname = rules.contracts[index].name if index is not None else ""
        record = [len(merged)]
        for nm, f in merged:
            record += [names[nm], code(f)]
        chosen = [
            (k, o, k >= len(rules.outcomes))
            for k, o in enumerate(entries)
            if o.contracts is None or cname in o.contracts
        ]
        record.append(len(chosen))
        outs = []
        for k, o, is_bonus in chosen:
            allowed = known | set(PLAYER_VARS) if o.for_each is OutcomeScope.PLAYER else known
            _check_defined(o.when, allowed, f"scoring {o.name!r}")
            out = [k, _KINDS[o.for_each], int(is_bonus), code(o.when), len(o.pay)]
            for pay in o.pay:
                _check_defined(pay.amount, allowed, f"scoring {o.name!r}")
                payer = -1 if pay.payer is None else _ROLES[pay.payer]
                out += [payer, _ROLES[pay.to], code(pay.amount), int(pay.split), _REMAINDERS[pay.remainder]]
            outs.append(out)
        plans.append((record, outs))
        for k, counter in enumerate(counters):
            _check_defined(counter.update, known, f"scoring.counters[{k}]")
    plan_at = []
    for record, outs in plans:
        offsets = [data.put(out) for out in outs]
        plan_at.append(data.put(record + offsets))
    contracts: list[int] = []
    for contract in rules.contracts:
        if contract.side is ContractSide.WITH_CALLED:
            side = SIDE_CALLED
        elif contract.side in (ContractSide.WITH_PARTNER, ContractSide.PARTNER_SITS_OUT, ContractSide.TEAMS):
            if not rules.teams:
                raise Unsupported(f"the contract {contract.name!r} plays with a team in a game without teams")
            side = SIDE_TEAM
        else:
            side = SIDE_ALONE
        end = contract.end_when
        if end is not None:
            _check_defined(end, {"tricks", "opp_tricks", "tricks_played", "tricks_total"}, "end_when")
        contracts += [side, -1 if end is None else code(end)]
    ante_code = code(rules.ante)
    _check_defined(rules.ante, set(DEAL_VARS), "scoring.ante")
    counter_codes = [code(counter.update) for counter in counters]
    size = t.cards.size
    order: list[int] = []
    for key in sorted(t.trumps):
        cards = list(t.cards.table(key).order) if key >= 0 else []
        order += cards[:size] + [-1] * (size - len(cards[:size]))
    team_mask = []
    for s in range(n):
        team = rules.teams[t.team_of[s]] if rules.teams else (s,)
        team_mask.append(sum(1 << x for x in team))
    rounding = ROUNDING_CODES[str(rules.rounding)]
    b.number(S_NVARS, nvars)
    b.number(S_UNIT, 1 if rules.unit is Unit.CHIPS else 0)
    b.number(S_ROUND, rounding)
    b.number(S_BONUS, rules.last_trick_bonus)
    b.number(S_ANTE_WHEN, _ANTE_WHEN[rules.ante_when])
    b.number(S_ANTE, ante_code)
    b.number(S_TARGET, rules.match_target)
    b.number(S_DEALS, rules.match_deals)
    b.number(S_TIE, _TIES[rules.tie_break])
    b.number(S_POT_END, _POT_END[rules.pot_at_end])
    b.number(S_LOWEST, 1 if rules.match_winner is MatchWinner.LOWEST else 0)
    mercy = rules.bids.mercy_threshold
    b.number(S_HAS_MERCY, 0 if mercy is None else 1)
    b.number(S_MERCY, 0 if mercy is None else mercy)
    b.number(S_WIN_BONUS, rules.bids.win_bonus)
    b.number(S_NGROUPS, len(t.groups))
    b.number(S_NCOUNTERS, len(counters))
    b.number(S_TRICKS_PER_DEAL, rules.tricks_per_deal)
    b.number(S_NANN, len(t.announcement_names))
    b.number(S_NENTRIES, len(entries))
    for value in (rules.match_target, rules.match_deals, rules.last_trick_bonus, rules.bids.win_bonus, mercy or 0):
        if abs(value) > 1 << 62:
            raise Unsupported("a match number past 62 bits")
    # The blocks: the formulas' code and the plans first (one block), then the small tables.
    assert data.base == len(b.header) + len(b.blocks)
    b.blocks.extend(data.words)
    b.block(S_PLANS, plan_at)
    b.block(S_GROUPS, [sum(1 << s for s in g) for g in t.groups])
    b.block(S_CONTRACTS, contracts)
    b.block(S_COUNTERS, counter_codes)
    b.block(S_ORDER, order)
    b.block(S_TEAM_MASK, team_mask)


# -- filling st from the engine (for the tests and the bridge) ----------------------------------------------


def facts_to_arrays(game: Game, d: DealInfo, st: npt.NDArray[np.int64]) -> None:
    """The mechanisms' facts of deal ``d`` into ``st``: ``FORCED``, ``ANNOUNCED``, ``DECLARED``, ``BID``."""
    from trickrules.engine.scoring import deal_facts

    facts: dict[str, Any] = deal_facts(game, d)
    st[L.FORCED] = 1 if facts.get("forced", False) else 0
    announced = facts.get("announced", ())
    st[L.ANNOUNCED] = sum(1 << k for k, a in enumerate(game.tables.announcement_names) if a in announced)
    declared = facts.get("declared", ())
    bids = facts.get("bid", ())
    for s in range(game.players):
        st[L.DECLARED + s] = declared[s] if declared else 0
        st[L.BID + s] = bids[s] if bids else 0


def tally_to_arrays(tally: Tally, st: npt.NDArray[np.int64]) -> None:
    """A deal's tally into ``st`` (``WON``, ``WON_TRICKS``, ``WINNERS``, ``TRICKS_PLAYED``, ``REVOKED``)."""
    for seat, mask in enumerate(tally.won):
        st[L.WON + seat] = word(mask)
        st[L.WON_TRICKS + seat] = tally.winners.count(seat)
    for i, w in enumerate(tally.winners):
        st[L.WINNERS + i] = w
    st[L.TRICKS_PLAYED] = len(tally.winners)
    revoked = 0
    for r in tally.revokes:
        revoked |= 1 << r.seat
    st[L.REVOKED] = revoked


# -- native ---------------------------------------------------------------------------------------------------


@native
def _popcount(x: int) -> int:
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@native
def _lowest_seat(mask: int) -> int:
    seat = 0
    while not (mask >> seat) & 1:
        seat += 1
    return seat


@native
def _set_int(vn: npt.NDArray[np.int64], vd: npt.NDArray[np.int64], k: int, value: int) -> None:
    vn[k] = value
    vd[k] = 1


@native
def _card_points(tb: npt.NDArray[np.int64], mask: int) -> int:

    total = 0
    points = tb[O_POINTS]
    seat_mask = mask
    card = 0
    while seat_mask:
        if seat_mask & 1:
            total += tb[points + card]
        seat_mask = (seat_mask >> 1) & 0x7FFFFFFFFFFFFFFF
        card += 1
    return total


@native
def _deal_sides(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], sides: npt.NDArray[np.int64]) -> int:
    """The sides of the deal (``sides_of_deal``) as seat masks, the declarer's first; how many."""
    n = tb[H_PLAYERS]
    declarer = st[L.DECLARER]
    if st[L.CONTRACT] < 0 or declarer < 0:
        ng = tb[S_NGROUPS]
        for g in range(ng):
            sides[g] = tb[tb[S_GROUPS] + g]
        return int(ng)
    kind = tb[tb[S_CONTRACTS] + 2 * st[L.CONTRACT]]
    side = 1 << declarer
    if kind == SIDE_CALLED and st[L.PARTNER] >= 0:
        side |= 1 << st[L.PARTNER]
    elif kind == SIDE_TEAM:
        side |= tb[tb[S_TEAM_MASK] + declarer]
    sides[0] = side
    sides[1] = ((1 << n) - 1) & ~side
    return 2


@native
def _side_values(
    tb: npt.NDArray[np.int64],
    st: npt.NDArray[np.int64],
    side: int,
    sides: npt.NDArray[np.int64],
    nsides: int,
    vn: npt.NDArray[np.int64],
    vd: npt.NDArray[np.int64],
) -> None:
    """The built-in side variables of ``side`` (a seat mask) and the counters, into ``vn / vd``."""
    n = tb[H_PLAYERS]
    other = ((1 << n) - 1) & ~side
    declarer = st[L.DECLARER]
    partner = st[L.PARTNER]
    played = st[L.TRICKS_PLAYED]
    last = st[L.WINNERS + played - 1] if played > 0 else 0
    last_bit = 1 << last if played > 0 else 0  # no trick played: nobody took the last
    tricks = opp_tricks = cp = opp_cp = dec = opp_dec = bid = opp_bid = 0
    taken = opp_taken = 0
    best_score = 0
    first_other = True
    for s in range(n):
        won_points = _card_points(tb, st[L.WON + s])
        if (side >> s) & 1:
            tricks += st[L.WON_TRICKS + s]
            cp += won_points
            dec += st[L.DECLARED + s]
            bid += st[L.BID + s]
            taken |= st[L.WON + s]
        else:
            opp_tricks += st[L.WON_TRICKS + s]
            opp_cp += won_points
            opp_dec += st[L.DECLARED + s]
            opp_bid += st[L.BID + s]
            opp_taken |= st[L.WON + s]
            if first_other or st[L.SCORES + s] > best_score:
                best_score = st[L.SCORES + s]
                first_other = False
    bonus = tb[S_BONUS]
    pc = tb[H_POINT_CARDS]
    _set_int(vn, vd, V_TRICKS, tricks)
    _set_int(vn, vd, V_OPP_TRICKS, opp_tricks)
    _set_int(vn, vd, V_CARD_POINTS, cp)
    _set_int(vn, vd, V_OPP_CARD_POINTS, opp_cp)
    _set_int(vn, vd, V_DECLARED, dec)
    _set_int(vn, vd, V_OPP_DECLARED, opp_dec)
    _set_int(vn, vd, V_LAST_TRICK, 1 if side & last_bit else 0)
    _set_int(vn, vd, V_POINTS, cp + dec + (bonus if side & last_bit else 0))
    _set_int(vn, vd, V_OPP_POINTS, opp_cp + opp_dec + (bonus if other & last_bit else 0))
    _set_int(vn, vd, V_REVOKED, 1 if st[L.REVOKED] & side else 0)
    _set_int(vn, vd, V_OPP_REVOKED, 1 if st[L.REVOKED] & other else 0)
    _set_int(vn, vd, V_IS_DECLARER_SIDE, 1 if declarer >= 0 and (side >> declarer) & 1 else 0)
    run = 0
    for i in range(played):
        if not (side >> st[L.WINNERS + i]) & 1:
            break
        run += 1
    _set_int(vn, vd, V_RUN, run)
    _set_int(vn, vd, V_SCORE, st[L.SCORES + _lowest_seat(side)])
    _set_int(vn, vd, V_OPP_SCORE, best_score)
    _set_int(vn, vd, V_DECLARER_TRICKS, st[L.WON_TRICKS + declarer] if declarer >= 0 else 0)
    has_partner = partner >= 0 and partner != declarer
    _set_int(vn, vd, V_PARTNER_TRICKS, st[L.WON_TRICKS + partner] if has_partner else 0)
    _set_int(vn, vd, V_ALONE, 1 if st[L.SEATS_OUT] & side else 0)
    _set_int(vn, vd, V_OPP_ALONE, 1 if st[L.SEATS_OUT] & other else 0)
    _set_int(vn, vd, V_POINT_CARDS, _popcount(taken & pc))
    _set_int(vn, vd, V_OPP_POINT_CARDS, _popcount(opp_taken & pc))
    _set_int(vn, vd, V_POINT_CARDS_TOTAL, _popcount(pc))
    most = 0
    for i in range(nsides):
        got = 0
        for s in range(n):
            if (sides[i] >> s) & 1:
                got |= st[L.WON + s]
        c = _popcount(got & pc)
        if i == 0 or c > most:
            most = c
    _set_int(vn, vd, V_MAX_POINT_CARDS, most)
    _set_int(vn, vd, V_BID, bid)
    _set_int(vn, vd, V_OPP_BID, opp_bid)
    first = _lowest_seat(side)
    for k in range(tb[S_NCOUNTERS]):
        _set_int(vn, vd, V_COUNTERS + k, st[L.COUNTERS + 8 * k + first])


@native
def _run_formulas(tb: npt.NDArray[np.int64], plan: int, vn: npt.NDArray[np.int64], vd: npt.NDArray[np.int64]) -> bool:
    """Evaluate the plan's named variables in order into ``vn / vd``; False on an error."""
    out = np.empty(2, dtype=np.int64)
    for i in range(tb[plan]):
        var = tb[plan + 1 + 2 * i]
        if not evaluate(tb, tb[plan + 2 + 2 * i], vn, vd, out):
            return False
        vn[var] = out[0]
        vd[var] = out[1]
    return True


@native
def _base(
    tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], pot: int, vn: npt.NDArray[np.int64], vd: npt.NDArray[np.int64]
) -> None:
    """The deal's variables that are the same for every side (``pot``: the pot as the scoring began)."""
    for k in range(vn.shape[0]):
        vn[k] = 0
        vd[k] = 1
    deals = tb[S_DEALS]
    _set_int(vn, vd, V_PLAYERS, tb[H_PLAYERS])
    _set_int(vn, vd, V_TRICKS_TOTAL, st[L.TRICKS])
    _set_int(vn, vd, V_POT, pot)
    _set_int(vn, vd, V_TARGET, tb[S_TARGET])
    _set_int(vn, vd, V_DEAL, st[L.NUMBER])
    _set_int(vn, vd, V_NO_CONTRACT, 1 if st[L.CONTRACT] < 0 else 0)
    trump = st[L.TRUMP]
    _set_int(vn, vd, V_NO_TRUMP, 1 if trump != L.UNSET_TRUMP and trump < 0 else 0)
    _set_int(vn, vd, V_FORCED, 1 if st[L.FORCED] else 0)
    _set_int(vn, vd, V_EXTRA_DEAL, 1 if deals and st[L.DEALS_DONE] >= deals else 0)
    for k in range(tb[S_NANN]):
        _set_int(vn, vd, V_ANNOUNCED + k, (st[L.ANNOUNCED] >> k) & 1)


@native
def _side_env(
    tb: npt.NDArray[np.int64],
    st: npt.NDArray[np.int64],
    plan: int,
    pot: int,
    side: int,
    sides: npt.NDArray[np.int64],
    nsides: int,
    cache_mask: npt.NDArray[np.int64],
    cn: npt.NDArray[np.int64],
    cd: npt.NDArray[np.int64],
) -> int:
    """The row of the cache holding ``side``'s variables (worked out the first time); -1 on an error."""
    k = 0
    while k < cache_mask.shape[0] and cache_mask[k] != 0:
        if cache_mask[k] == side:
            return k
        k += 1
    vn = cn[k]
    vd = cd[k]
    _base(tb, st, pot, vn, vd)
    _side_values(tb, st, side, sides, nsides, vn, vd)
    if not _run_formulas(tb, plan, vn, vd):
        return -1
    cache_mask[k] = side
    return k


@native
def _top_trumps(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], seat: int) -> int:

    trump = st[L.TRUMP]
    if trump == L.UNSET_TRUMP or trump < 0:
        return 0
    size = tb[H_CARDS]
    at = tb[S_ORDER] + st[L.TRUMP_ROW] * size
    hand = st[L.DEALT + seat]
    count = 0
    for k in range(size):
        card = tb[at + k]
        if card < 0 or not (hand >> card) & 1:
            break
        count += 1
    return count


@native
def _player_env(
    tb: npt.NDArray[np.int64],
    st: npt.NDArray[np.int64],
    plan: int,
    seat: int,
    row: int,
    cn: npt.NDArray[np.int64],
    cd: npt.NDArray[np.int64],
    pn: npt.NDArray[np.int64],
    pd: npt.NDArray[np.int64],
) -> bool:
    """``seat``'s variables into ``pn / pd``: its side's (cache row ``row``) and its own; False on an error."""
    for k in range(pn.shape[0]):
        pn[k] = cn[row, k]
        pd[k] = cd[row, k]
    declarer = st[L.DECLARER]
    partner = st[L.PARTNER]
    _set_int(pn, pd, V_TOP_TRUMPS, _top_trumps(tb, st, seat))
    _set_int(pn, pd, V_IS_DECLARER, 1 if seat == declarer else 0)
    _set_int(pn, pd, V_IS_PARTNER, 1 if partner >= 0 and seat == partner and seat != declarer else 0)
    _set_int(pn, pd, V_OWN_TRICKS, st[L.WON_TRICKS + seat])
    _set_int(pn, pd, V_OWN_BID, st[L.BID + seat])
    return _run_formulas(tb, plan, pn, pd)


@native
def _role(
    tb: npt.NDArray[np.int64],
    st: npt.NDArray[np.int64],
    role: int,
    side: int,
    player: int,
    has_contract: bool,
    sides: npt.NDArray[np.int64],
) -> int:
    """The seats a payment role names, as a mask; -1 for the pot."""
    n = tb[H_PLAYERS]
    everyone = (1 << n) - 1
    declarer = st[L.DECLARER]
    partner = st[L.PARTNER]
    if role == 0:
        return -1
    if role == 1:
        return (1 << declarer) if declarer >= 0 else 0
    if role == 2:
        return (1 << partner) if partner >= 0 and partner != declarer else 0
    if role == 3:
        return sides[0] if has_contract else 0
    if role == 4:
        return sides[1] if has_contract else 0
    if role == 5:
        return side
    if role == 6:
        return int(everyone & ~side)
    if role == 7:
        return 1 << player
    if role == 8:
        return int(everyone & ~(1 << player))
    return int(everyone)


@native
def _move(
    tb: npt.NDArray[np.int64],
    st: npt.NDArray[np.int64],
    num: int,
    den: int,
    split: int,
    remainder: int,
    payer: int,
    targets: int,
    scores: npt.NDArray[np.int64],
) -> bool:
    """Chips from ``payer`` (-1: the pot) to ``targets`` (a mask, -1: the pot), as ``Ledger._move``; False: an error."""
    n = tb[H_PLAYERS]
    out = np.empty(2, dtype=np.int64)
    k = 1 if targets < 0 else _popcount(targets)
    if den == 1 and (not split or num % k == 0):
        chips = (num // k) if split else num
    else:
        if split:
            if not rounded(num, den * k, tb[S_ROUND], out):
                return False
        elif not rounded(num, den, tb[S_ROUND], out):
            return False
        chips = out[0]
    extra_to = -2
    leftover = 0
    if split and remainder != 0 and den == 1:
        leftover = num - chips * k
        if leftover and remainder == 1:
            declarer = st[L.DECLARER]
            if targets >= 0 and declarer >= 0 and (targets >> declarer) & 1:
                extra_to = declarer
        elif leftover and remainder == 2:
            best = n + 1
            if targets < 0:
                extra_to = -1
            else:
                for s in range(n):
                    if (targets >> s) & 1:
                        key = (s - st[L.DEALER] - 1) % n
                        if key < best:
                            best = key
                            extra_to = s
    for r in range(-1, n):
        if r < 0 and targets >= 0:
            continue
        if r >= 0 and (targets < 0 or not (targets >> r) & 1):
            continue
        moved = chips + leftover if r == extra_to else chips
        if payer < 0 and moved > st[L.POT]:
            moved = st[L.POT]
        if moved <= 0:
            continue
        if payer < 0:
            st[L.POT] -= moved
        else:
            scores[payer] -= moved
        if r < 0:
            st[L.POT] += moved
        else:
            scores[r] += moved
    return True


@native
def _pay_out(
    tb: npt.NDArray[np.int64],
    st: npt.NDArray[np.int64],
    rec: int,
    vn: npt.NDArray[np.int64],
    vd: npt.NDArray[np.int64],
    side: int,
    player: int,
    has_contract: bool,
    sides: npt.NDArray[np.int64],
    scores: npt.NDArray[np.int64],
) -> bool:
    """The payments of the outcome or bonus at ``rec``; False on an error."""
    n = tb[H_PLAYERS]
    out = np.empty(2, dtype=np.int64)
    chips = tb[S_UNIT] == 1
    mode = tb[S_ROUND]
    for i in range(tb[rec + 4]):
        at = rec + 5 + 5 * i
        payer_role, to_role, amount, split, remainder = tb[at], tb[at + 1], tb[at + 2], tb[at + 3], tb[at + 4]
        receivers = _role(tb, st, to_role, side, player, has_contract, sides)
        if receivers == 0:
            continue
        if not evaluate(tb, amount, vn, vd, out):
            return False
        num, den = out[0], out[1]
        if not chips:
            if not rounded(num, den, mode, out):
                return False
            pts = out[0]
            if split:
                if not rounded(pts, _popcount(receivers), mode, out):
                    return False
                pts = out[0]
            if pts:
                for s in range(n):
                    if (receivers >> s) & 1:
                        scores[s] += pts
            continue
        payers = _role(tb, st, payer_role, side, player, has_contract, sides)
        for p in range(-1, n):
            if p < 0 and payers >= 0:
                continue
            if p >= 0 and (payers < 0 or not (payers >> p) & 1):
                continue
            targets = receivers
            if p < 0 and receivers < 0:
                continue  # the pot paying the pot: nobody to pay
            if p >= 0 and receivers >= 0:
                targets = receivers & ~(1 << p)
                if targets == 0:
                    continue
            if not _move(tb, st, num, den, split, remainder, p, targets, scores):
                return False
    return True


@native
def _fits_all(st: npt.NDArray[np.int64], n: int) -> bool:
    limit = 1 << 62
    if st[L.POT] > limit or st[L.POT] < -limit:
        return False
    for s in range(n):  # noqa: SIM110 - numba has no all() of a generator
        if st[L.SCORES + s] > limit or st[L.SCORES + s] < -limit:
            return False
    return True


@native
def _fail(st: npt.NDArray[np.int64], code: int) -> None:
    st[B_ERROR] = code


@native
def score(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64]) -> None:
    """Score the finished deal in ``st`` and end the match or set up the next deal (see the module's docstring)."""
    n = tb[H_PLAYERS]
    nv = tb[S_NVARS]
    sides = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    nsides = _deal_sides(tb, st, sides)
    has_contract = st[L.CONTRACT] >= 0 and st[L.DECLARER] >= 0
    plan = tb[tb[S_PLANS] + st[L.CONTRACT] + 1]
    cache_mask = np.zeros(2 * L.MAX_PLAYERS, dtype=np.int64)
    cn = np.zeros((2 * L.MAX_PLAYERS, nv), dtype=np.int64)
    cd = np.ones((2 * L.MAX_PLAYERS, nv), dtype=np.int64)
    pn = np.zeros((L.MAX_PLAYERS, nv), dtype=np.int64)
    pd = np.ones((L.MAX_PLAYERS, nv), dtype=np.int64)
    have_player = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    side_of = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    for i in range(nsides):
        for s in range(n):
            if (sides[i] >> s) & 1:
                side_of[s] = sides[i]
    before = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    scores = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    for s in range(n):
        before[s] = st[L.SCORES + s]
        scores[s] = st[L.SCORES + s]
    pot_before = st[L.POT]
    counts = np.zeros(MAX_ENTRIES, dtype=np.int64)
    matched = np.zeros((3, L.MAX_PLAYERS), dtype=np.int64)
    subj_side = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    subj_player = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    out = np.empty(2, dtype=np.int64)
    nout = tb[plan + 1 + 2 * tb[plan]]
    first_out = plan + 2 + 2 * tb[plan]
    for o in range(nout):
        rec = tb[first_out + o]
        entry, kind, is_bonus, when = tb[rec], tb[rec + 1], tb[rec + 2], tb[rec + 3]
        count = 0
        if kind == 0:
            if has_contract:
                subj_side[0] = sides[0]
                subj_player[0] = st[L.DECLARER]
                count = 1
        elif kind == 1:
            for i in range(nsides):
                subj_side[i] = sides[i]
                subj_player[i] = _lowest_seat(sides[i])
            count = nsides
        else:
            for s in range(n):
                subj_side[s] = side_of[s]
                subj_player[s] = s
            count = n
        for j in range(count):
            side, player = subj_side[j], subj_player[j]
            if not is_bonus and matched[kind, player]:
                continue
            row = _side_env(tb, st, plan, pot_before, side, sides, nsides, cache_mask, cn, cd)
            if row < 0:
                _fail(st, 1)
                return
            if kind == 2:
                if not have_player[player]:
                    if not _player_env(tb, st, plan, player, row, cn, cd, pn[player], pd[player]):
                        _fail(st, 2)
                        return
                    have_player[player] = 1
                vn = pn[player]
                vd = pd[player]
            else:
                vn = cn[row]
                vd = cd[row]
            if not evaluate(tb, when, vn, vd, out):
                _fail(st, 3)
                return
            if out[0] != 0:
                if not is_bonus:
                    matched[kind, player] = 1
                counts[entry] += 1
                if not _pay_out(tb, st, rec, vn, vd, side, player, has_contract, sides, scores):
                    _fail(st, 4)
                    return
    # The counters: each group's next value from its variables of this deal.
    ncount = tb[S_NCOUNTERS]
    ng = tb[S_NGROUPS]
    new_counters = np.zeros((L.MAX_COUNTERS, L.MAX_PLAYERS), dtype=np.int64)
    for k in range(ncount):
        for s in range(n):
            new_counters[k, s] = st[L.COUNTERS + 8 * k + s]
        for g in range(ng):
            group = tb[tb[S_GROUPS] + g]
            row = _side_env(tb, st, plan, pot_before, group, sides, nsides, cache_mask, cn, cd)
            if row < 0 or not evaluate(tb, tb[tb[S_COUNTERS] + k], cn[row], cd[row], out):
                _fail(st, 5)
                return
            if not rounded(out[0], out[1], tb[S_ROUND], out):
                _fail(st, 6)
                return
            for s in range(n):
                if (group >> s) & 1:
                    new_counters[k, s] = out[0]
    for k in range(ncount):
        for s in range(n):
            st[L.COUNTERS + 8 * k + s] = new_counters[k, s]
    for s in range(n):
        st[L.SCORES + s] = scores[s]
        st[L.DELTA + s] = scores[s] - st[B_BOARD + s]
        st[B_BOARD + s] = scores[s]
    st[L.OUTCOMES] = 0
    st[L.OUTCOMES + 1] = 0
    for w in range(4):
        st[B_COUNTS + w] = 0
    for i in range(tb[S_NENTRIES]):
        if counts[i]:
            st[L.OUTCOMES + i // 64] |= np.int64(1) << np.int64(i % 64)
            st[B_COUNTS + i // 16] |= min(counts[i], 15) << (4 * (i % 16))
    if not _fits_all(st, n):
        _fail(st, 7)
        return
    st[L.DEALS_DONE] += 1
    _after_deal(tb, st)


@native
def passed_out(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64]) -> None:
    """A deal everyone passed, thrown in and counted as played (``deal_end.pass_out``): no payment."""
    n = tb[H_PLAYERS]
    for s in range(n):
        st[L.DELTA + s] = st[L.SCORES + s] - st[B_BOARD + s]
        st[B_BOARD + s] = st[L.SCORES + s]
    st[L.OUTCOMES] = 0
    st[L.OUTCOMES + 1] = 0
    for w in range(4):
        st[B_COUNTS + w] = 0
    st[L.DEALS_DONE] += 1
    _after_deal(tb, st)


@native
def _winners(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64]) -> int:
    """The winning seats (a mask) if the match is over after this deal, else 0 (``_match_winners``)."""
    ng = tb[S_NGROUPS]
    groups = tb[S_GROUPS]
    target = tb[S_TARGET]
    totals = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    for g in range(ng):
        totals[g] = st[L.SCORES + _lowest_seat(tb[groups + g])]
    most = totals[0]
    least = totals[0]
    for g in range(ng):
        most = max(most, totals[g])
        least = min(least, totals[g])
    done = False
    if target and most >= target:
        reached = 0
        for g in range(ng):
            if totals[g] >= target:
                reached += 1
        if reached > 1 and tb[S_TIE] == 2:
            for g in range(ng):
                if totals[g] >= target and (tb[groups + g] >> st[L.DEALER]) & 1:
                    return int(tb[groups + g])
        done = True
    if tb[S_HAS_MERCY] and least <= tb[S_MERCY]:
        done = True
    deals = tb[S_DEALS]
    if deals and st[L.DEALS_DONE] >= deals and (st[L.POT] == 0 or tb[S_POT_END] != 2):
        done = True
    if not done:
        return 0
    best = least if tb[S_LOWEST] else most
    leaders = 0
    seats = 0
    for g in range(ng):
        if totals[g] == best:
            leaders += 1
            seats |= tb[groups + g]
    if leaders > 1 and tb[S_TIE] == 0:
        return 0
    return seats


@native
def _after_deal(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64]) -> None:
    """The match over (winners, the pot shared, the bonus for winning), or the next deal's number, shuffle, dealer."""
    n = tb[H_PLAYERS]
    winners = _winners(tb, st)
    if winners == 0:
        st[L.NUMBER] += 1
        st[L.SHUFFLE] += 1
        st[L.DEALER] = (st[L.DEALER] + 1) % n
        return
    st[L.OVER] = 1
    st[B_WINNERS] = winners
    if tb[S_POT_END] == 1:
        each = st[L.POT] // n
        if each:
            for s in range(n):
                st[L.SCORES + s] += each
            st[L.POT] -= each * n
    bonus = tb[S_WIN_BONUS]
    if bonus:
        target = tb[S_TARGET]
        ng = tb[S_NGROUPS]
        totals = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
        for g in range(ng):
            totals[g] = st[L.SCORES + _lowest_seat(tb[tb[S_GROUPS] + g])]
        for g in range(ng):
            group = tb[tb[S_GROUPS] + g]
            total = totals[g]
            if group & winners:
                if not target or total < target:
                    continue
                points = bonus
            elif tb[S_HAS_MERCY] and total <= tb[S_MERCY]:
                points = -bonus
            else:
                continue
            for s in range(n):
                if (group >> s) & 1:
                    st[L.SCORES + s] += points


@native
def ends_early(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64]) -> bool:
    """Whether the contract's ``end_when`` stops the play after the trick just won (``deal_end.ends_early``)."""
    contract = st[L.CONTRACT]
    if contract < 0:
        return False
    at = tb[tb[S_CONTRACTS] + 2 * contract + 1]
    if at < 0:
        return False
    sides = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    _deal_sides(tb, st, sides)
    played = st[L.TRICKS_PLAYED]
    tricks = 0
    for i in range(played):
        if (sides[0] >> st[L.WINNERS + i]) & 1:
            tricks += 1
    nv = tb[S_NVARS]
    vn = np.zeros(nv, dtype=np.int64)
    vd = np.ones(nv, dtype=np.int64)
    _set_int(vn, vd, V_TRICKS, tricks)
    _set_int(vn, vd, V_OPP_TRICKS, played - tricks)
    _set_int(vn, vd, V_TRICKS_PLAYED, played)
    _set_int(vn, vd, V_TRICKS_TOTAL, st[L.TRICKS])
    out = np.empty(2, dtype=np.int64)
    if not evaluate(tb, at, vn, vd, out):
        _fail(st, 8)
        return False
    return bool(out[0] != 0)


@native
def ante(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64]) -> None:
    """The ante due at the start of deal ``st[NUMBER]`` paid into the pot (``deal._ante_due``); ``B_ANTE`` says it."""
    n = tb[H_PLAYERS]
    when = tb[S_ANTE_WHEN]
    st[B_ANTE] = 0
    if when == 0 or (when == 1 and st[L.NUMBER] != 0) or (when == 3 and st[L.POT] != 0):
        return
    nv = tb[S_NVARS]
    vn = np.zeros(nv, dtype=np.int64)
    vd = np.ones(nv, dtype=np.int64)
    deals = tb[S_DEALS]
    _set_int(vn, vd, V_PLAYERS, n)
    _set_int(vn, vd, V_TRICKS_TOTAL, tb[S_TRICKS_PER_DEAL])
    _set_int(vn, vd, V_POT, st[L.POT])
    _set_int(vn, vd, V_TARGET, tb[S_TARGET])
    _set_int(vn, vd, V_DEAL, st[L.NUMBER])
    _set_int(vn, vd, V_NO_CONTRACT, 1)
    _set_int(vn, vd, V_EXTRA_DEAL, 1 if deals and st[L.DEALS_DONE] >= deals else 0)
    out = np.empty(2, dtype=np.int64)
    if not evaluate(tb, tb[S_ANTE], vn, vd, out) or not rounded(out[0], out[1], tb[S_ROUND], out):
        _fail(st, 9)
        return
    value = out[0]
    if value:
        for s in range(n):
            st[L.SCORES + s] -= value
        st[L.POT] += value * n
        st[B_ANTE] = value
