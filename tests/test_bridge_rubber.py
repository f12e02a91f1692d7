"""Rubber bridge (``specs/bridge.toml`` with ``scoring = "rubber"``): golden rubbers worked by hand from the Laws.

Every deal of these matches is stacked with one whole suit per seat: North (0) holds the spades, East (1) the
hearts, South (2) the diamonds, West (3) the clubs. Whatever is played, a contract in a suit declared by the
seat holding that suit takes all thirteen tricks (every card it plays is a trump, and it is never out of
trumps), and a contract declared by anyone else, or in no trump, takes none (the defenders' trump holder
wins every trick; in no trump the opening leader, a defender, wins every trick with his own suit, which no
other seat can follow). So each case's facts (contract, declarer, tricks) are fixed, and its scores are
worked by hand from the scoring table of the Laws of Contract Bridge for rubber bridge (Law 77): trick
points below the line (20 a trick in clubs and diamonds, 30 in hearts and spades, 40 for the first no-trump
trick then 30; doubled x2, redoubled x4), 100 or more below the line a game; above the line the overtricks
(undoubled at trick value; doubled 100 or 200 vulnerable, redoubled 200 or 400), 50 (doubled) or 100
(redoubled) for making, slams 500/750 and 1000/1500, the undertricks; the rubber 700 or 500.
"""

from __future__ import annotations

import random

import pytest

import trickrules
from strategies import Tracker, check_history, check_local, is_sampled
from trickrules import Game, SpecError, State, View
from trickrules.engine.events import Awarded, MatchEnded
from trickrules.engine.phases.vulnerability import VulnerabilityView
from trickrules.errors import FormulaError
from trickrules.faces.bots import make_bots
from trickrules.faces.cli import main
from trickrules.faces.match import play_match
from trickrules.faces.simulate import KernelFallback, simulate
from trickrules.records.eventlog import EventLog
from trickrules.records.replay import replay

_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
#: One whole suit per seat: North spades, East hearts, South diamonds, West clubs.
HANDS = [[f"{r}{suit}" for r in _RANKS] for suit in "SHDC"]


@pytest.fixture(scope="module")
def game() -> Game:
    return trickrules.load("bridge", {"scoring": "rubber"})


def _start(game: Game, deals: int = 12) -> State:
    return game.new_match(seed=5, hands=HANDS, deals=dict.fromkeys(range(1, deals), HANDS))


def _deal(state: State, declarer: int, bid: str, doubling: int = 0) -> State:
    """Play one deal: passes up to ``declarer``, his bid, a double and a redouble as asked, three passes, the cards.

    The cards are chosen at random: with these hands they cannot change who takes the tricks.
    """
    number = state.deal.number
    while state.to_move != declarer:
        state = state.apply("pass")
    state = state.apply(f"bid {bid}")
    for call in ("double", "redouble")[:doubling]:
        state = state.apply(call)
    for _ in range(3):
        state = state.apply("pass")
    rng = random.Random(number)
    while not state.is_terminal and state.deal.number == number:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def _counters(state: State) -> dict[str, tuple[int, int]]:
    """Each counter's value for North-South and East-West."""
    names = [c.name for c in state.game.rules.bids.counters]
    return {name: (values[0], values[1]) for name, values in zip(names, state.match.counters, strict=True)}


def _totals(state: State) -> tuple[int, int]:
    scores = state.match.scores
    assert scores[0] == scores[2]
    assert scores[1] == scores[3]
    return scores[0], scores[1]


def _vulnerable(state: State) -> tuple[int, ...]:
    view = View.from_state(state, 0).part(VulnerabilityView)
    assert view is not None
    return view.vulnerable


def test_the_option_loads_by_name_and_duplicate_stays_the_default() -> None:
    rubber = trickrules.load("bridge", {"scoring": "rubber"})
    assert rubber.options["scoring"] == "rubber"
    assert rubber.spec.title == "Contract bridge (rubber scoring)"
    assert [c.name for c in rubber.rules.bids.counters] == ["below", "games"]
    duplicate = trickrules.load("bridge")
    assert duplicate.rules.bids.counters == ()
    assert duplicate.rules.match_deals == 4
    # The option is listed like any other, and the log's header says which scoring was played.
    assert duplicate.options["scoring"] == "duplicate"
    assert duplicate.fingerprint == trickrules.load("bridge", {"scoring": "duplicate"}).fingerprint
    assert dict(EventLog.from_state(duplicate.new_match(seed=1)).header.options)["scoring"] == "duplicate"
    assert dict(EventLog.from_state(rubber.new_match(seed=1)).header.options)["scoring"] == "rubber"
    assert rubber.fingerprint != duplicate.fingerprint


@pytest.mark.parametrize(("bots", "seed"), [("heuristic", 3), ("heuristic", 4), ("random", 1)])
def test_rubber_matches_keep_the_suites_invariants(bots: str, seed: int) -> None:
    """Whole rubbers (won by the heuristic bots, cut off by the guard for the random ones, which bid to seven).

    The suite's checks: every step's cheap ones (turns, cards, the payments adding up to the scoreboard), the
    expensive ones at sampled steps (views, JSON, determinism, illegal actions) and at the end the whole log's
    (round trips, replay by the game's name and the header's options).
    """
    game = trickrules.load("bridge", {"scoring": "rubber"})
    rng = random.Random(seed)
    tracker = Tracker(game)
    steps = [0]

    def checked(state: State) -> None:
        tracker.step(state)
        if is_sampled(steps[0]):
            check_local(state, rng)
        steps[0] += 1

    final = play_match(game, make_bots(game, bots, seed=seed), seed=seed, on_step=checked)
    assert final.is_terminal
    check_local(final, rng)
    check_history(final, rng, by_name=True)
    assert tracker.deals == final.match.deals_done
    assert max(final.match.counters[1]) == 2 or final.match.deals_done == 100


def test_a_part_score_carries_from_deal_to_deal_into_a_game(game: Game) -> None:
    # Deal 0, 1S by North, 13 tricks: 30 below; 6 overtricks x 30 = 180 above. NS 210, below 30.
    state = _deal(_start(game), 0, "1S")
    assert _totals(state) == (210, 0)
    assert _counters(state) == {"below": (30, 0), "games": (0, 0)}
    # Deal 1, 2D by South, 13 tricks: 2 x 20 = 40 below (30 + 40 = 70, no game); 5 x 20 = 100 above.
    # NS 210 + 140 = 350.
    state = _deal(state, 2, "2D")
    assert _totals(state) == (350, 0)
    assert _counters(state) == {"below": (70, 0), "games": (0, 0)}
    assert _vulnerable(state) == ()
    # Deal 2, 1S by North again: 70 + 30 = 100 below, a game; the part scores are wiped. 180 above.
    # NS 350 + 210 = 560; North-South vulnerable from the next deal on.
    state = _deal(state, 0, "1S")
    assert _totals(state) == (560, 0)
    assert _counters(state) == {"below": (0, 0), "games": (1, 0)}
    assert _vulnerable(state) == (0, 2)
    assert not state.is_terminal


def test_a_game_wipes_the_other_sides_part_score(game: Game) -> None:
    # Deal 0, 2H by East, 13 tricks: 60 below, 5 x 30 = 150 above: EW 210, below 60.
    state = _deal(_start(game), 1, "2H")
    assert _totals(state) == (0, 210)
    assert _counters(state) == {"below": (0, 60), "games": (0, 0)}
    # Deal 1, 4S by North, 13 tricks: 120 below, a game (no premium in rubber); 3 x 30 = 90 above: NS 210.
    # East-West's 60 below the line is wiped.
    state = _deal(state, 0, "4S")
    assert _totals(state) == (210, 210)
    assert _counters(state) == {"below": (0, 0), "games": (1, 0)}
    # Deal 2, 2H by East again: 60 below, not 120 (the old 60 is gone), so no game. EW 210 + 210 = 420.
    state = _deal(state, 1, "2H")
    assert _totals(state) == (210, 420)
    assert _counters(state) == {"below": (0, 60), "games": (1, 0)}


def test_a_doubled_vulnerable_contract_set(game: Game) -> None:
    # Deal 0, 4S by North: game (120 below, 90 above): NS 210, vulnerable.
    state = _deal(_start(game), 0, "4S")
    assert _vulnerable(state) == (0, 2)
    # Deal 1, 1NT by North doubled by East: East leads hearts and takes all 13 tricks, 7 down doubled
    # vulnerable: 200 + 6 x 300 = 2000 to East-West, above the line; nothing below for anyone.
    state = _deal(state, 0, "1NT", doubling=1)
    assert _totals(state) == (210, 2000)
    assert _counters(state) == {"below": (0, 0), "games": (1, 0)}
    # Deal 2, 1NT by North undoubled: 7 down vulnerable, 7 x 100 = 700 to East-West.
    state = _deal(state, 0, "1NT")
    assert _totals(state) == (210, 2700)


def test_a_redoubled_contract_with_overtricks_is_a_game(game: Game) -> None:
    # Deal 0, 1S by North doubled and redoubled, 13 tricks, not vulnerable: 30 x 4 = 120 below, a game;
    # 6 overtricks x 200 = 1200 and 100 for making it redoubled above. NS 1420.
    state = _deal(_start(game), 0, "1S", doubling=2)
    assert _totals(state) == (1420, 0)
    assert _counters(state) == {"below": (0, 0), "games": (1, 0)}
    # Deal 1, 1S by North doubled and redoubled again, now vulnerable: 120 below, a second game;
    # 6 x 400 = 2400 above, 100 for making; the rubber, East-West without a game: 700.
    # NS 1420 + 120 + 2400 + 100 + 700 = 4740.
    state = _deal(state, 0, "1S", doubling=2)
    assert _totals(state) == (4740, 0)
    assert state.is_terminal


def test_a_vulnerable_small_slam_and_the_rubber_of_700(game: Game) -> None:
    # Deal 0, 4S by North: game, NS 210.
    state = _deal(_start(game), 0, "4S")
    # Deal 1, 6D by South, vulnerable, 13 tricks: 120 below (a game), 1 overtrick 20, small slam 750 above,
    # and the rubber, East-West without a game: 700. NS 210 + 120 + 20 + 750 + 700 = 1800.
    state = _deal(state, 2, "6D")
    assert _totals(state) == (1800, 0)
    assert _counters(state) == {"below": (0, 0), "games": (2, 0)}
    awarded = [(e.reason, e.points) for e in state.last_events if isinstance(e, Awarded)]
    assert awarded == [("contract", 890), ("rubber", 700)]


def test_the_rubber_of_500_when_the_other_side_won_a_game(game: Game) -> None:
    # Deal 0, 4S by North: NS 210, one game.
    state = _deal(_start(game), 0, "4S")
    # Deal 1, 4H by East: 120 below (a game), 90 above: EW 210, one game; both sides vulnerable.
    state = _deal(state, 1, "4H")
    assert _totals(state) == (210, 210)
    assert _vulnerable(state) == (0, 1, 2, 3)
    # Deal 2, 5D by South: 100 below, the second game; 2 x 20 = 40 above; the rubber 500 (EW won one).
    # NS 210 + 140 + 500 = 850.
    state = _deal(state, 2, "5D")
    assert _totals(state) == (850, 210)
    assert _counters(state)["games"] == (2, 1)
    assert [e.points for e in state.last_events if isinstance(e, Awarded) and e.reason == "rubber"] == [500]


def test_the_match_ends_with_the_rubber_and_the_side_with_more_points_wins(game: Game) -> None:
    # Deal 0, 7NT by North doubled: 13 down, not vulnerable: 100 + 200 + 200 + 10 x 300 = 3500 to EW.
    state = _deal(_start(game), 0, "7NT", doubling=1)
    assert _totals(state) == (0, 3500)
    # Deal 1, 4S by North: NS 210, a game. Deal 2 (after a deal passed out: it counts, and pays nothing),
    # 5D by South, vulnerable: 100 below, 40 above, the rubber 700: NS 210 + 140 + 700 = 1050.
    state = _deal(state, 0, "4S")
    number = state.deal.number
    for _ in range(4):
        state = state.apply("pass")
    assert state.deal.number == number + 1
    assert _totals(state) == (210, 3500)
    state = _deal(state, 2, "5D")
    assert state.is_terminal
    assert state.match.deals_done == 4
    assert _totals(state) == (1050, 3500)
    # North-South won the rubber, East-West the match: the winner has the most points, above and below.
    assert state.match.winners == (1, 3)
    ended = [e for e in state.last_events if isinstance(e, MatchEnded)]
    assert len(ended) == 1
    assert ended[0].winners == (1, 3)
    assert state.legal_actions() == ()


def test_a_rubber_not_won_ends_after_100_deals() -> None:
    # Random calls go down doubled far more than they make games: the guard ends such a match.
    game = trickrules.load("bridge", {"scoring": "rubber"})
    final = play_match(game, make_bots(game, "random", seed=0), seed=0)
    assert final.is_terminal
    assert final.match.deals_done == 100
    assert max(final.match.counters[1]) < 2
    scores = final.match.scores
    assert all(scores[s] == max(scores) for s in final.match.winners)


def test_a_heuristic_rubber_is_won_pays_its_bonus_and_replays() -> None:
    game = trickrules.load("bridge", {"scoring": "rubber"})
    for seed in range(3):
        final = play_match(game, make_bots(game, "heuristic", seed=seed), seed=seed)
        assert final.is_terminal
        games = final.match.counters[1]
        assert max(games) == 2
        bonus = [e.points for _, e in final.entries() if isinstance(e, Awarded) and e.reason == "rubber"]
        assert bonus == [700 if min(games) == 0 else 500]
        assert replay(EventLog.from_state(final)).match == final.match


def test_play_with_a_log_and_replay_it_from_the_command_line(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    log = f"{tmp_path}/rubber.jsonl"
    assert main(["play", "bridge", "--option", "scoring=rubber", "--seed", "3", "--log", log]) == 0
    played = capsys.readouterr().out
    assert "Match over." in played
    assert main(["replay", log]) == 0
    replayed = capsys.readouterr().out
    final = played.split("Final: ")[1].splitlines()[0]
    for part in final.split(", "):
        seat, points = part.removeprefix("seat ").split(" ")
        assert f"seat {seat}: {points}" in replayed


def test_the_rules_summary_says_how_the_rubber_ends(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "bridge", "--option", "scoring=rubber"]) == 0
    out = capsys.readouterr().out
    assert "Match ends when games >= 2 for a side or after 100 deals; ties: shared." in out
    assert "rubber: when games_after == 2: side: 700 if opp_games_after == 0 else 500" in out


def test_duplicate_vulnerability_options_conflict_with_rubber() -> None:
    with pytest.raises(SpecError, match="takes the place of dealer and non_dealer"):
        trickrules.load("bridge", {"scoring": "rubber", "dealer_vul": "on"})


# -- the general keys rubber scoring uses, on their own ---------------------------------------------------------


def _whist_with(tmp_path: object, extra: str) -> str:
    path = f"{tmp_path}/whist-counted.toml"
    with open(path, "w", encoding="utf-8") as f:
        f.write(f'extends = "whist"\n[variant]\nname = "whist-counted"\n{extra}')
    return path


def test_match_end_when_ends_the_match_by_the_counters(tmp_path: object) -> None:
    # Whist: a side's deals won counted; the match ends once a side has won two more deals than the others.
    extra = (
        '[[scoring.counters]]\nname = "won"\nupdate = "won + (1 if tricks > opp_tricks else 0)"\n'
        '[match]\ndeals = 30\nend_when = "won - opp_won >= 2"\n'
    )
    game = trickrules.load(_whist_with(tmp_path, extra))
    final = play_match(game, make_bots(game, "random", seed=2), seed=2)
    won = final.match.counters[0]
    assert final.is_terminal
    assert abs(won[0] - won[1]) == 2 or final.match.deals_done == 30
    assert final.match.deals_done < 30


def test_the_native_kernel_leaves_end_when_and_opp_counters_to_the_engine(tmp_path: object) -> None:
    counter = '[[scoring.counters]]\nname = "won"\nupdate = "won + (1 if tricks > opp_tricks else 0)"\n'
    ends = f'{counter}[match]\ndeals = 30\nend_when = "won >= 3"\n'
    reads = f'{counter}[[scoring.bonuses]]\nname = "lead"\nfor_each = "side"\nwhen = "won > opp_won"\n'
    reads += 'pay = [{ to = "side", amount = "1" }]\n'
    for extra, words in ((ends, "match.end_when"), (reads, "opp_won")):
        game = trickrules.load(_whist_with(tmp_path, extra))
        with pytest.warns(KernelFallback, match=words):
            result = simulate(game, deals=12, seed=1)
        assert result.statistics.deals >= 12


@pytest.mark.parametrize(
    ("extra", "error", "words"),
    [
        ('[match]\nend_when = "games >= 2"\n', SpecError, "the spec has none"),
        (
            '[[scoring.counters]]\nname = "won"\nupdate = "won"\n[match]\nend_when = "lost > 1"\n',
            FormulaError,
            "lost",
        ),
        (
            '[[scoring.counters]]\nname = "won"\nupdate = "won"\n[scoring.vars]\nopp_won = "1"\n',
            SpecError,
            "gives the variable 'opp_won'",
        ),
        (
            '[[scoring.counters]]\nname = "a"\nupdate = "a"\n[[scoring.counters]]\nname = "opp_a"\nupdate = "0"\n',
            SpecError,
            "another counter has it",
        ),
    ],
)
def test_bad_counter_and_end_rules_are_refused(tmp_path: object, extra: str, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        trickrules.load(_whist_with(tmp_path, extra))


def _bridge_with(tmp_path: object, extra: str) -> str:
    path = f"{tmp_path}/bridge-counted.toml"
    with open(path, "w", encoding="utf-8") as f:
        f.write(f'extends = "bridge"\n[variant]\nname = "bridge-counted"\n{extra}')
    return path


_COUNTER = '[[scoring.counters]]\nname = "sets"\nupdate = "sets + (1 if is_declarer_side and result < 0 else 0)"\n'


def test_vulnerability_when_makes_a_side_vulnerable_by_its_counters(tmp_path: object) -> None:
    # A side whose contract has failed once is vulnerable from the next deal on (not rubber: the key alone).
    game = trickrules.load(_bridge_with(tmp_path, f'{_COUNTER}[mechanisms.vulnerability]\nwhen = "sets > 0"\n'))
    state = game.new_match(seed=5, hands=HANDS, deals=dict.fromkeys(range(1, 4), HANDS))
    assert _vulnerable(state) == ()
    state = _deal(state, 1, "1NT")  # East declares no trump: South leads diamonds and takes every trick
    assert _totals(state) == (350, -350)  # duplicate scoring: 7 down, not vulnerable, 7 x 50
    assert _vulnerable(state) == (1, 3)
    state = _deal(state, 1, "1NT")
    assert _totals(state) == (1050, -1050)  # East-West vulnerable now: 7 x 100


@pytest.mark.parametrize(
    ("when", "words"),
    [
        ('"sets >"', "not valid syntax"),
        ('"games > 0"', "games"),
        ("1", "expected a formula"),
    ],
)
def test_a_bad_vulnerability_formula_is_refused(tmp_path: object, when: str, words: str) -> None:
    with pytest.raises(SpecError, match=words):
        trickrules.load(_bridge_with(tmp_path, f"{_COUNTER}[mechanisms.vulnerability]\nwhen = {when}\n"))
