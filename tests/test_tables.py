"""The engine's precomputed tables agree with the plain rules they stand for."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import GAMES, full_game
from trickrules.compile.cards import TRUMP_BASE, bits
from trickrules.engine.obligations import winner_index


def card_by_card_winner(trick: tuple[int, ...], eff: tuple[int, ...], power: tuple[int, ...]) -> int:
    """The rule as the documents state it: the highest trump, else the highest card of the suit led."""
    led = eff[trick[0]]
    best_i = 0
    for i in range(1, len(trick)):
        c = trick[i]
        if (power[c] >= TRUMP_BASE or eff[c] == led) and power[c] > power[trick[best_i]]:
            best_i = i
    return best_i


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_led_power_picks_the_same_winner_as_the_card_by_card_rule(data: st.DataObject) -> None:
    t = full_game(data.draw(st.sampled_from(GAMES)))._tables
    trump = data.draw(st.sampled_from(sorted(t.trumps)))
    size = data.draw(st.integers(2, t.players))
    trick = tuple(data.draw(st.lists(st.integers(0, t.cards.size - 1), min_size=size, max_size=size, unique=True)))
    eff, power = t.trumps[trump].eff_suit, t.trumps[trump].power
    assert winner_index(t, trick, trump) == card_by_card_winner(trick, eff, power)


@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_the_beats_masks_hold_exactly_the_cards_of_higher_power(data: st.DataObject) -> None:
    t = full_game(data.draw(st.sampled_from(GAMES)))._tables
    trump = data.draw(st.sampled_from(sorted(t.trumps)))
    power = t.trumps[trump].power
    card = data.draw(st.integers(0, t.cards.size - 1))
    assert t.trumps[trump].beats[card] == sum(1 << o for o in range(t.cards.size) if power[o] > power[card])


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_the_mask_unpackers_list_the_cards_in_deck_order(data: st.DataObject) -> None:
    game = full_game(data.draw(st.sampled_from(GAMES)))
    mask = data.draw(st.integers(0, (1 << game.cards.size) - 1))
    codes = tuple(game.cards.codes[c] for c in bits(mask))
    assert game.codes_of(mask) == codes
    assert game._shared.play_actions_of(mask) == tuple(game.action(f"play {c}") for c in codes)
    assert game._tables.points_of(mask) == tuple(game.cards.points[c] for c in bits(mask))


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_the_trick_end_functions_agree_with_the_rules_they_unroll(data: st.DataObject) -> None:
    t = full_game(data.draw(st.sampled_from(GAMES)))._tables
    trump = data.draw(st.sampled_from(sorted(t.trumps)))
    out = data.draw(st.sampled_from([None, *range(t.players)]))
    size = t.players - (out is not None)
    trick = tuple(data.draw(st.lists(st.integers(0, t.cards.size - 1), min_size=size, max_size=size, unique=True)))
    eff, power = t.trumps[trump].eff_suit, t.trumps[trump].power
    end = t.trick_end[size]
    index, taken, texts = end(trick, t.trumps[trump].led_power[eff[trick[0]]])
    assert index == card_by_card_winner(trick, eff, power)
    assert taken == sum(1 << c for c in trick)
    assert texts == tuple(t.cards.codes[c] for c in trick)
    leader = data.draw(st.sampled_from([s for s in range(t.players) if s != out]))
    seats = t.trick_seats[out][leader]
    # The play order of a trick: the leader, then each seat's successor, every seat but one sitting out once.
    assert len(seats) == size
    assert seats[0] == leader
    assert out not in seats
    assert len(set(seats)) == size
    assert all(seats[i + 1] == t.next_seat[out][seats[i]] for i in range(size - 1))


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_toggle_flips_one_card_of_one_seat(data: st.DataObject) -> None:
    t = full_game(data.draw(st.sampled_from(GAMES)))._tables
    masks = st.integers(0, (1 << t.cards.size) - 1)
    hands = tuple(data.draw(st.lists(masks, min_size=t.players, max_size=t.players)))
    seat = data.draw(st.integers(0, t.players - 1))
    card = data.draw(st.integers(0, t.cards.size - 1))
    expected = tuple(h ^ (1 << card) if s == seat else h for s, h in enumerate(hands))
    assert t.toggle[seat](hands, t.bit[card]) == expected
