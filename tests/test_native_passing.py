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
import numpy.typing as npt
import pytest

import trickrules
from trickrules.engine.game import Game
from trickrules.engine.phases.deal import dealing
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import layout as L
from trickrules.native import passing
from trickrules.native.bridge import core_fields, to_arrays
from trickrules.native.mt import from_random
from trickrules.native.tables import Builder, export_core

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
#: The fields the next phase sets on leaving one (the seat to move, the first leader).
NOT_OURS = {"TO_MOVE", "LEADER"}
#: The passing's block.
BLOCK = range(L.MECH_PASSING, L.MECH_PASSING + 16)


def tables(game: Game) -> npt.NDArray[np.int64]:
    """The game's ``tb`` with the passing's tables."""
    b = Builder()
    export_core(game.tables, b)
    passing.export(game, b)
    return b.array()


def step(state: State, rng: random.Random) -> State:
    """One decision of the random bot."""
    legal = state.legal_actions()
    return state.apply(legal[int(rng.random() * len(legal))])


def arrays(state: State) -> npt.NDArray[np.int64]:
    """``state`` as the kernel's array, with the passing's block."""
    st = to_arrays(state)
    passing.part_to_arrays(state, st)
    return st


def key(state: State) -> tuple[int, int, int]:
    """Which deal ``state`` is in: its number, its shuffle, the deals done."""
    return state.deal.number, dealing(state.deal).shuffle, state.match.deals_done


def check(game: Game, tb: npt.NDArray[np.int64], state: State, rng: random.Random, stale: bool) -> int:
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
    before = state
    steps = 0
    while state.phase == Phase.PASSING and key(state) == key(before):
        who = state.chooser
        assert who is not None
        decider = who
        state = step(state, rng)
        steps += 1
    assert key(state) == key(before)
    assert np.array_equal(mt, from_random(rng)), "the generators differ"
    assert st[L.ACTIONS] == steps
    assert st[L.TO_MOVE] == decider, f"the last seat to decide: kernel {st[L.TO_MOVE]}, engine {decider}"
    assert st[L.REDEAL] == 0
    want = arrays(state)
    for name, at in core_fields(game.players):
        if name not in NOT_OURS:
            assert st[at] == want[at], f"{name}: kernel {st[at]}, engine {want[at]}"
    if game.tables.passing.used:
        for at in BLOCK:
            assert st[at] == want[at], f"word {at}: kernel {st[at]}, engine {want[at]}"
    return steps


def matches(game: Game, seed: int) -> Iterator[tuple[State, random.Random, int]]:
    """Every state of a random bots' match (with the bots' generator and a draw for the test's choices)."""
    rng = random.Random(seed)
    pick = random.Random(seed + 1)
    state = game.new_match(seed=seed * 7919 + 11 + (seed << 70), dealer=seed % game.players)
    while not state.is_terminal and state.deal.number < DEALS:
        yield state, rng, pick.randrange(8)
        state = step(state, rng)


def play(game: Game, deals: int) -> dict[str, int]:
    """Check every deal's start and some points inside the passing; how many of each and their steps."""
    tb = tables(game)
    seen = {"deals": 0, "passed": 0, "held": 0, "inside": 0}
    seed = 0
    while seen["deals"] < deals:
        seed += 1
        last = None
        for state, rng, draw in matches(game, seed):
            first = key(state) != last
            last = key(state)
            if not first and (state.phase != Phase.PASSING or draw):
                continue
            twin = random.Random()
            twin.setstate(rng.getstate())
            steps = check(game, tb, state, twin, stale=first)
            if first:
                seen["deals"] += 1
                seen["passed" if steps else "held"] += 1
            else:
                seen["inside"] += 1
    return seen


def hearts(options: dict[str, str]) -> Game:
    """Hearts with ``options``."""
    return trickrules.load("hearts", options)


@pytest.mark.parametrize(
    "options", OPTIONS, ids=[",".join(f"{k}={v}" for k, v in o.items()) or "default" for o in OPTIONS]
)
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
    path = tmp_path / f"hearts-{name}.toml"
    head = f'extends = "hearts"\n\n[variant]\nname = "hearts-{name}"\ntitle = "{name}"\ndoc = "a test overlay"\n\n'
    path.write_text(head + overlay, encoding="utf-8")
    game = trickrules.load(path)
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
    tb = tables(game)
    st = arrays(game.new_match(seed=3))
    before = st.copy()
    mt = from_random(random.Random(1))
    passing.run(tb, st, mt)
    assert np.array_equal(st, before)
    assert np.array_equal(mt, from_random(random.Random(1)))
