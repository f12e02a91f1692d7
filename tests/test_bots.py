"""The simulation bots: legal, deterministic, blind to hidden information, and (the heuristic one) sensible.

The heuristic bot must bid in the games with an auction (it used to pass
almost always), read what a contract needs from the scoring rules, and play
by its rules of thumb in constructed positions. ``docs/bots.md`` gives the
frequencies measured over 10,000 deals; the assertions here use a few
hundred deals and wide margins around them.
"""

from __future__ import annotations

import pytest

import trickrules
from trickrules import State, View
from trickrules.faces.bots import BOTS, HeuristicBot, RandomBot, make_bots
from trickrules.faces.hand_reading import knowledge
from trickrules.faces.simulate import Simulation

RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]


def cards(suit: str, ranks: str) -> list[str]:
    """The cards of ``suit`` with the ranks listed (space-separated)."""
    return [rank + suit for rank in ranks.split()]


def contracts(result: Simulation) -> dict[str, tuple[int, int, int]]:
    """Each contract's count, forced count and successes."""
    return {c.name: (c.count, c.forced, c.successes) for c in result.statistics.contracts}


# -- every game, every decision ----------------------------------------------------------------


@pytest.mark.parametrize("name", trickrules.bundled_names())
def test_the_heuristic_bot_only_chooses_legal_actions(name: str) -> None:
    game = trickrules.load(name)
    for match in range(2):
        bots = make_bots(game, "heuristic", seed=match)
        state = game.new_match(seed=100 + match, dealer=match % game.players)
        deals = 0
        while not state.is_terminal and deals < 4:
            assert state.chooser is not None  # the seat that decides (the declarer, for a dummy's card)
            view = View.from_state(state, state.chooser)
            action = bots[state.chooser].choose(view)
            assert action in view.legal, (name, view.phase, action, view.legal)
            before = state.match.deals_done
            state = state.apply(action)
            deals += state.match.deals_done != before
        assert deals == 4 or state.is_terminal


def test_the_bots_keep_their_interface() -> None:
    game = trickrules.load("whist")
    assert set(BOTS) == {"random", "heuristic", "determinized", "ismcts"}  # the search bots since issue 29
    assert [type(b) for b in make_bots(game, "random", seed=1)] == [RandomBot] * 4
    assert [type(b) for b in make_bots(game, "heuristic", seed=1)] == [HeuristicBot] * 4
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        make_bots(game, "clever")


def test_the_heuristic_bot_is_deterministic_for_a_seed() -> None:
    game = trickrules.load("quadrille", {"deals": "4"})

    def final(seed: int) -> State:
        bots = make_bots(game, "heuristic", seed=seed)
        state = game.new_match(seed=9)
        while not state.is_terminal:
            assert state.to_move is not None
            state = state.apply(bots[state.to_move].choose(View.from_state(state, state.to_move)))
        return state

    assert trickrules.EventLog.from_state(final(1)).to_json() == trickrules.EventLog.from_state(final(1)).to_json()
    once = trickrules.simulate("cuatrola", deals=60, seed=4, bots="heuristic")
    assert trickrules.simulate("cuatrola", deals=60, seed=4, bots="heuristic").to_json() == once.to_json()


# -- no hidden information -----------------------------------------------------------------------


def spades_deal(seat_1: list[str], seat_2: list[str]) -> State:
    """Spades, seat 3 dealing (seat 0 bids first and leads), seat 1 and seat 2 holding the cards given."""
    seat_0 = cards("S", "A K Q") + cards("H", "A K Q J") + cards("D", "A K Q") + cards("C", "A K Q")
    rest = [c for s in "SHDC" for c in cards(s, " ".join(RANKS)) if c not in seat_0 + seat_1 + seat_2]
    return trickrules.load("spades").new_match(seed=1, dealer=3, hands=[seat_0, seat_1, seat_2, rest])


def test_the_heuristic_bot_decides_the_same_from_equal_views_of_different_states() -> None:
    low = [c for s in "SHDC" for c in cards(s, "10 9 8 7 6 5 4 3 2")]
    one = spades_deal(low[:13], low[13:26])
    other = spades_deal(low[13:26], low[:13])  # seats 1 and 2 swap their hands
    assert one.hand(1) != other.hand(1)
    choices = []
    while one.phase != "play" or one.to_move != 1:
        seat = one.to_move
        assert seat is not None
        views = View.from_state(one, seat), View.from_state(other, seat)
        if seat in (0, 3):  # the seats whose hands are the same in both deals
            assert views[0] == views[1]
            bot = HeuristicBot(one.game, seed=seat)
            choice = bot.choose(views[0])
            assert HeuristicBot(other.game, seed=seat).choose(views[1]) == choice
            assert bot.choose(View.from_json(views[0].to_json())) == choice
            choices.append(choice)
        else:
            choice = "bid 1"
        one, other = one.apply(choice), other.apply(choice)
    assert int(choices[0].split()[1]) >= 6
    assert choices[-1].startswith("play ")


# -- bidding -------------------------------------------------------------------------------------


def test_the_requirements_of_contracts_are_read_from_the_scoring_outcomes() -> None:
    quadrille = knowledge(trickrules.load("quadrille"))
    assert {c: quadrille.need(c, 0, 10) for c in ("alliance", "dimidiator", "casco", "solo")} == dict.fromkeys(
        ("alliance", "dimidiator", "casco", "solo"), 6
    )
    finnish = knowledge(trickrules.load("quadrille-fi"))
    assert finnish.need("vole", 0, 10) == 10
    assert finnish.need("alliance", 0, 3) == 6
    assert finnish.need("alliance", 0, 2) == 10  # a Hombre who takes fewer than three himself wins only a Vole
    cuatrola = knowledge(trickrules.load("cuatrola"))
    assert [cuatrola.need(c, 0, 5) for c in ("solo", "cuatrola", "quintola")] == [3, 4, 5]
    assert cuatrola.need("solo", 40, 5) == 2  # a 40 meld counts towards the points a Solo needs
    assert knowledge(trickrules.load("whist")).need("", 0, 13) == 7
    assert knowledge(trickrules.load("euchre")).need("", 0, 5) == 3


def test_the_heuristic_bot_bids_every_rung_of_the_quadrille_ladder() -> None:
    game = trickrules.load("quadrille")
    result = contracts(trickrules.simulate(game, deals=500, seed=2, bots="heuristic"))
    deals = sum(count for count, _, _ in result.values())
    forced = sum(f for _, f, _ in result.values())
    assert forced / deals < 0.3  # measured: about 10%
    for contract in game.rules.contracts:  # measured shares: 44%, 29%, 5% and 12%
        count, forced_here, successes = result[contract.name]
        assert count - forced_here >= 5, (contract.name, result)
        assert successes / count > 0.55, (contract.name, result)


def test_the_heuristic_bot_bids_in_cuatrola() -> None:
    result = contracts(trickrules.simulate("cuatrola", deals=500, seed=3, bots="heuristic"))
    deals = sum(count for count, _, _ in result.values())
    bid = {name: counts for name, counts in result.items() if name != "(none)"}
    assert sum(count for count, _, _ in bid.values()) / deals > 0.35  # measured: about 45%
    assert sum(s for _, _, s in bid.values()) / sum(count for count, _, _ in bid.values()) > 0.6  # about 74%


def test_the_heuristic_bot_bids_the_tricks_it_expects() -> None:
    game = trickrules.load("spades")
    state = game.new_match(seed=1, dealer=3, hands=[cards(s, " ".join(RANKS)) for s in "SHDC"])
    assert HeuristicBot(game).choose(View.from_state(state, 0)) == "bid 13"  # every spade: every trick


def test_a_heuristic_side_beats_a_random_side() -> None:
    for name in ("whist", "cuatrola", "spades"):
        seats = trickrules.simulate(name, deals=120, seed=5, bots="heuristic,random,heuristic,random").statistics.seats
        assert seats[0].per_deal.total > seats[1].per_deal.total, name


def test_the_heuristic_bot_takes_fewer_penalty_points_in_hearts() -> None:
    seats = trickrules.simulate("hearts", deals=120, seed=6, bots="heuristic,random,heuristic,random").statistics.seats
    assert seats[0].per_deal.total + seats[2].per_deal.total < (seats[1].per_deal.total + seats[3].per_deal.total) / 2


# -- play in constructed positions ------------------------------------------------------------------


def spades_position(*plays: str) -> tuple[State, View]:
    """Spades with known hands, everyone bid 3, then ``plays``: the view of the seat to move."""
    hands = [
        cards("H", "6 4 2") + cards("C", "J 10 9 8 7 6 5 4 3 2"),
        cards("H", "8 7 5") + cards("C", "A K Q") + cards("D", "8 7 6 5 4 3 2"),
        cards("H", "A K 9 3") + cards("D", "A K Q J 10 9") + cards("S", "4 3 2"),
        cards("H", "Q J 10") + cards("S", "A K Q J 10 9 8 7 6 5"),
    ]
    state = trickrules.load("spades").new_match(seed=1, dealer=3, hands=hands)
    for action in ("bid 3", "bid 3", "bid 3", "bid 3", *plays):
        state = state.apply(action)
    assert state.to_move is not None
    return state, View.from_state(state, state.to_move)


def test_the_heuristic_bot_wins_with_its_cheapest_sure_card() -> None:
    state, view = spades_position("play 2H", "play 5H")
    assert state.to_move == 2
    assert HeuristicBot(state.game).choose(view) == "play KH"


def test_the_heuristic_bot_does_not_overtake_its_winning_partner() -> None:
    state, view = spades_position("play 6H", "play 5H")
    assert state.to_move == 2
    assert HeuristicBot(state.game).choose(view) == "play 3H"


def test_the_heuristic_bot_ruffs_with_its_lowest_trump_when_that_wins() -> None:
    state, view = spades_position("play 2C", "play AC")
    assert state.to_move == 2
    assert HeuristicBot(state.game).choose(view) == "play 2S"


def test_the_heuristic_bot_feeds_points_to_its_partner() -> None:
    # Cuatrola, bastos trumps: seat 0 leads the Ace of oros; seat 2, its partner, out of oros and of trumps,
    # throws one of its Treses (10 points each) rather than a low card.
    hands = [["AO", "RO", "AC", "RC", "AE"], ["3O", "CO", "SO", "CC", "SC"], ["3C", "3E", "RE", "CE", "SE"], []]
    hands[3] = ["AB", "3B", "RB", "CB", "SB"]
    game = trickrules.load("cuatrola")
    state = game.new_match(seed=1, dealer=3, hands=hands)
    while state.phase != "play":
        state = state.apply("pass")
    state = state.apply("play AO").apply("play SO")
    assert (state.trump, state.to_move) == ("B", 2)
    assert HeuristicBot(game).choose(View.from_state(state, 2)) in ("play 3C", "play 3E")
