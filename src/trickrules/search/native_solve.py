"""The solver on the kernel: an engine state's play searched natively, and a double-dummy table.

:func:`native_values` gives what :func:`~trickrules.search.solve.solve`
gives for the measures ``"tricks"`` and ``"points"``, from the kernel's
search (:mod:`trickrules.native.dd`), where :func:`why_not_native` finds
nothing in the way: the game's play rules fit the kernel's tables, and no
mechanism changes the play (chooses a trick's winner, narrows the legal
cards, or moves cards after a trick where points are counted) or ends it
early. :func:`trick_table` is the double-dummy table of a deal: for every
seat as declarer (the next seat leads) and every trump key, the tricks its
side takes.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from trickrules.compile.cards import bits
from trickrules.compile.reads import scoring_reads
from trickrules.compile.variables import COUNTED_VARS
from trickrules.engine.game import Game
from trickrules.engine.state import GameLike, State
from trickrules.errors import ArgumentError
from trickrules.native import dd
from trickrules.native import layout as L
from trickrules.native import tables as T
from trickrules.native.dd_score import score_search
from trickrules.native.engine_arrays import to_arrays
from trickrules.native.kernel import Unsupported, kernel_for
from trickrules.native.play import play_card
from trickrules.search.rollouts import world_arrays

__all__ = ["counted", "native_arrays", "native_values", "play_tables", "trick_table", "why_not_native"]

Array = npt.NDArray[np.int64]

_TABLES: dict[str, Array | str] = {}
_WORK: dict[int, dd.Workspace] = {}
#: The table's size (bits) for a position's values, and for a whole deal's double-dummy table.
SOLVE_BITS = 20
TABLE_BITS = 23


def play_tables(game: GameLike) -> Array | str:
    """The kernel's tables of ``game``'s play (built once per game), or why the kernel cannot hold them."""
    key = game.fingerprint
    found = _TABLES.get(key)
    if found is None:
        b = T.Builder()
        try:
            T.export_core(game.tables, b)
            found = b.array()
        except T.Unsupported as error:
            found = str(error)
        _TABLES[key] = found
    return found


def why_not_native(state: State, measure: str) -> str | None:
    """Why the kernel cannot search this state's play for ``measure`` (``None``: it can)."""
    tables = play_tables(state.game)
    if isinstance(tables, str):
        return tables
    game = state.game
    assert isinstance(game, Game)
    if measure == "score":
        try:
            kernel_for(game)
        except Unsupported as error:
            return f"the kernel does not cover {error}"
    for name, m in game.mechanisms.items():
        if m.narrow is not None or m.trick_winner is not None:
            return f"the mechanism {name!r} changes the play"
        if m.on_trick is not None and measure != "tricks" and name != "open_hand":
            return f"the mechanism {name!r} moves cards after a trick"
        if m.after_trick is not None and measure == "score":
            return f"the mechanism {name!r} decides after a trick"
    d = state.deal
    if d.contract is not None and game.tables.rules.contracts[d.contract].end_when is not None:
        return "the contract may end the play early"
    if d.trump is None:
        return "no trump is set"
    return None


def _bits(max_nodes: int | None) -> int:
    """The table's size (bits) for a search of at most ``max_nodes`` positions: entries for 4 times as many.

    A bounded search (a bot's, in many worlds a decision) then clears a smaller table.
    """
    return SOLVE_BITS if not max_nodes else min(SOLVE_BITS, max(12, (4 * max_nodes).bit_length()))


def _workspace(size: int = SOLVE_BITS) -> dd.Workspace:
    if size not in _WORK:
        _WORK[size] = dd.workspace(size)
    return _WORK[size]


_PREPARED: dict[tuple[str, int, int, int, bool], Array] = {}


def _prepare(game: GameLike, tables: Array, st: Array, points: bool) -> Array:
    """:func:`~trickrules.native.dd.prepare`, kept per game, tables, trump row, called card and measure."""
    key = (game.fingerprint, id(tables), int(st[L.TRUMP_ROW]), int(st[L.CALLED]), points)
    found = _PREPARED.get(key)
    if found is None:
        if len(_PREPARED) >= 256:
            _PREPARED.clear()
        found = _PREPARED[key] = dd.prepare(tables, st, points)
    return found


def native_arrays(state: State, side: Sequence[int], st: Array | None = None) -> tuple[Array, int]:
    """The state as the kernel's array (or ``st``), the called card's holder made its partner; the side as a mask."""
    st = to_arrays(state) if st is None else st
    called = int(st[L.CALLED])
    if called >= 0 and st[L.PARTNER] < 0:
        for seat, hand in enumerate(state.hands):
            if (hand >> called) & 1:
                st[L.PARTNER] = seat
    return st, sum(1 << s for s in side)


def _taken(state: State, side: Sequence[int], points: bool) -> int:
    """What ``side`` has taken in the deal so far: tricks, or card points."""
    tally = state.tally
    if not points:
        return sum(1 for w in tally.winners if w in side)
    worth = state.game.tables.cards.points
    return sum(worth[c] for s in side for c in bits(tally.won[s]))


def counted(state: State) -> bool:
    """Whether the deal's payment depends on its play only through how many tricks each seat takes.

    So where its outcomes, bonuses, named vars and counters read only
    :data:`~trickrules.compile.variables.COUNTED_VARS` (and the counters' values before the deal).
    """
    rules = state.game.tables.rules
    d = state.deal
    name = rules.contracts[d.contract].name if d.contract is not None else ""
    allowed = set(COUNTED_VARS)
    allowed.update(n for n, _ in rules.vars)
    allowed.update(n for c in rules.contracts for n, _ in c.vars)
    allowed.update(n for c in rules.bids.counters for n in (c.name, f"opp_{c.name}"))
    return scoring_reads(rules, name, counters=True) <= allowed


def native_values(
    state: State, side: Sequence[int], measure: str, max_nodes: int | None = None, merge: bool | None = None
) -> tuple[tuple[tuple[str, int | Fraction], ...], int]:
    """Each legal card's value for ``side`` (taken so far and to come), and the positions searched.

    ``merge`` (the measure ``"score"``): whether positions of equal trick counts share the table's
    entries; by default where :func:`counted` says the payment allows it.
    """
    if measure == "score":
        return _score_values(state, side, max_nodes, counted(state) if merge is None else merge)
    tables = play_tables(state.game)
    assert not isinstance(tables, str)
    points = measure == "points"
    st, mask = native_arrays(state, side)
    p = _prepare(state.game, tables, st, points)
    work = _workspace(_bits(max_nodes))
    work.clear(max_nodes or 0)
    base = _taken(state, side, points)
    codes = state.game.tables.cards
    values: list[tuple[str, int | Fraction]] = []
    seat = int(st[L.TO_MOVE])
    for action in state.legal_actions():
        child = st.copy()  # the search calls itself only: Numba's cache keeps no caller of it
        ended = play_card(tables, child, seat, codes.card(action.arg))
        found = dd.trick_gain(p, child, mask, ended, int(st[L.TRICK_N]))
        found += dd.search(tables, child, p, work.tt, work.buf, work.counters, mask, -dd.INF, dd.INF)
        if work.counters[dd.C_OVER]:
            raise ArgumentError(f"the search passed max_nodes={max_nodes} positions.")
        values.append((str(action), base + int(found)))
    return tuple(values), int(work.counters[dd.C_NODES])


def _score_values(
    state: State, side: Sequence[int], max_nodes: int | None, merge: bool
) -> tuple[tuple[tuple[str, int | Fraction], ...], int]:
    """:func:`native_values` for the measure ``"score"`` (:mod:`trickrules.native.dd_score`)."""
    game = state.game
    assert isinstance(game, Game)
    tables = kernel_for(game).tb  # the whole kernel: the scoring's tables too
    st, mask = native_arrays(state, side, world_arrays(state))
    p = _prepare(game, tables, st, False)
    work = _workspace(_bits(max_nodes))
    work.clear(max_nodes or 0)
    sign = -1 if game.spec.match.winner == "lowest" else 1
    scale = len(side) * max(1, game.players - len(side))
    seat = int(st[L.TO_MOVE])
    values: list[tuple[str, int | Fraction]] = []
    for action in state.legal_actions():
        child = st.copy()
        play_card(tables, child, seat, game.tables.cards.card(action.arg))
        merged = int(merge)
        found = score_search(tables, child, p, work.tt, work.buf, work.counters, mask, sign, -dd.INF, dd.INF, merged)
        if work.counters[dd.C_OVER] == 1:
            raise ArgumentError(f"the search passed max_nodes={max_nodes} positions.")
        if work.counters[dd.C_OVER]:
            raise ArgumentError("the scoring refused a deal of the search (a fraction under exact arithmetic).")
        value = Fraction(int(found), scale)
        values.append((str(action), int(value) if value.denominator == 1 else value))
    return tuple(values), int(work.counters[dd.C_NODES])


def trick_table(game: GameLike, hands: Sequence[int]) -> dict[tuple[int, int], int]:
    """The double-dummy table of a deal: ``(declarer, trump key) -> tricks`` of the declarer's side.

    ``hands``: each seat's cards as a mask of deck indices. The seat after the declarer leads; the
    sides are the game's fixed teams. Every trump key the game has (a suit, or no trump) is searched.
    """
    tables = play_tables(game)
    if isinstance(tables, str):
        raise ArgumentError(f"the kernel cannot search this game's play: {tables}.")
    t = game.tables
    n = game.players
    if len(hands) != n or not t.rules.teams:
        raise ArgumentError("trick_table() needs a hand per seat and a game of fixed partnerships.")
    tricks = min(h.bit_count() for h in hands)
    work = _workspace(TABLE_BITS)
    out: dict[tuple[int, int], int] = {}
    team = t.rules.teams
    for row, key in enumerate(sorted(t.trumps)):
        work.clear()
        st = np.zeros(L.ST_SIZE, dtype=np.int64)
        for seat, hand in enumerate(hands):
            st[L.HANDS + seat] = T.word(hand)
        st[L.TRUMP_ROW] = row
        st[L.TRUMP] = key
        st[L.TRICKS] = tricks
        for name in ("CALLED", "PARTNER", "DECLARER", "CONTRACT"):
            st[getattr(L, name)] = L.NONE
        p = _prepare(game, tables, st, False)
        guess = tricks // 2
        first = team[0]  # every search counts for one side, so that they share the table's entries
        mask = sum(1 << s for s in first)
        for declarer in range(n):
            if len(team) > 2:
                first = next(g for g in team if declarer in g)
                mask = sum(1 << s for s in first)
                work.clear()
            leader = (declarer + 1) % n
            st[L.LEADER] = st[L.TO_MOVE] = leader
            guess = _tricks(tables, st, p, work, mask, guess, tricks)
            out[(declarer, key)] = guess if declarer in first else tricks - guess
    return out


def _tricks(tables: Array, st: Array, p: Array, work: dd.Workspace, mask: int, guess: int, most: int) -> int:
    """The tricks ``mask``'s side takes, by null-window searches from ``guess``."""
    low, high = 0, most
    while low < high:
        target = min(max(guess, low + 1), high)
        if dd.value_at_least(tables, st, p, work.tt, work.buf, work.counters, mask, target):
            low, guess = target, target + 1
        else:
            high, guess = target - 1, target - 1
    return low
