"""Two general DSL keys that give readings of the Finnish Quadrille text (findings F9 and F17).

``bidding.earlier_may_hold``: a player who speaks before the high bidder may bid the same contract.
``calling.allow_trump_forced``: trump cards of the callable ranks may be called in a forced contract.
Both are tested on a small made-up spec, so that the mechanism is checked apart from any bundled game.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import trickrules
from trickrules.errors import IllegalActionError

SPEC = """
name = "holding"
title = "Holding and forced calls"
[deck]
suits = [
  { code = "S", name = "spades", colour = "black" }, { code = "H", name = "hearts", colour = "red" },
  { code = "D", name = "diamonds", colour = "red" }, { code = "C", name = "clubs", colour = "black" },
]
ranks = [{ code = "K", name = "King" }, { code = "Q", name = "Queen" }, { code = "J", name = "Jack" }]
[ranks.plain]
default = ["K", "Q", "J"]
[trump]
chosen_by = "declarer"
[seating]
players = 4
partnerships = "called"
[deal]
packets = [3]
[bidding]
auction = "until_passes"
earlier_may_hold = HOLD
all_pass = { action = "forced", contract = "low", holder_of = "KS" }
[[bidding.contracts]]
name = "low"
side = "with_called"
call = true
[[bidding.contracts]]
name = "high"
[calling]
ranks = ["K"]
fallback_ranks = ["Q"]
fallback_replaces = true
allow_trump_forced = FORCED
[[scoring.outcomes]]
name = "won"
when = "tricks >= 2"
pay = [{ to = "declarer_side", amount = "1" }]
[match]
deals = 1
"""

HANDS = [["KS", "QS", "JS"], ["KH", "QH", "JH"], ["KD", "QD", "JD"], ["KC", "QC", "JC"]]


def _game(tmp_path: Path, hold: bool = False, forced: bool = False) -> trickrules.Game:
    text = SPEC.replace("HOLD", str(hold).lower()).replace("FORCED", str(forced).lower())
    path = tmp_path / "holding.toml"
    path.write_text(text, encoding="utf-8")
    return trickrules.load(str(path))


def _legal(state: trickrules.State) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def test_without_holding_every_bid_is_higher(tmp_path: Path) -> None:
    state = _game(tmp_path).new_match(dealer=0, hands=HANDS).apply("bid low").apply("bid high")
    state = state.apply("pass").apply("pass")  # seats 3 and 0; back to seat 1
    assert state.to_move == 1
    assert _legal(state) == {"pass"}


def test_an_earlier_seat_may_hold_a_later_bid(tmp_path: Path) -> None:
    state = _game(tmp_path, hold=True).new_match(dealer=0, hands=HANDS).apply("bid low").apply("bid high")
    state = state.apply("pass").apply("pass")
    assert _legal(state) == {"pass", "bid high"}
    state = state.apply("bid high")  # seat 1 holds seat 2's bid
    assert state.to_move == 2
    assert _legal(state) == {"pass"}  # the later seat cannot hold it back
    with pytest.raises(IllegalActionError, match="higher"):
        state.apply("bid high")
    state = state.apply("pass")
    assert state.declarer == 1


def test_a_later_seat_may_not_hold(tmp_path: Path) -> None:
    state = _game(tmp_path, hold=True).new_match(dealer=0, hands=HANDS).apply("bid low")
    assert state.to_move == 2
    assert _legal(state) == {"pass", "bid high"}


def test_priority_counts_from_the_eldest_not_the_seat_number(tmp_path: Path) -> None:
    # Dealer 2: the eldest is seat 3, then seat 0. Seat 3 may hold seat 0's bid; not the other way round.
    state = _game(tmp_path, hold=True).new_match(dealer=2, hands=HANDS).apply("bid low")
    assert state.to_move == 0
    assert _legal(state) == {"pass", "bid high"}
    state = state.apply("bid high").apply("pass").apply("pass")
    assert state.to_move == 3
    assert _legal(state) == {"pass", "bid high"}


def _forced_call(game: trickrules.Game, trump: str) -> set[str]:
    state = game.new_match(dealer=0, hands=HANDS)
    for _ in range(4):
        state = state.apply("pass")
    assert state.declarer == 0  # the holder of KS
    return _legal(state.apply(f"trump {trump}"))


def test_trump_king_not_called_by_default(tmp_path: Path) -> None:
    assert _forced_call(_game(tmp_path), "H") == {"call KD", "call KC"}


def test_trump_king_called_in_a_forced_contract(tmp_path: Path) -> None:
    assert _forced_call(_game(tmp_path, forced=True), "H") == {"call KH", "call KD", "call KC"}


def test_allow_trump_forced_leaves_a_bid_contract_alone(tmp_path: Path) -> None:
    game = _game(tmp_path, forced=True)
    state = game.new_match(dealer=3, hands=HANDS).apply("bid low")  # seat 0, the eldest, bids
    state = state.apply("pass").apply("pass").apply("pass").apply("trump H")
    assert _legal(state) == {"call KD", "call KC"}


def test_the_fallback_needs_every_king_trumps_included_when_forced(tmp_path: Path) -> None:
    hands = [["KS", "KD", "KC"], ["QH", "QS", "JH"], ["KH", "QD", "JD"], ["QC", "JS", "JC"]]
    for forced, want in ((False, {"call QS", "call QD", "call QC"}), (True, {"call KH"})):
        state = _game(tmp_path, forced=forced).new_match(dealer=0, hands=hands)
        for _ in range(4):
            state = state.apply("pass")
        # Hearts trump: seat 0 holds the three side Kings; the trump King KH is seat 2's.
        assert _legal(state.apply("trump H")) == want
