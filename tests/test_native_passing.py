"""The native passing (:mod:`trickrules.native.passing`) against the engine's, card for card.

For Hearts, its options that touch the passing (no passing, the direction
drawn by chance, a single deal) and overlays written here for the rest of
``[passing]`` (one card, every card, cycles with holds, a drawn direction
that may hold, counterclockwise seating), engine matches are played with the
random bot. At the first state of every deal the kernel starts the passing
from a stale record (another deal's), so it draws the deal's direction
itself; at some points inside the phase it goes on from the engine's record.
The engine goes on with the same generator until it leaves the phase, and the
two are compared: the deal's fields, the record, the number of decisions,
the last seat to decide (the kernel leaves it in ``TO_MOVE``) and the generator.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import native_harness as H
import trickrules
from trickrules.engine.game import Game
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import layout as L
from trickrules.native import passing
from trickrules.native.mt import from_random

#: Hearts' options that change its passing.
OPTIONS: list[dict[str, str]] = [
    {},
    {"pass_direction": "chance"},
    {"pass_cards": "off"},
    {"match_end": "one_deal"},
    {"pass_direction": "chance", "match_end": "one_deal"},
    {"pass_cards": "off", "pass_direction": "chance"},
]
#: Overlays of Hearts for the rest of ``[passing]`` (name, the TOML after ``extends``).
OVERLAYS: list[tuple[str, str]] = [
    ("one-card", '[passing]\ncards = 1\ncycle = ["across", "hold", "next"]\n'),
    ("every-card", '[passing]\ncards = 13\ncycle = ["previous"]\n'),
    ("chance-holds", '[passing]\ncards = 2\ncycle = ["next", "hold", "hold", "across"]\norder = "chance"\n'),
    ("anticlockwise", '[seating]\ndirection = "counterclockwise"\n[passing]\ncards = 4\n'),
]
#: How many deals each case checks.
DEALS_CHECKED = 300
#: The deals of a match played (the rest of it is not needed).
DEALS = 12
#: The passing's block.
BLOCK = range(L.MECH_PASSING, L.MECH_PASSING + 16)


def tables(game: Game) -> H.Array:
    """The game's ``tb`` with the passing's tables."""
    return H.kernel_tables(game, passing.export)


def arrays(state: State) -> H.Array:
    """``state`` as the kernel's array, with the passing's block."""
    return H.state_arrays(state, passing.part_to_arrays)


def check(game: Game, tb: H.Array, state: State, rng: random.Random, stale: bool) -> int:
    """Run the kernel from ``state`` (from a stale record with ``stale``) and the engine; compare; the steps."""
    st = arrays(state)
    if stale:  # another deal's record: the kernel must start afresh and draw the offset itself
        st[passing.P_DEAL] = st[L.SHUFFLE] + 7
        st[passing.P_OFFSET] = 3
        st[passing.P_DONE] = 1
        for seat in range(L.MAX_PLAYERS):
            st[passing.P_PASSED + seat] = 0x1234 << seat
    mt = from_random(rng)
    decider = int(st[L.TO_MOVE])  # the kernel leaves TO_MOVE at the last seat that decided (as it was if none)
    passing.run(tb, st, mt)
    state, steps, decider = H.through(state, rng, Phase.PASSING, decider)
    H.assert_ran_as_engine(st, mt, rng, steps, decider)
    want = arrays(state)
    H.assert_fields(st, want, game.players)
    if game.tables.passing.used:
        H.assert_words(st, want, BLOCK)
    return steps


def matches(game: Game, seed: int) -> Iterator[tuple[State, random.Random, int]]:
    """Every state of a random bots' match (with the bots' generator and a draw for the test's choices)."""
    return H.states(game, seed, seed * 7919 + 11 + (seed << 70), DEALS, 8)


def play(game: Game, deals: int) -> dict[str, int]:
    """Check every deal's start and some points inside the passing; how many of each and their steps."""
    tb = tables(game)
    seen = {"deals": 0, "passed": 0, "held": 0, "inside": 0}
    seed = 0
    while seen["deals"] < deals:
        seed += 1
        last = None
        for state, rng, draw in matches(game, seed):
            first = H.key(state) != last
            last = H.key(state)
            if not first and (state.phase != Phase.PASSING or draw):
                continue
            steps = check(game, tb, state, H.twin(rng), stale=first)
            if first:
                seen["deals"] += 1
                seen["passed" if steps else "held"] += 1
            else:
                seen["inside"] += 1
    return seen


def hearts(options: dict[str, str]) -> Game:
    """Hearts with ``options``."""
    return trickrules.load("hearts", options)


@pytest.mark.parametrize("options", OPTIONS, ids=[H.options_id(o) or "default" for o in OPTIONS])
def test_hearts_options(options: dict[str, str]) -> None:
    """The kernel plays Hearts' passing as the engine, under each option."""
    game = hearts(options)
    seen = play(game, DEALS_CHECKED)
    if not game.tables.passing.used:
        assert seen["passed"] == 0, seen
        return
    assert seen["passed"] > DEALS_CHECKED // 2, seen
    if options.get("match_end") != "one_deal" or options.get("pass_direction") == "chance":
        assert seen["held"] > DEALS_CHECKED // 10, seen  # a single deal in turn is the cycle's first: it passes
    assert seen["inside"] > 20, seen


@pytest.mark.parametrize(("name", "overlay"), OVERLAYS, ids=[n for n, _ in OVERLAYS])
def test_passing_overlays(name: str, overlay: str, tmp_path: Path) -> None:
    """The kernel follows the rest of ``[passing]``: other card counts, cycles, holds drawn by chance."""
    game = H.load_overlay(tmp_path, "hearts", name, overlay)
    seen = play(game, DEALS_CHECKED // 2)
    assert seen["passed"] > DEALS_CHECKED // 6, seen
    assert seen["inside"] > 10, seen


def test_offset_drawn_as_the_engine() -> None:
    """The drawn direction is ``rng.chosen``'s for many seeds and shuffles (128-bit seeds too)."""
    from trickrules.engine.phases.passing import offset as engine_offset

    game = hearts({"pass_direction": "chance"})
    tb = tables(game)
    st = np.zeros(L.ST_SIZE, dtype=np.int64)
    draws = random.Random(5)
    for _ in range(300):
        seed = draws.getrandbits(draws.choice((16, 64, 100, 128)))
        shuffle = draws.randrange(50)
        st[L.SEED : L.SEED + 4] = [(seed >> (32 * i)) & 0xFFFFFFFF for i in range(4)]
        st[L.SHUFFLE] = shuffle
        assert passing.offset(tb, st) == engine_offset(game, 0, seed, shuffle)


def test_no_passing() -> None:
    """A game without passing: the run leaves its deals alone."""
    game = trickrules.load("whist")
    H.assert_leaves_alone(tables(game), arrays(game.new_match(seed=3)), [passing.run])
