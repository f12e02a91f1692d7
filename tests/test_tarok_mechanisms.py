"""Tarok's mechanisms, each on a stacked deal of ``specs/tarok.toml`` (three players, seat 2 deals).

The auction opened after the forehand with his privilege (``first_speaker``,
``last_bid``, ``eldest_only``), the duty to win in klop (``must_win``), the
pagat held back and the emperor's trick (``trump_upset``), the talon's cards
won in klop (``talon_gifts``), the taroks of colour valat (``trumps_led_only``)
and the declarer's lead (``first_lead = "declarer_always"``), and bad sections.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import trickrules
import trickrules.faces.simulate as simulate_module
from trickrules import IllegalActionError, SpecError, State
from trickrules.engine.events import TrickWon
from trickrules.engine.phases.talon_gifts import TalonCardWon
from trickrules.engine.values import Stacked
from trickrules.faces.simulate import KernelFallback, simulate
from trickrules.native.kernel import Unsupported, kernel_for

SPEC = Path(__file__).resolve().parent.parent / "specs" / "tarok.toml"
TAROKS = ["I", "II", "III", "IIII", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV", "XVI"]
TAROKS += ["XVII", "XVIII", "XIX", "XX", "XXI", "Sk"]
HANDS = (
    ("IT", "IIT", "IIIT", "IIIIT", "VT", "VIT", "4H", "3H", "4D", "2D", "7S", "8S", "9S", "10S", "JS", "KnS"),
    ("SkT", *(f"{r}T" for r in TAROKS[6:19]), "3D", "1D"),
    ("XXIT", "XXT", "2H", "1H", "JH", "KnH", "QH", "KH", "JD", "KnD", "QD", "KD", "QS", "KS", "QC", "KC"),
)
#: The talon, in deck order (the arrangement 0): its cards go to klop's first tricks in this order.
TALON = ("7C", "8C", "9C", "10C", "JC", "KnC")


@pytest.fixture(scope="module")
def game() -> trickrules.Game:
    return trickrules.load(SPEC)


def _start(game: trickrules.Game) -> State:
    return game.new_match(seed=1, dealer=2, deals={0: Stacked(HANDS, "", (("arrange", 0),))})


def _legal(state: State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def test_the_player_after_the_forehand_speaks_first_and_klop_and_three_are_the_forehands_alone(
    game: trickrules.Game,
) -> None:
    state = _start(game)
    assert state.to_move == 1
    assert _legal(state) == [
        "pass",
        "bid two",
        "bid one",
        "bid beggar",
        "bid solo_without",
        "bid open_beggar",
        "bid colour_valat",
        "bid valat",
    ]
    state = state.apply("pass").apply("pass")
    assert state.to_move == 0  # everyone else passed: the forehand must bid, klop and three too
    assert _legal(state)[:3] == ["bid klop", "bid three", "bid two"]
    assert "pass" not in _legal(state)


def test_the_last_one_left_names_the_contract_and_the_forehand_may_hold(game: trickrules.Game) -> None:
    state = _start(game).apply("bid two")
    assert state.to_move == 2
    assert "bid two" not in _legal(state)
    assert "bid one" in _legal(state)
    state = state.apply("pass")
    assert state.to_move == 0
    assert "bid two" in _legal(state)
    state = state.apply("bid two").apply("pass")
    assert state.to_move == 0
    assert state.phase == "bidding"
    assert "pass" not in _legal(state)
    assert _legal(state)[0] == "bid two"
    state = state.apply("bid one")
    assert state.phase == "talon_sets"
    assert state.deal.declarer == 0
    assert game.rules.contracts[state.deal.contract or 0].name == "one"


def _klop(game: trickrules.Game) -> State:
    state = _start(game).apply("pass").apply("pass").apply("bid klop")
    assert state.phase == "play"
    assert state.to_move == 0
    return state


def test_in_klop_a_player_must_win_the_trick_when_he_can(game: trickrules.Game) -> None:
    state = _klop(game)
    assert "play IT" not in _legal(state)  # the pagat is held back while another card may be led
    state = state.apply("play 2D")
    assert _legal(state) == ["play 1D"]
    with pytest.raises(IllegalActionError, match="must win the trick"):
        state.apply("play 3D")


def test_the_talon_goes_to_the_first_tricks_and_the_pagat_takes_the_emperors_trick(game: trickrules.Game) -> None:
    state = _klop(game).apply("play 4H")
    assert _legal(state) == [f"play {r}T" for r in TAROKS[6:19]] + ["play SkT"]  # void: any tarok wins
    state = state.apply("play VIIT")
    assert len(_legal(state)) == 6  # a tarok lies in the trick: any heart
    state = state.apply("play KH")
    gifts = [e for e in state.last_events if isinstance(e, TalonCardWon)]
    assert gifts == [TalonCardWon(1, 1, TALON[0])]
    assert (state.tally.won[1] >> game.cards.card(TALON[0])) & 1
    state = state.apply("play SkT")
    assert _legal(state) == ["play XXT", "play XXIT"]  # the škis cannot be beaten: any tarok
    state = state.apply("play XXIT")
    assert _legal(state) == ["play IT"]  # the mond and the škis are in the trick: the pagat must go
    with pytest.raises(IllegalActionError, match="beats the high cards"):
        state.apply("play IIT")
    state = state.apply("play IT")
    won = [e for e in state.last_events if isinstance(e, TrickWon)]
    assert won[0].seat == 0  # the emperor's trick
    assert [e for e in state.last_events if isinstance(e, TalonCardWon)] == [TalonCardWon(0, 2, TALON[1])]


def test_in_colour_valat_the_declarer_leads_and_taroks_win_only_when_led(game: trickrules.Game) -> None:
    state = _start(game).apply("pass").apply("bid colour_valat").apply("pass")
    assert _legal(state) == ["bid colour_valat", "bid valat"]  # the last one left
    state = state.apply("bid colour_valat")
    assert state.phase == "play"
    assert state.to_move == 2
    state = state.apply("play KH").apply("play 4H")
    assert all(a.endswith("T") for a in _legal(state))  # void in hearts: a tarok all the same
    state = state.apply("play SkT")
    won = [e for e in state.last_events if isinstance(e, TrickWon)]
    assert won[0].seat == 2  # the king of hearts, not the škis
    assert state.phase == "play"  # the declarer took the trick: the valat goes on


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    text = SPEC.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path = tmp_path / "tarok.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            'contracts = ["klop", "beggar", "open_beggar"]\n\n[mechanisms.trump_upset]',
            'contracts = ["klop", "beggars"]\n\n[mechanisms.trump_upset]',
            r"must_win\.contracts: 'beggars' is not a contract",
        ),
        ('card = "IT"', 'card = "I"', r"trump_upset\.card: expected the code of a card"),
        ('over = ["XXIT", "SkT"]', 'over = ["IT"]', r"trump_upset\.over: name one card or more, other than the card"),
        (
            'variable = "captured"',
            'variable = "caught"',
            r"card_capture\.variable: name a variable of scoring\.external",
        ),
        (
            'cards = { called = "king_last", IT = "pagat_last" }',
            'cards = { called = "king_last", ZZ = "pagat_last" }',
            r"last_trick_cards\.cards\.ZZ: not a card",
        ),
        (
            "rest_to_called_card = true ",
            "rest_to_called_card = 1 ",
            r"talon_gifts\.rest_to_called_card: expected true or false",
        ),
        (
            'eldest_only = ["klop", "three"]',
            'eldest_only = ["klop", "four"]',
            r"bidding\.eldest_only\[1\]: 'four' is not a contract",
        ),
        ('auction = "until_passes"', 'auction = "once_around"', r"bidding\.last_bid: needs auction = 'until_passes'"),
        (
            'undealt = "alone"               #',
            'undealt = "refused"             #',
            r"a called card must be in someone's hand",
        ),
    ],
)
def test_a_bad_section_is_a_spec_error_naming_the_key(tmp_path: Path, old: str, new: str, message: str) -> None:
    options = {"players": "4"} if "undealt" in old else {}
    with pytest.raises(SpecError, match=message):
        trickrules.load(_edited(tmp_path, old, new), options)


@pytest.mark.parametrize("players", ["3", "4"])
def test_simulate_falls_back_to_the_engine_saying_so_once(players: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Said once per process: another test of this process may have said it for this game already.
    monkeypatch.setattr(simulate_module, "_SAID", set())
    game = trickrules.load(SPEC, {"players": players})
    with pytest.raises(Unsupported, match="registered mechanism"):
        kernel_for(game)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        native = simulate(game, deals=40, seed=5)
        again = simulate(game, deals=40, seed=5)
    assert [w.category for w in said] == [KernelFallback]  # said once, not twice
    assert native == again == simulate(game, deals=40, seed=5, native=False)
    assert native.deals_asked == 40
