"""Trumps made round the table (``[making]``), going alone, and promotions from the same-colour suit.

The mechanisms are checked on a small partnership game written here (a
32-card pack, five cards each, the rest a stock whose top card is turned),
not on the bundled Euchre, so that each is seen on its own; the last tests
play the bundled Euchre through the command line.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import parts
import trickrules
from trickrules import EventLog, IllegalActionError, SpecError, View
from trickrules.engine.events import DealScored, Discarded, Passed, Redeal, TrickWon, TrumpNamed, TurnedTaken, WentAlone
from trickrules.faces.cli import main

BASE = """
name = "made"
title = "Trumps made round the table"

[deck]
suits = [
  { code = "S", name = "spades", colour = "black" }, { code = "H", name = "hearts", colour = "red" },
  { code = "D", name = "diamonds", colour = "red" }, { code = "C", name = "clubs", colour = "black" },
]
ranks = [
  { code = "A", name = "Ace" }, { code = "K", name = "King" }, { code = "Q", name = "Queen" },
  { code = "J", name = "Jack" }, { code = "10", name = "Ten" }, { code = "9", name = "Nine" },
  { code = "8", name = "Eight" }, { code = "7", name = "Seven" },
]

[ranks.plain]
default = ["A", "K", "Q", "J", "10", "9", "8", "7"]

[trump]
chosen_by = "made"

[seating]
players = 4
partnerships = "fixed"
teams = [[0, 2], [1, 3]]

[deal]
packets = [5]
turn_from_stock = true

[making]
{making}

[play]
obligations = [{{ rule = "follow_suit" }}]

[scoring]
unit = "points"

[[scoring.outcomes]]
name = "made"
for_each = "side"
when = "is_declarer_side and tricks >= 3"
pay = [{{ to = "side", amount = "2 if alone else 1" }}]

[[scoring.outcomes]]
name = "set"
for_each = "side"
when = "not is_declarer_side and tricks >= 3"
pay = [{{ to = "side", amount = "3 if alone else 1" }}]

[match]
deals = 4
"""

#: Stacked hands: the stock's top card (the first card no hand holds, in deck order) is 9S.
HANDS = [
    ["AS", "KS", "QS", "JS", "10S"],
    ["AH", "KH", "QH", "JH", "10H"],
    ["AD", "KD", "QD", "JD", "10D"],
    ["AC", "KC", "QC", "JC", "10C"],
]


SEATING = '[seating]\nplayers = 4\npartnerships = "fixed"\nteams = [[0, 2], [1, 3]]\n'


def spec_text(making: str, extra: str = "", seating: str = SEATING) -> str:
    """The game above with its ``[making]`` section, another seating, and more tables at the end."""
    text = BASE.replace("{making}", making).replace("{{", "{").replace("}}", "}")
    return text.replace(SEATING, seating) + extra


def game(tmp_path: Path, making: str, extra: str = "", seating: str = SEATING) -> trickrules.Game:
    path = tmp_path / "made.toml"
    path.write_text(spec_text(making, extra, seating), encoding="utf-8")
    return trickrules.load(path)


def legal(state: trickrules.State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def play_out(state: trickrules.State, seed: int) -> trickrules.State:
    rng = random.Random(seed)
    while not state.is_terminal:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


# -- the rounds ------------------------------------------------------------------------


def test_the_first_round_offers_the_turned_suit_and_the_second_the_others(tmp_path: Path) -> None:
    state = game(tmp_path, 'rounds = ["turned", "others"]').new_match(dealer=0, hands=HANDS)
    assert parts.v_turned(View.from_state(state, 1)) == "9S"
    assert (state.phase, state.to_move, legal(state)) == ("making", 1, ["pass", "trump S"])
    for seat in (1, 2, 3, 0):  # once round the table from the eldest, the dealer last
        assert state.to_move == seat
        state = state.apply("pass")
    assert (state.to_move, legal(state)) == (1, ["pass", "trump H", "trump D", "trump C"])
    with pytest.raises(IllegalActionError, match="any suit but the turned card's"):
        state.apply("trump S")


def test_an_any_round_offers_every_suit(tmp_path: Path) -> None:
    state = game(tmp_path, 'rounds = ["any"]\ntaken_by = "nobody"').new_match(dealer=2, hands=HANDS)
    assert (state.to_move, legal(state)) == (3, ["pass", "trump S", "trump H", "trump D", "trump C"])


def test_naming_a_suit_makes_the_namer_the_declarer_without_taking_the_turned_card(tmp_path: Path) -> None:
    state = game(tmp_path, 'rounds = ["turned", "others"]').new_match(dealer=0, hands=HANDS)
    for _ in range(5):
        state = state.apply("pass")
    state = state.apply("trump D")  # seat 2, in the second round
    assert state.last_events == (TrumpNamed(2, "D"),)
    assert (state.phase, state.to_move, state.trump, state.declarer) == ("play", 1, "D", 2)
    assert all(len(state.hand(seat)) == 5 for seat in range(4))


def test_stick_the_dealer_takes_the_pass_from_the_dealer_in_the_last_round(tmp_path: Path) -> None:
    state = game(tmp_path, 'rounds = ["turned", "others"]\ndealer_must_name = true').new_match(dealer=0, hands=HANDS)
    for _ in range(7):
        state = state.apply("pass")
    assert (state.to_move, legal(state)) == (0, ["trump H", "trump D", "trump C"])
    with pytest.raises(IllegalActionError, match="the dealer may not pass in the last round"):
        state.apply("pass")


@pytest.mark.parametrize(("all_pass", "deals_done", "dealer"), [("next_dealer", 1, 1), ("same_dealer", 0, 0)])
def test_when_everyone_passes_every_round_the_hand_is_thrown_in(
    tmp_path: Path, all_pass: str, deals_done: int, dealer: int
) -> None:
    g = game(tmp_path, f'rounds = ["turned", "others"]\nall_pass = "{all_pass}"')
    state = g.new_match(dealer=0, hands=HANDS)
    for _ in range(7):
        state = state.apply("pass")
    state = state.apply("pass")
    assert Redeal(0, 0) in state.last_events
    assert (state.match.deals_done, state.dealer, state.phase) == (deals_done, dealer, "making")
    assert state.match.scores == (0, 0, 0, 0)
    assert trickrules.replay(EventLog.from_state(state).to_json(), game=g, partial=True) == state


# -- taking up the turned card, and the discard -----------------------------------------


def test_accepting_the_turned_suit_has_the_dealer_take_it_up_and_discard_face_down(tmp_path: Path) -> None:
    g = game(tmp_path, 'rounds = ["turned", "others"]')
    state = g.new_match(dealer=0, hands=HANDS).apply("pass").apply("trump S")  # seat 2 orders it up
    assert state.last_events == (TrumpNamed(2, "S"), TurnedTaken(0, "9S"))
    assert (state.phase, state.to_move, state.declarer, len(state.hand(0))) == ("discard", 0, 2, 6)
    assert "discard 9S" not in legal(state)
    assert len(legal(state)) == 5
    with pytest.raises(IllegalActionError, match="the turned card just taken up may not be discarded"):
        state.apply("discard 9S")
    state = state.apply("discard AS")
    assert state.last_events[0] == Discarded(0, "AS")
    assert (state.phase, state.to_move, "AS" in state.hand(0), "9S" in state.hand(0)) == ("play", 1, False, True)
    log = EventLog.from_state(state)
    seen_by = {seat: [e for e in log.for_seat(seat).events if isinstance(e, Discarded)] for seat in range(4)}
    assert seen_by[0] == [Discarded(0, "AS")]
    assert seen_by[1] == seen_by[2] == seen_by[3] == [Discarded(0, "?")]
    assert trickrules.replay(EventLog.from_state(state).to_json(), game=g, partial=True) == state


def test_discard_turned_lets_the_dealer_bury_the_card_he_took_up(tmp_path: Path) -> None:
    g = game(tmp_path, 'rounds = ["turned"]\ndiscard_turned = true\ndealer_must_name = true')
    state = g.new_match(dealer=0, hands=HANDS)
    for _ in range(3):
        state = state.apply("pass")
    assert legal(state) == ["trump S"]  # one round, stuck: the dealer must accept
    state = state.apply("trump S")
    assert "discard 9S" in legal(state)
    state = state.apply("discard 9S")
    assert parts.discarded(state) == 1 << g.cards.card("9S")


# -- going alone ---------------------------------------------------------------------------


def test_a_maker_alone_has_his_partner_sit_out_and_tricks_of_three(tmp_path: Path) -> None:
    g = game(tmp_path, 'rounds = ["turned", "others"]\nalone = true')
    state = g.new_match(dealer=0, hands=HANDS).apply("pass").apply("pass").apply("pass").apply("pass")
    state = state.apply("trump H")  # seat 1 names hearts in the second round
    assert (state.phase, state.to_move, legal(state)) == ("alone", 1, ["pass", "alone"])
    state = state.apply("alone")
    assert state.last_events == (WentAlone(1),)
    assert (parts.sitting_out(state), View.from_state(state, 0).seats_out, state.to_move) == (3, (3,), 1)
    for card in ("AH", "AD", "AS"):
        state = state.apply(f"play {card}")
    trick = next(e for e in state.last_events if isinstance(e, TrickWon))
    assert trick.cards == ("AH", "AD", "AS")
    final = play_out(state, 1)
    scored = next(e for _, e in final.entries() if isinstance(e, DealScored))
    assert scored.outcome == "made"
    assert scored.scoreboard == (0, 2, 0, 2)  # alone: 2 for the makers


def test_the_eldest_sitting_out_passes_the_lead_on(tmp_path: Path) -> None:
    g = game(tmp_path, 'rounds = ["turned", "others"]\nalone = true')
    state = g.new_match(dealer=0, hands=HANDS).apply("pass").apply("pass").apply("trump S").apply("discard AS")
    state = state.apply("alone")  # seat 3 is the maker: seat 1, the eldest, sits out
    assert (state.phase, state.to_move, View.from_state(state, 2).seats_out) == ("play", 2, (1,))


def test_defenders_are_asked_in_turn_and_a_lone_defender_leaves_two_players(tmp_path: Path) -> None:
    g = game(tmp_path, 'rounds = ["turned", "others"]\nalone = true\ndefend_alone = true')
    state = g.new_match(dealer=0, hands=HANDS).apply("pass").apply("trump S")  # seat 2 makes spades
    state = state.apply("discard AS").apply("pass")  # the dealer discards; seat 2 plays with seat 0
    assert (state.phase, state.to_move) == ("alone", 1)  # the defenders from the eldest: 1, then 3
    state = state.apply("pass")
    assert state.last_events == (Passed(1, "alone"),)
    assert state.to_move == 3
    state = state.apply("alone")  # seat 3 defends alone: seat 1 sits out
    assert (state.phase, state.to_move, View.from_state(state, 0).seats_out) == ("play", 2, (1,))
    assert parts.sitting_out(state) is None
    # A lone maker against a lone defender: two players, tricks of two cards.
    both = g.new_match(dealer=0, hands=HANDS).apply("pass").apply("trump S").apply("discard AS").apply("alone")
    both = both.apply("alone")  # seat 1 defends alone at once; seat 3 is not asked
    assert (both.phase, both.to_move, View.from_state(both, 1).seats_out) == ("play", 1, (0, 3))
    both = both.apply("play AH").apply("play AD")
    assert next(e for e in both.last_events if isinstance(e, TrickWon)).cards == ("AH", "AD")
    final = play_out(both, 2)
    assert trickrules.replay(EventLog.from_state(final).to_json(), game=g) == final


def test_a_lone_defender_scores_the_set_alone(tmp_path: Path) -> None:
    g = game(tmp_path, 'rounds = ["turned", "others"]\ndefend_alone = true')
    # Seat 2 makes spades; seat 1 defends alone with the four top spades, so wins every trick he trumps.
    hands = [
        ["8H", "9H", "10H", "8D", "9D"],
        ["AS", "KS", "QS", "JS", "AH"],
        ["8S", "9S", "10S", "AD", "KD"],
        HANDS[3],
    ]
    for seed in range(5):
        state = g.new_match(dealer=0, hands=hands, turned="7S").apply("pass").apply("trump S").apply("discard 8H")
        state = state.apply("alone")
        assert View.from_state(state, 2).seats_out == (3,)
        final = play_out(state, seed)
        scored = next(e for _, e in final.entries() if isinstance(e, DealScored))
        assert scored.outcome == "set"
        assert scored.scoreboard == (0, 3, 0, 3)  # the lone defender's side: "3 if alone else 1"


# -- the spec's checks ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("making", "seating", "words"),
    [
        ('rounds = ["twice"]', SEATING, r"making\.rounds\[0\]: expected one of"),
        ("rounds = []", SEATING, r"making\.rounds: give at least one round"),
        ("alone = true", "[seating]\nplayers = 4\n", r"making\.alone: going alone needs fixed partnerships"),
        ("defend_alone = true", "[seating]\nplayers = 4\n", r"making\.defend_alone: defending alone needs"),
        ("discard_turned = true\ntaken_by = 'nobody'", SEATING, r"making\.discard_turned: needs the dealer"),
    ],
)
def test_bad_making_sections_are_refused_with_their_key_path(
    tmp_path: Path, making: str, seating: str, words: str
) -> None:
    with pytest.raises(SpecError, match=words):
        game(tmp_path, making, seating=seating)


def test_a_turned_round_needs_a_turned_card_and_made_trumps_need_no_contracts(tmp_path: Path) -> None:
    path = tmp_path / "noturn.toml"
    path.write_text(spec_text("").replace("turn_from_stock = true", ""), encoding="utf-8")
    with pytest.raises(SpecError, match=r"making\.rounds\[0\]: a 'turned' round needs a turned card"):
        trickrules.load(path)
    with pytest.raises(SpecError, match=r"bidding\.contracts: trumps made round the table"):
        game(tmp_path, "", '\n[[bidding.contracts]]\nname = "solo"\n')


def test_a_making_section_needs_made_trumps(tmp_path: Path) -> None:
    path = tmp_path / "unused.toml"
    path.write_text(spec_text("alone = true").replace('chosen_by = "made"', 'chosen_by = "dealer"'), encoding="utf-8")
    with pytest.raises(SpecError, match=r"making: making trumps round the table needs trump\.chosen_by = 'made'"):
        trickrules.load(path)


# -- promotions from the other suit of the trump suit's colour --------------------------


BOWERS = """
[[trump.promotions]]
name = "right"
rank = { black = "J", red = "J" }
place = 1

[[trump.promotions]]
name = "left"
rank = { black = "J", red = "J" }
suit = "same_colour"
place = 2
"""


def test_the_same_colour_promotion_is_the_rank_of_the_other_suit_of_the_trump_colour(tmp_path: Path) -> None:
    cards = game(tmp_path, "", BOWERS).cards
    for trump, left in (("S", "JC"), ("C", "JS"), ("H", "JD"), ("D", "JH")):
        table = cards.table(cards.suit(trump))
        assert (
            cards.format(table.order)
            == f"J{trump} {left} A{trump} K{trump} Q{trump} 10{trump} 9{trump} 8{trump} 7{trump}"
        )
        # The plain rule it encodes: the left bower is of the trump suit, and leaves its printed suit;
        # the Jacks of the other colour stay in their suits.
        assert table.eff_suit[cards.card(left)] == cards.suit(trump)
        assert cards.card(left) not in table.plain_orders[cards.suit(left[-1])]
        for suit in cards.suit_codes:
            if suit not in (trump, left[-1]):
                assert cards.format(table.plain_orders[cards.suit(suit)]).split()[3] == f"J{suit}"


def test_the_left_bower_follows_trumps_not_its_printed_suit(tmp_path: Path) -> None:
    g = game(tmp_path, 'rounds = ["any"]\ntaken_by = "nobody"', BOWERS)
    hands = [
        ["AD", "KH", "QH", "10H", "9H"],
        ["JD", "7S", "8S", "9S", "10S"],
        ["KD", "QD", "10D", "9D", "AC"],
        ["7C", "8C", "9C", "10C", "KC"],
    ]
    start = g.new_match(dealer=3, hands=hands).apply("trump H")  # seat 0 names hearts: JD is a trump
    led_diamond = start.apply("play AD")
    assert legal(led_diamond) == ["play 10S", "play 9S", "play 8S", "play 7S", "play JD"]  # no diamond to follow
    led_trump = start.apply("play KH")
    assert legal(led_trump) == ["play JD"]  # its only trump must follow a trump lead


def test_a_same_colour_promotion_needs_one_suit_of_the_colour_besides_trumps(tmp_path: Path) -> None:
    path = tmp_path / "colours.toml"
    bowers = BOWERS.replace('rank = { black = "J", red = "J" }', 'rank = { blue = "J", black = "J", red = "J" }')
    text = spec_text("", bowers).replace('colour = "black" }, { code = "H"', 'colour = "blue" }, { code = "H"')
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError, match=r"trump.promotions 'left'.suit: 'same_colour' needs exactly one other suit"):
        trickrules.load(path)
    fixed = '\n[[trump.promotions]]\nname = "top"\ncard = "AS"\nsuit = "same_colour"\nplace = 1\n'
    with pytest.raises(SpecError, match=r"trump.promotions\[0\].suit: only a 'rank' promotion"):
        game(tmp_path, "", fixed)


# -- the bundled Euchre ----------------------------------------------------------------------


def test_euchre_plays_from_the_command_line_and_its_log_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "euchre.jsonl"
    args = ["play", "euchre", "--seed", "4", "--log", str(log), "--option", "allow_lone_defender=on"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "takes up" in out
    assert "discards" in out
    assert main(["replay", str(log)]) == 0
    assert "ok," in capsys.readouterr().out


def test_euchre_replays_random_matches_of_every_option(tmp_path: Path) -> None:
    for options in ({}, {"stick_the_dealer": "off", "allow_lone_defender": "on"}, {"zero_sum": "on", "target": "5"}):
        g = trickrules.load("euchre", options)
        for seed in range(3):
            final = play_out(g.new_match(seed=seed), seed)
            assert trickrules.replay(EventLog.from_state(final).to_json()) == final
            assert max(final.scoreboard.values()) >= (5 if options.get("target") else 10)


def test_euchre_s_rules_show_the_bowers_and_the_making(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "euchre", "--trump", "H"]) == 0
    out = capsys.readouterr().out
    assert "JH (right bower) JD (left bower) AH KH QH 10H 9H" in out
    assert "Trumps made round the table, rounds: turned, others (the dealer takes up" in out


def test_a_card_turned_in_the_dealer_s_hand_is_not_taken_up(tmp_path: Path) -> None:
    path = tmp_path / "last.toml"
    text = spec_text('rounds = ["turned"]').replace("packets = [5]", "packets = [8]")
    path.write_text(text.replace("turn_from_stock = true", "turn_last_card = true"), encoding="utf-8")
    with pytest.raises(SpecError, match=r"making\.taken_by: the dealer takes up a card turned from the stock"):
        trickrules.load(path)
    path.write_text(
        path.read_text(encoding="utf-8").replace('rounds = ["turned"]', 'rounds = ["turned"]\ntaken_by = "nobody"')
    )
    state = trickrules.load(path).new_match(seed=2, dealer=1)
    turned = parts.v_turned(View.from_state(state, 0))
    assert legal(state) == ["pass", f"trump {turned[-1]}"]
    state = state.apply(f"trump {turned[-1]}")
    assert (state.phase, state.trump, len(state.hand(1))) == ("play", turned[-1], 8)
