"""Bridge (``specs/bridge.toml``): the doubling auction, the dummy and duplicate scoring, each checked on its rule.

The agreement with OpenSpiel over whole deals is ``tests/crossengine/test_bridge.py``; here each rule is
checked alone: who may double and redouble, when the auction ends, who declares, who leads, when the
dummy's hand becomes public and who plays it, the score of worked contracts against the table of the
Laws of Duplicate Bridge (Law 77), what each seat's view and log show, and the command line.
"""

from __future__ import annotations

import io
import json
import random
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import trickrules
from trickrules import EventLog, Game, IllegalActionError, LogIntegrityError, State, View
from trickrules.engine.events import CardPlayed, Dealt
from trickrules.engine.phases.doubling_auction import AuctionView, CallMade, ContractMade, calls_of
from trickrules.engine.phases.dummy import DummyView, HandExposed
from trickrules.engine.phases.vulnerability import VulnerabilityView
from trickrules.faces import simulate as simulate_module
from trickrules.faces.bots import make_bots
from trickrules.faces.cli import main
from trickrules.faces.html import replay_frames
from trickrules.faces.match import play_match
from trickrules.faces.simulate import KernelFallback, simulate
from trickrules.faces.table import run_table
from trickrules.records.replay import replay


@pytest.fixture(scope="module")
def game() -> Game:
    """A match of one board, OpenSpiel's game (the default match is a round of four)."""
    return trickrules.load("bridge", {"boards": 1})


def _calls(state: State, *calls: str) -> State:
    for call in calls:
        state = state.apply(call)
    return state


def _legal(state: State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


# -- the auction ------------------------------------------------------------------------------------------


def test_the_dealer_calls_first_and_the_calls_are_pass_the_35_bids(game: Game) -> None:
    state = game.new_match(seed=1)
    assert (state.phase, state.to_move) == ("doubling_auction", 0)
    legal = _legal(state)
    assert legal[0] == "pass"
    assert legal[1] == "bid 1C"
    assert legal[-1] == "bid 7NT"
    assert len(legal) == 36
    assert "double" not in legal
    assert "redouble" not in legal
    assert trickrules.load("bridge", {"dealer": 2}).new_match(seed=1).to_move == 2


def test_a_match_is_a_round_of_four_boards_each_seat_dealing_once() -> None:
    game = trickrules.load("bridge")
    final = play_match(game, make_bots(game, "random", seed=1), seed=1)
    dealers = [e.dealer for _, e in final.entries() if isinstance(e, Dealt)]
    assert dealers == [0, 1, 2, 3]
    assert final.is_terminal
    assert final.match.deals_done == 4


def test_a_bid_must_outrank_the_last(game: Game) -> None:
    state = _calls(game.new_match(seed=1), "bid 2H")
    legal = _legal(state)
    assert "bid 2H" not in legal
    assert "bid 2D" not in legal
    assert "bid 2S" in legal
    assert "bid 2NT" in legal
    with pytest.raises(IllegalActionError, match="a bid must outrank 2H"):
        state.apply("bid 1NT")


def test_double_only_the_other_sides_undoubled_bid_and_redouble_only_their_double_of_ours(game: Game) -> None:
    state = _calls(game.new_match(seed=1), "bid 1C")
    assert "double" in _legal(state)  # East, an opponent
    after_pass = _calls(state, "pass")
    assert "double" not in _legal(after_pass)  # South: his partner's bid
    with pytest.raises(IllegalActionError, match="only the other side's bid"):
        after_pass.apply("double")
    doubled = _calls(state, "double")
    assert "double" not in _legal(doubled)
    assert "redouble" in _legal(doubled)
    with pytest.raises(IllegalActionError, match="only a doubled bid may be redoubled"):
        state.apply("redouble")
    west = _calls(doubled, "pass")
    assert "redouble" not in _legal(west)  # West: his own side's double
    redoubled = _calls(doubled, "redouble")
    assert "double" not in _legal(redoubled)
    assert "redouble" not in _legal(redoubled)
    # A double after two passes (in the pass-out seat) is still a double of the last bid.
    assert "double" in _legal(_calls(game.new_match(seed=1), "bid 1C", "pass", "pass"))


def test_three_passes_after_a_bid_end_the_auction_and_the_record_keeps_every_call(game: Game) -> None:
    state = _calls(game.new_match(seed=1), "bid 1C", "double", "redouble", "bid 1S", "pass", "pass")
    assert state.phase == "doubling_auction"
    state = state.apply("pass")
    assert state.phase == "play"
    record = calls_of(game, state.deal)
    assert record.calls == (3, 1, 2, 6, 0, 0, 0)
    assert (record.level, record.strain, record.doubling, record.declarer, record.over) == (1, 3, 0, 3, True)
    assert state.deal.declarer == 3
    assert state.deal.partner == 1
    assert state.deal.trump == 3
    assert ContractMade(3, "1S") in state.last_events


def test_doubling_is_kept_until_the_next_bid(game: Game) -> None:
    state = _calls(game.new_match(seed=1), "bid 3NT", "double", "redouble", "pass", "pass", "pass")
    record = calls_of(game, state.deal)
    assert (record.level, record.strain, record.doubling, record.declarer) == (3, 4, 2, 0)
    assert state.deal.trump is not None
    assert state.game.cards.trump_code(state.deal.trump) == "none"


def test_four_passes_pass_the_board_out_scoring_nothing(game: Game) -> None:
    state = _calls(game.new_match(seed=1), "pass", "pass", "pass", "pass")
    assert state.is_terminal
    assert state.match.scores == (0, 0, 0, 0)
    assert [type(e).__name__ for _, e in state.entries()][-2:] == ["DealScored", "MatchEnded"]


def test_the_declarer_is_the_first_of_the_winning_side_to_name_the_strain(game: Game) -> None:
    # North names hearts first; South raises them; East-West bid in between: North declares.
    state = _calls(game.new_match(seed=1), "bid 1H", "bid 1S", "bid 2H", "pass", "pass", "pass")
    assert state.deal.declarer == 0
    assert state.deal.partner == 2
    # A strain named first by the other side does not make it declarer for this side.
    state = _calls(game.new_match(seed=1), "pass", "bid 1D", "bid 2D", "pass", "pass", "pass")
    assert state.deal.declarer == 2


def test_every_seat_sees_the_whole_auction(game: Game) -> None:
    state = _calls(game.new_match(seed=1), "bid 1C", "double", "pass")
    for seat in range(4):
        view = View.from_state(state, seat).part(AuctionView)
        assert view is not None
        assert view.calls == ((0, "1C"), (1, "double"), (2, "pass"))
        assert view.contract == ""
        assert view.declarer is None


# -- the dummy ----------------------------------------------------------------------------------------------


def _contract(game: Game, seed: int = 1) -> State:
    """North declares 1C: East leads, South is the dummy."""
    return _calls(game.new_match(seed=seed), "bid 1C", "pass", "pass", "pass")


def test_the_player_on_the_declarers_left_makes_the_opening_lead(game: Game) -> None:
    assert _contract(game).to_move == 1
    state = _calls(game.new_match(seed=1), "pass", "pass", "bid 1NT", "pass", "pass", "pass")
    assert (state.deal.declarer, state.to_move) == (2, 3)
    state = _calls(game.new_match(seed=1), "pass", "pass", "pass", "bid 1NT", "pass", "pass", "pass")
    assert (state.deal.declarer, state.to_move) == (3, 0)


def test_the_dummy_is_exposed_after_the_opening_lead_and_not_before(game: Game) -> None:
    state = _contract(game)
    for seat in range(4):
        assert View.from_state(state, seat).part(DummyView) == DummyView(None, ())
        assert View.from_state(state, seat).picture(game=game).hands[2] == (state.hand(2) if seat == 2 else None)
    dummy_hand = state.hand(2)
    state = state.apply(state.legal_actions()[0])
    assert HandExposed(2, dummy_hand) in state.last_events
    for seat in range(4):
        view = View.from_state(state, seat)
        assert view.part(DummyView) == DummyView(2, dummy_hand)
        assert view.picture(game=game).hands[2] == dummy_hand  # drawn face up
        hidden = [s for s in range(4) if s not in (seat, 2)]
        assert all(view.picture(game=game).hands[s] is None for s in hidden)


def test_the_declarer_chooses_the_dummys_cards(game: Game) -> None:
    state = _contract(game)
    state = state.apply(state.legal_actions()[0])  # East leads
    assert (state.to_move, state.chooser) == (2, 0)
    assert View.from_state(state, 0).legal == tuple(str(a) for a in state.legal_actions())
    assert View.from_state(state, 2).legal == ()
    assert all(a.arg in state.hand(2) for a in state.legal_actions())
    state = state.apply(state.legal_actions()[0])
    actor, event = state.entries()[-1]
    assert actor == 0
    assert isinstance(event, CardPlayed)
    assert event.seat == 2
    assert (state.to_move, state.chooser) == (3, 3)


def test_the_dummy_takes_no_action_of_its_own(game: Game) -> None:
    mechanism = game.mechanisms["dummy"]
    with pytest.raises(IllegalActionError, match="the dummy rules take no action of their own"):
        mechanism.apply(game.new_match(seed=1), "pass")


# -- duplicate scoring --------------------------------------------------------------------------------------

_STRAINS = ["C", "D", "H", "S", "NT"]


def _score(game: Game, contract: str, taken: int, vulnerable: bool) -> int:
    """The declaring side's score by the spec's formulas: ``contract`` as ``4S``, ``3NTX``, ``7NTXX``."""
    level, rest = int(contract[0]), contract[1:]
    strain = rest.rstrip("X")
    env: dict[str, Any] = {
        "tricks": taken,
        "opp_tricks": 13 - taken,
        "is_declarer_side": True,
        "level": level,
        "strain": _STRAINS.index(strain),
        "doubling": len(rest) - len(strain),
        "vulnerable": vulnerable,
        "opp_vulnerable": False,
        "no_trump": strain == "NT",
    }
    for name, formula in game.tables.rules.vars:
        env[name] = formula.evaluate(env)
    value = env["declarer_score"]
    assert isinstance(value, int | Fraction)
    assert value == int(value)
    return int(value)


#: (contract, tricks taken, vulnerable, score): worked from the scoring table of Law 77.
LAW_77 = [
    ("1C", 7, False, 70),
    ("1D", 9, False, 110),
    ("2H", 8, False, 110),
    ("4S", 10, False, 420),
    ("4S", 10, True, 620),
    ("4S", 11, False, 450),
    ("3NT", 9, False, 400),
    ("3NT", 9, True, 600),
    ("3NT", 10, False, 430),
    ("5C", 11, True, 600),
    ("1NTX", 7, False, 180),
    ("1NTX", 8, True, 380),
    ("1NTXX", 7, False, 560),
    ("1NTXX", 7, True, 760),
    ("2SX", 9, False, 570),
    ("2SX", 9, True, 870),
    ("5CX", 11, True, 750),
    ("6H", 12, False, 980),
    ("6H", 12, True, 1430),
    ("7NT", 13, True, 2220),
    ("7NTXX", 13, True, 2980),
    ("7S", 13, False, 1510),
    ("4S", 7, False, -150),
    ("4S", 7, True, -300),
    ("4SX", 9, False, -100),
    ("4SX", 8, False, -300),
    ("4SX", 7, False, -500),
    ("4SX", 6, False, -800),
    ("4SX", 9, True, -200),
    ("4SX", 8, True, -500),
    ("4SX", 7, True, -800),
    ("4SX", 6, True, -1100),
    ("4SXX", 9, False, -200),
    ("4SXX", 6, False, -1600),
    ("4SXX", 8, True, -1000),
    ("7NTX", 0, False, -3500),
]


@pytest.mark.parametrize(("contract", "taken", "vulnerable", "score"), LAW_77)
def test_duplicate_scoring_follows_the_table_of_law_77(
    game: Game, contract: str, taken: int, vulnerable: bool, score: int
) -> None:
    assert _score(game, contract, taken, vulnerable) == score


def test_a_board_is_scored_for_both_sides_with_the_declarers_vulnerability() -> None:
    # North holds every spade: 7S makes all thirteen tricks whatever the others play.
    cards = [f"{r}{s}" for s in "CDHS" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")]
    hands = [cards[39:], cards[0:13], cards[13:26], cards[26:39]]
    # 7S redoubled, made: 4 x 210 trick points, the slam and game premiums, 100 for the insult.
    for options, expected in (({}, 2240), ({"dealer_vul": True}, 2940), ({"non_dealer_vul": True}, 2240)):
        game = trickrules.load("bridge", {"boards": 1, **options})
        state = _calls(game.new_match(seed=4, hands=hands), "bid 7S", "double", "redouble", "pass", "pass", "pass")
        rng = random.Random(4)
        while not state.is_terminal:
            state = state.apply(rng.choice(state.legal_actions()))
        assert state.match.scores == (expected, -expected, expected, -expected)
        view = View.from_state(state, 1).part(VulnerabilityView)
        assert view is not None
        assert view.vulnerable == ((0, 2) if options.get("dealer_vul") else (1, 3) if options else ())


# -- logs, views and replay -------------------------------------------------------------------------------


def _played(game: Game, seed: int, bots: str = "heuristic") -> State:
    return play_match(game, make_bots(game, bots, seed=seed), seed=seed)


def test_matches_play_log_and_replay(game: Game) -> None:
    for seed in range(6):
        final = _played(game, seed, "random" if seed % 2 else "heuristic")
        text = EventLog.from_state(final).to_json()
        assert replay(EventLog.from_json(text), game=game) == final


def test_a_tampered_call_is_caught_on_replay(game: Game) -> None:
    final = _played(game, 2)
    log = EventLog.from_state(final)
    lines = log.to_json().splitlines()
    k = next(i for i, line in enumerate(lines) if '"auction_call"' in line and '"pass"' in line)
    lines[k] = lines[k].replace('"pass"', '"7NT"')
    with pytest.raises(LogIntegrityError):
        replay(EventLog.from_json("\n".join(lines) + "\n"), game=game)


def test_logs_per_seat_show_the_dummy_only_from_the_opening_lead(game: Game) -> None:
    for seed in range(4):
        final = _played(game, seed)
        if final.deal.declarer is None:
            continue
        dummy = final.deal.partner
        assert dummy is not None
        for seat in range(4):
            events = EventLog.from_state(final).for_seat(seat).events
            dealt = next(e for e in events if isinstance(e, Dealt))
            for s, hand in enumerate(dealt.hands):
                assert (set(hand) == {"?"}) == (s != seat)
            first = next(k for k, e in enumerate(events) if isinstance(e, CardPlayed))
            exposed = [k for k, e in enumerate(events) if isinstance(e, HandExposed)]
            assert exposed == [first + 1]
            assert events[first + 1] == HandExposed(dummy, final.game.codes_of(final.deal.dealt[dummy]))


def test_views_never_show_another_hand_but_the_exposed_dummy(game: Game) -> None:
    rng = random.Random(7)
    for seed in range(25):
        state = game.new_match(seed=seed)
        while not state.is_terminal:
            for seat in range(4):
                view = View.from_state(state, seat)
                data = json.loads(view.to_json())
                dummy = view.part(DummyView)
                auction = view.part(AuctionView)
                visible = set(state.hand(seat)) | (set(dummy.hand) if dummy is not None else set())
                visible |= {call for _, call in auction.calls} if auction is not None else set()  # "2H" the bid
                if dummy is not None and dummy.seat is not None:
                    assert state.tally.winners or state.trick  # only once the opening lead is on the table
                played = {c for _, c in view.trick}
                text = json.dumps(data)
                for other in range(4):
                    for card in state.hand(other):
                        if card not in visible and card not in played:
                            assert f'"{card}"' not in text, (seed, seat, card)
            acts = state.legal_actions()
            state = state.apply(acts[0] if rng.random() < 0.5 and state.phase != "play" else rng.choice(acts))


# -- the faces ------------------------------------------------------------------------------------------


def test_play_with_a_log_and_replay_it_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "board.json"
    assert main(["play", "bridge", "--seed", "3", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "declares" in out
    assert "is dummy:" in out
    assert "Match over." in out
    assert main(["replay", str(log)]) == 0
    assert "ok" in capsys.readouterr().out
    page = tmp_path / "board.html"
    assert main(["replay", str(log), "--html", str(page)]) == 0
    assert "trick 1 to seat" in page.read_text()


def test_the_replay_page_draws_the_dummy_face_up_once_exposed(game: Game) -> None:
    final = _played(game, 3)
    dummy = final.deal.partner
    assert dummy is not None
    frames = replay_frames(final)
    for frame in frames:
        seats = frame.pictures[1:]  # the table as each seat saw it
        shown = [picture.hands[dummy] is not None for s, picture in enumerate(seats) if s != dummy]
        assert shown == [frame.trick > 0] * 3, frame.caption
    assert any(frame.trick > 0 for frame in frames)


def test_a_person_declares_and_plays_the_dummys_cards_at_the_table(game: Game) -> None:
    class Passer:
        def choose(self, view: View) -> str:
            return "pass" if "pass" in view.legal else view.legal[0]

    bots = [Passer() for _ in range(4)]
    out = io.StringIO()
    lines = "bid 1NT\n" + "1\n" * 30
    final = run_table(game, 0, 5, bots, input=io.StringIO(lines), output=out, max_deals=1)
    text = out.getvalue()
    assert final.is_terminal
    assert final.deal.declarer == 0
    assert "You choose seat 2's card." in text
    assert "Face up, seat 2 (13 cards):" in text  # the dummy, shown from the opening lead on
    actors = {actor for actor, e in final.entries() if isinstance(e, CardPlayed) and e.seat == 2}
    assert actors == {0}
    assert "Contract: 1NT; declarer seat 0; trumps: no trump" in text


def test_simulate_falls_back_to_the_engine_and_says_so_once() -> None:
    simulate_module._SAID.discard(trickrules.load("bridge").fingerprint)  # said once per process: say it here
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always", KernelFallback)
        first = simulate("bridge", 20, seed=1)
        again = simulate("bridge", 20, seed=1, native=False)
    fallbacks = [w for w in said if issubclass(w.category, KernelFallback)]
    assert len(fallbacks) == 1
    assert "registered mechanism" in str(fallbacks[0].message)
    assert first == again
    assert first.statistics.deals >= 20


def test_the_heuristic_bot_bids_to_contracts_it_makes_more_often_than_not(game: Game) -> None:
    made = played = 0
    for seed in range(30):
        final = _played(game, seed)
        calls = [e for _, e in final.entries() if isinstance(e, CallMade)]
        assert calls
        if final.deal.declarer is not None:
            played += 1
            made += final.match.scores[final.deal.declarer] > 0
    assert played >= 20
    assert made * 2 > played
