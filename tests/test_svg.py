"""trickrules.svg: cards, hands, tricks and tables as SVG, and the states' and views' pictures."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

import parts
import trickrules
from trickrules import svg
from trickrules.engine.state import State
from trickrules.errors import ArgumentError
from trickrules.records.view import View

NS = "{http://www.w3.org/2000/svg}"
SUITS = [svg.Suit("S", "♠", "black"), svg.Suit("H", "♥", "red"), svg.Suit("10", "X", "green")]
DECK = svg.Deck.of(["AS", "7H", "QH", "KS", "210"], SUITS)


def _tree(text: str) -> ET.Element:
    """The SVG parsed as XML (a failure here means the text is not well formed)."""
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def _cards(root: ET.Element) -> list[str]:
    """The codes of the face-up cards drawn, in document order."""
    return [e.attrib["data-card"] for e in root.iter() if "data-card" in e.attrib]


def _seat_cards(root: ET.Element) -> dict[int, list[str]]:
    return {int(g.attrib["data-seat"]): _cards(g) for g in root.iter(f"{NS}g") if "data-seat" in g.attrib}


def _played(game_name: str, seed: int, steps: int) -> list[State]:
    """The states of a match of random legal play, the first ``steps`` of them."""
    state = trickrules.load(game_name).new_match(seed=seed)
    rng = random.Random(seed)
    states = [state]
    while len(states) < steps and not state.is_terminal:
        state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


# -- the drawing functions -------------------------------------------------------------------


def test_card_draws_rank_symbol_and_ink_of_its_suit() -> None:
    root = _tree(svg.card("7H", DECK))
    assert _cards(root) == ["7H"]
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert texts == ["7", "♥", "♥"]
    (group,) = (g for g in root.iter(f"{NS}g") if g.attrib.get("data-card") == "7H")
    assert group.attrib["fill"] == svg.COLOURS["red"]


def test_card_rank_is_the_code_less_the_longest_suit_code() -> None:
    # "210" ends with "10" (a suit code) and with "0" (none): rank "2" of suit "10".
    assert DECK.face("210") == svg.Face("210", "2", "X", svg.COLOURS["green"])


def test_card_unknown_to_the_deck_is_drawn_as_its_code() -> None:
    root = _tree(svg.card("ZZ9", DECK))
    assert _cards(root) == ["ZZ9"]
    assert next(t.text for t in root.iter(f"{NS}text")) == "ZZ9"


def test_card_back_shows_no_card() -> None:
    root = _tree(svg.card_back())
    assert _cards(root) == []
    assert [r.attrib.get("class") for r in root.iter(f"{NS}rect")] == ["back"]


def test_hand_draws_every_card_once_in_the_order_given() -> None:
    codes = ["KS", "AS", "QH", "7H"]
    for overlap in (False, True):
        root = _tree(svg.hand(codes, DECK, overlap=overlap))
        assert _cards(root) == codes
    assert int(_tree(svg.hand(codes, DECK)).attrib["width"]) > int(
        _tree(svg.hand(codes, DECK, overlap=True)).attrib["width"]
    )


def test_hand_refuses_a_string_where_codes_are_expected() -> None:
    with pytest.raises(ArgumentError, match="sequence of card codes"):
        svg.hand("KS", DECK)
    with pytest.raises(ArgumentError, match="card codes"):
        svg.hand(["KS", 7], DECK)  # type: ignore[list-item]


def test_trick_outlines_the_winners_card_only() -> None:
    root = _tree(svg.trick([(2, "QH"), (3, "7H"), (0, "AS")], DECK, winner=0, names=["N", "E", "S", "W"]))
    assert _cards(root) == ["QH", "7H", "AS"]
    marked = [g.attrib["data-card"] for g in root.iter(f"{NS}g") if g.attrib.get("class") == "c w"]
    assert marked == ["AS"]
    names = [t.text for t in root.iter(f"{NS}text") if t.attrib.get("class") == "n"]
    assert names == ["S", "W", "N"]


def test_text_is_escaped_and_stays_valid_xml() -> None:
    title = 'A <b>&"odd"\x01 title'
    table = svg.Table(deck=DECK, hands=[["AS"], None], counts=[1, 3], title=title, names=["<me>", "&you"])
    root = _tree(svg.table(table))
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert 'A <b>&"odd" title' in texts
    assert any(t and t.startswith("<me>") for t in texts)
    assert any(t and t.startswith("&you") for t in texts)


def test_table_hidden_hand_is_backs_with_a_count() -> None:
    table = svg.Table(deck=DECK, hands=[["AS", "KS"], None, None], counts=[2, 5, 0], seat=0)
    root = _tree(svg.table(table))
    seats = {int(g.attrib["data-seat"]): g for g in root.iter(f"{NS}g") if "data-seat" in g.attrib}
    assert _cards(seats[0]) == ["AS", "KS"]
    for seat, count in ((1, 5), (2, 0)):
        assert _cards(seats[seat]) == []
        assert seats[seat].attrib["data-count"] == str(count)
        assert len([r for r in seats[seat].iter(f"{NS}rect") if r.attrib.get("class") == "back"]) == count
        assert any(f"{count} cards" in (t.text or "") for t in seats[seat].iter(f"{NS}text"))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hands": []}, "1 to 12 seats"),
        ({"counts": [1, 2, 3]}, r"Table.counts: expected one value per seat \(2\)"),
        ({"scores": [0]}, "Table.scores"),
        ({"seat": 2}, "Table.seat: expected a seat from 0 to 1, found 2"),
        ({"trick": [(5, "AS")]}, "Table.trick"),
        ({"winner": -1}, "Table.winner"),
        ({"out": [3]}, "Table.out"),
    ],
)
def test_table_refuses_seats_and_lengths_that_do_not_fit(change: dict[str, object], message: str) -> None:
    fields: dict[str, object] = {"deck": DECK, "hands": [["AS"], ["KS"]], **change}
    with pytest.raises(ArgumentError, match=message):
        svg.Table(**fields)  # type: ignore[arg-type]


def test_table_seats_go_round_the_way_the_game_plays() -> None:
    def x_of(clockwise: bool, seat: int) -> float:
        table = svg.Table(deck=DECK, hands=[["AS"], ["KS"], ["QH"], ["7H"]], clockwise=clockwise)
        (group,) = (
            g
            for g in _tree(svg.table(table)).iter(f"{NS}g")
            if g.attrib.get("data-card") == ["AS", "KS", "QH", "7H"][seat]
        )
        match = re.match(r"translate\((-?\d+),(-?\d+)\)", group.attrib["transform"])
        assert match is not None
        return float(match.group(1))

    middle = svg.TABLE_WIDTH / 2
    assert x_of(True, 1) < middle < x_of(True, 3)  # clockwise from above: the next seat sits on the left
    assert x_of(False, 3) < middle < x_of(False, 1)


# -- State._repr_svg_ and View._repr_svg_ --------------------------------------------------------


def test_state_svg_is_valid_deterministic_and_draws_every_hand_and_the_trick() -> None:
    states = _played("quadrille", 11, 40)
    again = _played("quadrille", 11, 40)
    for state, twin in zip(states, again, strict=True):
        text = state._repr_svg_()
        assert text == twin._repr_svg_() == state._repr_svg_()
        root = _tree(text)
        seats = _seat_cards(root)
        assert seats == {s: list(state.hand(s)) for s in range(4)}
        trick = [g for g in root.iter(f"{NS}g") if g.attrib.get("class") == "trick"]
        assert _cards(trick[0]) == [code for _, code in state.trick_cards()]


def test_state_svg_notes_say_contract_and_trumps() -> None:
    state = next(s for s in _played("quadrille", 3, 80) if s.phase == "play")
    texts = [t.text or "" for t in _tree(state._repr_svg_()).iter(f"{NS}text")]
    assert f"Contract: {state.contract} by seat {state.declarer}" in texts
    symbols = {s.code: s.symbol for s in state.game.spec.deck.suits}
    assert f"Trumps: {symbols[state.trump or '']}" in texts
    assert "Quadrille (Spanish rules)" in texts


@pytest.mark.parametrize(("game", "seed"), [("quadrille", 1), ("quadrille", 2), ("euchre", 3), ("hearts", 4)])
def test_view_svg_shows_the_seats_own_cards_and_no_hidden_card(game: str, seed: int) -> None:
    for state in _played(game, seed, 120):
        for seat in range(state.game.players):
            view = View.from_state(state, seat)
            text = view._repr_svg_()
            root = _tree(text)
            assert _cards(root) == [*view.hand, *(code for _, code in view.trick)]
            assert _seat_cards(root)[seat] == list(view.hand)
            public = {parts.v_called(view), parts.v_turned(view), *view.hand, *(code for _, code in view.trick)}
            hidden = {c for s in range(state.game.players) if s != seat for c in state.hand(s)} - public
            shown = [c for c in hidden if re.search(rf"(?<![0-9A-Za-z]){re.escape(c)}(?![0-9A-Za-z])", text)]
            assert not shown, f"seat {seat}'s picture names hidden cards {shown}"
            counts = {
                int(g.attrib["data-seat"]): int(g.attrib["data-count"])
                for g in root.iter(f"{NS}g")
                if "data-seat" in g.attrib
            }
            assert counts == dict(enumerate(view.hand_sizes))


def test_view_svg_is_deterministic_and_drawn_from_the_seat() -> None:
    state = _played("whist", 5, 10)[-1]
    view = View.from_state(state, 2)
    assert view._repr_svg_() == View.from_json(view.to_json())._repr_svg_()
    root = _tree(view._repr_svg_())
    labels = [t.text or "" for t in root.iter(f"{NS}text") if t.attrib.get("class", "").startswith("l")]
    assert any(label.startswith("Seat 2 (you)") for label in labels)
    assert root.attrib["aria-label"] == "the table from seat 2"


def test_view_of_a_game_not_bundled_draws_plain_codes() -> None:
    view = View.from_state(_played("quadrille", 6, 5)[-1], 0)
    other = View.from_json(view.to_json().replace('"game":"quadrille"', '"game":"my-game"'))
    root = _tree(other._repr_svg_())
    assert _cards(root) == list(view.hand)
    texts = {t.text for t in root.iter(f"{NS}text")}
    assert set(view.hand) <= texts  # no symbols known: each card shows its code
