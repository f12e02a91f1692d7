"""The native auction (:mod:`trickrules.native.auction`) against the engine's, choice for choice.

For every bundled game and overlay with an auction and a sample of the
options that change it, engine matches are played with the random bot; at
every deal's auction the kernel plays it from the same position and the same
generator, the engine goes on with the generator until it leaves the
bidding, and the two are compared: the deal's fields, the auction's record,
the redeal flag, the number of decisions and the generator itself.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from functools import partial
from pathlib import Path

import pytest

import native_harness as H
import trickrules
from trickrules.engine.game import Game
from trickrules.engine.phases.auction import Auction
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import auction
from trickrules.native import layout as L
from trickrules.native.mt import from_random
from trickrules.native.tables import Builder, Unsupported, export_core

#: (game, options): every bundled game and overlay with an auction, and options that change it.
CASES: list[tuple[str, dict[str, str]]] = [
    ("cuatrola", {}),
    ("cuatrola", {"bidding_rounds": "until_three_passes"}),
    ("cuatrola", {"target": "11", "target_guard": "literal_21"}),
    ("cuatrola", {"target": "16", "bidding_rounds": "until_three_passes"}),
    ("cuatrola-11", {}),
    ("quadrille", {}),
    ("quadrille", {"bidding": "single_round"}),
    ("quadrille", {"forced_spadille": "off"}),
    ("quadrille", {"forced_spadille": "off", "passed_out_redeal_by": "same_dealer"}),
    ("quadrille", {"forced_spadille": "off", "bidding": "single_round", "passed_out_redeal_by": "same_dealer"}),
    ("quadrille-fi", {}),
    ("quadrille-fi", {"earlier_seat_may_hold": "on"}),
    ("quadrille-fi", {"earlier_seat_may_hold": "on", "ladder": "with_dimidiator_casco", "bidding": "single_round"}),
    ("quadrille-fi", {"vole_bid_with_partner": "on", "forced_spadille": "off"}),
    ("quadrille-no-forced-spadille", {}),
    ("quadrille-no-forced-spadille", {"passed_out_redeal_by": "same_dealer"}),
    ("quintille", {}),
    ("quintille", {"forced_spadille": "off", "passed_out_redeal_by": "same_dealer"}),
    ("quintille", {"bidding": "single_round"}),
]
MATCHES = 30
DEALS = 8
#: Fresh matches whose first auction is checked.
FRESH = 400
#: Fresh matches whose bots all pass.
PASSING = 20


def tables(game: Game) -> H.Array:
    """The game's ``tb`` with the auction's tables, eligibility read from ``st``."""
    return H.kernel_tables(game, partial(auction.export, eligibility_given=True))


def record(state: State) -> Auction:
    """The auction record of ``state``'s deal."""
    found: Auction = state.part(Phase.BIDDING)
    return found


def passing_seeds(game: Game, count: int) -> list[int]:
    """Seeds of the bots' generator whose first draws make every seat pass (whatever it is offered)."""
    n, below = game.players, 1 / (len(game.rules.contracts) + 1)
    found: list[int] = []
    seed = 10**6
    while len(found) < count:
        rng = random.Random(seed)
        if all(rng.random() < below for _ in range(n)):
            found.append(seed)
        seed += 1
    return found


def auctions(game: Game, seed: int, bots: int | None = None) -> Generator[tuple[State, random.Random], State, None]:
    """The states where a deal's auction starts in a match of random bots (with the bots' generator)."""
    rng = random.Random(seed if bots is None else bots)
    n = game.players
    start = random.Random(seed + 1)
    scores = None
    if game.rules.match_target and seed % 2:  # start near the target, where the eligible rules bite
        side = [start.randrange(game.rules.match_target) for _ in range(n)]
        scores = [side[game.tables.team_of[s]] for s in range(n)]
    state = game.new_match(seed=seed * 7919 + 11, dealer=seed % n, scores=scores)
    deals = 0
    while not state.is_terminal and deals < DEALS:
        if state.phase == Phase.BIDDING and record(state).spoken == 0:
            deals += 1
            state = yield state, rng
            continue
        state = H.step(state, rng)


def check_auction(game: Game, tb: H.Array, state: State, rng: random.Random) -> tuple[State, str]:
    """Run the kernel's auction from ``state`` and the engine's; compare; the engine's state after it, and how."""
    st = H.state_arrays(state, auction.part_to_arrays)
    if record(state).spoken == 0:
        # A new deal's auction: the driver may leave the block cleared, or as the last deal (or dealing) left it.
        st[auction.A_HIGH : auction.A_STAMP + 1] = 0 if state.deal.number % 2 else [2, 1, 5, 9, 1, 1, 77]
    mt = from_random(rng)
    auction.run(tb, st, mt)
    before = state
    full = (1 << len(game.rules.contracts)) - 1
    guarded = any(st[auction.A_ELIG + s] != full for s in range(game.players))
    steps = 0
    while True:
        state = H.step(state, rng)
        steps += 1
        if state.phase != Phase.BIDDING or record(state).spoken == 0:
            break
    H.assert_same_generator(mt, rng)
    assert st[L.ACTIONS] == steps
    d0, d1 = before.deal, state.deal
    if d1.number == d0.number and state.match.deals_done == before.match.deals_done and d1.parts[0] is d0.parts[0]:
        # The auction ended in a contract or a play without one: the deal goes on.
        want = H.state_arrays(state, auction.part_to_arrays)
        assert st[L.REDEAL] == 0
        H.assert_fields(st, want, game.players)
        H.assert_words(st, want, (L.FORCED, L.SHUFFLE, *range(L.MECH_AUCTION, L.MECH_AUCTION + 64)))
        how = "forced" if want[L.FORCED] else ("contract" if d1.contract is not None else "no contract")
        return state, f"{how}, guarded" if guarded else how
    # Everyone passed and the deal was thrown in.
    assert st[auction.A_HIGH] == L.NONE
    assert st[auction.A_OVER] == 1
    assert st[auction.A_PASSED] == (1 << game.players) - 1 or game.rules.auction.value == "once_around"
    if st[L.REDEAL] == 1:  # the same dealer deals the same deal again, from the next shuffle
        assert state.match.deals_done == before.match.deals_done
        assert (st[L.NUMBER], st[L.DEALER]) == (d1.number, d1.dealer)
        assert st[L.SHUFFLE] == d1.parts[0].shuffle
        return state, "redeal"
    assert st[L.REDEAL] == 2, "the engine threw the deal in"
    # Passed out: the deal counts as played, and the next dealer deals the next shuffle (or the match is over).
    assert state.match.deals_done == before.match.deals_done + 1
    assert state.is_terminal or (d1.number, d1.dealer) == (d0.number + 1, (d0.dealer + 1) % game.players)
    assert state.is_terminal or d1.parts[0].shuffle == d0.parts[0].shuffle + 1
    assert (st[L.NUMBER], st[L.SHUFFLE], st[L.DEALER]) == (d0.number, d0.parts[0].shuffle, d0.dealer)
    return state, "passed out"


@pytest.mark.parametrize(
    ("name", "options"), CASES, ids=[f"{n}[{','.join(f'{k}={v}' for k, v in o.items())}]" for n, o in CASES]
)
def test_auction_matches_engine(name: str, options: dict[str, str]) -> None:
    """The kernel's auction takes the engine's decisions and leaves the engine's deal, over many deals."""
    game = trickrules.load(name, options)
    tb = tables(game)
    seen: dict[str, int] = {}
    deals = 0
    for seed in range(MATCHES):
        gen = auctions(game, seed)
        try:
            state, rng = next(gen)
            while True:
                state, how = check_auction(game, tb, state, rng)
                seen[how] = seen.get(how, 0) + 1
                deals += 1
                state, rng = gen.send(state)
        except StopIteration:
            pass
    # First deals of fresh matches: no play needed, so many more auctions (and the rare all-pass endings).
    for seed in range(MATCHES, MATCHES + FRESH):
        state, rng = next(auctions(game, seed))
        _, how = check_auction(game, tb, state, rng)
        seen[how] = seen.get(how, 0) + 1
        deals += 1
    # Deals everyone passes (rare with random bots): the bots' generator picked to pass.
    for k, bots in enumerate(passing_seeds(game, PASSING)):
        state, rng = next(auctions(game, k, bots))
        _, how = check_auction(game, tb, state, rng)
        seen[how] = seen.get(how, 0) + 1
        deals += 1
    assert deals >= 450, (deals, seen)
    assert "contract" in seen, seen
    if game.rules.match_target and options.get("target_guard") != "literal_21":  # literal_21 to 11: no guard
        assert "contract, guarded" in seen, seen
    ending = {
        "forced": "forced",
        "play": "no contract",
        "redeal": "passed out" if game.rules.all_pass_redeal_next else "redeal",
    }
    assert (
        seen.get(ending[game.rules.all_pass.value], 0) + seen.get(f"{ending[game.rules.all_pass.value]}, guarded", 0)
        >= PASSING
    ), seen


@pytest.mark.parametrize("name", ["cuatrola", "quadrille", "quadrille-fi"])
def test_auction_from_any_position(name: str) -> None:
    """From any decision of an auction under way, the kernel goes on as the engine does."""
    game = trickrules.load(
        name,
        {"bidding_rounds": "until_three_passes"}
        if name == "cuatrola"
        else {"earlier_seat_may_hold": "on"}
        if name == "quadrille-fi"
        else {},
    )
    tb = tables(game)
    checked = 0
    for seed in range(300):
        state, rng = next(auctions(game, seed))
        for _ in range(seed % 4):
            state = H.step(state, rng)
            if state.phase != Phase.BIDDING or record(state).spoken == 0:
                break
        else:
            check_auction(game, tb, state, rng)
            checked += 1
    assert checked > 150


def test_every_auction_game_is_covered() -> None:
    """Every bundled spec with an auction is among the cases."""
    names = {p.stem for p in (Path(__file__).parent.parent / "specs").glob("*.toml")}
    with_auction = {n for n in names if Phase.BIDDING in trickrules.load(n).slot}
    engine_only = {"skat", "skat-openspiel", "tarok"}  # registered mechanisms the kernel lacks: simulated on the engine
    assert with_auction - engine_only == {n for n, _ in CASES}


#: Quadrille with eligible rules that read nothing that changes (a test overlay): evaluated once, at export.
CONSTANT_RULES = """extends = "quadrille"
[variant]
name = "quadrille-constant-eligible"
title = "Quadrille with constant eligible rules"
doc = "A test overlay."
[[bidding.contracts]]
name = "casco"
eligible = "players == 5"
[[bidding.contracts]]
name = "solo"
eligible = "players == 4 and stake == 4 and target == 0"
"""


def test_constant_eligibility(tmp_path: Path) -> None:
    """Eligible rules that read only constants are evaluated at export, and the kernel needs no masks."""
    overlay = tmp_path / "quadrille-constant-eligible.toml"
    overlay.write_text(CONSTANT_RULES, encoding="utf-8")
    game = trickrules.load(overlay)
    tb = H.kernel_tables(game, auction.export)  # no eligibility_given: every rule is constant
    seen: dict[str, int] = {}
    bids: set[int] = set()
    for seed in range(300):
        state, rng = next(auctions(game, seed))
        state, how = check_auction(game, tb, state, rng)
        seen[how] = seen.get(how, 0) + 1
        if state.deal.contract is not None:
            bids.add(state.deal.contract)
    assert seen.get("contract, guarded", 0) >= 250, seen  # casco is never eligible
    assert bids == {0, 1, 3}


def test_varying_eligibility_is_unsupported() -> None:
    """Cuatrola's eligible rule reads the score: without a formula evaluator the export refuses it."""
    game = trickrules.load("cuatrola")
    b = Builder()
    export_core(game.tables, b)
    with pytest.raises(Unsupported, match="score"):
        auction.export(game, b)
    b = Builder()
    export_core(game.tables, b)
    auction.export(trickrules.load("quadrille"), b)  # no eligible rule: exported as it is
