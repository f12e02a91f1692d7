"""The engine's precomputed tables agree with the plain rules they stand for."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import GAMES, full_game
from trickrules.legal import trick_winner_index
from trickrules.state import _codes


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_led_power_picks_the_same_winner_as_the_card_by_card_rule(data: st.DataObject) -> None:
    game = full_game(data.draw(st.sampled_from(GAMES)))
    trump = data.draw(st.sampled_from(sorted(game.trump_data)))
    size = data.draw(st.integers(2, game.players))
    trick = tuple(data.draw(st.lists(st.integers(0, game.cards.size - 1), min_size=size, max_size=size, unique=True)))
    eff, power = game.trump_data[trump][0], game.trump_data[trump][1]
    values = [game.led_power[trump][eff[trick[0]]][c] for c in trick]
    assert values.index(max(values)) == trick_winner_index(trick, eff, power)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_the_mask_unpackers_list_the_cards_in_deck_order(data: st.DataObject) -> None:
    game = full_game(data.draw(st.sampled_from(GAMES)))
    mask = data.draw(st.integers(0, (1 << game.cards.size) - 1))
    assert game.codes_of(mask) == _codes(game, mask)
    assert game.play_actions_of(mask) == tuple(game.action(f"play {c}") for c in _codes(game, mask))
