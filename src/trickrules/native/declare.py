"""Declarations (melds) natively: the window after a trick, as the engine's phase ``declare``.

Declarations are not a phase of their own in the deal's sequence: after a
trick that does not end the deal, the engine's mechanism
(:mod:`trickrules.engine.phases.declare`) opens a window to the trick's
winner (and his partner, where a declaration says ``window_seats = "side"``)
if he *might* hold a meld judged from public information. :func:`run` is
that window: the play calls it after each trick that does not end the deal
(with ``WINNERS``, ``WON``, ``TRICKS_PLAYED`` and ``HANDS`` updated; after
the last trick it does nothing, but a contract's ``end_when`` that stops the
play early is the caller's to check first), and it
asks each seat of the window in turn, every seat random, exactly as the
engine does (pass, then each meld of the best declaration the seat holds,
suit by suit, one draw per decision), adds the points to ``DECLARED`` and
leaves ``TO_MOVE`` to the trick's winner where a window was open.

The block keeps the engine's record: the melds declared (in order), the
melds each seat forfeited (``late = "forfeit"``) as a mask of
(declaration, suit) pairs, the suits melded, and the last window's count,
marked with the deal it belongs to (``D_STAMP``): at a deal's first window a
block of another deal is cleared, with ``DECLARED``. A driver that scores a
deal without any window (no trick before the last) must clear ``DECLARED``
itself at the deal's start.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trickrules.compile.modes import DeclarationSuit, LateDeclaration, WindowSeats
from trickrules.engine.game import Game
from trickrules.engine.phases.declare import Declarations
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import layout as L
from trickrules.native import tables as T
from trickrules.native.auction import stamp
from trickrules.native.jit import native, native_alloc
from trickrules.native.mt import OFFER_DECLARE, choose_listed
from trickrules.native.tables import Builder, Unsupported, word

__all__ = [
    "D_COUNT",
    "D_FORFEITED",
    "D_MELDS",
    "D_STAMP",
    "D_SUITS",
    "D_WINDOW_COUNT",
    "export",
    "part_to_arrays",
    "run",
]

# -- header words (HM_DECLARE .. + 7) --------------------------------------------------------------------
_PRESENT = T.HM_DECLARE + 0  # how many declarations (0: none, the window never opens)
_SIDE = T.HM_DECLARE + 1  # the winner's partners are asked too
_O_DECL = T.HM_DECLARE + 2  # block: [declaration, _X_*]
_O_NEED = T.HM_DECLARE + 3  # block: [declaration, suit] -> the cards of the meld (0: the deck lacks one)
_O_MATES = T.HM_DECLARE + 4  # block: [seat, i] -> the winner's partners in team order (NONE after the last)
_O_CONTRACTS = T.HM_DECLARE + 5  # block: [declaration] -> the contracts it is allowed in: bit 0 none, bit c + 1

# The declaration rows.
_X_RANKS = 0  # how many cards it takes
_X_KIND = 1  # 0 any suit, 1 trumps only, 2 plain suits only
_X_POINTS = 2
_X_MAX = 3  # max_per_window
_X_MAX_FIRST = 4  # max_first_window or max_per_window
_X_FORFEIT = 5  # late = forfeit
_X_SIZE = 6

# -- the block (MECH_DECLARE .. + 31) -------------------------------------------------------------------------
D_COUNT = L.MECH_DECLARE + 0  # how many melds were declared
D_SUITS = L.MECH_DECLARE + 1  # the suits melded (mask): a suit is melded once a deal
D_WINDOW_COUNT = L.MECH_DECLARE + 2  # the melds the last window took
D_STAMP = L.MECH_DECLARE + 3  # which deal the record is of (auction.stamp): another's is a fresh record
D_MELDS = L.MECH_DECLARE + 8  # [i] -> seat + 256 * declaration + 65536 * suit, in the order declared (8 at most)
D_FORFEITED = L.MECH_DECLARE + 16  # [seat] -> the (declaration, suit) pairs forfeited: bit declaration * suits + suit
_MAX_MELDS = 8

_KINDS = {DeclarationSuit.ANY: 0, DeclarationSuit.TRUMP: 1, DeclarationSuit.PLAIN: 2}


def export(game: Game, b: Builder) -> None:
    """Write the declarations' tables into ``b`` (``PRESENT = 0`` where the game has none).

    Raises :class:`Unsupported` where another mechanism also opens a window
    after a trick, or more (declaration, suit) pairs or suits than the
    block holds.
    """
    rules = game.rules
    decls = rules.declarations
    if Phase.DECLARE not in game.slot or not decls:
        b.number(_PRESENT, 0)
        return
    if len(game.after_trick_hooks) != 1:
        raise Unsupported("declarations and another window after a trick")
    if game.chooser_hooks:
        raise Unsupported("a mechanism that chooses for another seat")
    cards = game.cards
    nsuits = len(cards.suit_codes)
    if nsuits > _MAX_MELDS or len(decls) * nsuits > 63:
        raise Unsupported(f"{len(decls)} declarations in {nsuits} suits")
    if len(rules.contracts) > 62:
        raise Unsupported(f"{len(rules.contracts)} contracts")
    names = [c.name for c in rules.contracts]
    rows: list[int] = []
    need: list[int] = []
    allowed: list[int] = []
    for decl in decls:
        first = decl.max_first_window or decl.max_per_window
        rows += [len(decl.ranks), _KINDS[decl.suit], decl.points, decl.max_per_window, first]
        rows.append(decl.late is LateDeclaration.FORFEIT)
        for s in range(nsuits):
            found = [game.tables.card_of.get(cards.rank_codes[r] + cards.suit_codes[s]) for r in decl.ranks]
            mask = 0
            if found and None not in found:
                for card in found:
                    assert card is not None
                    mask |= 1 << card
            need.append(word(mask))
        bits = 1 if "" in decl.contracts else 0
        for c, name in enumerate(names):
            if name in decl.contracts:
                bits |= 1 << (c + 1)
        allowed.append(word(bits))
    n = rules.players
    side = bool(rules.teams) and any(x.window_seats is WindowSeats.SIDE for x in decls)
    mates: list[int] = []
    for seat in range(n):
        row = [s for s in rules.teams[game.tables.team_of[seat]] if s != seat] if side else []
        mates += [*row, *(L.NONE,) * (L.MAX_PLAYERS - len(row))]
    b.number(_PRESENT, len(decls))
    b.number(_SIDE, side)
    b.block(_O_DECL, rows)
    b.block(_O_NEED, need)
    b.block(_O_MATES, mates)
    b.block(_O_CONTRACTS, allowed)


def part_to_arrays(state: State, st: npt.NDArray[np.int64]) -> None:
    """Fill the declarations' block of ``st`` (and ``DECLARED``) from the engine's record."""
    record: Declarations | None = state.part(Phase.DECLARE)
    if record is None:
        return
    game = state.game
    nsuits = len(game.cards.suit_codes)
    st[D_STAMP] = stamp(state.deal.number, state.deal.parts[0].shuffle)
    st[D_COUNT] = len(record.declared)
    st[D_WINDOW_COUNT] = record.window_count
    suits = 0
    for seat in range(game.players):
        st[L.DECLARED + seat] = 0
        st[D_FORFEITED + seat] = 0
    for i, meld in enumerate(record.declared):
        st[D_MELDS + i] = meld.seat + 256 * meld.declaration + 65536 * meld.suit
        suits |= 1 << meld.suit
        st[L.DECLARED + meld.seat] += game.rules.declarations[meld.declaration].points
    for meld in record.forfeited:
        st[D_FORFEITED + meld.seat] |= 1 << (meld.declaration * nsuits + meld.suit)
    st[D_SUITS] = suits


@native
def _melds(
    tb: npt.NDArray[np.int64],
    st: npt.NDArray[np.int64],
    seat: int,
    held: bool,
    out: npt.NDArray[np.int64],
) -> int:
    """The melds ``seat`` may declare (``held``), or 1 if it might hold one judged from public facts (else 0).

    With ``held``, ``out`` gets them, best first, as ``declaration * 256 + suit``; their number is returned.
    """
    ndecl = tb[_PRESENT]
    nsuits = tb[T.H_SUITS]
    contract_bit = 1 << (st[L.CONTRACT] + 1)  # bit 0: no contract (CONTRACT is NONE)
    hand = st[L.HANDS + seat]
    size = 0
    for c in range(tb[T.H_CARDS]):
        size += (hand >> c) & 1
    played = 0
    for s in range(tb[T.H_PLAYERS]):
        played |= st[L.WON + s]
    forfeited = st[D_FORFEITED + seat]
    trump = st[L.TRUMP]
    k = 0
    for x in range(ndecl):
        row = tb[_O_DECL] + x * _X_SIZE
        if not tb[tb[_O_CONTRACTS] + x] & contract_bit or size < tb[row + _X_RANKS]:
            continue
        kind = tb[row + _X_KIND]
        for s in range(nsuits):
            is_trump = s == trump
            if (kind == 1 and not is_trump) or (kind == 2 and is_trump):
                continue
            if (st[D_SUITS] >> s) & 1 or (held and (forfeited >> (x * nsuits + s)) & 1):
                continue
            need = tb[tb[_O_NEED] + x * nsuits + s]
            if need == 0:
                continue
            if not held:
                if not played & need:
                    return 1
            elif hand & need == need:
                out[k] = x * 256 + s
                k += 1
    return k


@native
def _candidates(tb: npt.NDArray[np.int64], winner: int, candidates: npt.NDArray[np.int64]) -> int:
    """The seats a window may ask, into ``candidates``: the winner, then his partners; how many."""
    m = 1
    candidates[0] = winner
    if tb[_SIDE]:
        for i in range(L.MAX_PLAYERS):
            mate = tb[tb[_O_MATES] + winner * L.MAX_PLAYERS + i]
            if mate < 0:
                break
            candidates[m] = mate
            m += 1
    return m


@native_alloc
def run(tb: npt.NDArray[np.int64], st: npt.NDArray[np.int64], mt: npt.NDArray[np.int64]) -> None:
    """The declaration window after the trick just taken, every seat random (nothing where none opens)."""
    if not tb[_PRESENT] or st[L.TRICKS_PLAYED] >= st[L.TRICKS]:
        return  # no window after the deal's last trick
    mark = stamp(st[L.NUMBER], st[L.SHUFFLE])
    if st[D_STAMP] != mark:  # the first window of a deal: a fresh record (nothing declared, nothing forfeited)
        for i in range(32):
            st[L.MECH_DECLARE + i] = 0
        for s in range(tb[T.H_PLAYERS]):
            st[L.DECLARED + s] = 0
        st[D_STAMP] = mark
    winner = st[L.WINNERS + st[L.TRICKS_PLAYED] - 1]
    nsuits = tb[T.H_SUITS]
    out = np.empty(64, dtype=np.int64)
    window = np.empty(L.MAX_PLAYERS, dtype=np.int64)
    candidates = np.empty(L.MAX_PLAYERS, dtype=np.int64)
    m = _candidates(tb, winner, candidates)
    w = 0
    for i in range(m):
        s = candidates[i]
        if not (st[L.SEATS_OUT] >> s) & 1 and _melds(tb, st, s, False, out):
            window[w] = s
            w += 1
    if w == 0:
        return
    st[D_WINDOW_COUNT] = 0
    # How many melds this window allows: the first window of the winner's side may allow another number.
    team = tb[T.O_TEAM]
    side_tricks = 0
    for i in range(st[L.TRICKS_PLAYED]):
        if tb[team + st[L.WINNERS + i]] == tb[team + winner]:
            side_tricks += 1
    column = _X_MAX_FIRST if side_tricks == 1 else _X_MAX
    limit = 0
    for x in range(tb[_PRESENT]):
        limit = max(limit, tb[tb[_O_DECL] + x * _X_SIZE + column])
    while w > 0:
        seat = window[0]
        st[L.TO_MOVE] = seat
        k = _melds(tb, st, seat, True, out)
        count = 1
        if k:
            best = out[0] // 256
            for i in range(k):
                if out[i] // 256 != best:
                    break
                count += 1
        pick = choose_listed(mt, count, OFFER_DECLARE, out, True, nsuits)
        st[L.ACTIONS] += 1
        if pick == 0:
            for i in range(1, w):
                window[i - 1] = window[i]
            w -= 1
            for i in range(k):
                x = out[i] // 256
                if tb[tb[_O_DECL] + x * _X_SIZE + _X_FORFEIT]:
                    st[D_FORFEITED + seat] |= 1 << (x * nsuits + out[i] % 256)
        else:
            x = out[pick - 1] // 256
            s = out[pick - 1] % 256
            st[D_MELDS + st[D_COUNT]] = seat + 256 * x + 65536 * s
            st[D_COUNT] += 1
            st[D_SUITS] |= 1 << s
            st[L.DECLARED + seat] += tb[tb[_O_DECL] + x * _X_SIZE + _X_POINTS]
            st[D_WINDOW_COUNT] += 1
            if st[D_WINDOW_COUNT] >= limit:
                w = 0
        # The seats still to be asked: those who might still hold a meld.
        kept = 0
        for i in range(w):
            if _melds(tb, st, window[i], False, out):
                window[kept] = window[i]
                kept += 1
        w = kept
    st[L.TO_MOVE] = winner
