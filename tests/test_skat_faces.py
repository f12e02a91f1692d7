"""Skat through the faces: bots in every phase, logs replayed and redacted, simulations on the engine.

The native kernel has no version of the value bidding or the widow: a simulation of
either Skat says so once (a ``KernelFallback`` warning) and gives what the engine gives.
"""

from __future__ import annotations

import warnings

import pytest

import trickrules
from trickrules import EventLog, View, replay
from trickrules.engine.phases.widow import WidowDiscarded, WidowTaken, WidowView
from trickrules.faces import simulate as simulate_module
from trickrules.faces.bots import make_bots
from trickrules.faces.match import play_match


@pytest.mark.parametrize("name", ["skat", "skat-openspiel"])
@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_bots_play_every_phase_and_the_log_replays(name: str, bots: str) -> None:
    game = trickrules.load(name)
    tags: set[str] = set()
    # OpenSpiel's reading is a match of one deal: as many matches as give the others' 4 matches of 6 deals.
    for seed in range(24 if name == "skat-openspiel" else 4):
        final = play_match(game, make_bots(game, bots, seed=seed), seed=seed, max_deals=6)
        log = EventLog.from_state(final)
        assert replay(log, partial=not final.is_terminal) == final
        tags |= {e.TAG for e in log.events}
    assert {"bid", "auction_won", "widow_discard", "widow_taken", "play", "trick", "deal_scored"} <= tags
    if name == "skat":
        assert {"value_bid", "value_won"} <= tags


def test_only_the_declarer_sees_the_skat_and_his_discards() -> None:
    game = trickrules.load("skat")
    state = game.new_match(seed=4, dealer=2)
    state = state.apply("bid 18").apply("hold").apply("pass").apply("pass").apply("pickup")
    widow = View.from_state(state, 0).part(WidowView)
    assert widow is not None
    assert len(widow.cards) == 2
    assert set(widow.cards) <= set(state.hand(0))
    other = View.from_state(state, 1).part(WidowView)
    assert other is not None
    assert other.cards == ()
    assert other.taken
    state = state.apply(f"discard {widow.cards[0]}")
    second = state.hand(0)[0]
    state = state.apply(f"discard {second}")
    log = EventLog.from_state(state)
    for seat in (1, 2):
        taken = [e for e in log.for_seat(seat).events if isinstance(e, WidowTaken)]
        discarded = [e for e in log.for_seat(seat).events if isinstance(e, WidowDiscarded)]
        assert [e.cards for e in taken] == [("?", "?")]
        assert [e.card for e in discarded] == ["?", "?"]
    mine = [e for e in log.for_seat(0).events if isinstance(e, WidowDiscarded)]
    assert [e.card for e in mine] == [widow.cards[0], second]
    assert len(state.hand(0)) == 10


@pytest.mark.parametrize(("name", "mechanism"), [("skat", "value_bidding"), ("skat-openspiel", "widow")])
def test_simulate_falls_back_to_the_engine_once_with_the_same_results(name: str, mechanism: str) -> None:
    simulate_module._SAID.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        native = trickrules.simulate(name, 40, seed=5, bots="random")
        again = trickrules.simulate(name, 40, seed=5, bots="random")
    said = [w for w in caught if issubclass(w.category, simulate_module.KernelFallback)]
    assert len(said) == 1
    assert mechanism in str(said[0].message)
    engine = trickrules.simulate(name, 40, seed=5, bots="random", native=False)
    assert native.to_data() == again.to_data() == engine.to_data()
    assert native.statistics.deals >= 40


def test_no_seat_sees_the_skat_as_played() -> None:
    """The skat counts for the declarer, but no trick took it: it is not among the cards every view shows played.

    (It was: the widow added the discards, or the skat of a game from hand, to the tally's cards won.)
    """
    game = trickrules.load("skat")
    for hand in (False, True):
        state = game.new_match(seed=4, dealer=2).apply("bid 18").apply("hold").apply("pass").apply("pass")
        if hand:
            skat = set(game.tables.codes_of(state.part("widow").cards))
            state = state.apply("hand")
        else:
            state = state.apply("pickup")
            first = state.hand(0)[0]
            state = state.apply(f"discard {first}")
            second = state.hand(0)[0]
            state = state.apply(f"discard {second}")
            skat = {first, second}
        while state.phase != "play":
            state = state.apply(state.legal_actions()[0])
        state = state.apply(state.legal_actions()[0])
        for seat in range(3):
            assert not skat & set(View.from_state(state, seat).played), (hand, seat)
