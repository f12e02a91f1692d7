"""The pure-data facts of the three games: decks, rank orders, promotions, points.

Each test is named after the source line it checks (es = seeds/000, the
Spanish Quadrille text; fi = seeds/003; cuatrola = seeds/002; manille =
seeds/004).
"""

from __future__ import annotations

from functools import cache

import pytest

import parts
import trickrules
from trickrules import View
from trickrules.compile.cards import NO_TRUMP
from trickrules.engine.game import Game
from trickrules.faces.render import rules_data


@cache
def game(name: str) -> Game:
    return trickrules.load(name)


def trump_order(name: str, trump: str) -> list[str]:
    return list(rules_data(game(name), trump)["trump_order"])


def plain_order(name: str, trump: str, suit: str) -> list[str]:
    return list(rules_data(game(name), trump)["plain_orders"][suit])


# -- Quadrille ---------------------------------------------------------------------------


def test_quadrille_es_L13_deck_has_40_cards_without_8_9_10() -> None:
    codes = game("quadrille").cards.codes
    assert len(codes) == 40
    assert not [c for c in codes if c[:-1] in ("8", "9", "10")]
    assert {c[:-1] for c in codes} == {"K", "Q", "J", "A", "2", "3", "4", "5", "6", "7"}


@pytest.mark.parametrize("trump", ["H", "D"])
def test_quadrille_es_L29_L33_red_trump_order_has_12_cards(trump: str) -> None:
    # es:29-33 with the King restored after the Ponto (decisions D1; fi:13 lists it).
    expected = ["AS", f"7{trump}", "AC", f"A{trump}", f"K{trump}", f"Q{trump}", f"J{trump}"] + [
        f"{r}{trump}" for r in "23456"
    ]
    assert trump_order("quadrille", trump) == expected
    assert len(expected) == 12


@pytest.mark.parametrize("trump", ["S", "C"])
def test_quadrille_es_L29_L33_black_trump_order_has_11_cards(trump: str) -> None:
    expected = ["AS", f"2{trump}", "AC", f"K{trump}", f"Q{trump}", f"J{trump}"] + [f"{r}{trump}" for r in "76543"]
    assert trump_order("quadrille", trump) == expected
    assert len(expected) == 11


@pytest.mark.parametrize("trump", ["S", "H", "D", "C"])
def test_quadrille_es_L29_spadille_is_always_the_top_trump(trump: str) -> None:
    data = rules_data(game("quadrille"), trump)
    assert data["trump_order"][0] == "AS"
    assert data["promoted"]["AS"] == "Spadille"


@pytest.mark.parametrize(("trump", "manille"), [("S", "2S"), ("C", "2C"), ("H", "7H"), ("D", "7D")])
def test_quadrille_es_L30_manille_is_2_of_black_or_7_of_red_trumps(trump: str, manille: str) -> None:
    data = rules_data(game("quadrille"), trump)
    assert data["trump_order"][1] == manille
    assert data["promoted"][manille] == "Manille"


@pytest.mark.parametrize("trump", ["S", "H", "D", "C"])
def test_quadrille_es_L31_basto_is_always_the_third_trump(trump: str) -> None:
    data = rules_data(game("quadrille"), trump)
    assert data["trump_order"][2] == "AC"
    assert data["promoted"]["AC"] == "Basto"


@pytest.mark.parametrize(("trump", "ponto"), [("S", "KS"), ("C", "KC"), ("H", "AH"), ("D", "AD")])
def test_quadrille_es_L32_ponto_is_trump_ace_in_red_king_in_black(trump: str, ponto: str) -> None:
    data = rules_data(game("quadrille"), trump)
    assert data["trump_order"][3] == ponto
    assert data["promoted"][ponto] == "Ponto"


@pytest.mark.parametrize("trump", ["H", "D"])
def test_quadrille_es_L34_spadille_and_basto_leave_their_suits(trump: str) -> None:
    # With red trumps, spades and clubs are plain suits without their Aces.
    g = game("quadrille")
    assert "AS" not in plain_order("quadrille", trump, "S")
    assert "AC" not in plain_order("quadrille", trump, "C")
    table = g.cards.table(g.cards.suit(trump))
    assert table.eff_suit[g.cards.card("AS")] == g.cards.suit(trump)
    assert table.eff_suit[g.cards.card("AC")] == g.cards.suit(trump)


@pytest.mark.parametrize("trump", ["S", "H", "D", "C"])
def test_quadrille_es_L13_L34_plain_suits_rank_by_colour(trump: str) -> None:
    red = ["K", "Q", "J", "A", "2", "3", "4", "5", "6", "7"]
    black = ["K", "Q", "J", "7", "6", "5", "4", "3", "2"]
    for suit in "SHDC":
        if suit == trump:
            continue
        ranks = red if suit in "HD" else black
        assert plain_order("quadrille", trump, suit) == [r + suit for r in ranks]


def test_quadrille_es_L29_every_trump_order_accounts_for_every_card() -> None:
    # Card conservation in the tables: trumps + plain suits = the deck, once each.
    g = game("quadrille")
    for key in g.cards.trump_keys():
        data = rules_data(g, g.cards.trump_code(key))
        listed = data["trump_order"] + [c for order in data["plain_orders"].values() for c in order]
        assert sorted(listed) == sorted(g.cards.codes)


def test_quadrille_fi_L11_twelve_trumps_when_red_eleven_when_black() -> None:
    assert [len(trump_order("quadrille", t)) for t in "SHDC"] == [11, 12, 12, 11]


# -- Manille ------------------------------------------------------------------------------


def test_manille_L13_piquet_deck_of_32_cards() -> None:
    codes = game("manille").cards.codes
    assert len(codes) == 32
    assert {c[:-1] for c in codes} == {"10", "A", "K", "Q", "J", "9", "8", "7"}


@pytest.mark.parametrize("trump", ["S", "H", "D", "C", "none"])
def test_manille_L13_L44_order_10_A_K_Q_J_9_8_7_in_every_suit(trump: str) -> None:
    ranks = ["10", "A", "K", "Q", "J", "9", "8", "7"]
    data = rules_data(game("manille"), trump)
    if trump != "none":
        assert data["trump_order"] == [r + trump for r in ranks]
    for suit, order in data["plain_orders"].items():
        assert order == [r + suit for r in ranks]


def test_manille_L29_L35_points_5_4_3_2_1_0_total_60() -> None:
    g = game("manille")
    by_rank = {code[:-1]: p for code, p in zip(g.cards.codes, g.cards.points, strict=True)}
    assert by_rank == {"10": 5, "A": 4, "K": 3, "Q": 2, "J": 1, "9": 0, "8": 0, "7": 0}
    assert sum(g.cards.points) == 60


def test_manille_L23_en_voiture_is_a_valid_trump_choice() -> None:
    g = game("manille")
    assert NO_TRUMP in g.cards.trump_keys()
    state = g.new_match(seed=3)
    assert state.phase == "trump"
    assert "trump none" in [str(a) for a in state.legal_actions()]
    assert state.apply("trump none").trump == "none"


# -- Cuatrola -----------------------------------------------------------------------------


def test_cuatrola_L7_deck_of_20_spanish_cards() -> None:
    g = game("cuatrola")
    assert len(g.cards.codes) == 20
    assert set(g.cards.suit_codes) == {"O", "C", "E", "B"}
    assert {c[:-1] for c in g.cards.codes} == {"A", "3", "R", "C", "S"}


@pytest.mark.parametrize("trump", ["O", "C", "E", "B"])
def test_cuatrola_L15_order_A_3_R_C_S(trump: str) -> None:
    data = rules_data(game("cuatrola"), trump)
    assert data["trump_order"] == [r + trump for r in ["A", "3", "R", "C", "S"]]
    for suit, order in data["plain_orders"].items():
        assert order == [r + suit for r in ["A", "3", "R", "C", "S"]]


def test_cuatrola_L13_points_11_10_4_3_2_total_120() -> None:
    g = game("cuatrola")
    by_rank = {code[:-1]: p for code, p in zip(g.cards.codes, g.cards.points, strict=True)}
    assert by_rank == {"A": 11, "3": 10, "R": 4, "C": 3, "S": 2}
    assert sum(g.cards.points) == 120


def test_cuatrola_L21_dealers_last_card_is_turned_and_fixes_trumps() -> None:
    g = game("cuatrola")
    hands = [
        ["AO", "3O", "RO", "CO", "SO"],
        ["AC", "3C", "RC", "CC", "SC"],
        ["AE", "3E", "RE", "CE", "SE"],
        ["AB", "3B", "RB", "CB", "SB"],
    ]
    state = g.new_match(hands=hands, dealer=2)
    assert state.trump == "E"
    assert "SE" in state.hand(2)
    assert parts.v_turned(View.from_state(state, 0)) == "SE"
