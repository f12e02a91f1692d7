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
    t = full_game(data.draw(st.sampled_from(GAMES))).tables
    trump = data.draw(st.sampled_from(sorted(t.trumps)))
    size = data.draw(st.integers(2, t.players))
    trick = tuple(data.draw(st.lists(st.integers(0, t.cards.size - 1), min_size=size, max_size=size, unique=True)))
    eff, power = t.trumps[trump].eff_suit, t.trumps[trump].power
    assert winner_index(t, trick, trump) == card_by_card_winner(trick, eff, power)


@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_the_beats_masks_hold_exactly_the_cards_of_higher_power(data: st.DataObject) -> None:
    t = full_game(data.draw(st.sampled_from(GAMES))).tables
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
    assert game.shared.play_actions_of(mask) == tuple(game.action(f"play {c}") for c in codes)
    assert game.tables.points_of(mask) == tuple(game.cards.points[c] for c in bits(mask))


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_the_play_order_tables_follow_the_seats_round_the_table(data: st.DataObject) -> None:
    t = full_game(data.draw(st.sampled_from(GAMES))).tables
    # The seats sitting out, as a mask: nobody, one seat, or two (both partners of a lone hand's opponents).
    absent = data.draw(st.sets(st.sampled_from(range(t.players)), max_size=min(2, t.players - 2)))
    out = sum(1 << s for s in absent)
    size = t.players - len(absent)
    leader = data.draw(st.sampled_from([s for s in range(t.players) if s not in absent]))
    seats = t.trick_seats[out][leader]
    # The play order of a trick: the leader, then each seat's successor, every seat not sitting out once.
    assert len(seats) == size
    assert seats[0] == leader
    assert not absent & set(seats)
    assert len(set(seats)) == size
    assert all(seats[i + 1] == t.next_seat[out][seats[i]] for i in range(size - 1))
    assert t.trick_last[out] == size - 1
    # None is kept as another key for nobody.
    assert t.trick_seats[None] == t.trick_seats[0]
    assert t.next_seat[None] == t.next_seat[0]


@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_a_shuffled_deck_is_dealt_in_packets_from_the_dealers_left(data: st.DataObject) -> None:
    game = full_game(data.draw(st.sampled_from(GAMES)))
    t = game.tables
    dealer = data.draw(st.integers(0, t.players - 1))
    order = data.draw(st.permutations(range(t.cards.size)))
    hands = t.deal(dealer, list(order))
    position = 0
    expected = [0] * t.players
    for packet in game.rules.packets:
        for k in range(t.players):
            seat = (dealer + 1 + k) % t.players
            for card in order[position : position + packet]:
                expected[seat] |= 1 << card
            position += packet
    assert hands == tuple(expected)
