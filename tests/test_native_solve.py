"""The solver on the kernel against the solver through the engine, the double-dummy table, and random playouts.

:func:`~trickrules.search.solve` searches the tricks and the card points on
the kernel (:mod:`trickrules.native.dd`) wherever the game's play fits it;
``native=False`` makes it search through the engine. Both must give every
legal card the same value on positions four cards from the end of random
deals of every bundled game the kernel takes, where the kernel's table,
its equivalent cards and its sure tricks all come into play, and the deal's
payment (:mod:`trickrules.native.dd_score`) where the kernel scores the game.
:func:`~trickrules.search.native_solve.trick_table` must give, for the
declarer and strain of a late Bridge position, what the engine's search
gives. :func:`~trickrules.native.playout.playouts` must keep every card
and trick, and play as the engine's random bot does.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import trickrules
from test_solve import positions
from trickrules.engine.events import TrickWon
from trickrules.native import layout as L
from trickrules.native import mt as MT
from trickrules.native.playout import playouts
from trickrules.search import solve
from trickrules.search.native_solve import (
    counted,
    native_arrays,
    native_values,
    play_tables,
    trick_table,
    why_not_native,
)
from trickrules.spec.loader import bundled_names

#: The games whose play the kernel searches (Tarok's mechanisms change the play).
NATIVE = [n for n in bundled_names() if n != "tarok"]
#: Why the kernel leaves a contract's play to the engine: Skat's Null ends when the declarer takes a trick.
EARLY = "the contract may end the play early"
#: Those whose deal's payment it searches too (the others have no kernel, or decide after a trick).
SCORED = {"euchre", "hearts", "manille", "manille-difference", "manille-soft-overtrump", "oh-hell", "spades", "whist"}


@pytest.mark.parametrize("name", NATIVE)
def test_the_kernel_search_agrees_with_the_engine_search(name: str) -> None:
    telling = 0
    scored = 0
    searched = 0
    for state in positions(name, cards=4, count=20):
        if why_not_native(state, "tricks") == EARLY:
            continue  # the engine's (test_what_the_kernel_does_not_search)
        searched += 1
        for measure in ("tricks", "points", "score"):
            if measure == "score":
                if why_not_native(state, measure) is not None:
                    continue  # an announcement or a declaration after a trick, or no kernel: the engine's
                scored += 1
            assert why_not_native(state, measure) is None, name
            native = solve(state, measure=measure)
            engine = solve(state, measure=measure, native=False)
            assert native.values == engine.values, f"{name}, {measure}: {state.hand(native.seat)}"
            telling += len({v for _, v in native.values}) > 1
    assert telling >= 3, f"{name}: only {telling} positions tell the cards apart"
    assert searched >= 12, f"{name}: only {searched} positions on the kernel"
    assert scored == 0 or scored == searched
    assert (scored > 0) == (name in SCORED)


@pytest.mark.parametrize("name", ["whist", "euchre", "spades", "oh-hell"])
def test_positions_of_equal_trick_counts_share_the_table_where_only_trick_counts_are_scored(name: str) -> None:
    # Six cards from the end, where lines of play that won other cards meet at the same trick counts:
    # the merged table gives every card the value the table keyed by the cards won gives, in fewer positions.
    merged_nodes = full_nodes = 0
    for state in positions(name, cards=6, count=8):
        assert counted(state), name
        side = solve(state).side
        merged, nodes = native_values(state, side, "score", merge=True)
        full, more = native_values(state, side, "score", merge=False)
        assert merged == full, f"{name}: {state.hand(state.to_move or 0)}"
        merged_nodes += nodes
        full_nodes += more
    assert merged_nodes < full_nodes


@pytest.mark.parametrize("name", ["hearts", "manille", "bridge"])
def test_a_payment_that_reads_the_cards_won_is_not_merged_by_trick_counts(name: str) -> None:
    # Hearts and Manille count the card points taken; Bridge's scoring reads vars beyond the counted ones.
    assert not counted(positions(name, cards=4, count=1)[0])


def test_what_the_kernel_does_not_search() -> None:
    """Tarok's mechanisms change the play; a Skat Null may end at the declarer's first trick."""
    null = next(p for p in positions("skat", cards=3, count=40) if why_not_native(p, "tricks") == EARLY)
    for state, reason in ((positions("tarok", cards=3, count=1)[0], "changes the play"), (null, EARLY)):
        found = why_not_native(state, "tricks")
        assert found is not None
        assert reason in found
        assert solve(state, measure="tricks").values  # the engine searches instead
    # Skat's whole deal is not in the kernel (its bidding by game values), its play is.
    assert "value_bidding" in (why_not_native(positions("skat", cards=3, count=1)[0], "score") or "")
    state = positions("quadrille", cards=3, count=1)[0]
    assert why_not_native(state, "score") == "the mechanism 'announce' decides after a trick"


def test_the_trick_table_agrees_with_the_engine_on_late_bridge_positions() -> None:
    game = trickrules.load("bridge")
    checked = 0
    for state in positions("bridge", cards=4, count=30):
        if state.trick:
            continue
        leader = state.to_move
        assert leader is not None
        declarer = (leader - 1) % 4
        table = trick_table(game, state.hands)
        key = state.deal.trump
        assert key is not None
        ours = solve(state, measure="tricks", native=False)
        before = sum(1 for w in state.tally.winners if w in ours.side)
        left = len(state.hand(leader))
        leaders_side = max(v for _, v in ours.values) - before
        assert table[(declarer, key)] == left - leaders_side
        checked += 1
    assert checked >= 5


def test_playouts_keep_every_trick_and_card_and_play_as_the_random_bot() -> None:
    game = trickrules.load("quadrille")
    tables = play_tables(game)
    assert not isinstance(tables, str)
    state = positions("quadrille", cards=3, count=1)[0]
    st, _ = native_arrays(state, ())
    before = st.copy()
    work = np.zeros_like(st)
    mt = np.zeros(MT.MT_SIZE, dtype=np.int64)
    MT.seed_words(np.array([7, 0, 0, 0], dtype=np.int64), 4, mt)
    tricks = np.zeros(8, dtype=np.int64)
    points = np.zeros(8, dtype=np.int64)
    count = 4000
    playouts(tables, st, work, mt, count, tricks, points)
    assert (st == before).all()
    left = int(st[L.TRICKS] - st[L.TRICKS_PLAYED])
    assert tricks.sum() == count * left
    worth = game.tables.cards.points
    in_play = [c for c in range(len(worth)) if any((h >> c) & 1 for h in state.hands) or c in state.trick]
    assert points.sum() == count * sum(worth[c] for c in in_play)
    # The engine's random play from the same position: each seat's mean tricks, within sampling error.
    rng = random.Random(3)
    engine = np.zeros(4)
    runs = 600
    for _ in range(runs):
        s = state
        counted = 0
        while counted < left:
            s = s.apply(rng.choice(s.legal_actions()))
            for event in s.last_events:
                if isinstance(event, TrickWon):
                    engine[event.seat] += 1
                    counted += 1
    native = tricks[:4] / count
    spread = np.sqrt(left / runs)
    assert np.all(np.abs(engine / runs - native) < 4 * spread), (engine / runs, native)
