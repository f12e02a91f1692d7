"""The native bids of a number of tricks (:mod:`trickrules.native.tricks_bid`) against the engine's, bid for bid.

For Spades and Oh Hell, a sample of their options (Oh Hell's tables of 3 to
7, fixed and drawn hand sizes, small decks, several deals; Spades' match
options) and overlays written here for the rest of ``[tricks_bid]`` (a
lowest and a highest bid, the hook rule without partners, partners without
the hook rule, no limit at all), engine matches are played with the random
bot. At the first state of every deal the kernel starts the bids from a stale
record (another deal's bids); at some points inside the phase it goes on from
the engine's record. The engine goes on with the same generator until it
leaves the phase, and the two are compared: the deal's fields, the bids, the
record, the number of decisions, the last seat to decide (the kernel leaves it
in ``TO_MOVE``) and the generator.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import native_harness as H
import trickrules
from trickrules.engine.game import Game
from trickrules.engine.phases.tricks_bid import bids as engine_bids
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import layout as L
from trickrules.native import tricks_bid
from trickrules.native.mt import from_random

#: (game, options) that change the bids: the table, the hand sizes, the deck, the deals.
CASES: list[tuple[str, dict[str, str]]] = [
    ("spades", {}),
    ("spades", {"use_mercy_rule": "off", "win_threshold": "100"}),
    ("oh-hell", {}),
    ("oh-hell", {"deals": "10"}),
    ("oh-hell", {"players": "4", "deals": "5"}),
    ("oh-hell", {"players": "5", "num_tricks_fixed": "3", "deals": "4"}),
    ("oh-hell", {"players": "7", "deals": "3"}),
    ("oh-hell", {"num_tricks_fixed": "1", "deals": "3"}),
    ("oh-hell", {"num_suits": "2", "num_cards_per_suit": "7", "deals": "5"}),
    ("oh-hell", {"players": "6", "num_tricks_fixed": "8", "deals": "3"}),
]
#: Overlays for the rest of ``[tricks_bid]`` (name, the game extended, the TOML after ``extends``).
OVERLAYS: list[tuple[str, str, str]] = [
    ("min-max", "oh-hell", "[tricks_bid]\nmin = 1\nmax = 5\nlast_not_total = true\n"),
    ("no-hook", "oh-hell", "[tricks_bid]\nlast_not_total = false\n"),
    ("spades-hook", "spades", "[tricks_bid]\npartners_within_tricks = false\nlast_not_total = true\n"),
    ("spades-max", "spades", "[tricks_bid]\npartners_within_tricks = true\nmax = 9\n"),
    ("spades-free", "spades", "[tricks_bid]\npartners_within_tricks = false\n"),
]
#: How many deals each case checks.
DEALS_CHECKED = 200
#: The deals of a match played (the rest of it is not needed).
DEALS = 8
#: The bids' block.
BLOCK = range(L.MECH_TRICKS_BID, L.MECH_TRICKS_BID + 16)


def tables(game: Game) -> H.Array:
    """The game's ``tb`` with the bids' tables."""
    return H.kernel_tables(game, tricks_bid.export)


def arrays(state: State) -> H.Array:
    """``state`` as the kernel's array, with the bids."""
    return H.state_arrays(state, tricks_bid.part_to_arrays)


def check(game: Game, tb: H.Array, state: State, rng: random.Random, stale: bool) -> tuple[int, int]:
    """Run the kernel from ``state`` (from another deal's bids with ``stale``) and the engine; compare.

    Returns the engine's steps, and 1 where the last seat to bid had a bid taken away (else 0).
    """
    st = arrays(state)
    if stale:  # another deal's bids: the kernel must start afresh
        st[tricks_bid.B_DEAL] = st[L.SHUFFLE] + 3
        st[tricks_bid.B_SAID] = 0b101
        for seat in range(game.players):
            st[L.BID + seat] = seat + 2
    mt = from_random(rng)
    decider = int(st[L.TO_MOVE])  # the kernel leaves TO_MOVE at the last seat that decided (as it was if none)
    tricks_bid.run(tb, st, mt)
    hook = [0]

    def last_bid(state: State) -> None:
        if made(state) == game.players - 1:
            hook[0] = hooked(state)

    state, steps, decider = H.through(state, rng, Phase.TRICKS_BID, decider, last_bid)
    H.assert_ran_as_engine(st, mt, rng, steps, decider)
    want = arrays(state)
    H.assert_fields(st, want, game.players, [(f"BID[{s}]", L.BID + s) for s in range(game.players)])
    H.assert_words(st, want, BLOCK)
    return steps, hook[0]


def matches(game: Game, seed: int) -> Iterator[tuple[State, random.Random, int]]:
    """Every state of a random bots' match (with the bots' generator and a draw for the test's choices)."""
    return H.states(game, seed, seed * 7919 + 5, DEALS, 3)


def play(game: Game, deals: int) -> dict[str, int]:
    """Check every deal's start and some points inside the bids; how many of each, and how often the hook bit."""
    tb = tables(game)
    seen = {"deals": 0, "inside": 0, "hooked": 0}
    seed = 0
    while seen["deals"] < deals:
        seed += 1
        last = None
        for state, rng, draw in matches(game, seed):
            first = H.key(state) != last
            last = H.key(state)
            if state.phase != Phase.TRICKS_BID or (not first and draw):
                continue
            steps, hook = check(game, tb, state, H.twin(rng), stale=first)
            assert steps == game.players - made(state)
            seen["deals" if first else "inside"] += 1
            seen["hooked"] += hook
    return seen


def made(state: State) -> int:
    """How many seats have bid in ``state``'s deal."""
    return sum(b is not None for b in engine_bids(state.game, state.deal))


def hooked(state: State) -> int:
    """1 where the last seat to bid has a bid taken away by the hook rule."""
    rules = state.game.rules.bids.tricks_bid
    assert rules is not None
    high = rules.max or state.deal.tricks
    return int(len(state.legal_actions()) < high - rules.min + 1)


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}:" + H.options_id(o) for n, o in CASES])
def test_options(name: str, options: dict[str, str]) -> None:
    """The kernel plays the bids of Spades and Oh Hell as the engine, under each option."""
    game = trickrules.load(name, options)
    seen = play(game, DEALS_CHECKED)
    assert seen["inside"] > DEALS_CHECKED // 2, seen
    rules = game.rules.bids.tricks_bid
    assert rules is not None
    if rules.last_not_total or rules.partners_within_tricks:
        assert seen["hooked"] > 2, seen  # rare at a large table: random bids seldom leave room for the hook


@pytest.mark.parametrize(("name", "base", "overlay"), OVERLAYS, ids=[n for n, _, _ in OVERLAYS])
def test_overlays(name: str, base: str, overlay: str, tmp_path: Path) -> None:
    """The kernel follows the rest of ``[tricks_bid]``: bounds, the hook rule and partners' limit apart."""
    game = H.load_overlay(tmp_path, base, name, overlay, {"deals": "5"} if base == "oh-hell" else {})
    seen = play(game, DEALS_CHECKED // 2)
    assert seen["inside"] > DEALS_CHECKED // 4, seen


def test_no_bids() -> None:
    """A game without bids of tricks: the run leaves its deals alone."""
    game = trickrules.load("hearts")
    H.assert_leaves_alone(tables(game), arrays(game.new_match(seed=3)), [tricks_bid.run])
