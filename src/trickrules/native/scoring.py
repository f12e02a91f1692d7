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

* ``B_ERROR``: not 0 (the place that failed) when a formula failed (a division
  by zero, a fraction under ``rounding = "exact"``: the engine raises ``FormulaError``) or a value
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
* ``B_ANTE``: the ante each seat paid at the start of the last deal (0: none);
* ``B_PASSED``: 1 when the last deal counted was thrown in (:func:`passed_out`).

``st[OUTCOMES]`` (two words) has bit ``i`` set when entry ``i`` applied.

How a match loop uses them: :func:`ante` at the start of every deal
(``st[NUMBER]``, before or after dealing); after each trick, where the tables
say a contract may end the play early (``tb[R_BASE + R_ENDS_EARLY]``),
:func:`ends_early`; when the play is over, :func:`score` (or, for a deal
thrown in that counts, ``st[REDEAL] = 2``, :func:`passed_out`); then, unless
``st[OVER]``, deal ``st[NUMBER]`` from shuffle ``st[SHUFFLE]`` by
``st[DEALER]`` (set here). A match starts with the block at 0. Where
``B_ERROR`` is set, the match is the engine's to play.

The tables are written by :mod:`trickrules.native.scoring_tables`, the
variables and payments computed by :mod:`trickrules.native.scoring_ledger`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from trickrules.native import layout as L
from trickrules.native.formula import OUT_SIZE, evaluate, rounded
from trickrules.native.jit import native, native_alloc
from trickrules.native.scoring_ledger import deal_sides, lowest_seat, pay_out, player_env, set_int, side_env
from trickrules.native.scoring_tables import (
    B_ANTE,
    B_BOARD,
    B_COUNTS,
    B_ERROR,
    B_PASSED,
    B_WINNERS,
    MAX_ENTRIES,
    S_ANTE,
    S_ANTE_WHEN,
    S_CONTRACTS,
    S_COUNTERS,
    S_DEALS,
    S_GROUPS,
    S_HAS_MERCY,
    S_LOWEST,
    S_MERCY,
    S_NCOUNTERS,
    S_NENTRIES,
    S_NGROUPS,
    S_NVARS,
    S_PLANS,
    S_POT_END,
    S_ROUND,
    S_TARGET,
    S_TIE,
    S_TRICKS_PER_DEAL,
    S_WIN_BONUS,
    V_DEAL,
    V_EXTRA_DEAL,
    V_NO_CONTRACT,
    V_OPP_TRICKS,
    V_PLAYERS,
    V_POT,
    V_TARGET,
    V_TRICKS,
    V_TRICKS_PLAYED,
    V_TRICKS_TOTAL,
    export,
    outcome_names,
)
from trickrules.native.tables import H_PLAYERS, word

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.values import DealInfo, Tally

__all__ = [
    "B_ANTE",
    "B_BOARD",
    "B_COUNTS",
    "B_ERROR",
    "B_PASSED",
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


def outcome_text(game: Game, st: npt.NDArray[np.int64]) -> str:
    """The engine's ``DealScored.outcome`` of the last deal counted (``"none"``: nothing applied)."""
    if st[B_PASSED]:
        return "passed out"
    names = outcome_names(game)
    applied: list[str] = []
    for i, name in enumerate(names):
        count = (int(st[B_COUNTS + i // 16]) >> (4 * (i % 16))) & 15
        applied.extend([name] * count)
    return ", ".join(applied) or "none"


# -- filling st from the engine (for the tests and engine_arrays) ----------------------------------------------


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
def _subjects(
    tb: npt.NDArray[np.int64],
    st: npt.NDArray[np.int64],
    kind: int,
    sides: npt.NDArray[np.int64],
    nsides: int,
    side_of: npt.NDArray[np.int64],
    subj: npt.NDArray[np.int64],
) -> int:
    """Who an outcome of ``kind`` is for: (side, player) pairs into ``subj``; how many (``pay_deal``'s ``by_kind``)."""
    if kind == 0:  # the deal: the declarer's side, where there is a contract
        if st[L.CONTRACT] < 0 or st[L.DECLARER] < 0:
            return 0
        subj[0, 0] = sides[0]
        subj[0, 1] = st[L.DECLARER]
        return 1
    if kind == 1:  # each side
        for i in range(nsides):
            subj[i, 0] = sides[i]
            subj[i, 1] = lowest_seat(sides[i])
        return nsides
    n = tb[H_PLAYERS]
    for seat in range(n):  # each player
        subj[seat, 0] = side_of[seat]
        subj[seat, 1] = seat
    return int(n)


@native_alloc
def _outcomes(
    tb: npt.NDArray[np.int64],
    st: npt.NDArray[np.int64],
    plan: int,
    sides: npt.NDArray[np.int64],
    nsides: int,
    cache: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]],
    scores: npt.NDArray[np.int64],
    counts: npt.NDArray[np.int64],
) -> int:
    """The outcomes (first match per subject) and bonuses of the plan, paid; 0, or where it failed."""
    cache_mask, cn, cd = cache
    n = tb[H_PLAYERS]
    nv = tb[S_NVARS]
    pot = st[L.POT]  # the variables see the pot as the scoring began
    has_contract = st[L.CONTRACT] >= 0 and st[L.DECLARER] >= 0
    pn = np.zeros((n, nv), dtype=np.int64)  # sized by the table: filled each scoring, so kept small
    pd = np.ones((n, nv), dtype=np.int64)
    have_player = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    side_of = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    for i in range(nsides):
        for seat in range(n):
            if (sides[i] >> seat) & 1:
                side_of[seat] = sides[i]
    matched = np.zeros((3, L.MAX_PLAYERS), dtype=np.int64)
    subj = np.zeros((L.MAX_PLAYERS, 2), dtype=np.int64)
    out = np.empty(OUT_SIZE, dtype=np.int64)
    first = plan + 2 + 2 * tb[plan]
    for o in range(tb[first - 1]):
        rec = tb[first + o]
        entry, kind, is_bonus, when = tb[rec], tb[rec + 1], tb[rec + 2], tb[rec + 3]
        for j in range(_subjects(tb, st, kind, sides, nsides, side_of, subj)):
            side, player = subj[j, 0], subj[j, 1]
            if not is_bonus and matched[kind, player]:
                continue
            row = side_env(tb, st, plan, pot, side, sides, nsides, cache_mask, cn, cd, out)
            if row < 0:
                return 1
            vn, vd = cn[row], cd[row]
            if kind == 2:
                if not have_player[player]:
                    if not player_env(tb, st, plan, player, row, cn, cd, pn[player], pd[player], out):
                        return 2
                    have_player[player] = 1
                vn, vd = pn[player], pd[player]
            if not evaluate(tb, when, vn, vd, out):
                return 3
            if out[0] != 0:
                if not is_bonus:
                    matched[kind, player] = 1
                counts[entry] += 1
                if not pay_out(tb, st, rec, vn, vd, side, player, has_contract, sides, scores, out):
                    return 4
    return 0


@native_alloc
def _counters(
    tb: npt.NDArray[np.int64],
    st: npt.NDArray[np.int64],
    plan: int,
    pot: int,
    sides: npt.NDArray[np.int64],
    nsides: int,
    cache: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]],
    counters: npt.NDArray[np.int64],
) -> int:
    """Each counter's next value per seat into ``counters`` (``carried_counters``); 0, or where it failed."""
    cache_mask, cn, cd = cache
    n = tb[H_PLAYERS]
    out = np.empty(OUT_SIZE, dtype=np.int64)
    for k in range(tb[S_NCOUNTERS]):
        for seat in range(n):
            counters[k, seat] = st[L.COUNTERS + 8 * k + seat]
        for g in range(tb[S_NGROUPS]):
            group = tb[tb[S_GROUPS] + g]
            row = side_env(tb, st, plan, pot, group, sides, nsides, cache_mask, cn, cd, out)
            if row < 0 or not evaluate(tb, tb[tb[S_COUNTERS] + k], cn[row], cd[row], out):
                return 5
            if not rounded(out[0], out[1], tb[S_ROUND], out):
                return 6
            for seat in range(n):
                if (group >> seat) & 1:
                    counters[k, seat] = out[0]
    return 0


@native_alloc
def pay_deal(
    tb: npt.NDArray[np.int64],
    st: npt.NDArray[np.int64],
    scores: npt.NDArray[np.int64],
    counts: npt.NDArray[np.int64],
    counters: npt.NDArray[np.int64],
) -> int:
    """Pay the finished deal in ``st``; 0, or the place that failed (for ``B_ERROR``).

    Into ``scores`` (per seat) and ``st[POT]``: the totals after its
    payments; ``counts``: how many times each entry applied; ``counters``:
    the counters' next values. The variables see the match as the deal
    began (``st``'s scores and counters are left as they are).
    """
    nv = tb[S_NVARS]
    sides = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    nsides = deal_sides(tb, st, sides)
    plan = tb[tb[S_PLANS] + st[L.CONTRACT] + 1]
    rows = 2 * tb[H_PLAYERS]  # the deal's sides and the counters' groups: at most a seat each
    cache = (np.zeros(rows, dtype=np.int64), np.zeros((rows, nv), dtype=np.int64), np.ones((rows, nv), dtype=np.int64))
    pot = st[L.POT]
    failed = _outcomes(tb, st, plan, sides, nsides, cache, scores, counts)
    if failed:
        return failed
    paid = st[L.POT]
    st[L.POT] = pot  # the counters' variables too see the pot as the scoring began
    failed = _counters(tb, st, plan, pot, sides, nsides, cache, counters)
    st[L.POT] = paid
    return failed


@native_alloc
def score(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64]) -> None:
    """Score the finished deal in ``st`` and end the match or set up the next deal (see the module's docstring)."""
    n = tb[H_PLAYERS]
    scores = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    for s in range(n):
        scores[s] = st[L.SCORES + s]
    counts = np.zeros(MAX_ENTRIES, dtype=np.int64)
    counters = np.zeros((L.MAX_COUNTERS, L.MAX_PLAYERS), dtype=np.int64)
    failed = pay_deal(tb, st, scores, counts, counters)
    if failed:
        st[B_ERROR] = failed
        return
    for k in range(tb[S_NCOUNTERS]):
        for s in range(n):
            st[L.COUNTERS + 8 * k + s] = counters[k, s]
    for s in range(n):
        st[L.SCORES + s] = scores[s]
    _scored(tb, st, counts)
    if not _fits_all(st, n):
        st[B_ERROR] = 7
        return
    st[L.DEALS_DONE] += 1
    _after_deal(tb, st)


@native
def _scored(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], counts: npt.NDArray[np.int64]) -> None:
    """What the deal's ``DealScored`` says: each seat's delta since the last one, and what applied."""
    st[B_PASSED] = 0
    for s in range(tb[H_PLAYERS]):
        st[L.DELTA + s] = st[L.SCORES + s] - st[B_BOARD + s]
        st[B_BOARD + s] = st[L.SCORES + s]
    st[L.OUTCOMES] = 0
    st[L.OUTCOMES + 1] = 0
    for w in range(4):
        st[B_COUNTS + w] = 0
    for i in range(tb[S_NENTRIES]):
        if counts[i]:
            st[L.OUTCOMES + i // 64] |= np.int64(1) << np.int64(i % 64)
            st[B_COUNTS + i // 16] |= min(counts[i], 15) << (4 * (i % 16))


@native_alloc
def passed_out(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64]) -> None:
    """A deal everyone passed, thrown in and counted as played (``deal_end.pass_out``): no payment."""
    _scored(tb, st, np.zeros(MAX_ENTRIES, dtype=np.int64))
    st[B_PASSED] = 1
    st[L.DEALS_DONE] += 1
    _after_deal(tb, st)


@native_alloc
def _winners(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64]) -> int:
    """The winning seats (a mask) if the match is over after this deal, else 0 (``_match_winners``)."""
    ng = tb[S_NGROUPS]
    groups = tb[S_GROUPS]
    target = tb[S_TARGET]
    totals = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    for g in range(ng):
        totals[g] = st[L.SCORES + lowest_seat(tb[groups + g])]
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


@native_alloc
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
            totals[g] = st[L.SCORES + lowest_seat(tb[tb[S_GROUPS] + g])]
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


@native_alloc
def ends_early(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64]) -> bool:
    """Whether the contract's ``end_when`` stops the play after the trick just won (``deal_end.ends_early``)."""
    contract = st[L.CONTRACT]
    if contract < 0:
        return False
    at = tb[tb[S_CONTRACTS] + 2 * contract + 1]
    if at < 0:
        return False
    sides = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    deal_sides(tb, st, sides)
    played = st[L.TRICKS_PLAYED]
    tricks = 0
    for i in range(played):
        if (sides[0] >> st[L.WINNERS + i]) & 1:
            tricks += 1
    nv = tb[S_NVARS]
    vn = np.zeros(nv, dtype=np.int64)
    vd = np.ones(nv, dtype=np.int64)
    set_int(vn, vd, V_TRICKS, tricks)
    set_int(vn, vd, V_OPP_TRICKS, played - tricks)
    set_int(vn, vd, V_TRICKS_PLAYED, played)
    set_int(vn, vd, V_TRICKS_TOTAL, st[L.TRICKS])
    out = np.empty(OUT_SIZE, dtype=np.int64)
    if not evaluate(tb, at, vn, vd, out):
        st[B_ERROR] = 8
        return False
    return bool(out[0] != 0)


@native_alloc
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
    set_int(vn, vd, V_PLAYERS, n)
    set_int(vn, vd, V_TRICKS_TOTAL, tb[S_TRICKS_PER_DEAL])
    set_int(vn, vd, V_POT, st[L.POT])
    set_int(vn, vd, V_TARGET, tb[S_TARGET])
    set_int(vn, vd, V_DEAL, st[L.NUMBER])
    set_int(vn, vd, V_NO_CONTRACT, 1)
    set_int(vn, vd, V_EXTRA_DEAL, 1 if deals and st[L.DEALS_DONE] >= deals else 0)
    out = np.empty(OUT_SIZE, dtype=np.int64)
    if not evaluate(tb, tb[S_ANTE], vn, vd, out) or not rounded(out[0], out[1], tb[S_ROUND], out):
        st[B_ERROR] = 9
        return
    value = out[0]
    if value:
        for s in range(n):
            st[L.SCORES + s] -= value
        st[L.POT] += value * n
        st[B_ANTE] = value
