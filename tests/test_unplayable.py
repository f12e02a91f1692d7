"""Specs that could leave a seat with nothing to do, or deal for ever (issue 27, item 1).

Trumps made round the table with a deck of one suit: in an ``others``
round nobody can name a suit, so with "stick the dealer" the dealer had no
legal action in a state not over (the random bot's ``randrange`` raised
``ValueError``, the simulation's pick an ``IndexError``, and the kernel
played a suit that does not exist), and with "the same dealer redeals"
deal 0 was redealt for ever. Now:

- the loader refuses what it can tell (a round offering no suit, a contract
  no hand can bid, a contract without trumps in a game with no no-trump tables);
- at run time a state not over whose seat has no legal action raises the
  engine's ``SpecError`` naming the seat and the phase, in the engine, on the
  bulk path and from the kernel (which reports it, and the engine replays
  the match to raise it);
- a deal thrown in ``MAX_THROWN`` times in a row (the same dealer or the next
  one dealing again) stops the match with a ``SpecError``;
- ``play`` and ``simulate`` answer with one line on stderr and a non-zero exit.

The tests that could hang before the fix run under an alarm or a subprocess
timeout, so a regression fails instead of hanging the run.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import trickrules
import trickrules.compile.making as compile_making
from trickrules import SpecError, State
from trickrules.engine.actions import Action
from trickrules.engine.bulk import play_random
from trickrules.engine.game import Game
from trickrules.engine.mechanism import listed, register, unregister
from trickrules.engine.phases.deal import MAX_THROWN
from trickrules.engine.values import DealInfo, Phase, Step, Tally
from trickrules.faces.bots import make_bots
from trickrules.faces.match import play_match
from trickrules.spec.loader import bundled_path

# -- specs written here ------------------------------------------------------------------

_MADE = """
name = "onesuit"
title = "One suit"

[deck]
suits = [{ code = "S", name = "spades", colour = "black" }__MORE_SUITS__]
ranks = [
  { code = "A", name = "Ace" }, { code = "K", name = "King" }, { code = "Q", name = "Queen" },
  { code = "J", name = "Jack" }, { code = "10", name = "Ten" }, { code = "9", name = "Nine" },
  { code = "8", name = "Eight" }, { code = "7", name = "Seven" }, { code = "6", name = "Six" },
]

[ranks.plain]
default = ["A", "K", "Q", "J", "10", "9", "8", "7", "6"]

[trump]
chosen_by = "made"

[seating]
players = 4
partnerships = "fixed"
teams = [[0, 2], [1, 3]]

[deal]
packets = [2]
turn_from_stock = true

[making]
rounds = __ROUNDS__
taken_by = "nobody"
dealer_must_name = __STICK__
all_pass = "__ALL_PASS__"

[play]
obligations = [{ rule = "follow_suit" }]

[scoring]
unit = "points"

[[scoring.outcomes]]
name = "made"
for_each = "side"
when = "is_declarer_side and tricks >= 1"
pay = [{ to = "side", amount = "1" }]

[match]
target = 10
"""

_HEARTS = ', { code = "H", name = "hearts", colour = "red" }'


def _made(
    tmp_path: Path, rounds: str = '["turned", "others"]', stick: bool = True, same: bool = False, suits: int = 1
) -> Path:
    """A spec of trumps made round the table, a deck of one suit (or two), written to ``tmp_path``."""
    text = (
        _MADE.replace("__ROUNDS__", rounds)
        .replace("__STICK__", "true" if stick else "false")
        .replace("__ALL_PASS__", "same_dealer" if same else "next_dealer")
        .replace("__MORE_SUITS__", _HEARTS if suits > 1 else "")
    )
    path = tmp_path / f"made-{'stick' if stick else 'pass'}-{'same' if same else 'next'}-{suits}.toml"
    path.write_text(text)
    return path


_NOBID = """
name = "nobid"
title = "Nobody may bid"

[deck]
suits = [
  { code = "S", name = "spades", colour = "black" }, { code = "H", name = "hearts", colour = "red" },
  { code = "D", name = "diamonds", colour = "red" }, { code = "C", name = "clubs", colour = "black" },
]
ranks = [
  { code = "A", name = "Ace" }, { code = "K", name = "King" }, { code = "Q", name = "Queen" },
  { code = "J", name = "Jack" },
]

[ranks.plain]
default = ["A", "K", "Q", "J"]

[trump]
chosen_by = "declarer"

[seating]
players = 4

[deal]
packets = [4]

[bidding]
all_pass = { action = "redeal", redeal_by = "__BY__" }

[[bidding.contracts]]
name = "solo"
side = "alone"
eligible = "score > 1000"       # scores never move while every deal is thrown in: nobody ever may bid
__REQUIRES__

[play]
obligations = [{ rule = "follow_suit" }]

[scoring]
unit = "points"

[[scoring.outcomes]]
name = "won"
when = "tricks >= 3"
pay = [{ to = "declarer", amount = "1" }]

[match]
target = 10
"""


def _nobid(tmp_path: Path, by: str = "same_dealer", requires: str = "") -> Path:
    """An auction whose only contract is never open to anyone: everyone always passes."""
    path = tmp_path / f"nobid-{by}.toml"
    path.write_text(_NOBID.replace("__BY__", by).replace("__REQUIRES__", requires))
    return path


@pytest.fixture
def unchecked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The loader's check of the making's rounds switched off: the run-time guards are all that is left."""
    monkeypatch.setattr(compile_making, "_check_offers", lambda *args: None)


@contextmanager
def _deadline(seconds: int) -> Iterator[None]:
    """Fail (instead of hanging the run) if the block takes longer than ``seconds``."""

    def _expired(signum: int, frame: Any) -> None:
        raise AssertionError(f"still running after {seconds} s: a loop the engine should bound")

    old = signal.signal(signal.SIGALRM, _expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _random_match(game: Game, seed: int) -> State:
    """A match of the random bot (as the CLI's ``--bots random`` picks) to its end."""
    state = game.new_match(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
    return state


# -- the loader's refusals ---------------------------------------------------------------


@pytest.mark.parametrize("same", [False, True])
def test_a_making_round_that_offers_no_suit_is_refused(tmp_path: Path, same: bool) -> None:
    with pytest.raises(SpecError, match=r"making\.rounds\[1\]: an 'others' round .* one suit \('S'\)") as info:
        trickrules.load(_made(tmp_path, same=same, stick=not same))
    assert ("no legal action" in str(info.value)) is (not same)  # stick the dealer: the dealer would be stuck
    with pytest.raises(SpecError, match=r"making\.rounds\[0\]"):
        trickrules.load(_made(tmp_path, rounds='["others"]', stick=False, same=True))


def test_the_same_making_with_two_suits_loads(tmp_path: Path) -> None:
    game = trickrules.load(_made(tmp_path, suits=2))
    with _deadline(60):
        assert _random_match(game, 1).is_terminal


def test_a_contract_no_hand_can_bid_is_refused(tmp_path: Path) -> None:
    requires = 'requires_cards = ["AS", "KS", "QS", "JS", "AH"]'  # five cards, and a hand holds four
    with pytest.raises(SpecError, match=r"bidding\.contracts\[0\]\.requires_cards: 'solo' needs 5 cards .* at most 4"):
        trickrules.load(_nobid(tmp_path, requires=requires))


def test_a_contract_without_trumps_needs_the_no_trump_tables(tmp_path: Path) -> None:
    # It loaded before, and its play raised KeyError: -1 (no trump table for "no trumps").
    text = bundled_path("quadrille").read_text()
    path = tmp_path / "tn.toml"
    path.write_text(
        'extends = "quadrille"\n[variant]\nname = "tn"\ntitle = "tn"\nchanges = []\n'
        '[bidding]\ncontracts = [{ name = "solo", trump_by = "none" }]\n'
    )
    assert 'name = "solo"' in text
    with pytest.raises(SpecError, match=r"bidding\.contracts\[3\]\.trump_by: 'solo' .* trump\.allow_none"):
        trickrules.load(path)


def test_a_deal_played_with_no_contract_cannot_wait_for_a_declarer_to_choose_trumps(tmp_path: Path) -> None:
    # It loaded before, and the first card raised AssertionError ("trumps are named before the play").
    assert 'all_pass = { action = "play" }' in bundled_path("cuatrola").read_text()
    path = tmp_path / "cd.toml"
    path.write_text(
        'extends = "cuatrola"\n[variant]\nname = "cd"\ntitle = "cd"\nchanges = []\n[trump]\nchosen_by = "declarer"\n'
    )
    with pytest.raises(SpecError, match=r"bidding\.all_pass\.action: .* trump\.chosen_by is 'declarer'"):
        trickrules.load(path)


@pytest.mark.parametrize("trump_by", ["fixed", "turned"])
def test_a_contract_cannot_have_trumps_known_at_the_deal_when_the_game_has_none(tmp_path: Path, trump_by: str) -> None:
    # They loaded, and the declarer named trumps all the same: the contract's word was silently ignored.
    path = tmp_path / f"tb-{trump_by}.toml"
    path.write_text(
        'extends = "quadrille"\n[variant]\nname = "tb"\ntitle = "tb"\nchanges = []\n'
        f'[bidding]\ncontracts = [{{ name = "solo", trump_by = "{trump_by}" }}]\n'
    )
    pattern = rf"bidding\.contracts\[3\]\.trump_by: 'solo': '{trump_by}' trumps are known when the cards are dealt"
    with pytest.raises(SpecError, match=pattern):
        trickrules.load(path)


def test_a_contract_cannot_choose_trumps_the_deal_has_already_fixed(tmp_path: Path) -> None:
    text = _NOBID.replace("__BY__", "same_dealer").replace("__REQUIRES__", 'trump_by = "declarer"')
    text = text.replace('chosen_by = "declarer"', 'chosen_by = "fixed"\nsuit = "S"')
    path = tmp_path / "fixed.toml"
    path.write_text(text)
    with pytest.raises(
        SpecError, match=r"bidding\.contracts\[0\]\.trump_by: .*\(trump\.chosen_by = 'fixed'\), so no contract"
    ):
        trickrules.load(path)


# -- the guard at run time ---------------------------------------------------------------

STUCK = "stuck"


def _stuck_offered(state: State) -> list[Action]:
    return []  # nothing, ever


def _stuck_due(state: State, d: DealInfo) -> int | None:
    return (d.dealer + 1) % state.game.players if not d.declarer else None


def _stuck_step(state: State, action: Action) -> State:
    raise AssertionError("never called: nothing is legal")  # pragma: no cover


STUCK_MECHANISM = listed(STUCK, _stuck_offered, _stuck_step, due=_stuck_due)

WINDOW = "window"


def _window_after(
    state: State, hands: tuple[int, ...], d: DealInfo, tally: Tally, events: Any, winner: int
) -> State | None:
    """After the first trick, a window for its winner with nothing in it."""
    if len(tally.winners) != 1:
        return None
    history = Step(state.history, tuple(events))
    return State(state.game, WINDOW, winner, hands, (), winner, d, tally, state.match, history)


WINDOW_MECHANISM = listed(WINDOW, _stuck_offered, _stuck_step, after_trick=_window_after)

NARROW = "narrow"


def _narrow_all(state: State, seat: int, mask: int, reason: str) -> tuple[int, str]:
    return (0, "nothing") if len(state.tally.winners) == 2 else (mask, reason)  # the third trick: no card


NARROW_MECHANISM = listed(NARROW, _stuck_offered, _stuck_step, narrow=_narrow_all, reasons={"nothing": "nothing"})


@pytest.fixture(scope="module", autouse=True)
def registered() -> Iterator[None]:
    for mechanism in (STUCK_MECHANISM, WINDOW_MECHANISM, NARROW_MECHANISM):
        register(mechanism)
    yield
    for name in (STUCK, WINDOW, NARROW):
        unregister(name)


def _whist_with(tmp_path: Path, section: str) -> Game:
    text = bundled_path("whist").read_text().replace('name = "whist"', f'name = "whist-{section}"', 1)
    path = tmp_path / f"whist-{section}.toml"
    path.write_text(f"{text}\n[mechanisms.{section}]\n")
    return trickrules.load(path)


def test_a_seat_with_no_legal_action_raises_the_engine_error(tmp_path: Path) -> None:
    game = _whist_with(tmp_path, STUCK)
    state = game.new_match(seed=1)
    assert state.phase == STUCK
    assert not state.is_terminal
    pattern = r"whist-stuck: seat 1 has no legal action in the stuck phase of deal 0, and the match is not over"
    with pytest.raises(SpecError, match=pattern):
        state.legal_actions()
    with pytest.raises(SpecError, match=pattern):  # not "pass: not legal ... (legal: )"
        state.apply("pass")
    bots = make_bots(game, "random", seed=1)
    with pytest.raises(SpecError, match=pattern):
        play_match(game, bots, seed=1)
    assert not game.new_match(seed=1).is_legal("pass")  # asking whether an action is legal still answers


def test_a_making_dead_end_that_passes_the_loader_is_caught_at_run_time(tmp_path: Path, unchecked: None) -> None:
    game = trickrules.load(_made(tmp_path, rounds='["others"]'))  # the dealer is stuck in every deal
    state = game.new_match(seed=3, dealer=0)
    for _ in range(3):
        state = state.apply("pass")
    assert state.to_move == 0
    assert state.phase == Phase.MAKING
    with pytest.raises(SpecError, match=r"seat 0 has no legal action in the making phase of deal 0"):
        state.legal_actions()
    for seed in range(3):
        with pytest.raises(SpecError, match=r"has no legal action in the making phase"):
            _random_match(game, seed)


def test_the_bulk_path_raises_the_engine_error_in_a_window(tmp_path: Path) -> None:
    game = _whist_with(tmp_path, WINDOW)
    state = game.new_match(seed=2)
    assert state.phase == Phase.PLAY
    with pytest.raises(SpecError, match=r"no legal action in the window phase of deal 0"):  # was IndexError
        play_random(state, 0b1111, random.Random(2))


@pytest.mark.filterwarnings("ignore::trickrules.faces.simulate.KernelFallback")
@pytest.mark.parametrize("section", [WINDOW, NARROW])
def test_a_simulation_raises_the_engine_error(tmp_path: Path, section: str) -> None:
    game = _whist_with(tmp_path, section)
    phase = section if section == WINDOW else "play"  # a narrowing leaves the play phase with no card
    for native in (True, False):  # the kernel does not cover registered mechanisms: the engine plays both
        with pytest.raises(SpecError, match=rf"no legal action in the {phase} phase"):
            trickrules.simulate(game, deals=4, seed=1, native=native)


# -- the kernel reports it, and the engine replays the match to raise it -----------------


@pytest.fixture
def kernel() -> Any:
    pytest.importorskip("numba")
    from trickrules.native import kernel

    return kernel


def test_the_kernel_reports_a_dead_end_instead_of_playing_a_suit_that_does_not_exist(
    tmp_path: Path, unchecked: None, kernel: Any
) -> None:
    from trickrules.native.record import A_ERROR

    game = trickrules.load(_made(tmp_path, rounds='["others"]'))  # the dealer is stuck in every deal
    played = kernel.play_matches(kernel.kernel_for(game), [(s, s + 100) for s in range(4)], list(range(4)), 10_000)
    assert played.rows[:, A_ERROR].tolist() == [1] * 4  # was 0: the kernel made trumps in a suit of no card
    assert played.deals.tolist() == [0] * 4
    with pytest.raises(SpecError, match=r"seat \d has no legal action in the making phase") as on_kernel:
        trickrules.simulate(game, deals=20, seed=1)
    with pytest.raises(SpecError) as on_engine:
        trickrules.simulate(game, deals=20, seed=1, native=False)
    assert str(on_kernel.value) == str(on_engine.value)  # the same match, the same seat, the same deal


_KERNEL_RUN = """
import sys, trickrules
from trickrules.native.kernel import kernel_for, play_matches
from trickrules.native.record import A_ERROR
game = trickrules.load(sys.argv[1])
played = play_matches(kernel_for(game), [(1, 2), (3, 4)], [0, 1], 10_000)
print(played.rows[:, A_ERROR].tolist())
for native in (True, False):
    try:
        trickrules.simulate(game, deals=10, seed=1, native=native)
    except trickrules.SpecError as error:
        print(error)
"""


@pytest.mark.parametrize("by", ["same_dealer", "next_dealer"])
def test_the_kernel_bounds_the_deals_thrown_in_as_the_engine_does(tmp_path: Path, by: str, kernel: Any) -> None:
    # In a subprocess: a loop in the kernel's machine code would not hear an alarm.
    spec = str(_nobid(tmp_path, by))
    run = [sys.executable, "-c", _KERNEL_RUN, spec]
    out = subprocess.run(run, capture_output=True, text=True, timeout=900, check=True).stdout.splitlines()
    assert out[0] == "[1, 1]"  # each match reported, not dealt for ever
    assert len(out) == 3
    assert out[1] == out[2]
    assert f"{MAX_THROWN}" in out[1]
    assert "bid a contract" in out[1]


# -- deals thrown in for ever ------------------------------------------------------------


def test_a_deal_redealt_for_ever_is_stopped(tmp_path: Path, unchecked: None) -> None:
    game = trickrules.load(_made(tmp_path, rounds='["others"]', stick=False, same=True))
    with _deadline(120), pytest.raises(SpecError) as info:
        _random_match(game, 1)
    assert str(info.value) == (
        f"onesuit: deal 0 redealt {MAX_THROWN} times in a row: everyone passed every time, so the rules may "
        "let no seat make trumps; the match cannot go on."
    )


def test_an_auction_nobody_may_bid_in_is_stopped(tmp_path: Path) -> None:
    game = trickrules.load(_nobid(tmp_path, "same_dealer"))  # the loader cannot tell: eligibility is a formula
    with _deadline(120), pytest.raises(SpecError, match=rf"deal 0 redealt {MAX_THROWN} times .* bid a contract"):
        _random_match(game, 1)
    game = trickrules.load(_nobid(tmp_path, "next_dealer"))  # each deal passed out, the match never nearer its end
    with _deadline(120), pytest.raises(SpecError, match=rf"{MAX_THROWN} deals in a row thrown in \(deals 0 to 999\)"):
        _random_match(game, 1)


def test_the_count_starts_again_after_a_deal_is_played(tmp_path: Path) -> None:
    game = trickrules.load(_made(tmp_path, suits=2, stick=False, same=True))
    state = game.new_match(seed=4)
    for _ in range(8):  # everyone passes twice: the same dealer deals deal 0 again
        state = state.apply("pass")
    record = state.deal.parts[0]
    assert (state.deal.number, record.thrown) == (0, 1)
    while state.deal.number == 0 and not state.is_terminal:
        legal = state.legal_actions()
        state = state.apply(legal[-1])  # make trumps where one may
    assert state.deal.parts[0].thrown == 0


# -- the command line --------------------------------------------------------------------


def _cli(*args: str, patch: bool = False) -> subprocess.CompletedProcess[str]:
    """Run ``trickrules ARGS`` in a subprocess (with the making's check switched off where ``patch``)."""
    code = "import sys; from trickrules.faces.cli import main\n"
    if patch:
        code = "import trickrules.compile.making as m; m._check_offers = lambda *a: None\n" + code
    code += f"sys.exit(main({list(args)!r}))\n"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900, check=False)


def _one_line(result: subprocess.CompletedProcess[str], pattern: str) -> None:
    import re

    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("error: "), result.stderr
    assert re.search(pattern, last), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr  # simulate's progress bar cleared


def test_the_cli_refuses_the_spec_in_one_line(tmp_path: Path) -> None:
    spec = str(_made(tmp_path))
    for command in (["check", spec], ["play", spec, "--seed", "1", "--quiet"], ["simulate", spec, "-n", "10"]):
        _one_line(_cli(*command), r"making\.rounds\[1\]")


def test_the_cli_stops_a_dead_end_and_endless_redeals_in_one_line(tmp_path: Path) -> None:
    stuck = str(_made(tmp_path, rounds='["others"]'))
    for command in (["play", stuck, "--seed", "1", "--quiet", "--bots", "random"], ["simulate", stuck, "-n", "10"]):
        _one_line(_cli(*command, patch=True), r"seat \d has no legal action in the making phase")
    nobid = str(_nobid(tmp_path))
    for command in (["play", nobid, "--seed", "1", "--quiet"], ["simulate", nobid, "-n", "10"]):
        _one_line(_cli(*command), rf"deal 0 redealt {MAX_THROWN} times in a row")
