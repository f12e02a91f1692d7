"""Dealing and trumps beyond the bundled games: a fixed trump suit, a stock with a turned card, no contracts."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import parts
import trickrules
from trickrules import ArgumentError, EventLog, SpecError, View

DOCS = Path(__file__).resolve().parent.parent / "docs" / "dsl.md"


def whist_spec() -> str:
    """The complete Whist example of docs/dsl.md, as the base of the specs below."""
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(r'```toml\n(name = "whist".*?)```', text, re.S)
    assert found is not None
    return found.group(1)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(text.replace('name = "whist"', f'name = "{name}"'), encoding="utf-8")
    return path


def fixed_trumps(tmp_path: Path) -> trickrules.Game:
    text = whist_spec().replace(
        "chosen_by = \"turned\"          # the suit of the dealer's last card", 'chosen_by = "fixed"\nsuit = "S"'
    )
    return trickrules.load(write(tmp_path, "fixed", text.replace("turn_last_card = true", "")))


def three_with_stock(tmp_path: Path) -> trickrules.Game:
    text = whist_spec().replace("players = 4", "players = 3")
    text = text.replace('partnerships = "fixed"\nteams = [[0, 2], [1, 3]]', 'partnerships = "none"')
    text = text.replace(
        "packets = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]   # one card at a time, 13 each\nturn_last_card = true",
        "packets = [7]\nturn_from_stock = true",
    )
    text = text.replace(
        'for_each = "side"\nwhen = "tricks > 6"\npay = [{ to = "side", amount = "tricks - 6" }]',
        'for_each = "player"\nwhen = "own_tricks > 2"\npay = [{ to = "player", amount = "own_tricks - 2" }]',
    )
    return trickrules.load(write(tmp_path, "stock", text))


def play_out(game: trickrules.Game, seed: int) -> trickrules.State:
    rng = random.Random(seed)
    state = game.new_match(seed=seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
    return state


def test_a_fixed_trump_suit_is_trumps_in_every_deal(tmp_path: Path) -> None:
    game = fixed_trumps(tmp_path)
    rng = random.Random(1)
    state = game.new_match(seed=3)
    while not state.is_terminal:
        assert state.trump == "S"
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
    assert state.match.deals_done >= 1
    assert trickrules.replay(EventLog.from_state(state).to_json(), game=game) == state


def test_a_fixed_trump_needs_a_suit_of_the_deck(tmp_path: Path) -> None:
    turned = "chosen_by = \"turned\"          # the suit of the dealer's last card"
    text = whist_spec().replace(turned, 'chosen_by = "fixed"')
    with pytest.raises(SpecError, match=r"trump\.suit: 'fixed' trumps need a suit code"):
        trickrules.load(write(tmp_path, "nosuit", text))


def test_the_stock_s_top_card_is_turned_for_trumps_and_held_by_nobody(tmp_path: Path) -> None:
    game = three_with_stock(tmp_path)
    for seed in range(5):
        state = game.new_match(seed=seed)
        turned = parts.turned(state)
        assert turned is not None
        held = 0
        for hand in state.hands:
            held |= hand
        assert not (held >> turned) & 1
        assert [len(state.hand(s)) for s in range(3)] == [7, 7, 7]
        assert state.trump == game.cards.suit_codes[game.cards.suit_of[turned]]
        assert parts.v_turned(View.from_state(state, 0)) == game.cards.codes[turned]


def test_an_individual_game_without_contracts_plays_replays_and_scores_each_seat(tmp_path: Path) -> None:
    game = three_with_stock(tmp_path)
    for seed in range(3):
        state = play_out(game, seed)
        assert max(state.scoreboard.values()) >= 5
        assert trickrules.replay(EventLog.from_state(state).to_json(), game=game) == state


def test_a_stacked_deal_with_a_stock_names_its_turned_card_among_the_undealt(tmp_path: Path) -> None:
    game = three_with_stock(tmp_path)
    hands = [
        ["AS", "KS", "QS", "JS", "10S", "9S", "8S"],
        ["AH", "KH", "QH", "JH", "10H", "9H", "8H"],
        ["AD", "KD", "QD", "JD", "10D", "9D", "8D"],
    ]
    assert game.new_match(hands=hands, turned="2C").trump == "C"
    # the first undealt card in deck order
    assert parts.v_turned(View.from_state(game.new_match(hands=hands), 1)) == "7S"
    with pytest.raises(ArgumentError, match="must be one of the stock's"):
        game.new_match(hands=hands, turned="AS")


def test_packets_may_not_deal_more_cards_than_the_deck_has(tmp_path: Path) -> None:
    text = whist_spec().replace("packets = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]", "packets = [14]")
    with pytest.raises(SpecError, match=r"4 players x 14 cards = 56, but the deck has 52 cards"):
        trickrules.load(write(tmp_path, "toomany", text))


def test_turning_from_an_empty_stock_is_refused(tmp_path: Path) -> None:
    text = whist_spec().replace("turn_last_card = true", "turn_from_stock = true")
    with pytest.raises(SpecError, match="no stock to turn from"):
        trickrules.load(write(tmp_path, "nostock", text))


def test_the_bundled_whist_is_the_complete_example_of_the_dsl_manual() -> None:
    bundled = Path(__file__).resolve().parent.parent / "specs" / "whist.toml"
    assert bundled.read_text(encoding="utf-8") == whist_spec()
