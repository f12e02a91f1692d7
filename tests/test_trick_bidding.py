"""Bids of a number of tricks, hand sizes per deal, counters carried between deals, the mercy rule.

Each mechanism on its own, on the bundled Spades and Oh Hell and on small
overlays of them (and of Whist): what is legal, what a refusal says, what a
deal scores, what is carried to the next deal, and what the loader refuses.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

import parts
import trickrules
from trickrules import ArgumentError, EventLog, IllegalActionError, SpecError, State, View
from trickrules.engine.events import Awarded, DealScored, Dealt, Misdealt, TricksBid, TrickWon
from trickrules.engine.sizes import hand_size
from trickrules.faces.bots import HeuristicBot
from trickrules.faces.render import describe_event

SUITS = "SHDC"
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]


def suit(code: str) -> list[str]:
    """The thirteen cards of a suit, high to low."""
    return [rank + code for rank in RANKS]


def overlay(tmp_path: Path, base: str, text: str, name: str = "variant") -> trickrules.Game:
    """Load ``text`` as an overlay of the bundled ``base``."""
    path = tmp_path / f"{name}.toml"
    path.write_text(f'extends = "{base}"\nname = "{name}"\n\n{text}', encoding="utf-8")
    return trickrules.load(path)


def first_scored(state: State) -> DealScored:
    """The first deal's scoring event."""
    return next(e for _, e in state.entries() if isinstance(e, DealScored))


def bid_all(state: State, *bids: int) -> State:
    for tricks in bids:
        state = state.apply(f"bid {tricks}")
    return state


def play_out(state: State, rng: random.Random) -> State:
    while not state.is_terminal:
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
    return state


# -- [tricks_bid] ----------------------------------------------------------------------------------


def spades_all_to_seat_0(**options: object) -> State:
    """Spades with every spade in seat 0's hand, seat 3 dealing (seat 0 bids first and leads)."""
    hands = [suit("S"), suit("H"), suit("D"), suit("C")]
    return trickrules.load("spades", dict(options)).new_match(seed=1, dealer=3, hands=hands)


def test_every_seat_bids_once_from_the_eldest_then_the_eldest_leads() -> None:
    state = spades_all_to_seat_0()
    assert (state.phase, state.to_move) == ("tricks_bid", 0)
    assert [str(a) for a in state.legal_actions()] == [f"bid {k}" for k in range(14)]
    for seat, tricks in enumerate((13, 0, 0, 5)):
        assert state.to_move == seat
        state = state.apply(f"bid {tricks}")
        assert state.last_events == (TricksBid(seat, tricks),)
    assert (state.phase, state.to_move, parts.tricks_bids(state)) == ("play", 0, (13, 0, 0, 5))


def test_partners_bids_together_stay_within_the_tricks_of_the_deal() -> None:
    state = bid_all(spades_all_to_seat_0(), 10, 4)
    assert [str(a) for a in state.legal_actions()] == ["bid 0", "bid 1", "bid 2", "bid 3"]
    with pytest.raises(IllegalActionError, match="partners may not bid more than the 13 tricks of the deal together"):
        state.apply("bid 4")
    with pytest.raises(IllegalActionError, match=r"bid a number of tricks \(legal: bid 0, bid 1, bid 2, bid 3\)"):
        state.apply("play AH")
    with pytest.raises(IllegalActionError, match="bids run from 0 to 13"):
        spades_all_to_seat_0().apply("bid 14")


def test_the_last_bidder_may_not_make_the_bids_add_up_to_the_tricks() -> None:
    game = trickrules.load("oh-hell")
    hands = [["AS", "2C"], ["KH", "3D"], ["QD", "4C"]]
    state = game.new_match(seed=5, dealer=2, hands=hands, turned="7S")
    assert (state.deal.tricks, state.trump, state.to_move) == (2, "S", 0)
    state = bid_all(state, 2, 0)
    assert [str(a) for a in state.legal_actions()] == ["bid 1", "bid 2"]  # 0 would make 2
    state = bid_all(game.new_match(seed=5, dealer=2, hands=hands, turned="7S"), 1, 1)
    assert [str(a) for a in state.legal_actions()] == ["bid 1", "bid 2"]  # 0 would make 2
    with pytest.raises(IllegalActionError, match="may not make the bids add up to the 2 tricks"):
        state.apply("bid 0")


def test_lowest_and_highest_bids_are_the_spec_s(tmp_path: Path) -> None:
    game = overlay(tmp_path, "oh-hell", "[tricks_bid]\nmin = 1\nmax = 3\nlast_not_total = false\n")
    state = game.new_match(seed=2, dealer=2, hands=[suit("S")[:6], suit("H")[:6], suit("D")[:6]])
    assert [str(a) for a in state.legal_actions()] == ["bid 1", "bid 2", "bid 3"]
    with pytest.raises(IllegalActionError, match="bids run from 1 to 3"):
        state.apply("bid 0")


def test_bids_are_public_in_every_view_and_log_and_replay() -> None:
    state = bid_all(spades_all_to_seat_0(), 13, 0)
    for seat in range(4):
        assert parts.v_bids(View.from_state(state, seat)) == (13, 0, None, None)
        assert [e for e in EventLog.from_state(state).for_seat(seat).events if isinstance(e, TricksBid)] == [
            TricksBid(0, 13),
            TricksBid(1, 0),
        ]
    again = trickrules.replay(EventLog.from_state(state).to_json(), partial=True)
    assert again == state
    finished = play_out(state, random.Random(1))
    assert trickrules.replay(EventLog.from_state(finished).to_json()) == finished


def test_spades_scores_bids_nil_and_the_side_s_tricks() -> None:
    """Seat 0 holds every spade and takes every trick: 13 bid and made, two Nils made, 5 set."""
    state = bid_all(spades_all_to_seat_0(), 13, 0, 0, 5)
    state = play_out(state, random.Random(3))
    scored = first_scored(state)
    assert scored.scoreboard == (230, 50, 230, 50)
    assert "nil made" in scored.outcome
    assert "contract set" in scored.outcome


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[[bidding.contracts]]\nname = "solo"\n', "tricks_bid: players bid contracts"),
        ("[tricks_bid]\nmin = 3\nmax = 2\n", "tricks_bid.max: the highest bid 2 is below the lowest, 3"),
        ("[tricks_bid]\nmin = -1\n", "bids are not negative"),
        ("[tricks_bid]\npartners_within_tricks = true\n", "partners_within_tricks: needs fixed partnerships"),
        ("[tricks_bid]\nmin = 2\nmax = 2\n", "last_not_total: needs a choice of bids"),
    ],
)
def test_the_loader_refuses_bids_that_cannot_work(tmp_path: Path, text: str, words: str) -> None:
    with pytest.raises(SpecError, match=words):
        overlay(tmp_path, "oh-hell", text)


def test_partners_within_tricks_needs_the_lowest_bid_0(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="partners_within_tricks: needs min = 0, found 1"):
        overlay(tmp_path, "spades", "[tricks_bid]\nmin = 1\n")


def test_bids_and_trumps_made_round_the_table_do_not_mix(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="tricks_bid: trumps made round the table"):
        overlay(tmp_path, "euchre", "[tricks_bid]\n")


# -- deal.hand_size -------------------------------------------------------------------------------


def deals_of(state: State) -> list[list[object]]:
    """The events of each deal of the match so far, each list from its ``dealt`` on."""
    out: list[list[object]] = []
    for _, event in state.entries():
        if isinstance(event, Dealt):
            out.append([])
        if out:
            out[-1].append(event)
    return out


def test_a_schedule_gives_each_deal_its_hand_size(tmp_path: Path) -> None:
    text = '[deal]\nhand_size = "schedule"\nhand_sizes = [3, 1, 2]\n\n[choose]\ndeals = 4\n'
    game = overlay(tmp_path, "oh-hell", text)
    state = play_out(game.new_match(seed=7), random.Random(7))
    deals = deals_of(state)
    assert [len(d[0].hands[0]) for d in deals] == [3, 1, 2, 3]  # type: ignore[attr-defined]
    assert [sum(isinstance(e, TrickWon) for e in d) for d in deals] == [3, 1, 2, 3]
    assert trickrules.replay(EventLog.from_state(state).to_json(), game=game) == state


def test_a_random_hand_size_is_drawn_from_the_seed_for_each_deal() -> None:
    game = trickrules.load("oh-hell", {"deals": 20})
    seen: Counter[int] = Counter()
    for seed in range(60):
        state = game.new_match(seed=seed)
        assert state.deal.tricks == hand_size(game.rules, seed, 0, 0)
        assert game.new_match(seed=seed).deal.tricks == state.deal.tricks
        assert all(h.bit_count() == state.deal.tricks for h in state.hands)
        seen[state.deal.tricks] += 1
    assert set(seen) == set(range(1, 18))  # 1 to (52 - 1) // 3, the turned card kept
    state = play_out(game.new_match(seed=3), random.Random(3))
    sizes = [len(e.hands[0]) for _, e in state.entries() if isinstance(e, Dealt)]
    assert len(sizes) == 20
    assert len(set(sizes)) > 5
    assert trickrules.replay(EventLog.from_state(state).to_json()) == state


def test_a_stacked_deal_may_have_any_size_a_deal_may_draw() -> None:
    game = trickrules.load("oh-hell", {"players": 7})
    assert game.rules.bids.sizes.sizes == tuple(range(1, 8))  # (52 - 1) // 7
    hands = [*(suit(s)[:3] for s in SUITS), ["2S", "3S", "4S"], ["2H", "3H", "4H"], ["2D", "3D", "4D"]]
    state = game.new_match(seed=1, hands=hands, turned="2C")
    assert (state.deal.tricks, state.trump, parts.v_turned(View.from_state(state, 0))) == (3, "C", "2C")
    uneven = [h[:2] if k == 0 else h for k, h in enumerate(hands)]
    state = game.new_match(seed=1, hands=uneven)
    misdeal = next(e for e in state.last_events if isinstance(e, Misdealt))
    assert "instead of 1 to 7 each" in misdeal.reason


def test_a_scheduled_stacked_deal_must_have_the_first_size(tmp_path: Path) -> None:
    game = trickrules.load("oh-hell", {"num_tricks_fixed": 2})
    state = game.new_match(seed=1, hands=[["AS"], ["KS"], ["QS"]])
    assert [e.TAG for e in state.last_events][:1] == ["misdealt"]
    assert "instead of 2 each" in state.last_events[0].reason  # type: ignore[union-attr]
    with pytest.raises(ArgumentError, match="must be one of the stock's"):
        game.new_match(seed=1, hands=[["AS", "2S"], ["KS", "3S"], ["QS", "4S"]], turned="AS")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[deal]\nhand_size = "random"\npackets = [2]\n', "deal.packets: a hand size that changes"),
        ("[deal]\nhand_sizes = [1, 18]\n", r"deal.hand_sizes\[1\]: 52 cards deal 3 players 1 to 17 cards each"),
        ('[deal]\nhand_size = "schedule"\nhand_sizes = []\n', "deal.hand_sizes: a schedule needs"),
        ('[deal]\nhand_size = "packets"\npackets = [5]\nhand_sizes = [2]\n', "deal.hand_sizes: hand sizes are used"),
    ],
)
def test_the_loader_refuses_hand_sizes_the_deck_cannot_deal(tmp_path: Path, text: str, words: str) -> None:
    with pytest.raises(SpecError, match=words):
        overlay(tmp_path, "oh-hell", text)


# -- scoring.counters -----------------------------------------------------------------------------

COUNTED = """
[[scoring.counters]]
name = "wins"
update = "wins + (1 if tricks > 6 else 0)"
start = 5

[[scoring.bonuses]]
name = "streak"
for_each = "side"
when = "wins >= 7"
pay = [{ to = "side", amount = "100" }]
"""


def test_a_counter_is_carried_from_deal_to_deal_for_each_side(tmp_path: Path) -> None:
    game = overlay(tmp_path, "whist", COUNTED)
    state = game.new_match(seed=4)
    assert state.match.counters == ((5, 5, 5, 5),)
    rng = random.Random(4)
    teams = ((0, 2), (1, 3))
    checked = 0
    while not state.is_terminal:
        before = state.match.counters[0]
        state = state.apply(state.legal_actions()[rng.randrange(len(state.legal_actions()))])
        if not any(isinstance(e, DealScored) for e in state.last_events):
            continue
        deal = [d for d in deals_of(state) if any(isinstance(e, DealScored) for e in d)][-1]
        won = [sum(isinstance(e, TrickWon) and e.seat in team for e in deal) for team in teams]
        after = state.match.counters[0]
        for team, tricks in zip(teams, won, strict=True):
            assert all(after[s] == before[s] + (tricks > 6) for s in team)
        streaks = {e.seats for e in deal if isinstance(e, Awarded) and e.reason == "streak"}
        assert streaks == {team for team in teams if before[team[0]] >= 7}
        checked += 1
    assert checked >= 2
    assert View.from_state(state, 1).counters == (("wins", state.match.counters[0]),)


def test_counters_count_bags_in_spades_and_ten_cost_a_hundred() -> None:
    """Seat 0 bids 1 and takes all 13 tricks: 12 bags, a hundred off, 2 carried."""
    state = play_out_deal(bid_all(spades_all_to_seat_0(), 1, 3, 0, 2))
    scored = first_scored(state)
    # 10 + 12 bags - 100 for ten of them + 100 for seat 2's Nil; the other side is set (5 bid).
    assert scored.scoreboard == (22, -50, 22, -50)
    assert state.match.counters == ((2, 0, 2, 0),)
    assert View.from_state(state, 0).counters == (("bags", (2, 0, 2, 0)),)


def test_the_score_digit_reading_of_bags_follows_cs_remainder() -> None:
    game = trickrules.load("spades", {"bag_count": "score_digit"})
    hands = [suit("S"), suit("H"), suit("D"), suit("C")]
    # -15 carries -5 bags in C++: 12 overtricks make 7, under ten, so no penalty.
    state = bid_all(game.new_match(seed=1, dealer=3, hands=hands, scores=[-15, 0, -15, 0]), 1, 3, 0, 2)
    scored = first_scored(play_out(state, random.Random(5)))
    assert scored.scoreboard == (-15 + 10 + 12 + 100, -50, -15 + 10 + 12 + 100, -50)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[[scoring.counters]]\nname = "two words"\nupdate = "0"\n', r"scoring.counters\[1\].name: 'two words' must"),
        ('[[scoring.counters]]\nname = "tricks"\nupdate = "0"\n', r"scoring.counters\[1\].name: 'tricks' must be"),
        ('[[scoring.counters]]\nname = "overtricks"\nupdate = "0"\n', "also a name of scoring.vars"),
        ('[[scoring.counters]]\nname = "x"\nupdate = "nonsense + 1"\n', r"scoring.counters\[1\].update"),
    ],
)
def test_the_loader_refuses_bad_counters(tmp_path: Path, text: str, words: str) -> None:
    with pytest.raises(SpecError, match=words):
        overlay(tmp_path, "spades", text)


# -- match.mercy and match.win_bonus --------------------------------------------------------------


def test_the_mercy_rule_ends_the_match_and_the_loser_pays_the_bonus() -> None:
    """Seat 0 bids Nil and takes every trick: -87 for its side, from -300, is past -350."""
    hands = [suit("S"), suit("H"), suit("D"), suit("C")]
    state = trickrules.load("spades").new_match(seed=1, dealer=3, hands=hands, scores=[-300, 0, -300, 0])
    state = play_out(bid_all(state, 0, 0, 0, 1), random.Random(2))
    scored = first_scored(state)
    # 13 bags, -100 for ten of them, -100 for seat 0's Nil, +100 for seat 2's; +100 for seat 1's Nil, 1 set.
    assert scored.scoreboard == (-387, 90, -387, 90)
    assert state.is_terminal
    assert state.winners == (1, 3)
    assert [e for e in state.last_events if isinstance(e, Awarded)][-1] == Awarded((0, 2), -200, "match lost")
    assert state.scoreboard == {0: -587, 1: 90, 2: -587, 3: 90}


def test_without_the_mercy_rule_the_match_goes_on() -> None:
    hands = [suit("S"), suit("H"), suit("D"), suit("C")]
    for options in ({"use_mercy_rule": False}, {"mercy_threshold": 0}):
        game = trickrules.load("spades", options)
        assert game.rules.bids.mercy_threshold is None
        state = game.new_match(seed=1, dealer=3, hands=hands, scores=[-300, 0, -300, 0])
        state = play_out_deal(bid_all(state, 0, 0, 0, 1))
        assert not state.is_terminal
        assert state.scoreboard[0] == -387


def play_out_deal(state: State) -> State:
    number = state.deal.number
    while not state.is_terminal and state.deal.number == number:
        state = state.apply(state.legal_actions()[0])
    return state


def test_reaching_the_target_wins_the_match_and_its_bonus() -> None:
    hands = [suit("S"), suit("H"), suit("D"), suit("C")]
    state = trickrules.load("spades").new_match(seed=1, dealer=3, hands=hands, scores=[400, 0, 400, 0])
    state = play_out_deal(bid_all(state, 13, 0, 0, 5))
    assert state.is_terminal
    assert state.winners == (0, 2)
    assert Awarded((0, 2), 200, "match won") in state.last_events
    assert state.scoreboard == {0: 830, 1: 50, 2: 830, 3: 50}


@pytest.mark.parametrize(
    ("base", "text", "words"),
    [
        ("quadrille", "[match]\nwin_bonus = 5\n", "match.win_bonus: a bonus for winning the match needs"),
        ("oh-hell", "[match]\nwin_bonus = 5\n", "match.win_bonus: needs a target score"),
    ],
)
def test_the_loader_refuses_a_win_bonus_it_cannot_pay(tmp_path: Path, base: str, text: str, words: str) -> None:
    with pytest.raises(SpecError, match=words):
        overlay(tmp_path, base, text)


# -- lead_when_broken, mode = "never" -------------------------------------------------------------


@pytest.mark.parametrize(("break_", "may_lead_spade"), [("when_played", True), ("never", False)])
def test_spades_led_once_broken_or_never(break_: str, may_lead_spade: bool) -> None:
    """Seat 1 trumps the first trick with 2S: may it lead its 3S to the second."""
    hands = [
        [*suit("S")[:11], "2C", "3C"],
        ["3S", "2S", *suit("H")[:11]],
        [*suit("C")[:11], "3H", "2H"],
        suit("D"),
    ]
    state = trickrules.load("spades", {"spades_break": break_}).new_match(seed=1, dealer=3, hands=hands)
    state = bid_all(state, 3, 3, 3, 3)
    assert [str(a) for a in state.legal_actions()] == ["play 3C", "play 2C"]  # no spade led yet
    state = state.apply("play 2C").apply("play 2S").apply("play 4C").apply("play 2D")
    assert state.to_move == 1
    assert ("play 3S" in {str(a) for a in state.legal_actions()}) is may_lead_spade


# -- Oh Hell, one deal played out -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "scores"),
    [({}, (11, 10, 1)), ({"off_bid_penalty": True}, (11, 10, -1)), ({"points_per_trick": 2}, (12, 10, 2))],
)
def test_oh_hell_scores_a_point_a_trick_and_ten_for_a_bid_made(
    options: dict[str, object], scores: tuple[int, ...]
) -> None:
    game = trickrules.load("oh-hell", options)
    state = game.new_match(seed=5, dealer=2, hands=[["AS", "2C"], ["KH", "3D"], ["QD", "4C"]], turned="7S")
    state = bid_all(state, 1, 0, 0)
    for card in ("AS", "3D", "QD", "2C", "KH", "4C"):
        state = state.apply(f"play {card}")
    assert [e.seat for _, e in state.entries() if isinstance(e, TrickWon)] == [0, 2]
    assert state.is_terminal
    assert tuple(state.scoreboard.values()) == scores


# -- faces ----------------------------------------------------------------------------------------


def test_bids_are_printed_and_the_heuristic_bot_bids_a_legal_number() -> None:
    assert describe_event(TricksBid(1, 3)) == "  seat 1: bids 3 tricks"
    assert describe_event(TricksBid(2, 1)) == "  seat 2: bids 1 trick"
    for name in ("spades", "oh-hell"):
        game = trickrules.load(name)
        bot = HeuristicBot(game, 1)
        for seed in range(5):
            state = game.new_match(seed=seed)
            while state.phase == "tricks_bid":
                assert state.to_move is not None
                choice = bot.choose(View.from_state(state, state.to_move))
                assert choice in {str(a) for a in state.legal_actions()}
                state = state.apply(choice)
    # All thirteen spades: the bot counts every one of them as a trick.
    state = spades_all_to_seat_0()
    assert HeuristicBot(state.game).choose(View.from_state(state, 0)) == "bid 13"
