"""The harness the native kernel's phase tests share (tests/test_native_*.py).

Each test plays engine matches with the random bot and runs a phase of the
kernel from the same position and generator; the pieces they all need are
here: a game's kernel tables with a phase's (:func:`kernel_tables`), a state
as the kernel's array with a phase's records (:func:`state_arrays`), one
decision of the random bot (:func:`step`), which deal a state is in
(:func:`key`), the states of a bots' match (:func:`states`), the engine
played through a phase (:func:`through`), and the comparisons of fields,
words and generators, whose failure messages name the field and both values.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

import numpy as np
import numpy.typing as npt

import trickrules
from trickrules.engine.game import Game
from trickrules.engine.phases.deal import dealing
from trickrules.engine.state import State
from trickrules.native import layout as L
from trickrules.native.engine_arrays import core_fields, to_arrays
from trickrules.native.mt import from_random
from trickrules.native.tables import Builder, export_core

Array = npt.NDArray[np.int64]
#: A phase's export of its tables: (game, builder).
Export = Callable[[Game, Builder], object]
#: A phase's records written into a state's array: (state, st).
PartToArrays = Callable[[State, Array], object]
#: A kernel run: (tb, st, mt).
Run = Callable[[Array, Array, Array], object]

#: The fields the next phase sets on leaving one (the seat to move, the first leader).
NOT_OURS = frozenset({"TO_MOVE", "LEADER"})


def kernel_tables(game: Game, *exports: Export) -> Array:
    """The game's ``tb``: the core tables and those of each of ``exports``."""
    b = Builder()
    export_core(game.tables, b)
    for export in exports:
        export(game, b)
    return b.array()


def state_arrays(state: State, *parts: PartToArrays) -> Array:
    """``state`` as the kernel's array, with the records of each of ``parts``."""
    st = to_arrays(state)
    for part in parts:
        part(state, st)
    return st


def step(state: State, rng: random.Random) -> State:
    """One decision of the random bot."""
    legal = state.legal_actions()
    return state.apply(legal[int(rng.random() * len(legal))])


def key(state: State) -> tuple[int, int, int]:
    """Which deal ``state`` is in: its number, its shuffle, the deals done."""
    return state.deal.number, dealing(state.deal).shuffle, state.match.deals_done


def twin(rng: random.Random) -> random.Random:
    """A generator in ``rng``'s state, drawing apart from it."""
    out = random.Random()
    out.setstate(rng.getstate())
    return out


def states(
    game: Game, seed: int, match_seed: int, deals: int, draws: int
) -> Iterator[tuple[State, random.Random, int]]:
    """Every state of a random bots' match, with the bots' generator and a draw below ``draws`` for the test's choices.

    The match is dealt from ``match_seed``, its first dealer is ``seed``'s seat,
    and it is played until its deal number ``deals``.
    """
    rng = random.Random(seed)
    pick = random.Random(seed + 1)
    state = game.new_match(seed=match_seed, dealer=seed % game.players)
    while not state.is_terminal and state.deal.number < deals:
        yield state, rng, pick.randrange(draws)
        state = step(state, rng)


def through(
    state: State, rng: random.Random, phase: str, decider: int, before_each: Callable[[State], object] | None = None
) -> tuple[State, int, int]:
    """The engine played on with ``rng`` while in ``phase`` of ``state``'s deal.

    Returns the state it reached, its steps and the last seat to decide.

    ``decider`` is the last seat to decide if none does; ``before_each`` sees each state before its decision.
    """
    start = key(state)
    steps = 0
    while state.phase == phase and key(state) == start:
        if before_each is not None:
            before_each(state)
        who = state.chooser
        assert who is not None
        decider = who
        state = step(state, rng)
        steps += 1
    assert key(state) == start
    return state, steps, decider


def assert_same_generator(mt: Array, rng: random.Random) -> None:
    """The kernel's generator ``mt`` is in ``rng``'s state."""
    assert np.array_equal(mt, from_random(rng)), "the generators differ"


def assert_ran_as_engine(st: Array, mt: Array, rng: random.Random, steps: int, decider: int) -> None:
    """The kernel's generator, decisions and last seat to decide are the engine's (``steps`` decisions, ``decider``)."""
    assert_same_generator(mt, rng)
    assert st[L.ACTIONS] == steps
    assert st[L.TO_MOVE] == decider, f"the last seat to decide: kernel {st[L.TO_MOVE]}, engine {decider}"
    assert st[L.REDEAL] == 0


def assert_fields(
    st: Array, want: Array, players: int, extra: Iterable[tuple[str, int]] = (), skip: Iterable[str] = NOT_OURS
) -> None:
    """The kernel's ``st`` holds the engine's ``want`` in every core field and ``extra`` but those named in ``skip``."""
    skipped = set(skip)
    for name, at in [*core_fields(players), *extra]:
        if name not in skipped:
            assert st[at] == want[at], f"{name}: kernel {st[at]}, engine {want[at]}"


def assert_words(st: Array, want: Array, words: Iterable[int]) -> None:
    """The kernel's ``st`` holds the engine's ``want`` at each of ``words``."""
    for at in words:
        assert st[at] == want[at], f"word {at}: kernel {st[at]}, engine {want[at]}"


def assert_leaves_alone(tb: Array, st: Array, runs: Iterable[Run], rng: random.Random | None = None) -> None:
    """``runs`` from ``st`` (where their phase is not due) change nothing and draw nothing from ``rng``'s state.

    Without ``rng``, the generator starts from ``random.Random(1)``'s state.
    """
    gen = random.Random(1) if rng is None else rng
    before = st.copy()
    mt = from_random(gen)
    for run in runs:
        run(tb, st, mt)
    assert np.array_equal(st, before)
    assert np.array_equal(mt, from_random(gen))


def options_id(options: Mapping[str, str]) -> str:
    """A test id of ``options``: ``key=value`` pairs joined by commas."""
    return ",".join(f"{k}={v}" for k, v in options.items())


def load_overlay(tmp_path: Path, base: str, name: str, overlay: str, options: Mapping[str, str] | None = None) -> Game:
    """``base`` extended by the TOML ``overlay`` (a test overlay ``{base}-{name}`` written under ``tmp_path``)."""
    path = tmp_path / f"{base}-{name}.toml"
    head = f'extends = "{base}"\n\n[variant]\nname = "{base}-{name}"\ntitle = "{name}"\ndoc = "a test overlay"\n\n'
    path.write_text(head + overlay, encoding="utf-8")
    return trickrules.load(path, options)
