"""The engine's values keep their contract: equal values hash alike, and a state's equality includes its game."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trickrules
from trickrules.engine.events import event_from_data, event_to_data
from trickrules.engine.phases.auction import Auction
from trickrules.engine.phases.declare import Meld
from trickrules.engine.state import State
from trickrules.engine.values import DealInfo, MatchInfo, Phase, Revoke, Step, Tally, evolve
from trickrules.spec.loader import bundled_path

GAMES = ("manille", "cuatrola", "quadrille", "quadrille-fi")


def rebuilt(value: Any) -> Any:
    """The same record built afresh from its fields (a distinct object)."""
    return type(value)(*(getattr(value, f.name) for f in attrs.fields(type(value)) if f.init))


def random_states(name: str, seed: int, steps: int) -> list[State]:
    game = trickrules.load(name)
    rng = random.Random(seed)
    state = game.new_match(seed=seed)
    out = [state]
    for _ in range(steps):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
        out.append(state)
    return out


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(GAMES), seed=st.integers(0, 2**32), steps=st.integers(1, 120))
def test_equal_states_and_records_hash_alike(name: str, seed: int, steps: int) -> None:
    for state in random_states(name, seed, steps):
        again = rebuilt(state)
        assert again == state
        assert hash(again) == hash(state)
        assert len({state, again}) == 1
        for record in (state.deal, state.tally, state.match, *(p for p in state.deal.parts if p is not None)):
            copy = rebuilt(record)
            assert copy == record
            assert hash(copy) == hash(record)
        for event in state.last_events:
            read = event_from_data(event_to_data(event))
            assert read == event
            assert hash(read) == hash(event)


def test_states_of_different_games_are_not_equal() -> None:
    plain = trickrules.load("manille").new_match(seed=3)
    other = trickrules.load("manille", {"scoring": "difference"}).new_match(seed=3)
    assert plain.game != other.game
    assert plain != other
    assert len({plain, other}) == 2
    assert plain == trickrules.load("manille").new_match(seed=3)


def test_games_are_equal_by_fingerprint() -> None:
    # The bundled name is compiled once per process; its file, loaded by path, is compiled again.
    a, b = trickrules.load("quadrille"), trickrules.load(bundled_path("quadrille"))
    assert a is not b
    assert a is trickrules.load("quadrille")
    assert a == b
    assert hash(a) == hash(b)
    assert a != trickrules.load("quadrille", {"deals": "4"})


def test_a_game_cannot_be_changed_through_its_attributes() -> None:
    game = trickrules.load("manille")
    with pytest.raises(AttributeError):
        game.name = "other"
    options: Any = game.options
    with pytest.raises(TypeError):
        options["scoring"] = "difference"


def test_records_are_frozen() -> None:
    d = DealInfo(number=0, dealer=0, dealt=(0, 0, 0, 0))
    for record in (d, Tally((0, 0)), MatchInfo(seed=1, scores=(0, 0)), Auction(), Meld(0, 0, 0), Revoke(0, "x")):
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(record, attrs.fields(type(record))[0].name, 5)


def test_evolve_changes_only_the_fields_named() -> None:
    d = DealInfo(number=2, dealer=1, dealt=(1, 2, 4, 8), trump=0)
    e = evolve(d, contract=1, declarer=2)
    assert (e.contract, e.declarer) == (1, 2)
    assert e == attrs.evolve(d, contract=1, declarer=2)
    with pytest.raises(KeyError):
        evolve(d, no_such_field=1)


def test_a_phase_is_its_name() -> None:
    play: str = Phase.PLAY
    assert play == "play"
    assert repr(Phase.OVER) == "'over'"
    made = {"making", "discard", "alone"}  # trumps made round the table
    phases = {"deal", "bidding", "trump", "call", "exchange", "announce", "play", "declare", "over"}
    passed = {"passing"}  # cards passed after the deal
    bid = {"tricks_bid"}  # every player bids a number of tricks
    assert {p.value for p in Phase} == phases | made | passed | bid


def test_history_steps_chain_the_events() -> None:
    state = trickrules.load("manille").new_match(seed=1)
    after = state.apply(state.legal_actions()[0])
    assert isinstance(after.history, Step)
    assert after.history.before is state.history
    assert after.entries()[: len(state.entries())] == state.entries()
