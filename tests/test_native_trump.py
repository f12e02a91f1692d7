"""The native naming of trumps (:mod:`trickrules.native.trump`) against the engine's.

For every bundled game with a trump phase (Manille and its overlays, where
the dealer names trumps or none; the Quadrille family, where the declarer
names them after the auction, and Casco's called holder after the call) and
a sample of their options that touch it (no "en voiture", the turned card
instead of a choice, calls of one's own King, no forced Spadille), engine
matches are played with the random bot; the auction and the call are the
engine's. At every state in the trump phase, at every call with no trump yet
(where the called holder names them, the phase is not due before the call),
and at every deal's first state, the kernel plays the phase from the same
position and generator, the engine goes on with the generator until it leaves
the phase, and the two are compared: the deal's fields, the number of
decisions, the last seat to decide (the kernel leaves it in ``TO_MOVE``) and the generator.
"""

from __future__ import annotations

import random

import pytest

import native_harness as H
import trickrules
from trickrules.compile.cards import NO_TRUMP
from trickrules.compile.modes import TrumpChooser
from trickrules.engine.game import Game
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import layout as L
from trickrules.native import trump
from trickrules.native.mt import from_random

#: (game, options): the games with a trump phase, and options that change it.
CASES: list[tuple[str, dict[str, str]]] = [
    ("manille", {}),
    ("manille", {"en_voiture_allowed": "off"}),
    ("manille", {"trump_selection": "turned_last_card"}),
    ("manille-difference", {}),
    ("manille-soft-overtrump", {"en_voiture_allowed": "off"}),
    ("quadrille", {}),
    ("quadrille", {"forced_spadille": "off"}),
    ("quadrille", {"may_call_own_king": "on"}),
    ("quadrille-no-forced-spadille", {}),
    ("quadrille-fi", {}),
    ("quintille", {}),
]
#: How many states each case checks.
CHECKS = 250
#: The deals of a match played (the rest of it is not needed).
DEALS = 6
#: How many namings by the called card's holder each game with such a contract checks (at least).
HOLDERS = 15


def tables(game: Game) -> H.Array:
    """The game's ``tb`` with the trump phase's tables."""
    return H.kernel_tables(game, trump.export)


def arrays(state: State) -> H.Array:
    """``state`` as the kernel's array, with the called card."""
    return H.state_arrays(state, trump.part_to_arrays)


def check(game: Game, tb: H.Array, state: State, rng: random.Random) -> tuple[int, int]:
    """Run the kernel from ``state`` and the engine until it leaves the trump phase; compare; the steps, the trump."""
    st = arrays(state)
    mt = from_random(rng)
    decider = int(st[L.TO_MOVE])  # the kernel leaves TO_MOVE at the last seat that decided (as it was if none)
    trump.run(tb, st, mt)
    state, steps, decider = H.through(state, rng, Phase.TRUMP, decider)
    H.assert_ran_as_engine(st, mt, rng, steps, decider)
    H.assert_fields(st, arrays(state), game.players, [("CALLED", L.CALLED)])
    return steps, int(st[L.TRUMP])


def play(game: Game, checks: int) -> dict[str, int]:
    """Check the trump phase's states, the calls before it and every deal's start; how many of each.

    Where a contract whose called holder names trumps may be bid, it is mostly bid (the random bots
    seldom reach it), so that the holder's naming and the phase waiting for the call are checked often.
    """
    tb = tables(game)
    seen = {"named": 0, "by holder": 0, "deal start": 0, "before the call": 0, "none": 0}
    holders = {f"bid {c.name}" for c in game.rules.contracts if c.trump_by is TrumpChooser.CALLED_HOLDER}
    seed = 0
    while sum(seen.values()) - seen["none"] < checks or (holders and seen["by holder"] < HOLDERS):
        seed += 1
        rng = random.Random(seed)
        pick = random.Random(-seed)
        state = game.new_match(seed=seed * 7919 + 3, dealer=seed % game.players)
        last = None
        while not state.is_terminal and state.deal.number < DEALS:
            if state.phase == Phase.PLAY and sum(seen.values()) - seen["none"] >= checks:
                break  # only the holder's naming is still wanted: the next match's auction
            first = H.key(state) != last
            last = H.key(state)
            waiting = state.phase == Phase.CALL and state.deal.trump is None
            if first or waiting or state.phase == Phase.TRUMP:
                holder = state.phase == Phase.TRUMP and state.to_move == state.deal.partner != state.deal.declarer
                steps, named = check(game, tb, state, H.twin(rng))
                if steps:
                    seen["by holder" if holder else "named"] += 1
                    seen["none"] += named == NO_TRUMP
                else:
                    seen["before the call" if waiting else "deal start"] += 1
            forced = [a for a in state.legal_actions() if str(a) in holders] if state.phase == Phase.BIDDING else []
            state = state.apply(forced[0]) if forced and pick.random() < 0.8 else H.step(state, rng)
    return seen


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}:" + H.options_id(o) for n, o in CASES])
def test_cases(name: str, options: dict[str, str]) -> None:
    """The kernel names trumps as the engine, in every game with a trump phase, under each option."""
    game = trickrules.load(name, options)
    seen = play(game, CHECKS)
    has_phase = any(m.phase == Phase.TRUMP for m in game.sequence)
    if not has_phase:
        assert seen["named"] + seen["by holder"] == 0 < seen["deal start"], seen
        return
    assert seen["named"] > CHECKS // 10, seen
    if game.rules.contracts:  # the auction first: the deal's first state is not the phase's
        assert seen["deal start"] > 10, seen
    if game.rules.allow_no_trump:
        assert seen["none"] > 0, seen
    if any(c.trump_by is TrumpChooser.CALLED_HOLDER for c in game.rules.contracts):
        assert seen["before the call"] > 10, seen


def test_no_trump_phase() -> None:
    """A game without a trump phase: the run leaves its deals alone."""
    game = trickrules.load("hearts")
    H.assert_leaves_alone(tables(game), arrays(game.new_match(seed=3)), [trump.run])
