"""Golden cases of real Skat (``specs/skat.toml``): worked examples of the Skat Order's scoring.

Each case stacks a deal (seat 2 deals, so seat 0 is the forehand, seat 1 the
middlehand, seat 2 the rearhand), bids so that seat 0 declares at a given value,
takes up the skat or plays from hand, names the game and its announcements, and
plays it out: the declarer plays his strongest legal card (his weakest in Null),
the defenders their weakest. The hands are chosen so that the result of the play is
certain (every trick to the declarer, or none), and each case's score is worked out
by hand from the rule it follows, named by its section of the International Skat
Order (ISkO 5.1: base values; 5.2: the multiplier, matadors "with" or "without" over
the declarer's hand and the skat; 5.3: Null values; 5.6: an overbid game; 5.7: a lost
game counts double against the declarer). The defenders never score (docs/decisions.md SK15).
"""

from __future__ import annotations

import pytest

import trickrules
from trickrules import State
from trickrules.engine.events import DealScored, TrickWon

# Seat 0 holds the four Jacks and the top Diamonds and Hearts: every trick is his in Grand.
GRAND_HANDS = (
    ("JC", "JS", "JH", "JD", "AD", "10D", "KD", "AH", "10H", "KH"),
    ("QD", "9D", "8D", "QH", "9H", "8H", "AS", "10S", "KS", "QS"),
    ("7D", "7H", "AC", "10C", "KC", "QC", "9C", "8C", "9S", "8S"),
)  # the skat: 7S 7C
# Seat 0 holds the ten highest Clubs trumps; the skat holds the seven of Clubs, the eleventh.
CLUBS_HANDS = (
    ("JC", "JS", "JH", "JD", "AC", "10C", "KC", "QC", "9C", "8C"),
    ("AD", "10D", "KD", "QD", "9D", "AH", "10H", "KH", "QH", "9H"),
    ("8D", "7D", "8H", "7H", "AS", "10S", "KS", "QS", "9S", "8S"),
)  # the skat: 7S 7C
# As above, but the skat holds two plain sevens: the declarer is "with 10".
CLUBS_TEN_HANDS = (
    ("JC", "JS", "JH", "JD", "AC", "10C", "KC", "QC", "9C", "8C"),
    ("AD", "10D", "KD", "QD", "9D", "AH", "10H", "KH", "QH", "9H"),
    ("8D", "7D", "8H", "7C", "AS", "10S", "KS", "QS", "9S", "8S"),
)  # the skat: 7S 7H
# Seat 0 holds the lowest cards of every suit: he cannot take a trick in Null (nor in Hearts).
LOW_HANDS = (
    ("7D", "8D", "9D", "7H", "8H", "7S", "8S", "9S", "7C", "8C"),
    ("10D", "JD", "QD", "KD", "AD", "10H", "JH", "QH", "KH", "AH"),
    ("10S", "JS", "QS", "KS", "AS", "10C", "JC", "QC", "KC", "AC"),
)  # the skat: 9H 9C
# Seat 0 holds the Ace of Diamonds, which takes the first trick he leads in Null.
ACE_HANDS = (
    ("AD", "8D", "9D", "7H", "8H", "7S", "8S", "9S", "7C", "8C"),
    ("10D", "JD", "QD", "KD", "7D", "10H", "JH", "QH", "KH", "AH"),
    ("10S", "JS", "QS", "KS", "AS", "10C", "JC", "QC", "KC", "AC"),
)  # the skat: 9H 9C


def bid_to_seat_0(state: State, value: int) -> State:
    """The middlehand bids ``value`` to the forehand, who holds it; the middlehand and the rearhand pass."""
    for action in (f"bid {value}", "hold", "pass", "pass"):
        state = state.apply(action)
    return state


def play_out(state: State) -> State:
    """Play the deal to its end: the declarer his strongest card (weakest in Null), the defenders their weakest."""
    game = state.game
    null = state.trump == "null"
    number = state.deal.number
    while not state.is_terminal and state.deal.number == number:
        assert state.phase == "play", state.phase
        assert state.deal.trump is not None
        power = game.tables.trumps[state.deal.trump].power
        cards = sorted(state.legal_actions(), key=lambda a: power[game.cards.card(a.arg)])
        strongest = state.to_move == state.declarer and not null
        state = state.apply(cards[-1] if strongest else cards[0])
    return state


def declarer_score(
    hands: tuple[tuple[str, ...], ...],
    contract: str,
    *,
    bid: int = 18,
    hand: bool = True,
    discards: tuple[str, ...] = (),
    announce: tuple[str, ...] = (),
    declarer_tricks: int | None = None,
) -> int:
    """Seat 0's score after the deal, with the declarer's tricks checked where given."""
    game = trickrules.load("skat")
    state = bid_to_seat_0(game.new_match(seed=1, dealer=2, hands=[list(h) for h in hands]), bid)
    assert state.declarer == 0
    state = state.apply("hand" if hand else "pickup")
    for card in discards:
        state = state.apply(f"discard {card}")
    state = state.apply(f"bid {contract}")
    for name in announce:
        state = state.apply(f"announce {name}")
    while state.phase == "announce":
        state = state.apply("pass")
    state = play_out(state)
    tricks = [e for _, e in state.entries() if isinstance(e, TrickWon)]
    if declarer_tricks is not None:
        assert sum(1 for t in tricks if t.seat == 0) == declarer_tricks
    scored = [e for _, e in state.entries() if isinstance(e, DealScored)]
    assert scored[0].scoreboard[1] == scored[0].scoreboard[2] == 0  # the defenders never score
    return scored[0].scoreboard[0]


# (case, hands, contract, keywords, the score worked out by hand)
CASES = [
    # ISkO 5.1, 5.2: Grand 24 x (with 4 + game + hand + Schneider + Schwarz) = 24 x 8.
    ("grand hand with 4, schwarz", GRAND_HANDS, "grand_hand", {"declarer_tricks": 10}, 192),
    # ISkO 5.2: Schwarz announced adds Schneider announced and Schwarz announced: 24 x 10.
    ("grand hand schwarz announced", GRAND_HANDS, "grand_hand", {"announce": ("schwarz",)}, 240),
    # ISkO 5.2: Schneider announced, Schwarz made unannounced: 24 x (4 + 1 + 1 + 1 + 1 + 1) = 24 x 9.
    ("grand hand schneider announced", GRAND_HANDS, "grand_hand", {"announce": ("schneider",)}, 216),
    # ISkO 5.2: Ouvert adds Schwarz announced and Ouvert: 24 x 11, the highest game of all.
    ("grand ouvert", GRAND_HANDS, "grand_hand", {"announce": ("ouvert",)}, 264),
    # ISkO 5.6, 5.7: bid 264, worth 192: overbid, lost at the lowest multiple of 24 reaching 264, twice.
    ("grand hand overbid", GRAND_HANDS, "grand_hand", {"bid": 264}, -528),
    # ISkO 5.2: the skat's seven of Clubs makes "with 11": Clubs 12 x (11 + 1 + 1 + 1 + 1) = 12 x 15.
    ("clubs hand with 11 by the skat", CLUBS_HANDS, "clubs_hand", {"declarer_tricks": 10}, 180),
    # ISkO 5.2: skat taken up and laid back: "with 10", no Hand: 12 x (10 + 1 + 1 + 1) = 12 x 13.
    ("clubs with 10", CLUBS_TEN_HANDS, "clubs", {"hand": False, "discards": ("7S", "7H")}, 156),
    # ISkO 5.2, 5.7: no Jack, no Ace, Ten, King or Queen of Hearts; the skat's nine of Hearts ends the
    # run: "without 8". No trick is Schwarz, 0 card points Schneider (lost):
    # Hearts 10 x (8 + 1 + 1 + 1 + 1) = 120, lost twice.
    ("hearts hand without 8, lost schwarz", LOW_HANDS, "hearts_hand", {"declarer_tricks": 0}, -240),
    # ISkO 5.3: Null 23, won when the declarer takes no trick.
    ("null", LOW_HANDS, "null", {"hand": False, "discards": ("9H", "9C"), "declarer_tricks": 0}, 23),
    ("null hand", LOW_HANDS, "null_hand", {"declarer_tricks": 0}, 35),
    ("null ouvert", LOW_HANDS, "null_ouvert", {"hand": False, "discards": ("9H", "9C")}, 46),
    ("null ouvert hand", LOW_HANDS, "null_ouvert_hand", {}, 59),
    # ISkO 5.3, 5.7: the Ace of Diamonds led takes a trick: Null lost, twice 23.
    ("null lost", ACE_HANDS, "null", {"hand": False, "discards": ("9H", "9C"), "declarer_tricks": 1}, -46),
    # ISkO 5.6: bid 24, Null (23) won all the same is overbid, lost at the lowest Null value reaching 24.
    ("null overbid", LOW_HANDS, "null", {"bid": 24, "hand": False, "discards": ("9H", "9C")}, -70),
]


@pytest.mark.parametrize(("case", "hands", "contract", "how", "expected"), CASES, ids=[c[0] for c in CASES])
def test_skat_order_worked_example(
    case: str, hands: tuple[tuple[str, ...], ...], contract: str, how: dict[str, object], expected: int
) -> None:
    assert declarer_score(hands, contract, **how) == expected  # type: ignore[arg-type]


def test_everyone_passes_and_the_deal_is_thrown_in() -> None:
    """ISkO 3.3: the middlehand and the rearhand pass, then the forehand: nobody plays, nobody scores."""
    game = trickrules.load("skat")
    state = game.new_match(seed=1, dealer=2, hands=[list(h) for h in LOW_HANDS])
    assert [str(a) for a in state.legal_actions()][:2] == ["pass", "bid 18"]
    state = state.apply("pass").apply("pass")
    assert state.to_move == 0
    assert [str(a) for a in state.legal_actions()] == ["pass", "bid 18"]  # the forehand alone: 18 or pass
    state = state.apply("pass")
    scored = next(e for _, e in state.entries() if isinstance(e, DealScored))
    assert scored.outcome == "passed out"
    assert scored.scoreboard == (0, 0, 0)
    assert state.deal.number == 1
    assert state.dealer == 0


def test_the_rearhand_bids_to_the_one_left() -> None:
    """ISkO 3.2: the middlehand bids to the forehand; the rearhand then bids to whoever is left, above it."""
    game = trickrules.load("skat")
    state = game.new_match(seed=1, dealer=2, hands=[list(h) for h in LOW_HANDS])
    state = state.apply("bid 20").apply("hold").apply("bid 23").apply("pass")  # the forehand passes at 23
    assert state.to_move == 2  # the rearhand (the dealer) bids to the middlehand
    assert "bid 23" not in [str(a) for a in state.legal_actions()]
    state = state.apply("bid 24")
    assert state.to_move == 1
    assert [str(a) for a in state.legal_actions()] == ["hold", "pass"]
    state = state.apply("hold").apply("pass")
    assert state.declarer == 1
    assert state.phase == "widow"
    assert [str(a) for a in state.legal_actions()] == ["pickup", "hand"]


def test_hand_games_and_announcements_follow_the_widow() -> None:
    """ISkO 3.4, 5.2: hand games only from hand, the others only with the skat; announcements only from hand."""
    game = trickrules.load("skat")
    state = bid_to_seat_0(game.new_match(seed=1, dealer=2, hands=[list(h) for h in GRAND_HANDS]), 18)
    taken = state.apply("pickup").apply("discard 7S").apply("discard 7C")
    assert {str(a) for a in taken.legal_actions()} == {
        f"bid {c}" for c in ("diamonds", "hearts", "spades", "clubs", "grand", "null", "null_ouvert")
    }
    assert taken.apply("bid grand").phase == "play"  # no announcement after taking the skat
    hand = state.apply("hand")
    assert {str(a) for a in hand.legal_actions()} == {
        f"bid {c}_hand" for c in ("diamonds", "hearts", "spades", "clubs", "grand", "null", "null_ouvert")
    }
    assert hand.apply("bid grand_hand").phase == "announce"
