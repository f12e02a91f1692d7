"""The scoring's natives: a finished deal's formula variables, per side and per player, and its payments.

The variables are those of :mod:`trickrules.engine.scoring` (``_Environments``),
computed into a vector of rationals (numerators, denominators) at the
indices of :mod:`trickrules.native.scoring_tables`; the payments are the
:class:`~trickrules.engine.ledger.Ledger`'s (roles as seat masks, ``-1``
for the pot).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.native import layout as L
from trickrules.native.formula import evaluate, rounded
from trickrules.native.jit import native
from trickrules.native.play import low_card
from trickrules.native.scoring_tables import (
    S_BONUS,
    S_CONTRACTS,
    S_DEALS,
    S_GROUPS,
    S_NANN,
    S_NCOUNTERS,
    S_NGROUPS,
    S_ORDER,
    S_ROUND,
    S_TARGET,
    S_TEAM_MASK,
    S_UNIT,
    SIDE_CALLED,
    SIDE_TEAM,
    V_ALONE,
    V_ANNOUNCED,
    V_BID,
    V_CARD_POINTS,
    V_COUNTERS,
    V_DEAL,
    V_DECLARED,
    V_DECLARER_TRICKS,
    V_EXTRA_DEAL,
    V_FORCED,
    V_IS_DECLARER,
    V_IS_DECLARER_SIDE,
    V_IS_PARTNER,
    V_LAST_TRICK,
    V_MAX_POINT_CARDS,
    V_NO_CONTRACT,
    V_NO_TRUMP,
    V_OPP_ALONE,
    V_OPP_BID,
    V_OPP_CARD_POINTS,
    V_OPP_DECLARED,
    V_OPP_POINT_CARDS,
    V_OPP_POINTS,
    V_OPP_REVOKED,
    V_OPP_SCORE,
    V_OPP_TRICKS,
    V_OWN_BID,
    V_OWN_TRICKS,
    V_PARTNER_TRICKS,
    V_PLAYERS,
    V_POINT_CARDS,
    V_POINT_CARDS_TOTAL,
    V_POINTS,
    V_POT,
    V_REVOKED,
    V_RUN,
    V_SCORE,
    V_TARGET,
    V_TOP_TRUMPS,
    V_TRICKS,
    V_TRICKS_TOTAL,
)
from trickrules.native.tables import H_CARDS, H_PLAYERS, H_POINT_CARDS, O_POINTS


@native
def _popcount(x: int) -> int:
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@native
def lowest_seat(mask: int) -> int:
    """The lowest seat of a non-empty seat mask (a side's first seat, ``side[0]``)."""
    seat = 0
    while not (mask >> seat) & 1:
        seat += 1
    return seat


@native
def set_int(vn: npt.NDArray[np.int64], vd: npt.NDArray[np.int64], k: int, value: int) -> None:
    """Variable ``k`` is the whole number ``value``."""
    vn[k] = value
    vd[k] = 1


@native
def _card_points(tb: npt.NDArray[np.int64], mask: int) -> int:
    total = 0
    points = tb[O_POINTS]
    m = mask
    while m:
        total += tb[points + low_card(m)]
        m &= m - 1
    return total


@native
def deal_sides(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], sides: npt.NDArray[np.int64]) -> int:
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
def _run(st: npt.NDArray[np.int64], side: int) -> int:
    """How many tricks ``side`` took in a row from the first."""
    run = 0
    for i in range(st[L.TRICKS_PLAYED]):
        if not (side >> st[L.WINNERS + i]) & 1:
            break
        run += 1
    return run


@native
def _max_point_cards(
    tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], sides: npt.NDArray[np.int64], nsides: int
) -> int:
    """The most point cards one side of the deal took."""
    most = 0
    for i in range(nsides):
        got = 0
        for s in range(tb[H_PLAYERS]):
            if (sides[i] >> s) & 1:
                got |= st[L.WON + s]
        c = _popcount(got & tb[H_POINT_CARDS])
        if i == 0 or c > most:
            most = c
    return most


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
    set_int(vn, vd, V_TRICKS, tricks)
    set_int(vn, vd, V_OPP_TRICKS, opp_tricks)
    set_int(vn, vd, V_CARD_POINTS, cp)
    set_int(vn, vd, V_OPP_CARD_POINTS, opp_cp)
    set_int(vn, vd, V_DECLARED, dec)
    set_int(vn, vd, V_OPP_DECLARED, opp_dec)
    set_int(vn, vd, V_LAST_TRICK, 1 if side & last_bit else 0)
    set_int(vn, vd, V_POINTS, cp + dec + (bonus if side & last_bit else 0))
    set_int(vn, vd, V_OPP_POINTS, opp_cp + opp_dec + (bonus if other & last_bit else 0))
    set_int(vn, vd, V_REVOKED, 1 if st[L.REVOKED] & side else 0)
    set_int(vn, vd, V_OPP_REVOKED, 1 if st[L.REVOKED] & other else 0)
    set_int(vn, vd, V_IS_DECLARER_SIDE, 1 if declarer >= 0 and (side >> declarer) & 1 else 0)
    set_int(vn, vd, V_RUN, _run(st, side))
    set_int(vn, vd, V_SCORE, st[L.SCORES + lowest_seat(side)])
    set_int(vn, vd, V_OPP_SCORE, best_score)
    set_int(vn, vd, V_DECLARER_TRICKS, st[L.WON_TRICKS + declarer] if declarer >= 0 else 0)
    has_partner = partner >= 0 and partner != declarer
    set_int(vn, vd, V_PARTNER_TRICKS, st[L.WON_TRICKS + partner] if has_partner else 0)
    set_int(vn, vd, V_ALONE, 1 if st[L.SEATS_OUT] & side else 0)
    set_int(vn, vd, V_OPP_ALONE, 1 if st[L.SEATS_OUT] & other else 0)
    set_int(vn, vd, V_POINT_CARDS, _popcount(taken & pc))
    set_int(vn, vd, V_OPP_POINT_CARDS, _popcount(opp_taken & pc))
    set_int(vn, vd, V_POINT_CARDS_TOTAL, _popcount(pc))
    set_int(vn, vd, V_MAX_POINT_CARDS, _max_point_cards(tb, st, sides, nsides))
    set_int(vn, vd, V_BID, bid)
    set_int(vn, vd, V_OPP_BID, opp_bid)
    first = lowest_seat(side)
    for k in range(tb[S_NCOUNTERS]):
        set_int(vn, vd, V_COUNTERS + k, st[L.COUNTERS + 8 * k + first])


@native
def _run_formulas(
    tb: npt.NDArray[np.int64],
    plan: int,
    vn: npt.NDArray[np.int64],
    vd: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64],
) -> bool:
    """Evaluate the plan's named variables in order into ``vn / vd`` (``out``: a work array); False on an error."""
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
    set_int(vn, vd, V_PLAYERS, tb[H_PLAYERS])
    set_int(vn, vd, V_TRICKS_TOTAL, st[L.TRICKS])
    set_int(vn, vd, V_POT, pot)
    set_int(vn, vd, V_TARGET, tb[S_TARGET])
    set_int(vn, vd, V_DEAL, st[L.NUMBER])
    set_int(vn, vd, V_NO_CONTRACT, 1 if st[L.CONTRACT] < 0 else 0)
    trump = st[L.TRUMP]
    set_int(vn, vd, V_NO_TRUMP, 1 if trump != L.UNSET_TRUMP and trump < 0 else 0)
    set_int(vn, vd, V_FORCED, 1 if st[L.FORCED] else 0)
    set_int(vn, vd, V_EXTRA_DEAL, 1 if deals and st[L.DEALS_DONE] >= deals else 0)
    for k in range(tb[S_NANN]):
        set_int(vn, vd, V_ANNOUNCED + k, (st[L.ANNOUNCED] >> k) & 1)


@native
def side_env(
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
    out: npt.NDArray[np.int64],
) -> int:
    """The row of the cache holding ``side``'s variables (worked out the first time); -1 on an error.

    ``out`` is :func:`~trickrules.native.formula.evaluate`'s work array (its caller's, allocated once per scoring).
    """
    k = 0
    while k < cache_mask.shape[0] and cache_mask[k] != 0:
        if cache_mask[k] == side:
            return k
        k += 1
    vn = cn[k]
    vd = cd[k]
    _base(tb, st, pot, vn, vd)
    _side_values(tb, st, side, sides, nsides, vn, vd)
    if not _run_formulas(tb, plan, vn, vd, out):
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
def player_env(
    tb: npt.NDArray[np.int64],
    st: npt.NDArray[np.int64],
    plan: int,
    seat: int,
    row: int,
    cn: npt.NDArray[np.int64],
    cd: npt.NDArray[np.int64],
    pn: npt.NDArray[np.int64],
    pd: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64],
) -> bool:
    """``seat``'s variables into ``pn / pd``: its side's (cache row ``row``) and its own; False on an error."""
    for k in range(pn.shape[0]):
        pn[k] = cn[row, k]
        pd[k] = cd[row, k]
    declarer = st[L.DECLARER]
    partner = st[L.PARTNER]
    set_int(pn, pd, V_TOP_TRUMPS, _top_trumps(tb, st, seat))
    set_int(pn, pd, V_IS_DECLARER, 1 if seat == declarer else 0)
    set_int(pn, pd, V_IS_PARTNER, 1 if partner >= 0 and seat == partner and seat != declarer else 0)
    set_int(pn, pd, V_OWN_TRICKS, st[L.WON_TRICKS + seat])
    set_int(pn, pd, V_OWN_BID, st[L.BID + seat])
    return _run_formulas(tb, plan, pn, pd, out)


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
    out: npt.NDArray[np.int64],
) -> bool:
    """Chips from ``payer`` (-1: the pot) to ``targets`` (a mask, -1: the pot), as ``Ledger._move``; False: an error.

    ``out`` is a work array of :data:`~trickrules.native.formula.OUT_SIZE` words (the rounding's).
    """
    n = tb[H_PLAYERS]
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
def pay_out(
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
    out: npt.NDArray[np.int64],
) -> bool:
    """The payments of the outcome or bonus at ``rec`` (``out``: :func:`evaluate`'s work array); False on an error."""
    n = tb[H_PLAYERS]
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
            if not _move(tb, st, num, den, split, remainder, p, targets, scores, out):
                return False
    return True
