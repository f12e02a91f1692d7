"""The native kernel and the engine agree deal for deal (issue #26 item 3).

For every bundled game and overlay, and each game's options one choice at a
time, the same simulation matches are played by the engine and by the
kernel, and every deal compared: its number, dealer, trump, contract,
declarer and partner, the seats out, every trick's cards and winner, the
outcomes named, each seat's payment and the totals after it. Every bundled
game (with its default options) must have a kernel; an option the kernel
does not cover must fall back to the engine, saying so once. A planted bug
on either side (a rule changed in the kernel's tables; the engine's trick
winner) makes the comparison fail.
"""

from __future__ import annotations

import warnings
import weakref
from typing import Any

import pytest

import trickrules
from native_agree import engine_deals, kernel_deals
from trickrules.errors import SpecError
from trickrules.faces.simulate import KernelFallback, simulate
from trickrules.native.kernel import Unsupported, kernel_for

#: The bundled games whose deals use a registered mechanism (Bridge's doubling auction, dummy, vulnerability):
#: the kernel does not cover those, and their simulations fall back to the engine (checked below).
ENGINE_ONLY = tuple(n for n in trickrules.bundled_names() if trickrules.load(n).tables.mechanism_sections)
NAMES = tuple(n for n in trickrules.bundled_names() if n not in ENGINE_ONLY)
#: Matches compared per game with its default options, and per option choice.
MATCHES = 3
OPTION_MATCHES = 1


def _options() -> list[tuple[str, dict[str, str]]]:
    out: list[tuple[str, dict[str, str]]] = []
    for name in NAMES:
        game = trickrules.load(name)
        for option, spec in game.spec.options.items():
            for choice in spec.choices:
                if choice == spec.default:
                    continue
                try:
                    trickrules.load(name, {option: choice})
                except SpecError:  # a choice the game's other defaults refuse (quadrille-fi: deals=1)
                    continue
                out.append((name, {option: choice}))
    return out


def _compare(game: trickrules.Game, seed: int, index: int) -> None:
    ours = kernel_deals(game, seed, index)
    theirs = engine_deals(game, seed, index)
    assert len(ours) == len(theirs), f"{game.name} match {index}: {len(ours)} deals, the engine {len(theirs)}"
    for mine, engine in zip(ours, theirs, strict=True):
        for key, value in engine.items():
            where = f"{game.name} match {index} deal {engine['number']}"
            assert mine[key] == value, f"{where}: {key} {mine[key]!r} != {value!r}"


@pytest.mark.parametrize("name", NAMES)
def test_every_bundled_game_agrees_deal_for_deal(name: str) -> None:
    game = trickrules.load(name)
    kernel_for(game)  # every bundled game has a kernel: Unsupported here fails the test
    for index in range(MATCHES):
        _compare(game, 7, index)


@pytest.mark.parametrize("name", sorted(ENGINE_ONLY))
def test_the_engine_only_games_are_refused_by_the_kernel(name: str) -> None:
    with pytest.raises(Unsupported, match="registered mechanism"):
        kernel_for(trickrules.load(name))


def test_asking_again_for_a_kernel_the_game_has_not_keeps_nothing_of_the_earlier_asking() -> None:
    """Each refusal is a fresh exception: one raised again would chain every asker's frame to its traceback."""
    game = trickrules.load("skat")

    class Held:
        pass

    def ask(held: Held) -> str:
        try:
            kernel_for(game)
        except Unsupported as error:
            return str(error)
        raise AssertionError("skat has a kernel")

    held = Held()
    gone = weakref.ref(held)
    first = ask(held)
    del held
    assert ask(Held()) == first
    assert gone() is None  # the first asker's frame, and what it held, is freed


@pytest.mark.parametrize(("name", "options"), _options(), ids=lambda x: x if isinstance(x, str) else repr(x))
def test_options_agree_or_fall_back(name: str, options: dict[str, str]) -> None:
    game = trickrules.load(name, options)
    try:
        kernel_for(game)
    except Unsupported:
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            native = simulate(game, deals=3, seed=5)
            again = simulate(game, deals=3, seed=5)
        assert [w.category for w in said] == [KernelFallback]  # said once, not twice
        assert native == again == simulate(game, deals=3, seed=5, native=False)
        return
    for index in range(OPTION_MATCHES):
        _compare(game, 11, index)


def test_simulate_on_the_kernel_equals_the_engine() -> None:
    for name in ("hearts", "spades", "euchre", "manille", "quadrille", "cuatrola"):
        native = simulate(name, deals=60, seed=3)
        engine = simulate(name, deals=60, seed=3, native=False)
        assert native == engine, name


def _planted_rule(game: trickrules.Game, monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.native import kernel as K
    from trickrules.native import tables as T

    real = K._export

    def broken(g: trickrules.Game) -> Any:
        made = real(g)
        tb = made.tb.copy()
        tb[T.R_BASE + T.R_FOLLOW] = 0  # no one has to follow suit
        return K.Kernel(tb, made.players, made.contracts, made.names, made.bits)

    monkeypatch.setattr(K, "_export", broken)
    monkeypatch.setattr(K, "_KERNELS", {})


def test_a_planted_bug_in_the_kernel_fails_the_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    game = trickrules.load("whist")
    _planted_rule(game, monkeypatch)
    with pytest.raises(AssertionError):
        _compare(game, 7, 0)


def test_a_planted_bug_in_the_engine_fails_the_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.engine import kernel as engine_kernel
    from trickrules.engine.phases import play

    real = engine_kernel.trick_end

    def wrong(t: Any, trick: tuple[int, ...], trump: int, seats_out: int, leader: int) -> tuple[int, int]:
        winner, taken = real(t, trick, trump, seats_out, leader)
        return (winner + 1) % t.players, taken  # the next seat takes every trick

    monkeypatch.setattr(play, "trick_end", wrong)
    with pytest.raises(AssertionError):
        _compare(trickrules.load("whist"), 7, 0)


def test_a_match_past_the_kernels_numbers_is_played_by_the_engine() -> None:
    # The pot of quadrille-fi played until it is empty passes 2**62 chips: the kernel gives the match back.
    from native_agree import engine_deals as engine
    from trickrules.faces.simulate import derive
    from trickrules.native.kernel import play_matches
    from trickrules.native.record import A_ERROR

    game = trickrules.load("quadrille-fi", {"play_until_pot_empty": "on"})
    played = play_matches(kernel_for(game), [(derive(11, 0, "match"), derive(11, 0, "bots"))], [0], 10_000)
    assert played.rows[0, A_ERROR] == 1
    assert max(abs(x) for d in engine(game, 11, 0) for x in d["scores"]) >= 2**62
    assert simulate(game, deals=10, seed=11) == simulate(game, deals=10, seed=11, native=False)


@pytest.mark.parametrize("name", ENGINE_ONLY)
def test_games_of_registered_mechanisms_are_unsupported_and_fall_back(name: str) -> None:
    game = trickrules.load(name)
    with pytest.raises(Unsupported, match="the registered mechanism"):
        kernel_for(game)
    native, engine = simulate(game, 8, seed=3), simulate(game, 8, seed=3, native=False)
    assert native == engine
