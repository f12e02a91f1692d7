"""The scoring's tables for the kernel: the numbers and formulas of a game's scoring, as words of ``tb``.

:func:`export` writes, in the header words ``HM_SCORING`` .. ``HM_SCORING + 47``
(``S_*``) and one block, what :mod:`trickrules.native.scoring` needs: per
contract (and for deals with none) its named variables in order and its
outcomes and bonuses with their payments, each formula as native code
(:mod:`trickrules.native.formula`); the match's end; the counters; the trump
orders (``top_trumps``). The formulas read a vector of variables whose
indices are fixed here (``V_*``). The block ``MECH_SCORING`` of ``st``
(``B_*``) is described in :mod:`trickrules.native.scoring`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from trickrules.compile.variables import DEAL_VARS, ENGINE_ONLY_PLAYER_VARS, PLAYER_VARS, SIDE_VARS
from trickrules.native import layout as L
from trickrules.native.formula import ROUNDING_CODES, compile_code
from trickrules.native.tables import HM_SCORING, Builder, Unsupported
from trickrules.spec.formula import Formula

if TYPE_CHECKING:
    from trickrules.engine.game import Game

# -- the block's words ------------------------------------------------------------------------------------
B_ERROR = L.MECH_SCORING + 0
#: ``B_ERROR`` codes of the match's rules rather than its numbers (the engine, replaying the match, raises
#: its ``SpecError``): a seat with no legal action in a state not over; :data:`MAX_THROWN` deals thrown in a row.
E_DEAD_END = 91
E_THROWN = 92
B_WINNERS = L.MECH_SCORING + 1
B_COUNTS = L.MECH_SCORING + 2  # 4 words, 4 bits per entry
B_BOARD = L.MECH_SCORING + 8  # a word per seat
B_ANTE = L.MECH_SCORING + 16
#: 1 when the last deal counted was thrown in (``passed_out``), 0 when it was scored.
B_PASSED = L.MECH_SCORING + 17
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


#: Built-in variables the kernel has no value for (the widow's facts): a formula reading one is not covered.
_NOT_NATIVE = frozenset(("hand", "top_trumps_without"))


def _check_defined(formula: Formula, known: set[str], what: str) -> None:
    missing = formula.variables - known
    if missing:
        raise Unsupported(f"{what} reads {sorted(missing)} where the engine has no value for it")
    if formula.variables & _NOT_NATIVE:
        raise Unsupported(f"{what} reads {sorted(formula.variables & _NOT_NATIVE)}, which the kernel does not compute")


class _Data:
    """One block of ``tb`` being written, its offsets absolute; each formula's code written once."""

    def __init__(self, b: Builder, names: dict[str, int]) -> None:
        self.base = len(b.header) + len(b.blocks)
        self.words: list[int] = []
        self.names = names
        self.codes: dict[int, int] = {}

    def put(self, values: list[int]) -> int:
        """Append ``values``; their offset in ``tb``."""
        at = self.base + len(self.words)
        self.words.extend(values)
        return at

    def code(self, f: Formula) -> int:
        """The offset of ``f``'s native code (written the first time)."""
        key = id(f)
        if key not in self.codes:
            self.codes[key] = self.put(compile_code(f, self.names))
        return self.codes[key]


def _check_limits(game: Game) -> None:
    t = game.tables
    rules = t.rules
    if len(t.announcement_names) > MAX_ANNOUNCEMENTS:
        raise Unsupported(f"more than {MAX_ANNOUNCEMENTS} announcements")
    if len(rules.bids.counters) > L.MAX_COUNTERS:
        raise Unsupported(f"more than {L.MAX_COUNTERS} counters")
    if len(rules.outcomes) + len(rules.bonuses) > MAX_ENTRIES:
        raise Unsupported(f"more than {MAX_ENTRIES} outcomes and bonuses")
    for g in t.groups:
        if list(g) != sorted(g):
            raise Unsupported("a team whose seats are not in order")
    mercy = rules.bids.mercy_threshold or 0
    for value in (rules.match_target, rules.match_deals, rules.last_trick_bonus, rules.bids.win_bonus, mercy):
        if abs(value) > 1 << 62:
            raise Unsupported("a match number past 62 bits")


def _variable_names(game: Game) -> dict[str, int]:
    """The index of every variable a formula of the game may read."""
    t = game.tables
    rules = t.rules
    names: dict[str, int] = {name: k for k, name in enumerate(_BUILTIN)}
    for k, a in enumerate(t.announcement_names):
        names[f"announced_{a}"] = V_ANNOUNCED + k
    for k, counter in enumerate(rules.bids.counters):
        names[counter.name] = V_COUNTERS + k
    named = 0
    for var, _ in (*rules.vars, *(v for c in rules.contracts for v in c.vars)):
        if var not in names:
            names[var] = V_NAMED + named
            named += 1
    return names


def _plan(game: Game, index: int | None, data: _Data) -> int:
    """Write the plan of contract ``index`` (``None``: deals without one); its offset.

    A plan is: how many named variables, (index, code) of each in order;
    how many outcomes and bonuses, the offset of each one's record. A record
    is: its entry (in :func:`outcome_names`), kind (0 deal, 1 side, 2
    player), 1 for a bonus, its condition's code, how many payments, and
    (payer, receiver, amount's code, split, remainder) for each.
    """
    t = game.tables
    rules = t.rules
    own = rules.contracts[index].vars if index is not None else ()
    mine = {name for name, _ in own}
    merged = [(nm, f) for nm, f in rules.vars if nm not in mine] + list(own)
    known = {*DEAL_VARS, *SIDE_VARS, *(c.name for c in rules.bids.counters)}
    known |= {f"announced_{a}" for a in t.announcement_names}
    record = [len(merged)]
    for nm, f in merged:
        _check_defined(f, known, f"scoring var {nm!r}")  # the engine would meet a variable with no value
        known.add(nm)
        record += [data.names[nm], data.code(f)]
    for k, counter in enumerate(rules.bids.counters):
        _check_defined(counter.update, known, f"scoring.counters[{k}]")
    cname = rules.contracts[index].name if index is not None else ""
    entries = (*rules.outcomes, *rules.bonuses)
    offsets = []
    for k, o in enumerate(entries):
        if o.contracts is not None and cname not in o.contracts:
            continue
        allowed = known | set(PLAYER_VARS) if o.for_each is OutcomeScope.PLAYER else known
        _check_defined(o.when, allowed, f"scoring {o.name!r}")
        out = [k, _KINDS[o.for_each], int(k >= len(rules.outcomes)), data.code(o.when), len(o.pay)]
        for pay in o.pay:
            _check_defined(pay.amount, allowed, f"scoring {o.name!r}")
            payer = -1 if pay.payer is None else _ROLES[pay.payer]
            out += [payer, _ROLES[pay.to], data.code(pay.amount), int(pay.split), _REMAINDERS[pay.remainder]]
        offsets.append(data.put(out))
    return data.put([*record, len(offsets), *offsets])


def _contracts(game: Game, data: _Data) -> list[int]:
    """Per contract: its side's code (``SIDE_*``) and its ``end_when``'s code (-1: none)."""
    rules = game.rules
    out: list[int] = []
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
        out += [side, -1 if end is None else data.code(end)]
    return out


def _numbers(game: Game, b: Builder, nvars: int) -> None:
    """The scoring's numbers, in its header words."""
    t = game.tables
    rules = t.rules
    mercy = rules.bids.mercy_threshold
    for slot, value in (
        (S_NVARS, nvars),
        (S_UNIT, 1 if rules.unit is Unit.CHIPS else 0),
        (S_ROUND, ROUNDING_CODES[str(rules.rounding)]),
        (S_BONUS, rules.last_trick_bonus),
        (S_ANTE_WHEN, _ANTE_WHEN[rules.ante_when]),
        (S_TARGET, rules.match_target),
        (S_DEALS, rules.match_deals),
        (S_TIE, _TIES[rules.tie_break]),
        (S_POT_END, _POT_END[rules.pot_at_end]),
        (S_LOWEST, 1 if rules.match_winner is MatchWinner.LOWEST else 0),
        (S_HAS_MERCY, 0 if mercy is None else 1),
        (S_MERCY, 0 if mercy is None else mercy),
        (S_WIN_BONUS, rules.bids.win_bonus),
        (S_NGROUPS, len(t.groups)),
        (S_NCOUNTERS, len(rules.bids.counters)),
        (S_TRICKS_PER_DEAL, rules.tricks_per_deal),
        (S_NANN, len(t.announcement_names)),
        (S_NENTRIES, len(rules.outcomes) + len(rules.bonuses)),
    ):
        b.number(slot, value)


def export(game: Game, b: Builder) -> None:
    """Write the scoring's tables into ``b``; :class:`Unsupported` for what the native scoring does not reproduce."""
    t = game.tables
    rules = t.rules
    if rules.external:
        raise Unsupported("scoring variables a mechanism gives (scoring.external)")
    if rules.bids.end_when is not None:
        raise Unsupported("a match that ends by a rule of its own (match.end_when)")
    used = set(game.scoring.player_names) & set(ENGINE_ONLY_PLAYER_VARS)
    if used:
        raise Unsupported(f"the player variables {', '.join(sorted(used))}")
    _check_limits(game)
    names = _variable_names(game)
    data = _Data(b, names)
    plans = [_plan(game, index, data) for index in (None, *range(len(rules.contracts)))]
    contracts = _contracts(game, data)
    _check_defined(rules.ante, set(DEAL_VARS), "scoring.ante")
    b.number(S_ANTE, data.code(rules.ante))
    counters = [data.code(counter.update) for counter in rules.bids.counters]
    size = t.cards.size
    order: list[int] = []
    for key in sorted(t.trumps):
        cards = list(t.cards.table(key).order)[:size] if key >= 0 else []
        order += cards + [-1] * (size - len(cards))
    teams = [rules.teams[t.team_of[s]] if rules.teams else (s,) for s in range(rules.players)]
    _numbers(game, b, max(names.values()) + 1)
    b.blocks.extend(data.words)  # the formulas' code and the plans, at the offsets data gave them
    b.block(S_PLANS, plans)
    b.block(S_GROUPS, [sum(1 << s for s in g) for g in t.groups])
    b.block(S_CONTRACTS, contracts)
    b.block(S_COUNTERS, counters)
    b.block(S_ORDER, order)
    b.block(S_TEAM_MASK, [sum(1 << x for x in team) for team in teams])
