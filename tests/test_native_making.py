"""The native making of trumps (:mod:`trickrules.native.making`) against the engine's, choice for choice.

For Euchre, a sample of its options that touch the three phases (stick the
dealer, lone defenders, discarding the turned card, a single deal) and
overlays written here for the rest of ``[making]`` (the same dealer
redealing, a round of any suit, no card taken up, no going alone, the
dealer's last card turned, no card turned, counterclockwise seating),
engine matches are played with the random bot; at each start of the
``making``, ``discard`` and ``alone`` phases (and at some points inside
them) the kernel plays the phase from the same position and generator, the
engine goes on with the generator until it leaves the phase, and the two are
compared: the deal's fields, the records, the redeal flag, the number of
decisions and the generator. The three phases are also run one after the
other from the start of the making, as a driver runs them, up to the play.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import native_harness as H
import trickrules
from trickrules.engine.game import Game
from trickrules.engine.phases.deal import dealing
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import layout as L
from trickrules.native import making
from trickrules.native.mt import from_random

Run = H.Run

#: (game, options): Euchre and the options that change its making, discard or going alone.
OPTIONS: list[dict[str, str]] = [
    {},
    {"stick_the_dealer": "off"},
    {"allow_lone_defender": "on"},
    {"discard_turned": "on"},
    {"stick_the_dealer": "off", "allow_lone_defender": "on", "discard_turned": "on"},
    {"stick_the_dealer": "off", "target": "one_deal"},
    {"stick_the_dealer": "off", "allow_lone_defender": "on", "target": "5", "zero_sum": "on"},
]
#: Overlays of Euchre for the rest of ``[making]`` (name, the TOML after ``extends``).
OVERLAYS: list[tuple[str, str]] = [
    ("same-dealer", '[making]\ndealer_must_name = false\nall_pass = "same_dealer"\n'),
    (
        "three-rounds",
        '[making]\nrounds = ["turned", "others", "any"]\ndealer_must_name = false\n'
        'all_pass = "same_dealer"\ndefend_alone = true\n',
    ),
    ("any-first", '[making]\nrounds = ["any", "turned"]\ndealer_must_name = false\n'),
    ("nobody-takes", '[making]\ntaken_by = "nobody"\ndealer_must_name = false\nalone = false\ndefend_alone = true\n'),
    ("no-alone", "[making]\nalone = false\ndealer_must_name = false\n"),
    ("no-alone-phase", "[making]\nalone = false\ndefend_alone = false\n"),
    (
        "last-card",
        '[deal]\nturn_from_stock = false\nturn_last_card = true\n[making]\ntaken_by = "nobody"\n'
        "dealer_must_name = false\n",
    ),
    (
        "no-turn",
        '[deal]\nturn_from_stock = false\n[making]\nrounds = ["any", "any"]\ntaken_by = "nobody"\n'
        "dealer_must_name = false\n",
    ),
    ("anticlockwise", '[seating]\ndirection = "counterclockwise"\n[making]\ndealer_must_name = false\n'),
]
#: How many deals each case checks from the start of the making (and their phases, and points inside).
DEALS_CHECKED = 240
#: The deals of a match played (the rest of it is not needed).
DEALS = 10
#: The phases of the making and their runs.
PHASES: dict[str, Run] = {
    Phase.MAKING: making.run_making,
    Phase.DISCARD: making.run_discard,
    Phase.ALONE: making.run_alone,
}


def tables(game: Game) -> H.Array:
    """The game's ``tb`` with the making's tables."""
    return H.kernel_tables(game, making.export)


def arrays(state: State) -> H.Array:
    """``state`` as the kernel's array, with the making's block."""
    return H.state_arrays(state, making.part_to_arrays)


def leaves(state: State, start: State, phases: frozenset[str]) -> bool:
    """Whether the engine has left ``phases`` of ``start``'s deal (another phase, or another deal)."""
    return state.phase not in phases or H.key(state) != H.key(start)


def compare(game: Game, st: H.Array, before: State, after: State) -> str:
    """Compare the kernel's ``st`` with the engine's ``after`` (left the phases begun at ``before``); how it ended."""
    if H.key(after) == H.key(before):
        want = arrays(after)
        assert st[L.REDEAL] == 0
        H.assert_fields(st, want, game.players)
        H.assert_words(st, want, (L.SHUFFLE, L.TURNED, *range(L.MECH_MAKING, L.MECH_MAKING + 32)))
        return after.phase
    d0, d1 = before.deal, after.deal
    assert st[L.TRUMP] == L.UNSET_TRUMP
    assert st[L.DECLARER] == L.NONE
    assert st[making.K_SPOKEN] == game.players * len(rounds(game))
    if st[L.REDEAL] == 1:  # the same dealer deals the same deal again, from the next shuffle
        assert after.match.deals_done == before.match.deals_done
        assert (st[L.NUMBER], st[L.DEALER], st[L.SHUFFLE]) == (d1.number, d1.dealer, dealing(d1).shuffle)
        assert st[L.SHUFFLE] == dealing(d0).shuffle + 1
        return "redeal"
    assert st[L.REDEAL] == 2, "the engine threw the deal in"
    # Passed out: the deal counts as played, and the next dealer deals the next shuffle (or the match is over).
    assert after.match.deals_done == before.match.deals_done + 1
    assert after.match.scores == before.match.scores
    assert after.is_terminal or (d1.number, d1.dealer) == (d0.number + 1, (d0.dealer + 1) % game.players)
    assert after.is_terminal or dealing(d1).shuffle == dealing(d0).shuffle + 1
    assert (st[L.NUMBER], st[L.SHUFFLE], st[L.DEALER]) == (d0.number, dealing(d0).shuffle, d0.dealer)
    return "passed out"


def check(
    game: Game, tb: H.Array, state: State, rng: random.Random, runs: list[Run], phases: frozenset[str]
) -> tuple[State, str]:
    """Run ``runs`` from ``state`` and the engine until it leaves ``phases``; compare; the engine's state after."""
    st = arrays(state)
    mt = from_random(rng)
    for run in runs:
        if st[L.REDEAL]:
            break  # thrown in: a driver deals again
        run(tb, st, mt)
    before = state
    steps = 0
    while not leaves(state, before, phases):
        state = H.step(state, rng)
        steps += 1
    H.assert_same_generator(mt, rng)
    assert st[L.ACTIONS] == steps
    return state, compare(game, st, before, state)


def started(state: State) -> bool:
    """Whether ``state`` is at the first decision of its phase (for the three phases of the making)."""
    if state.phase == Phase.MAKING:
        return bool(state.part(Phase.MAKING).spoken == 0)
    if state.phase == Phase.ALONE:
        return bool(state.part(Phase.ALONE).asked == 0)
    return state.phase == Phase.DISCARD


def matches(game: Game, seed: int) -> Iterator[tuple[State, random.Random, int]]:
    """Every state of a random bots' match (with the bots' generator and a draw for the test's choices)."""
    return H.states(game, seed, seed * 7919 + 11, DEALS, 4)


def play(game: Game, deals: int) -> dict[str, int]:
    """Check every phase start (and some points inside) over matches of ``deals`` deals; how often each ended how."""
    tb = tables(game)
    seen: dict[str, int] = {}
    seed = 0
    while sum(v for k, v in seen.items() if k.startswith("all: ")) < deals:
        seed += 1
        for state, rng, draw in matches(game, seed):
            if state.phase not in PHASES:
                continue
            if started(state) or draw == 0:  # a phase's start, and a quarter of the points inside
                _, how = check(game, tb, state, H.twin(rng), [PHASES[state.phase]], frozenset((state.phase,)))
                seen[f"{state.phase}: {how}"] = seen.get(f"{state.phase}: {how}", 0) + 1
            if state.phase == Phase.MAKING and started(state):  # the three, one after the other, as a driver
                _, how = check(game, tb, state, H.twin(rng), list(PHASES.values()), frozenset(PHASES))
                seen[f"all: {how}"] = seen.get(f"all: {how}", 0) + 1
                # Everyone but the last seats passes (as the bots seldom do): from there, a redeal is likely.
                passed = passes(state, game.players * len(rounds(game)) - 1 - draw % 2)
                _, how = check(game, tb, passed, H.twin(rng), list(PHASES.values()), frozenset(PHASES))
                seen[f"passes: {how}"] = seen.get(f"passes: {how}", 0) + 1
    return seen


def rounds(game: Game) -> tuple[object, ...]:
    """The rounds of the game's making."""
    assert game.rules.making is not None
    return game.rules.making.rounds


def passes(state: State, count: int) -> State:
    """``state`` after ``count`` seats have passed in the making."""
    for _ in range(count):
        state = state.apply("pass")
    return state


@pytest.mark.parametrize("options", OPTIONS, ids=[H.options_id(o) or "default" for o in OPTIONS])
def test_euchre_options(options: dict[str, str]) -> None:
    """The kernel plays Euchre's making, discard and going alone as the engine, under each option."""
    game = trickrules.load("euchre", options)
    seen = play(game, DEALS_CHECKED)
    assert seen.get("all: play", 0) > DEALS_CHECKED * 0.9, seen
    assert seen.get("making: discard", 0) + seen.get("making: alone", 0) + seen.get("making: play", 0) > 100
    if game.rules.making is not None and not game.rules.making.dealer_must_name:
        assert seen.get("passes: passed out", 0) + seen.get("passes: redeal", 0) > 10, seen
    if game.rules.making is not None and game.rules.making.taken_by_dealer:
        assert seen.get("discard: alone", 0) > 20, seen


@pytest.mark.parametrize(("name", "overlay"), OVERLAYS, ids=[n for n, _ in OVERLAYS])
def test_making_overlays(name: str, overlay: str, tmp_path: Path) -> None:
    """The kernel follows the rest of ``[making]``: every kind of round, redeals, no discard, no going alone."""
    game = H.load_overlay(tmp_path, "euchre", name, overlay)
    seen = play(game, DEALS_CHECKED // 2)
    assert seen.get("all: play", 0) > DEALS_CHECKED // 3, seen
    assert seen.get("passes: play", 0), seen
    assert len(seen) > 4, seen


def test_no_making() -> None:
    """A game whose trumps are not made round the table: the runs leave its deals alone."""
    game = trickrules.load("whist")
    H.assert_leaves_alone(tables(game), arrays(game.new_match(seed=3)), PHASES.values())
