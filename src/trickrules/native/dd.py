"""A perfect-information solver on the kernel: alpha-beta over the card play, with a transposition table.

:func:`search` values the rest of a deal's play from a kernel match array
(:mod:`trickrules.native.layout`) in which every hand is known: what the
seats of ``side`` (a bit mask) take from here on, in tricks or in card
points, when they maximise it and every other seat minimises it. It plays
and takes back cards with the kernel's own :func:`~trickrules.native.play.legal_cards`
and :func:`~trickrules.native.play.play_card`, so it follows every play rule
the kernel's tables hold.

Three things make it fast, each derived from the tables (:func:`prepare`):

- **Equivalent cards.** Two legal cards of the seat to move are one move when
  they have the same effective suit and the same *signature* (the same
  points where points are measured, the same membership in every card set
  a play rule names: privileged cards, the cards that break a suit, the
  cards barred from the first trick...) and no card still in another hand or
  on the table lies between them in that suit's order.
- **A transposition table** at each trick's start, keyed by who holds each
  remaining card and who leads. In a suit whose cards share one signature,
  a card is named by its place among the suit's remaining cards, so
  positions that differ only in which small cards are gone are one entry.
  Each entry keeps a lower and an upper bound of the rest's value and the
  best card found.
- **A move order**: the entry's best card first, then a lead from the top,
  a follow by the lowest card that wins the trick (the lowest card when a
  partner wins it or none can).

The array ``st`` is played on and restored: it is the same when the search
returns.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from attrs import frozen

from trickrules.native import layout as L
from trickrules.native import tables as T
from trickrules.native.jit import native
from trickrules.native.play import legal_cards, low_card, play_card, winning_index

__all__ = [
    "C_NODES",
    "C_OVER",
    "INF",
    "Workspace",
    "points_of",
    "prepare",
    "search",
    "trick_gain",
    "value_at_least",
    "workspace",
]

Array = npt.NDArray[np.int64]

#: The prepared arrays' layout (one ``int64`` array): per card its effective suit, order in its suit and
#: signature; per suit its cards from the highest and whether they are named by place; the key's numbers.
P_EFF = 0  # [card]
P_ORDER = 64  # [card]
P_SIG = 128  # [card]
P_POINTS = 192  # [card] (0 where tricks are measured)
P_SUIT_LEN = 256  # [suit], 8 suits at most
P_RELATIVE = 264  # [suit]: 1 when the suit's cards are named by their place
P_MEASURE = 272  # 1 where card points are measured, 0 where tricks are
P_QUICK = 273  # 1 where the search may count sure tricks (:func:`_quick`)
P_SUIT_CARDS = 280  # [suit, k] the suit's cards from the highest, 64 a suit
P_ZOBRIST = P_SUIT_CARDS + 8 * 64  # [(name, holder)]: 192 names x 8 holders, then 8 leaders
P_BETWEEN = P_ZOBRIST + 192 * 8 + 8  # [a, b] -> the cards of the suit strictly between a and b
P_SIZE = P_BETWEEN + 64 * 64

#: The counters' slots: nodes searched, the node limit (0: none), 1 once the limit was passed.
C_NODES = 0
C_LIMIT = 1
C_OVER = 2
#: A value no position reaches (a bound "none").
INF = 1 << 40


@frozen
class Workspace:
    """The arrays a search writes: its transposition table, its scratch rows and its counters."""

    tt: Array
    buf: Array
    counters: Array

    def clear(self, limit: int = 0) -> None:
        """Empty the table and set the node limit (0: none) for a search of another deal."""
        self.tt[:, 0] = 0
        self.counters[:] = 0
        self.counters[C_LIMIT] = limit


def workspace(bits: int = 20) -> Workspace:
    """A fresh workspace whose table has ``2 ** bits`` entries (40 bytes each: 40 MiB for 20 bits).

    The table's entries go in pairs (the key's slot and the next); each holds a key, a lower bound, an
    upper bound, the best card and the cards played at the entry's position.
    """
    tt = np.zeros((1 << bits, 5), dtype=np.int64)
    return Workspace(tt, np.zeros((L.MAX_CARDS + 2, 128), dtype=np.int64), np.zeros(4, dtype=np.int64))


def prepare(tb: Array, st: Array, points: bool, seed: int = 0x5EED) -> Array:
    """The arrays :func:`search` reads for the deal in ``st`` (its trump row, its called card).

    ``points``: the card points are measured (else the tricks).
    """
    cards = int(tb[T.H_CARDS])
    suits = int(tb[T.H_SUITS])
    row = int(st[L.TRUMP_ROW])
    p = np.zeros(P_SIZE, dtype=np.int64)
    eff = tb[tb[T.O_EFF] + row * cards : tb[T.O_EFF] + (row + 1) * cards]
    led = tb[T.O_LED] + row * suits * cards
    order = np.array([tb[led + int(eff[c]) * cards + c] for c in range(cards)], dtype=np.int64)
    worth = tb[tb[T.O_POINTS] : tb[T.O_POINTS] + cards] if points else np.zeros(cards, dtype=np.int64)
    r = T.R_BASE
    named = [
        int(tb[tb[T.O_PRIV] + row]),
        int(tb[r + T.R_UNBROKEN]),
        int(tb[r + T.R_BREAKERS]),
        int(tb[r + T.R_UNLESS_ONLY]),
        int(tb[r + T.R_FIRST_BARRED]),
        int(tb[r + T.R_FIRST_ALLOWED]),
    ]
    singles = [int(tb[r + T.R_FIRST_CARD]), int(st[L.CALLED])]
    sig = np.zeros(cards, dtype=np.int64)
    for c in range(cards):
        bits = sum(((m >> c) & 1) << i for i, m in enumerate(named))
        bits |= sum(int(s == c) << (len(named) + i) for i, s in enumerate(singles))
        sig[c] = (int(worth[c]) << 16) | (bits << 4) | int(eff[c])
    p[P_EFF : P_EFF + cards] = eff
    p[P_ORDER : P_ORDER + cards] = order
    p[P_SIG : P_SIG + cards] = sig
    p[P_POINTS : P_POINTS + cards] = worth
    p[P_MEASURE] = int(points)
    plain_leads = not tb[r + T.R_RESTRICTED] and not tb[r + T.R_CALL_LEAD] and tb[r + T.R_FOLLOW]
    p[P_QUICK] = int(plain_leads and not points and not tb[T.H_ANY_SUIT] and suits <= 8)
    any_suit = bool(tb[T.H_ANY_SUIT])
    for s in range(min(suits, 8)):
        members = sorted((c for c in range(cards) if eff[c] == s), key=lambda c: -order[c])
        p[P_SUIT_LEN + s] = len(members)
        p[P_SUIT_CARDS + s * 64 : P_SUIT_CARDS + s * 64 + len(members)] = members
        same = len({int(sig[c]) for c in members}) <= 1
        p[P_RELATIVE + s] = int(same and len(members) <= 16 and not any_suit and suits <= 8)
    rng = np.random.default_rng(seed)
    p[P_ZOBRIST:P_BETWEEN] = rng.integers(1, 1 << 62, size=P_BETWEEN - P_ZOBRIST, dtype=np.int64)
    if not any_suit and suits <= 8:
        index = np.arange(cards)
        same_suit = eff[:, None] == eff[None, :]
        for a in range(cards):
            lo = np.minimum(order[a], order)
            hi = np.maximum(order[a], order)
            between = (order[None, :] > lo[:, None]) & (order[None, :] < hi[:, None])
            inside = same_suit[a][None, :] & same_suit & between
            masks = (inside * (np.uint64(1) << index.astype(np.uint64))[None, :]).sum(axis=1, dtype=np.uint64)
            masks[~same_suit[a]] = np.uint64(0xFFFFFFFFFFFFFFFF)  # another suit: never equivalent
            p[P_BETWEEN + a * 64 : P_BETWEEN + a * 64 + cards] = masks.view(np.int64)
    else:
        p[P_BETWEEN:] = -1
    return p


@native
def _key(tb: Array, st: Array, p: Array, holder: Array) -> int:
    """The transposition key of a trick's start: who holds each remaining card, and who leads.

    ``holder``: scratch of 64 words.
    """
    z = P_ZOBRIST
    h = p[z + 192 * 8 + st[L.LEADER]]
    left = 0
    for seat in range(tb[T.H_PLAYERS]):
        m = st[L.HANDS + seat]
        left |= m
        while m:
            holder[low_card(m)] = seat
            m &= m - 1
    for s in range(min(tb[T.H_SUITS], 8)):
        k = 0
        relative = p[P_RELATIVE + s]
        for i in range(p[P_SUIT_LEN + s]):
            c = p[P_SUIT_CARDS + s * 64 + i]
            if (left >> c) & 1:
                name = 64 + s * 16 + k if relative else c
                h ^= p[z + name * 8 + holder[c]]
                k += 1
    return int(h)


@native
def _order(tb: Array, st: Array, p: Array, legal: int, side: int, seat: int, first: int, out: Array) -> int:
    """``legal``'s cards in the order to search, ``first`` (a card or -1) first; how many."""
    cards = tb[T.H_CARDS]
    n = 0
    scores = out[64:128]
    count = st[L.TRICK_N]
    ours = False
    beats_best = 0
    if count:
        bi = winning_index(tb, st, count)
        best = st[L.TRICK + bi]
        who = tb[tb[T.O_TRICK_SEATS] + (st[L.SEATS_OUT] * tb[T.H_PLAYERS] + st[L.LEADER]) * tb[T.H_PLAYERS] + bi]
        ours = ((side >> who) & 1) == ((side >> seat) & 1)
        beats_best = tb[tb[T.O_BEATS] + st[L.TRUMP_ROW] * cards + best]
    left = 0
    partner_side = 0
    for seat2 in range(tb[T.H_PLAYERS]):
        left |= st[L.HANDS + seat2]
        if seat2 != seat and ((side >> seat2) & 1) == ((side >> seat) & 1):
            partner_side |= st[L.HANDS + seat2]
    m = legal
    while m:
        c = low_card(m)
        m &= m - 1
        o = p[P_ORDER + c]
        if c == first:
            s = 1 << 50
        elif not count:  # a lead: a top card first, then low to a partner's top card, then low
            suit = p[P_EFF + c]
            top = -1
            for i in range(p[P_SUIT_LEN + suit]):
                d = p[P_SUIT_CARDS + suit * 64 + i]
                if (left >> d) & 1:
                    top = d
                    break
            if top == c:
                s = (2 << 30) + o
            elif top >= 0 and (partner_side >> top) & 1:
                s = (1 << 30) - o
            else:
                s = -o
        elif ours or not (beats_best >> c) & 1:
            s = -(1 << 30) - o
        else:
            s = (1 << 30) - o
        out[n] = c
        scores[n] = s
        n += 1
    for i in range(1, n):  # insertion sort, highest score first
        c = out[i]
        s = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < s:
            out[j + 1] = out[j]
            scores[j + 1] = scores[j]
            j -= 1
        out[j + 1] = c
        scores[j + 1] = s
    return n


@native
def search(
    tb: Array, st: Array, p: Array, tt: Array, buf: Array, counters: Array, side: int, alpha: int, beta: int
) -> int:
    """The value of the rest of the play for ``side`` if it lies in (alpha, beta), else a bound beyond it.

    ``tt``: the transposition table (a power of two rows); ``buf``: scratch rows of 128 words, one per
    card played and two more (:func:`workspace`); ``counters``: see ``C_*``. (Only this function
    calls itself: Numba's cache does not keep two functions that call each other.)
    """
    if st[L.TRICKS_PLAYED] >= st[L.TRICKS] or beta <= 0:
        return 0
    most = _most(tb, st, p)
    if alpha >= most:
        return int(most)
    counters[C_NODES] += 1
    if counters[C_LIMIT] and counters[C_NODES] > counters[C_LIMIT]:
        counters[C_OVER] = 1
        return 0
    boundary = st[L.TRICK_N] == 0 and st[L.TRICKS] - st[L.TRICKS_PLAYED] > 1
    key = 0
    first = -1
    a0 = alpha
    b0 = beta
    seat = st[L.TO_MOVE]
    maximise = (side >> seat) & 1
    if boundary:
        if p[P_QUICK]:
            sure = _quick(tb, st, p, seat, side)
            if maximise and sure >= beta:
                return int(sure)
            if not maximise and most - sure <= alpha:
                return int(most - sure)
        key = _key(tb, st, p, buf[L.MAX_CARDS + 1])
        hit, value, alpha, beta, first = _probe(tt, key, alpha, beta)
        if hit:
            return value
    moves = buf[st[L.CARDS_PLAYED]]
    n = _order(tb, st, p, legal_cards(tb, st, seat), side, seat, first, moves)
    others = _others(tb, st, seat)
    trick_n = st[L.TRICK_N]
    saved_trick = st[L.TRICK + trick_n]
    leader = st[L.LEADER]
    best = -INF if maximise else INF
    best_card = -1
    tried = 0
    for i in range(n):
        c = moves[i]
        if _equivalent(p, c, tried, others):
            continue
        tried |= 1 << c
        ended = play_card(tb, st, seat, c)
        gain = trick_gain(p, st, side, ended, trick_n)
        value = gain + search(tb, st, p, tt, buf, counters, side, alpha - gain, beta - gain)
        _take_back(st, seat, c, ended, trick_n, saved_trick, seat, leader)
        if counters[C_OVER]:
            return 0
        best, best_card, alpha, beta = _better(maximise, value, c, best, best_card, alpha, beta)
        if alpha >= beta:
            break
    if boundary:
        _store(tt, key, best, a0, b0, best_card, st[L.CARDS_PLAYED])
    return int(best)


@native
def _probe(tt: Array, key: int, alpha: int, beta: int) -> tuple[bool, int, int, int, int]:
    """What the table's entry for ``key`` says about the window (alpha, beta).

    Whether it settles it (and the value it gives then), the window narrowed by its bounds, and its
    best card (-1: none).
    """
    slot = _slot(tt, key)
    if tt[slot, 0] != key:
        return False, 0, alpha, beta, -1
    low = tt[slot, 1]
    high = tt[slot, 2]
    if low >= beta or low == high:
        return True, int(low), alpha, beta, -1
    if high <= alpha:
        return True, int(high), alpha, beta, -1
    return False, 0, int(max(alpha, low)), int(min(beta, high)), int(tt[slot, 3])


@native
def _better(
    maximise: int, value: int, card: int, best: int, best_card: int, alpha: int, beta: int
) -> tuple[int, int, int, int]:
    """A move's value taken in: the best value and card so far, and the window.

    A maximising seat raises alpha, a minimising one lowers beta.
    """
    if (value > best) if maximise else (value < best):
        best = value
        best_card = card
    if maximise:
        return int(best), int(best_card), int(max(alpha, value)), beta
    return int(best), int(best_card), alpha, int(min(beta, value))


@native
def _slot(tt: Array, key: int) -> int:
    """The entry of the table holding ``key``, else the first of its pair."""
    slot = key & (tt.shape[0] - 2)
    return int(slot + 1 if tt[slot + 1, 0] == key else slot)


@native
def _store(tt: Array, key: int, best: int, a0: int, b0: int, card: int, played: int) -> None:
    """Keep what a search of the window (a0, b0) found: a bound, or the value, and its best card."""
    low = -INF
    high = INF
    slot = _slot(tt, key)
    if tt[slot, 0] == key:
        low = tt[slot, 1]
        high = tt[slot, 2]
    elif tt[slot, 0] != 0 and (tt[slot + 1, 0] == 0 or tt[slot + 1, 4] > tt[slot, 4]):
        slot += 1  # an empty entry of the pair, or the one nearer the end of the deal, gives way
    if best <= a0:
        high = best
    elif best >= b0:
        low = best
    else:
        low = best
        high = best
    tt[slot, 0] = key
    tt[slot, 1] = low
    tt[slot, 2] = high
    tt[slot, 3] = card
    tt[slot, 4] = played


@native
def _others(tb: Array, st: Array, seat: int) -> int:
    """The cards of the other hands and of the trick: those that part two of ``seat``'s cards."""
    others = 0
    for s in range(tb[T.H_PLAYERS]):
        if s != seat:
            others |= st[L.HANDS + s]
    for i in range(st[L.TRICK_N]):
        others |= 1 << st[L.TRICK + i]
    return int(others)


@native
def _equivalent(p: Array, c: int, tried: int, others: int) -> bool:
    """Whether ``c`` is one move with a card of ``tried``: the same signature, no card of ``others`` between."""
    t = tried
    while t:
        d = low_card(t)
        t &= t - 1
        if p[P_SIG + c] == p[P_SIG + d] and not (p[P_BETWEEN + c * 64 + d] & others):
            return True
    return False


@native
def trick_gain(p: Array, st: Array, side: int, ended: bool, trick_n: int) -> int:
    """What the card just played gave ``side`` at once: the trick it ended, where the side won it.

    (``trick_n``: the cards the trick held before it.)
    """
    if not ended:
        return 0
    winner = st[L.WINNERS + st[L.TRICKS_PLAYED] - 1]
    if not (side >> winner) & 1:
        return 0
    if not p[P_MEASURE]:
        return 1
    taken = 0
    for j in range(trick_n + 1):
        taken |= 1 << st[L.TRICK + j]
    return points_of(p, taken)


@native
def _take_back(
    st: Array, seat: int, c: int, ended: bool, trick_n: int, saved: int, to_move: int, leader: int
) -> None:
    """Undo :func:`~trickrules.native.play.play_card` of ``c`` by ``seat``, with what it overwrote."""
    if ended:
        st[L.TRICKS_PLAYED] -= 1
        winner = st[L.WINNERS + st[L.TRICKS_PLAYED]]
        taken = 0
        for j in range(trick_n + 1):
            taken |= 1 << st[L.TRICK + j]
        st[L.WON + winner] &= ~taken
        st[L.WON_TRICKS + winner] -= 1
    st[L.TRICK + trick_n] = saved
    st[L.TRICK_N] = trick_n
    st[L.TO_MOVE] = to_move
    st[L.LEADER] = leader
    st[L.HANDS + seat] |= 1 << c
    st[L.CARDS_PLAYED] -= 1
    st[L.PLAYED] &= ~(1 << c)


@native
def _quick(tb: Array, st: Array, p: Array, seat: int, side: int) -> int:
    """Tricks the side of ``seat``, on lead, takes for sure by cashing ``seat``'s top cards.

    A suit's card highest among the cards left wins when led unless someone trumps it. Where nothing
    is trumps, each suit's run of top cards counts. Where something is, the top trumps' run counts,
    and in another suit as many of its run as every opponent holding a trump can follow to (each
    of them follows then, so none discards), where no rule makes a partner trump a winner.
    """
    n = tb[T.H_PLAYERS]
    row = st[L.TRUMP_ROW]
    ruff = tb[tb[T.O_TRUMP_MASK] + row]
    hand = st[L.HANDS + seat]
    ours = (side >> seat) & 1
    left = 0
    for s in range(n):
        left |= st[L.HANDS + s]
    side_suits = ruff == 0 or tb[T.R_BASE + T.R_VOID] == 0
    total = 0
    for s in range(min(tb[T.H_SUITS], 8)):
        count = p[P_SUIT_LEN + s]
        if count == 0:
            continue
        trumps = ruff != 0 and (ruff >> p[P_SUIT_CARDS + s * 64]) & 1
        if ruff and not trumps and not side_suits:
            continue
        run = 0
        for i in range(count):
            c = p[P_SUIT_CARDS + s * 64 + i]
            if not (left >> c) & 1:
                continue
            if not (hand >> c) & 1:
                break
            run += 1
        if ruff and not trumps:
            suit = tb[tb[T.O_SUIT_MASKS] + row * tb[T.H_SUITS] + s]
            for other in range(n):
                theirs = st[L.HANDS + other]
                if ((side >> other) & 1) != ours and theirs & ruff:
                    length = 0
                    m = theirs & suit
                    while m:
                        m &= m - 1
                        length += 1
                    run = min(run, length)
        total += run
    held = 0
    m = hand
    while m:
        m &= m - 1
        held += 1
    return int(min(total, held))


@native
def _most(tb: Array, st: Array, p: Array) -> int:
    """The most the rest of the play can give a side: the tricks left, or the points left in hands and trick."""
    if not p[P_MEASURE]:
        return int(st[L.TRICKS] - st[L.TRICKS_PLAYED])
    left = 0
    for s in range(tb[T.H_PLAYERS]):
        left |= st[L.HANDS + s]
    for i in range(st[L.TRICK_N]):
        left |= 1 << st[L.TRICK + i]
    return points_of(p, left)


@native
def points_of(p: Array, taken: int) -> int:
    """The card points of the cards of ``taken``."""
    total = 0
    m = taken
    while m:
        c = low_card(m)
        m &= m - 1
        total += p[P_POINTS + c]
    return int(total)


@native
def value_at_least(
    tb: Array, st: Array, p: Array, tt: Array, buf: Array, counters: Array, side: int, target: int
) -> bool:
    """Whether ``side`` takes at least ``target`` from here on (a null-window search)."""
    return search(tb, st, p, tt, buf, counters, side, target - 1, target) >= target
