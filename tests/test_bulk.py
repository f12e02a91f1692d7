"""The bulk path plays the same matches as the public engine, deal by deal.

:func:`trickrules.engine.bulk.play_random` keeps its working state mutable
but shares the rules with the engine; these tests play the same seeds
through both (``play_simulation_match(..., bulk=True)`` and ``bulk=False``) and
compare every deal's outcome: the contract and declarer, who won each trick, the
cards each seat won, the outcome, the scoreboard and the pot.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from trickrules.engine.bulk import play_random
from trickrules.engine.events import DealScored, TrickWon
from trickrules.engine.game import Game, load
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.faces.simulate import play_simulation_match, simulate
from trickrules.spec.loader import bundled_names

#: Option choices that reach the bulk path's other stopping points (a contract ending the play early,
#: a penalised revoke, a game without its called card).
VARIANTS = [
    *[(name, {}) for name in bundled_names()],
    ("cuatrola", {"end_hand_when_decided": "on"}),
    ("manille", {"revoke": "penalise"}),
    ("quadrille", {"called_king_public": "on"}),  # a public call: its holder still may not lead it
]


def _deals(game: Game, kinds: tuple[str, ...], seed: int, index: int, bulk: bool) -> tuple[list[Any], State, int]:
    """Every deal of a match as a comparable record, the last state and the actions taken."""
    deals: list[Any] = []

    def record(before: State, after: State) -> None:
        scored = next(e for e in after.last_events if isinstance(e, DealScored))
        winners = list(before.tally.winners) + [e.seat for e in after.last_events if isinstance(e, TrickWon)]
        deals.append(
            (
                before.deal.number,
                before.contract,
                before.declarer,
                before.trump,
                tuple(winners),
                scored.outcome,
                scored.scoreboard,
                scored.pot,
                before.match.scores,
            )
        )

    state, actions = play_simulation_match(game, kinds, seed, index, record, bulk=bulk)
    return deals, state, actions


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=["-".join([n, *o]) for n, o in VARIANTS])
def test_bulk_and_public_engine_play_the_same_deals(name: str, options: dict[str, str]) -> None:
    game = load(name, options)
    kinds = ("random",) * game.players
    compared = 0
    for index in range(6):
        bulk, bulk_end, bulk_actions = _deals(game, kinds, 7, index, bulk=True)
        public, public_end, public_actions = _deals(game, kinds, 7, index, bulk=False)
        assert bulk == public, f"{name} match {index}"
        assert bulk_end == public_end
        assert bulk_actions == public_actions
        compared += len(bulk)
    assert compared >= 6  # every match holds at least one deal


@pytest.mark.parametrize("name", ["quadrille", "cuatrola", "manille", "hearts"])
def test_bulk_path_with_a_heuristic_seat_among_random_ones(name: str) -> None:
    game = load(name)
    kinds = ("random", "heuristic", "random", "random")[: game.players]
    for index in range(3):
        bulk = _deals(game, kinds, 11, index, bulk=True)
        public = _deals(game, kinds, 11, index, bulk=False)
        assert bulk[0] == public[0]
        assert bulk[1] == public[1]


def test_bulk_play_changes_nothing_it_is_given_and_stops_where_the_engine_must_act() -> None:
    game = load("quadrille")
    state = game.new_match(seed=3)
    rng = random.Random(1)
    while state.phase is not Phase.PLAY:
        legal = state.legal_actions()
        state = state.apply(legal[int(rng.random() * len(legal))])
    hands = state.hands
    after, played, pending = play_random(state, 0b1111, rng)
    assert state.hands == hands
    assert state.trick == ()
    assert not state.tally.winners
    assert played > 0
    assert pending is not None
    assert after.phase is Phase.PLAY
    assert after.to_move is not None
    # Conservation: every card is in a hand, the trick or a seat's won pile, once.
    cards = [*after.trick]
    for mask in (*after.hands, *after.tally.won):
        cards += [c for c in range(game.cards.size) if (mask >> c) & 1]
    assert sorted(cards) == list(range(game.cards.size))
    # What it leaves to the engine is a legal action that ends the deal (the called card it plays itself).
    assert pending in after.legal_actions()
    assert after.apply(pending).match.deals_done == after.match.deals_done + 1
    assert after.deal.number == state.deal.number


@pytest.mark.parametrize("name", ["cuatrola", "quadrille-fi"])
def test_bulk_play_goes_on_across_the_windows_between_tricks(name: str) -> None:
    """Declaration windows (Cuatrola) and late announcements: the bulk path answers them and goes on."""
    game = load(name)
    crossed = 0
    for seed in range(20):
        state = game.new_match(seed=seed)
        rng = random.Random(seed)
        while state.phase is not Phase.PLAY and not state.is_terminal:
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.random() * len(legal))])
        if state.is_terminal:
            continue
        after, played, pending = play_random(state, 0b1111, rng)
        assert after.deal.number == state.deal.number
        if pending is not None:  # stopped only before the step that ends the deal
            assert after.apply(pending).match.deals_done == after.match.deals_done + 1
            crossed += played > game.players
    assert crossed > 0


def test_bulk_play_does_nothing_for_a_seat_it_does_not_play_for() -> None:
    game = load("manille")
    state = game.new_match(seed=5)
    rng = random.Random(2)
    while state.phase is not Phase.PLAY:
        state = state.apply(state.legal_actions()[0])
    seat = state.to_move
    assert seat is not None
    before = rng.getstate()
    assert play_random(state, 0b1111 & ~(1 << seat), rng) == (state, 0, None)
    assert rng.getstate() == before


def test_simulate_gives_the_same_statistics_with_or_without_the_bulk_path() -> None:
    # The same figures the public engine gives (the bulk path is a speed-up, not another game).
    fast = simulate("quadrille", deals=60, seed=4)
    game = load("quadrille")
    deals = sum(len(_deals(game, ("random",) * 4, 4, i, bulk=False)[0]) for i in range(fast.statistics.matches))
    assert deals == fast.statistics.deals
