"""The search bots (determinized and information-set MCTS): every phase of every game, from what the seat knows.

They play a whole deal of every bundled game, the bidding included, and decide from their seat's knowledge alone.

The second test is the one issue 29 asks for: a bot's decision, replayed on a world in which the hidden
cards are reshuffled consistently with the seat's log (drawn by the sampler), is the same for the same
seed. A bot that peeked at the true hands would choose differently in some of them.
"""

from __future__ import annotations

import math
import random

import pytest

import trickrules
from trickrules import ArgumentError, EventLog, State, View
from trickrules.faces.bots import HeuristicBot, make_bots
from trickrules.faces.match import play_match
from trickrules.faces.random_bot import Bot, RandomBot, decide
from trickrules.faces.search_bots import (
    BID_EVIDENCE,
    NATIVE_SOLVE_NODES,
    POINTS_SOLVE_NODES,
    PROXY_SOLVE_CARDS,
    DeterminizedBot,
    IsmctsBot,
    _proxy,
    _solving,
    evident,
)
from trickrules.search.solve import solve
from trickrules.search.worlds import sample_worlds
from trickrules.spec.loader import bundled_names


@pytest.mark.parametrize("name", bundled_names())
def test_the_search_bots_play_a_whole_deal_and_its_log_replays(name: str) -> None:
    game = trickrules.load(name)
    bots: list[Bot] = [RandomBot(game, seat) for seat in range(game.players)]
    bots[0] = DeterminizedBot(game, seed=1, worlds=2, playouts=1)
    bots[1] = IsmctsBot(game, seed=2, playouts=6)
    final = play_match(game, bots, seed=5, max_deals=1)
    assert final.match.deals_done == 1
    assert trickrules.replay(EventLog.from_state(final), partial=not final.is_terminal) == final


def _positions(name: str, count: int) -> list[State]:
    """Seeded random positions at a decision with a choice (the bidding included)."""
    game = trickrules.load(name)
    found = []
    for seed in range(100):
        rng = random.Random(seed)
        state = game.new_match(seed=seed)
        stop = rng.randrange(2, 30)
        for _ in range(stop):
            if state.is_terminal or state.deal.number:
                break
            state = state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal and len(state.legal_actions()) > 1:
            found.append(state)
        if len(found) == count:
            return found
    pytest.fail(f"{name}: too few positions")


@pytest.mark.parametrize("name", ["whist", "quadrille", "hearts", "skat", "bridge"])
def test_a_decision_is_the_same_in_every_world_the_seat_cannot_tell_apart(name: str) -> None:
    decided = reshuffled = 0
    for state in _positions(name, 4):
        seat = state.chooser
        assert seat is not None
        known = EventLog.from_state(state).for_seat(seat)
        for bot_class in (DeterminizedBot, IsmctsBot):
            bot = bot_class(state.game, 7)
            mine = decide(bot, state, seat)
            for world in sample_worlds(known, 3, view=View.from_state(state, seat), seed=3):
                reshuffled += world.hands != state.hands
                again = decide(bot_class(state.game, 7), world, seat)
                assert again == mine, (name, bot_class.__name__, seat)
            decided += 1
    assert decided == 8
    assert reshuffled > 0  # the worlds hid the true hands in some cases: the test can tell a bot that peeks


def test_bots_are_named_per_seat() -> None:
    game = trickrules.load("whist")
    bots = make_bots(game, "ismcts,heuristic,determinized,random", seed=1)
    assert [type(b).__name__ for b in bots] == ["IsmctsBot", "HeuristicBot", "ModelledDeterminizedBot", "RandomBot"]
    # By name, the determinized bot takes the heuristic bot as its model of the bidding.
    modelled = bots[2]
    assert isinstance(modelled, DeterminizedBot)
    assert type(modelled.bidder).__name__ == "HeuristicBot"
    assert modelled.search_bids
    assert modelled.infer
    with pytest.raises(ValueError, match="3 bots named for 4 seats"):
        make_bots(game, "ismcts,heuristic,random")
    with pytest.raises(ValueError, match="unknown bot 'mcts'"):
        make_bots(game, "mcts,heuristic,random,random")


def test_a_search_bot_needs_its_seats_log() -> None:
    game = trickrules.load("whist")
    state = game.new_match(seed=1)
    with pytest.raises(ArgumentError, match="decides from its seat's log too"):
        IsmctsBot(game).choose(View.from_state(state, state.chooser or 0))
    with pytest.raises(ArgumentError, match="playouts must be 1 or more"):
        IsmctsBot(game, playouts=0)
    with pytest.raises(ArgumentError, match="budget_ms must be more than 0"):
        DeterminizedBot(game, budget_ms=0)
    with pytest.raises(ArgumentError, match="worlds, playouts, rounds and kernel_playouts must be 1 or more"):
        DeterminizedBot(game, kernel_playouts=0)


@pytest.mark.parametrize("name", ["manille", "bridge"])
def test_a_bot_with_a_time_budget_plays_legally(name: str) -> None:
    """With ``budget_ms`` the bots search in whole rounds or iterations until the time is spent.

    Manille plays out on the kernel, Bridge (a registered mechanism) through the engine.
    """
    game = trickrules.load(name)
    state = game.new_match(seed=3)
    rng = random.Random(3)
    while state.phase != "play" or len(state.legal_actions()) < 2:
        state = state.apply(rng.choice(state.legal_actions()))
    seat = state.chooser
    assert seat is not None
    for bot in (DeterminizedBot(game, seed=1, worlds=4, budget_ms=30), IsmctsBot(game, seed=1, budget_ms=30)):
        assert decide(bot, state, seat) in [str(a) for a in state.legal_actions()]


def test_a_search_bot_named_with_its_budget() -> None:
    game = trickrules.load("manille")
    bots = make_bots(game, "ismcts:50ms,heuristic,determinized:20ms,random")
    assert isinstance(bots[0], IsmctsBot)
    assert bots[0].budget_ms == 50
    assert isinstance(bots[2], DeterminizedBot)
    assert bots[2].budget_ms == 20
    for wrong in ("heuristic:200ms", "ismcts:fast", "ismcts:0ms"):
        with pytest.raises(ValueError, match="only a search bot takes a budget"):
            make_bots(game, wrong)


def test_a_bidder_takes_the_decisions_before_the_play() -> None:
    game = trickrules.load("quadrille")
    heuristic = make_bots(game, "heuristic")[0]
    bot = DeterminizedBot(game, seed=1, worlds=2, bidder=heuristic)
    state = game.new_match(seed=4)
    checked = 0
    while state.phase != "play":
        seat = state.chooser
        assert seat is not None
        if len(state.legal_actions()) > 1:
            assert decide(bot, state, seat) == heuristic.choose(View.from_state(state, seat))
            checked += 1
        state = state.apply(decide(heuristic, state, seat))
    assert checked >= 2
    assert decide(bot, state, state.chooser or 0) in [str(a) for a in state.legal_actions()]


def _before_the_play(name: str, count: int) -> list[State]:
    """Seeded positions at a decision before the play with a choice, reached by the heuristic bots."""
    game = trickrules.load(name)
    heuristic = make_bots(game, "heuristic")[0]
    found = []
    for seed in range(60):
        state = game.new_match(seed=seed)
        rng = random.Random(seed)
        while state.phase != "play" and not state.is_terminal and state.deal.number == 0:
            seat = state.chooser
            assert seat is not None
            if len(state.legal_actions()) > 1 and rng.random() < 0.5:
                found.append(state)
                break
            state = state.apply(decide(heuristic, state, seat))
        if len(found) == count:
            return found
    pytest.fail(f"{name}: too few positions before the play")


@pytest.mark.parametrize("name", ["euchre", "quadrille"])
def test_searched_bids_are_the_same_in_every_world_the_seat_cannot_tell_apart(name: str) -> None:
    # With inference too: the worlds kept are those in which the bidder would have bid as the others did.
    reshuffled = 0
    for state in _before_the_play(name, 3):
        seat = state.chooser
        assert seat is not None
        game = state.game
        heuristic = make_bots(game, "heuristic")[0]
        for infer in (False, True):
            first = DeterminizedBot(game, 7, worlds=3, bidder=heuristic, search_bids=True, infer=infer)
            mine = decide(first, state, seat)
            assert mine in [str(a) for a in state.legal_actions()]
            known = EventLog.from_state(state).for_seat(seat)
            for world in sample_worlds(known, 3, view=View.from_state(state, seat), seed=3):
                reshuffled += world.hands != state.hands
                bot = DeterminizedBot(game, 7, worlds=3, bidder=heuristic, search_bids=True, infer=infer)
                assert decide(bot, world, seat) == mine, (name, seat, infer)
    assert reshuffled > 0


def test_searched_bids_are_the_searchs_own() -> None:
    # Euchre's bids searched, the play solved in 48 worlds: in some of these positions the search
    # decides otherwise than the heuristic bot it takes as the model of the later bids (where the
    # worlds show the other decision better by more than their spread explains: `evident`).
    game = trickrules.load("euchre")
    heuristic = make_bots(game, "heuristic")[0]
    differ = 0
    for state in _before_the_play("euchre", 12):
        seat = state.chooser
        assert seat is not None
        searched = decide(DeterminizedBot(game, 1, worlds=48, bidder=heuristic, search_bids=True), state, seat)
        assert searched in [str(a) for a in state.legal_actions()]
        differ += searched != decide(heuristic, state, seat)
    assert differ > 0


def test_a_searched_bid_replaces_the_models_only_on_evidence() -> None:
    # Rows are worlds, columns the actions pass / order / alone; the model (the bidder) would pass.
    legal = ("pass", "order", "alone")
    clear = [[0.0, 1.0, -2.0], [0.0, 1.0, 1.0], [-1.0, 0.5, -2.0], [0.0, 2.0, 0.0]]
    assert evident(legal, clear, "pass") == "order"  # order beats pass in every world
    noisy = [[0.0, 2.0, 0.0], [0.0, -1.0, 0.0], [0.0, 2.0, 0.0], [0.0, -2.0, 0.0]]
    assert evident(legal, noisy, "pass") == "pass"  # a mean of +0.25, but a spread of 2 a world
    assert evident(legal, clear[:1], "pass") == "pass"  # one world is no evidence
    assert evident(legal, clear, "order") == "order"  # the model's choice is the best
    # Differences 1 + a, 1 - a, 1 + a, 1 - a: a standard error of a / sqrt(3), so order is taken while
    # 1 > BID_EVIDENCE * a / sqrt(3).
    for factor, taken in ((0.9, "order"), (1.1, "pass")):
        a = factor * math.sqrt(3) / BID_EVIDENCE
        rows = [[0.0, 1.0 + a, 0.0], [0.0, 1.0 - a, 0.0]] * 2
        assert evident(legal, rows, "pass") == taken, factor


def test_inference_keeps_the_worlds_in_which_the_maker_holds_trumps() -> None:
    # Euchre: once another seat has made trumps, the worlds the bidder's bids agree with give that
    # seat more cards of the trump suit than worlds drawn uniformly do.
    game = trickrules.load("euchre")
    heuristic = make_bots(game, "heuristic")[0]
    uniform = inferred = compared = 0
    for seed in range(40):
        state = game.new_match(seed=seed)
        while state.phase != "play" and not state.is_terminal and state.deal.number == 0:
            if state.is_chance:
                state = state.apply(state.seeded_outcome())
            else:
                state = state.apply(decide(heuristic, state, state.chooser or 0))
        maker, seat = state.deal.declarer, state.chooser
        if state.phase != "play" or maker is None or seat is None or maker in (seat, (seat + 2) % 4):
            continue
        trump = state.deal.trump
        view, known = View.from_state(state, seat), EventLog.from_state(state).for_seat(seat)
        bot = DeterminizedBot(game, 1, worlds=8, bidder=heuristic, infer=True)
        kept = bot._worlds(view, known, 8)
        drawn = sample_worlds(known, 8, view=view, seed=seed, game=game)

        def trumps(worlds: tuple[State, ...], maker: int = maker, trump: object = trump) -> int:
            return sum(1 for w in worlds for c in w.hand(maker) if game.cards.suit_of[game.cards.card(c)] == trump)

        uniform += trumps(drawn)
        inferred += trumps(kept)
        compared += 1
    assert compared >= 5
    assert inferred > uniform


def test_inference_asks_only_the_decisions_the_seat_saw() -> None:
    # Hearts: the cards another seat passed are hidden from the seat, so a world's passes are drawn
    # at random, not learned. The bidder is not asked to have passed them (it would almost never pass
    # the very cards drawn), and every world agrees: Hearts has no other decision before the play.
    game = trickrules.load("hearts")
    heuristic = make_bots(game, "heuristic")[0]
    state = game.new_match(seed=3)
    while state.phase != "play":
        state = state.apply(state.seeded_outcome() if state.is_chance else decide(heuristic, state, state.chooser or 0))
    seat = 1
    view, known = View.from_state(state, seat), EventLog.from_state(state).for_seat(seat)
    worlds = sample_worlds(known, 8, view=view, seed=3, game=game)
    passed = [i for i, e in enumerate(known.entries) if e.actor not in (seat, "dealer") and e.event.TAG == "pass_card"]
    assert passed
    assert all(EventLog.from_state(w).entries[i].event != known.entries[i].event for w in worlds for i in passed[:1])
    bot = DeterminizedBot(game, 1, worlds=8, bidder=heuristic, infer=True)
    assert all(bot._agrees(world, seat, known) for world in worlds)


def _first_play(name: str, contract: str) -> State:
    """The first position in the play of a random deal of ``name`` under ``contract`` ("" for none)."""
    game = trickrules.load(name)
    for seed in range(200):
        state, rng = game.new_match(seed=seed), random.Random(seed)
        while not state.is_terminal and state.deal.number == 0 and (state.phase != "play" or state.chooser is None):
            if state.is_chance:
                state = state.apply(state.seeded_outcome())
            else:
                state = state.apply(rng.choice(state.legal_actions()))
        d = state.deal
        name_of = game.rules.contracts[d.contract].name if d.contract is not None else ""
        if not state.is_terminal and d.number == 0 and name_of == contract:
            return state
    pytest.fail(f"{name}: no deal of {contract!r} in 200 seeds")


@pytest.mark.parametrize(
    ("name", "contract", "measure"),
    [
        ("quadrille", "solo", "tricks"),  # tricks count, and more never pay less
        ("quintille", "alliance", "tricks"),
        ("cuatrola", "solo", "points"),  # more card points than the others
        ("tarok", "valat", "tricks"),
        ("tarok", "open_beggar", None),  # won by taking no trick
        ("skat", "null", None),  # its play ends at the declarer's first trick
        ("skat", "grand", "points"),  # more card points never pay less, though no count of tricks is read to pay
        ("whist", "", "tricks"),  # no contract: each trick over six counts
        ("bridge", "", "tricks"),  # more tricks never score less, for either side
        ("spades", "", None),  # a bid of tricks
        ("hearts", "", None),  # card points hurt
        ("oh-hell", "", None),  # a bid of tricks: more is not always better
    ],
)
def test_the_side_s_tricks_or_points_stand_for_the_payment_only_where_more_always_pays(
    name: str, contract: str, measure: str | None
) -> None:
    assert _proxy(_first_play(name, contract)) == measure


def test_a_card_point_solve_past_the_usual_bound_is_tried_again_within_a_larger() -> None:
    game = trickrules.load("skat")
    states: list[State] = []
    bots = [HeuristicBot(game, 16 + seat) for seat in range(game.players)]
    play_match(game, bots, seed=1, max_deals=1, on_step=states.append)
    world = next(
        s for s in states if (found := _solving(s)) is not None and found[0] == 7 and len(s.legal_actions()) > 1
    )
    assert _solving(world) == (7, PROXY_SOLVE_CARDS, POINTS_SOLVE_NODES, "points")
    with pytest.raises(ArgumentError, match="passed max_nodes"):
        solve(world, measure="points", max_nodes=NATIVE_SOLVE_NODES)  # a seven-card Skat solve past 40,000
    exact = solve(world, measure="points")
    assert NATIVE_SOLVE_NODES < exact.nodes <= POINTS_SOLVE_NODES
    bot = DeterminizedBot(game, 0)
    assert bot._solve_all((world,), None) == [tuple((text, float(value)) for text, value in exact.values)]
    assert bot._too_many is None  # it solves on at seven cards
