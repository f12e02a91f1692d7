"""Chance you can list (issue #25 item 4): chance steps, their outcomes, the seed's picks, stacked deals.

A match started with ``chance="caller"`` rests at every chance step of its
deals (a hand size or pass direction drawn, then each card dealt); the
caller applies an outcome like an action. Choosing the outcomes the seed
picks gives the seeded match's log byte for byte; choosing others deals
what was chosen, and the log still replays (the header records the deal).
``new_match(deals=...)`` stacks any deal of a match.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import trickrules
from trickrules import EventLog, View, replay
from trickrules.engine.events import Dealt
from trickrules.engine.game import Game
from trickrules.engine.state import State
from trickrules.engine.values import Phase, Stacked
from trickrules.errors import ArgumentError, IllegalActionError, LogIntegrityError
from trickrules.faces.bots import make_bots
from trickrules.faces.match import play_match

#: Every bundled game, and Hearts with its pass direction drawn by chance (a draw before the cards).
SETTINGS: list[tuple[str, dict[str, str]]] = [
    *((name, {}) for name in trickrules.bundled_names()),
    ("hearts", {"pass_direction": "chance"}),
]
DEALS = 3


def _id(setting: tuple[str, dict[str, str]]) -> str:
    name, options = setting
    return name + "".join(f",{k}={v}" for k, v in options.items())


def play_choosing(game: Game, seed: int, bots: str, choose: Any, deals: int = DEALS) -> State:
    """A match with ``chance="caller"``: ``choose(state)`` takes each chance outcome, the bots the rest.

    Stops once ``deals`` deals are done (after dealing the next one, as a seeded match does).
    """
    players = make_bots(game, bots, seed=seed)
    state = game.new_match(seed=seed, chance="caller")
    while not state.is_terminal and (state.match.deals_done < deals or state.is_chance):
        if state.is_chance:
            state = state.apply(choose(state))
        else:
            seat = state.chooser
            assert seat is not None
            state = state.apply(players[seat].choose(View.from_state(state, seat)))
    return state


def chance_steps(game: Game, seed: int = 0) -> list[State]:
    """The chance steps of a match's first deal, taking the seed's outcomes."""
    state = game.new_match(seed=seed, chance="caller")
    steps = []
    while state.is_chance:
        steps.append(state)
        state = state.apply(state.seeded_outcome())
    return steps


# -- the seed's picks give the seeded match --------------------------------------------------


@pytest.mark.parametrize("setting", SETTINGS, ids=[_id(s) for s in SETTINGS])
@pytest.mark.parametrize("seed", [0, 1])
def test_choosing_the_seeds_outcomes_gives_the_seeded_log(setting: tuple[str, dict[str, str]], seed: int) -> None:
    name, options = setting
    game = trickrules.load(name, options)
    bots = "heuristic" if seed % 2 else "random"
    seeded = play_match(game, make_bots(game, bots, seed=seed), seed=seed, max_deals=DEALS)
    chosen = play_choosing(game, seed, bots, lambda state: state.seeded_outcome())
    assert EventLog.from_state(chosen).to_json() == EventLog.from_state(seeded).to_json()
    assert chosen == seeded
    assert not chosen.match.chosen  # the seed's own deals need no recording


def test_a_seeded_match_never_rests_at_a_chance_step() -> None:
    game = trickrules.load("oh-hell")
    final = play_match(game, make_bots(game, "random", seed=4), seed=4, on_step=lambda s: _not_chance(s))
    header = EventLog.from_state(final).header_data()
    assert "chosen" not in header
    assert "deals" not in header


def _not_chance(state: State) -> None:
    assert not state.is_chance
    assert state.chance_outcomes() == ()


# -- a chance step ---------------------------------------------------------------------------


@pytest.mark.parametrize("setting", SETTINGS, ids=[_id(s) for s in SETTINGS])
def test_a_chance_step_lists_exact_outcomes_that_sum_to_one(setting: tuple[str, dict[str, str]]) -> None:
    name, options = setting
    game = trickrules.load(name, options)
    steps = chance_steps(game, seed=3)
    cards = game.players * steps[-1].deal.tricks
    assert len(steps) >= cards  # at least every card of the hands, one step each
    for state in steps:
        outcomes = state.chance_outcomes()
        assert outcomes
        assert all(type(p) is Fraction for _, p in outcomes)
        assert sum(p for _, p in outcomes) == 1
        assert state.legal_actions() == tuple(a for a, _ in outcomes)
        assert state.seeded_outcome() in state.legal_actions()
        assert (state.phase, state.to_move, state.chooser) == (Phase.DEAL, None, None)
        assert state.is_chance
        assert not state.is_terminal
        assert state.last_events == () or state is steps[0]
        for seat in range(game.players):  # every seat's view is consistent, and lists nothing to do
            view = View.from_state(state, seat)
            assert view.legal == ()
            assert View.from_json(view.to_json()) == view


def test_the_draws_come_before_the_cards_with_their_own_verbs() -> None:
    hearts = chance_steps(trickrules.load("hearts", {"pass_direction": "chance"}))
    assert [a.verb for a, _ in hearts[0].chance_outcomes()] == ["direction"] * 4
    assert {a.verb for s in hearts[1:] for a, _ in s.chance_outcomes()} == {"deal"}
    oh_hell = chance_steps(trickrules.load("oh-hell"))
    sizes = oh_hell[0].chance_outcomes()
    assert [str(a) for a, _ in sizes] == [f"size {k}" for k in range(1, 18)]
    assert {p for _, p in sizes} == {Fraction(1, 17)}
    size = oh_hell[-1].deal.tricks
    assert len(oh_hell) == 1 + 3 * size + 1  # the size, the hands, and the stock's turned card


def test_a_card_outcome_is_any_card_not_yet_dealt_equally_likely() -> None:
    game = trickrules.load("manille")
    state = game.new_match(seed=1, chance="caller")
    assert len(state.chance_outcomes()) == 32
    state = state.apply("deal 7S")
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 31
    assert {p for _, p in outcomes} == {Fraction(1, 31)}
    assert "deal 7S" not in {str(a) for a, _ in outcomes}
    assert sum(state.hands) == 1 << game.cards.codes.index("7S")


def test_the_seeds_picks_are_its_shuffle() -> None:
    game = trickrules.load("whist")
    steps = chance_steps(game, seed=11)
    dealt = steps[-1].apply(steps[-1].seeded_outcome())
    assert dealt.hands == game.new_match(seed=11).hands
    assert dealt.last_events == game.new_match(seed=11).last_events


# -- choosing other outcomes ------------------------------------------------------------------


def deal_in_order(state: State, codes: list[str]) -> State:
    """Deal ``codes`` one by one at the chance steps."""
    for code in codes:
        state = state.apply(f"deal {code}")
    return state


def test_a_whole_deal_can_be_dealt_card_by_card_as_chosen() -> None:
    game = trickrules.load("cuatrola")
    codes = list(game.cards.codes)
    state = deal_in_order(game.new_match(seed=5, dealer=3, chance="caller"), codes)
    assert not state.is_chance
    stacked = game.new_match(seed=5, dealer=3, hands=[list(h) for h in _hands_by_position(game, codes, dealer=3)])
    assert state.hands == stacked.hands
    assert state.trump == stacked.trump  # the last card dealt, the dealer's, is turned
    assert state.match.chosen  # not the seed's deal: recorded
    log = EventLog.from_state(state)
    assert log.header_data()["chosen"][0]["shuffle"] == 0
    assert replay(log.to_json(), game, partial=True) == state


def _hands_by_position(game: Game, order: list[str], dealer: int) -> list[list[str]]:
    hands: list[list[str]] = [[] for _ in range(game.players)]
    for seat, code in zip(game.tables.deal_seats[dealer], order, strict=False):
        hands[seat].append(code)
    return hands


def test_a_chosen_hand_size_and_turned_card() -> None:
    game = trickrules.load("oh-hell")
    state = game.new_match(seed=2, chance="caller").apply("size 2")
    codes = game.cards.codes
    state = deal_in_order(state, [codes[k] for k in (0, 1, 2, 3, 4, 5, 6)])
    assert state.deal.tricks == 2
    assert [state.hand(s) for s in range(3)] == [_deck(codes, (2, 5)), _deck(codes, (0, 3)), _deck(codes, (1, 4))]
    dealt = [e for _, e in state.entries() if isinstance(e, Dealt)]
    assert dealt[-1].turned == codes[6]  # the card after the hands, the stock's first, is the one turned
    assert replay(EventLog.from_state(state).to_json(), game, partial=True) == state


def _deck(codes: tuple[str, ...], indices: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(codes[k] for k in sorted(indices))


def test_a_chosen_pass_direction_is_recorded_and_replays() -> None:
    game = trickrules.load("hearts", {"pass_direction": "chance"})
    start = game.new_match(seed=8, chance="caller")
    seeded = start.seeded_outcome()
    other = next(a for a, _ in start.chance_outcomes() if a != seeded and a.arg != "0")
    state = start.apply(other)
    while state.is_chance:
        state = state.apply(state.seeded_outcome())
    assert state.phase == Phase.PASSING
    assert state.match.chosen[0][1].draws == (("direction", int(other.arg)),)
    assert View.from_state(state, 1).parts[1][1].pass_to == (1 + int(other.arg)) % 4
    text = EventLog.from_state(state).to_json()
    assert json.loads(text.splitlines()[0])["chosen"][0]["draws"] == {"direction": int(other.arg)}
    assert replay(text, game, partial=True) == state


def test_an_illegal_outcome_is_refused_and_changes_nothing() -> None:
    game = trickrules.load("oh-hell")
    state = game.new_match(seed=2, chance="caller")
    before = (state, state.hands, state.deal, state.chance_outcomes())
    for action, why in [
        ("deal AS", "draws a size"),
        ("size 18", "not a size the rules may draw"),
        ("play AS", "draws a size"),
        ("direction 1", "draws a size"),
    ]:
        with pytest.raises(IllegalActionError, match=why):
            state.apply(action)
        assert not state.is_legal(action)
    after_size = state.apply("size 3").apply("deal AS")
    for action, why in [("deal AS", "AS is already dealt"), ("deal ZZ", "not a card of this deck"), ("pass", "a card")]:
        with pytest.raises(IllegalActionError, match=why):
            after_size.apply(action)
    assert (state, state.hands, state.deal, state.chance_outcomes()) == before


def test_seeded_outcome_is_only_asked_at_a_chance_step() -> None:
    state = trickrules.load("whist").new_match(seed=1)
    with pytest.raises(ArgumentError, match="not at a chance step"):
        state.seeded_outcome()
    with pytest.raises(ArgumentError, match="chance must be"):
        trickrules.load("whist").new_match(seed=1, chance="dice")


def test_a_tampered_hand_of_a_chosen_deal_is_found() -> None:
    game = trickrules.load("manille")
    state = deal_in_order(game.new_match(seed=6, chance="caller"), list(reversed(game.cards.codes)))
    lines = EventLog.from_state(state).to_json().splitlines()
    dealt = json.loads(lines[1])
    dealt["hands"][0][0], dealt["hands"][1][0] = dealt["hands"][1][0], dealt["hands"][0][0]
    forged = "\n".join([lines[0], json.dumps(dealt, separators=(",", ":")), *lines[2:]]) + "\n"
    with pytest.raises(LogIntegrityError, match="event 0"):
        replay(forged, game, partial=True)
    header = json.loads(lines[0])
    header["chosen"][0]["hands"][0][0], header["chosen"][0]["hands"][1][0] = (
        header["chosen"][0]["hands"][1][0],
        header["chosen"][0]["hands"][0][0],
    )
    forged = "\n".join([json.dumps(header, separators=(",", ":")), *lines[1:]]) + "\n"
    with pytest.raises(LogIntegrityError, match="event 0"):
        replay(forged, game, partial=True)


def test_a_seats_log_hides_the_other_hands_of_chosen_deals() -> None:
    game = trickrules.load("manille")
    state = deal_in_order(game.new_match(seed=6, chance="caller"), list(game.cards.codes))
    seat_log = EventLog.from_state(state).for_seat(2)
    hands = seat_log.header.chosen[0][1].hands
    assert hands[2] == state.hand(2)
    assert all(set(h) == {"?"} for s, h in enumerate(hands) if s != 2)
    assert EventLog.from_json(seat_log.to_json()) == seat_log


# -- stacking any deal ----------------------------------------------------------------------


def test_a_later_deal_can_be_stacked_and_the_log_replays() -> None:
    game = trickrules.load("manille")
    codes = list(game.cards.codes)
    hands = [codes[k * 8 : k * 8 + 8] for k in range(4)]
    final = _play_to(game, deals={2: hands})
    dealt = [e for _, e in final.entries() if isinstance(e, Dealt)]
    assert [list(h) for h in dealt[2].hands] == hands
    assert [list(h) for h in dealt[1].hands] != hands
    log = EventLog.from_state(final)
    assert log.header_data()["deals"] == [{"deal": 2, "hands": hands}]
    assert replay(log.to_json(), game, partial=True) == final
    assert EventLog.from_json(log.to_json()).to_json() == log.to_json()
    assert all(k <= 3 for k, _ in log.for_seat(0).header.deals)


def _play_to(game: Game, deals: Any, seed: int = 3, done: int = 3) -> State:
    bots = make_bots(game, "random", seed=seed)
    state = game.new_match(seed=seed, deals=deals)
    while not state.is_terminal and state.match.deals_done < done:
        seat = state.chooser
        assert seat is not None
        state = state.apply(bots[seat].choose(View.from_state(state, seat)))
    return state


def test_a_stacked_deal_can_name_its_pass_direction() -> None:
    game = trickrules.load("hearts", {"pass_direction": "chance"})
    codes = list(game.cards.codes)
    hands = tuple(tuple(codes[k * 13 : k * 13 + 13]) for k in range(4))
    state = game.new_match(seed=1, deals={0: Stacked(hands, "", (("direction", 2),))})
    assert View.from_state(state, 0).parts[1][1].pass_to == 2
    assert replay(EventLog.from_state(state).to_json(), game, partial=True) == state
    with pytest.raises(ArgumentError, match="not a draw this deal may have"):
        game.new_match(seed=1, deals={0: Stacked(hands, "", (("direction", 5),))})


@pytest.mark.parametrize(
    ("deals", "fragment"),
    [
        ([["AS"]], "deals must map"),
        ({-1: []}, "deal number"),
        ({"1": []}, "deal number"),
        ({1: "AS KS"}, "deals\\[1\\]"),
        ({1: [["AS"], [], [], []]}, "deals\\[1\\]"),
        ({0: [["AS"], [], [], []]}, "hands both"),
    ],
)
def test_bad_stacked_deals_are_refused(deals: Any, fragment: str) -> None:
    game = trickrules.load("manille")
    hands = [list(game.cards.codes[k * 8 : k * 8 + 8]) for k in range(4)]
    with pytest.raises(ArgumentError, match=fragment):
        game.new_match(seed=1, deals=deals, hands=hands if 0 in (deals if isinstance(deals, dict) else {}) else None)


def test_a_misdealt_later_deal_deals_again_from_the_seed() -> None:
    game = trickrules.load("manille")
    codes = list(game.cards.codes)
    hands = [codes[0:9], codes[9:16], codes[16:24], codes[24:32]]  # 9, 7, 8, 8 cards: a misdeal
    final = _play_to(game, deals={1: hands}, done=2)
    tags = [e.TAG for _, e in final.entries()]
    assert tags.count("misdealt") == 1
    assert replay(EventLog.from_state(final).to_json(), game, partial=True) == final


# -- any choices conserve the deck and replay -----------------------------------------------


#: Games with a drawn hand size and a turned card of the stock, a drawn pass direction, a turned last card.
DRAWING: list[tuple[str, dict[str, str]]] = [
    ("oh-hell", {}),
    ("hearts", {"pass_direction": "chance"}),
    ("cuatrola", {}),
    ("euchre", {}),
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    setting=st.sampled_from(DRAWING),
    seed=st.integers(0, 2**64),
    picks=st.randoms(use_true_random=False),
)
def test_any_chance_choices_conserve_the_deck_and_replay(
    setting: tuple[str, dict[str, str]], seed: int, picks: random.Random
) -> None:
    game = trickrules.load(*setting)
    final = play_choosing(game, seed % 1000, "random", lambda s: picks.choice(s.chance_outcomes())[0], deals=1)
    for _, event in final.entries():
        if isinstance(event, Dealt):
            cards = [c for hand in event.hands for c in hand]
            assert len(cards) == len(set(cards))
            assert set(cards) <= set(game.cards.codes)
            assert len({len(hand) for hand in event.hands}) == 1
    if not final.is_chance:
        played = 0
        for mask in (*final.hands, *final.tally.won):
            assert not played & mask
            played |= mask
    assert replay(EventLog.from_state(final).to_json(), game, partial=True) == final


def test_a_log_taken_at_a_deals_first_chance_step_replays_to_it() -> None:
    """Replayed from the seed, the step that ends a deal goes on to deal; a log cut before the deal rests there."""
    game = trickrules.load("cuatrola")
    state = game.new_match(seed=3, chance="caller")
    assert replay(EventLog.from_state(state).to_json(), game, partial=True) == state
    players = make_bots(game, "random", seed=1)
    while state.match.deals_done < 2:
        if state.is_chance:
            state = state.apply(state.chance_outcomes()[-1][0])  # never the seed's deal
        else:
            seat = state.chooser
            assert seat is not None
            state = state.apply(players[seat].choose(View.from_state(state, seat)))
    assert state.is_chance
    text = EventLog.from_state(state).to_json()
    again = replay(text, game, partial=True)
    assert again == state
    assert again.is_chance
    with pytest.raises(LogIntegrityError, match="incomplete"):
        replay(text, game)
