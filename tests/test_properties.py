"""Random simulation tests of every bundled game, in the manner of OpenSpiel's.

Seeded random playthroughs check cheap invariants at every step (one seat to
move, legal actions exactly until the end, every card in one place, chips
conserved, points never lost) and expensive ones at sampled steps (illegal
actions refused without a trace, determinism, exact JSON round trips, replay,
and what views and seat logs keep secret). Stacked deals check that a seat's
view depends only on what that seat may know.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parts
import trickrules
from strategies import (
    GAMES,
    MAX_SEED,
    Hands,
    Playthrough,
    Policy,
    Tracker,
    actions_of,
    big_seeds,
    check_cards,
    check_history,
    check_json,
    check_local,
    check_partner_secret,
    check_secrets,
    check_turn,
    check_views,
    full_game,
    is_sampled,
    playthroughs,
    restack_others,
    scaled,
    seeds,
    shared,
    short_game,
    short_options,
    stacked_deals,
    walk,
)
from trickrules import EventLog, Game, State, View
from trickrules.engine.events import CardGiven, Dealt, ExchangeDone, Misdealt, PartnerRevealed

#: Completed deals the random simulation plays per game.
DEALS_PER_GAME = scaled(60, 1000)
#: In the random simulation, one match in this many gets the expensive checks at
#: sampled steps (the others get the cheap ones only), and one in this many of
#: those also the checks that read the whole history. The Hypothesis playthroughs
#: below run every check on every match.
EXPENSIVE_EVERY = scaled(2, 4)
HISTORY_EVERY = scaled(2, 3)


@dataclass
class At:
    """Where a walk is: its step number and state (for failure reports)."""

    step: int = 0
    state: State | None = None


@contextmanager
def reproduction(game: Game, p: Playthrough) -> Iterator[At]:
    """Add how to reproduce a failure (game, options, playthrough, actions) to it."""
    at = At()
    try:
        yield at
    except Exception as exc:
        exc.add_note(f"game {game.name!r} options {game.options} {p} at step {at.step}")
        if at.state is not None:
            exc.add_note(f"actions: {actions_of(at.state)}")
        raise


def play_checked(
    game: Game,
    p: Playthrough,
    rng: random.Random,
    *,
    expensive: bool = True,
    history: bool = True,
    hands: Hands | None = None,
    deals: int = 0,
) -> tuple[Tracker, State]:
    """Play ``p`` to the end: cheap checks at every step, expensive ones at sampled steps.

    The expensive checks run only with ``expensive``, those that read the whole
    history only with ``history`` too; at the last step they load the game
    again by the name in the log's header. With ``deals`` the walk stops once
    that many deals have been scored. Return the tracker and the last state.
    """
    tracker = Tracker(game)
    with reproduction(game, p) as at:
        for step, state in walk(game, p, hands):
            at.step, at.state = step, state
            tracker.step(state)
            last = state.is_terminal
            if expensive and (is_sampled(step) or last):
                check_local(state, rng)
                if history:
                    check_history(state, rng, by_name=last)
            if deals and tracker.deals >= deals:
                break
    assert at.state is not None
    return tracker, at.state


# -- the random simulation -------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_random_deals(name: str) -> None:
    """Play seeded random matches until DEALS_PER_GAME deals have been scored."""
    game = short_game(name)
    deals = 0
    matches = 0
    while deals < DEALS_PER_GAME:
        pick = random.Random(f"{name}/{matches}")
        p = Playthrough(
            seed=pick.randrange(MAX_SEED + 1),
            policy=pick.randrange(2**32),
            dealer=matches % game.rules.players,
            pass_bias=(0.0, 0.5, 0.8, 0.95)[matches % 4],
        )
        expensive = matches % EXPENSIVE_EVERY == 0
        history = matches % (EXPENSIVE_EVERY * HISTORY_EVERY) == 0
        tracker, _ = play_checked(game, p, pick, expensive=expensive, history=history)
        deals += tracker.deals
        matches += 1
    assert deals >= DEALS_PER_GAME


@settings(max_examples=shared(5, 20, least=2))
@given(p=playthroughs())
def test_random_playthrough(game: Game, p: Playthrough) -> None:
    """Random short matches from Hypothesis seeds: every check at sampled steps."""
    play_checked(game, p, random.Random(p.policy))


@settings(max_examples=shared(1, 3))
@given(p=playthroughs())
def test_full_length_match(long_game: Game, p: Playthrough) -> None:
    """A match with the default options (full length) ends as its rules say."""
    tracker, last = play_checked(long_game, p, random.Random(p.policy))
    assert last.is_terminal
    rules = long_game.rules
    scores = last.scoreboard
    assert last.winners
    if rules.match_deals:
        assert tracker.deals >= rules.match_deals
    mercy = rules.bids.mercy_threshold  # the mercy rule ends a match when a side falls to it
    if rules.match_target:
        assert max(scores.values()) >= rules.match_target or (mercy is not None and min(scores.values()) <= mercy)
    if rules.tie_break != "dealer_side":
        best = min if long_game.spec.match.winner == "lowest" else max  # penalty points: lowest wins
        assert all(scores[s] == best(scores.values()) for s in last.winners)


def option_choices() -> list[tuple[str, str, str]]:
    """List (game, option, choice) for every choice other than the default."""
    out: list[tuple[str, str, str]] = []
    for name in GAMES:
        for key, option in full_game(name).spec.options.items():
            out.extend((name, key, choice) for choice in option.choices if choice != option.default)
    return out


@pytest.mark.parametrize(("name", "option", "choice"), option_choices())
def test_every_option_choice(name: str, option: str, choice: str) -> None:
    """Every house-rule choice of every game loads, and its first deals keep every invariant.

    Two deals from each of two seeds: the first with the cheap checks only,
    the second (ci profile only) with every check at sampled steps.
    """
    spec = full_game(name).spec
    if option == "deals" and int(choice) % spec.match.deals_multiple_of:
        # A length this game's own rules refuse (quadrille-fi:F3): loading says so.
        with pytest.raises(trickrules.SpecError, match="not a multiple of"):
            trickrules.load(name, {**short_options(name), option: choice})
        return
    game = trickrules.load(name, {**short_options(name), option: choice})
    for k in range(scaled(1, 2)):
        p = Playthrough(seed=1000 + k, policy=k, dealer=k, pass_bias=(0.5, 0.95)[k % 2])
        play_checked(game, p, random.Random(k), expensive=k == 1, history=False, deals=2)


def deals_choices() -> list[object]:
    """List (game, choice) for every choice of every game's ``deals`` option."""
    out: list[object] = []
    for name in GAMES:
        option = full_game(name).spec.options.get("deals")
        for choice in option.choices if option is not None else ():
            out.append(pytest.param(name, choice))
    return out


@pytest.mark.parametrize(("name", "choice"), deals_choices())
def test_deals_option_sets_the_match_length(name: str, choice: str) -> None:
    """The ``deals`` option ("how many deals the match lasts") is the match's length.

    Where the game's rules only allow multiples of some number (quadrille-fi:F3),
    the other lengths are asked for with the option that lifts the rule.
    """
    extra = {}
    if int(choice) % full_game(name).spec.match.deals_multiple_of:
        extra = {"match_deals_multiple_of": "1"}
    game = trickrules.load(name, {"deals": choice, **extra})
    assert game.options["deals"] == choice
    assert game.rules.match_deals == int(choice)


# -- stacked deals and what a view may depend on --------------------------------------


@settings(max_examples=shared(10, 60, least=3))
@given(data=st.data())
def test_stacked_deal_is_dealt_as_given(game: Game, data: st.DataObject) -> None:
    """A stacked first deal gives each seat its cards, and replays from its log."""
    hands = data.draw(stacked_deals(game), label="hands")
    dealer = data.draw(st.integers(0, game.rules.players - 1), label="dealer")
    seed = data.draw(seeds(), label="seed")
    state = game.new_match(seed=seed, dealer=dealer, hands=hands)
    for seat, hand in enumerate(hands):
        assert set(state.hand(seat)) == set(hand)
    dealt = [e for e in state.last_events if isinstance(e, Dealt)]
    assert len(dealt) == 1
    assert [set(h) for h in dealt[0].hands] == [set(h) for h in hands]
    if game.rules.turn_last_card:
        assert dealt[0].turned == hands[dealer][-1]
        assert parts.v_turned(View.from_state(state, 0)) == hands[dealer][-1]
    check_turn(state)
    check_cards(state)
    log = EventLog.from_state(state)
    assert log.header.hands == hands
    again = trickrules.replay(EventLog.from_json(log.to_json()), partial=True)
    assert again == state


@settings(max_examples=shared(10, 60, least=3))
@given(data=st.data())
def test_stacked_deal_of_wrong_sizes_is_a_misdeal(game: Game, data: st.DataObject) -> None:
    """Hands of the wrong sizes are a misdeal: the deal comes from the seed instead."""
    hands = [list(h) for h in data.draw(stacked_deals(game), label="hands")]
    moved = data.draw(st.integers(1, game.rules.hand_size - 1), label="moved")
    hands[1] += hands[0][:moved]
    del hands[0][:moved]
    seed = data.draw(seeds(), label="seed")
    state = game.new_match(seed=seed, hands=hands)
    assert any(isinstance(e, Misdealt) for e in state.last_events)
    # The deal from the seed has the size the rules give it (drawn from the seed, where sizes vary).
    assert state.deal.tricks in game.rules.bids.sizes.of_deal(0)
    assert all(h.bit_count() == state.deal.tricks for h in state.hands)
    check_turn(state)
    check_cards(state)
    assert trickrules.replay(EventLog.from_json(EventLog.from_state(state).to_json()), partial=True) == state


@settings(max_examples=shared(20, 150, least=5))
@given(data=st.data())
def test_view_ignores_cards_the_seat_cannot_see(game: Game, data: st.DataObject) -> None:
    """Permuting the cards a seat cannot see among the other seats leaves its view as it was.

    Checked at the start of a stacked deal, then after each action of a random
    sequence of actions legal in both deals (until none is).
    The comparison also stops where the rules themselves make a card's place
    public and the two deals differ in it: a forced contract (the holder of
    quadrille's Spadille must play), and a called card whose holder has to act
    (names trumps in a Casco, exchanges in a Dimidiator) or is announced.
    """
    hands = data.draw(stacked_deals(game), label="hands")
    players = game.rules.players
    dealer = data.draw(st.integers(0, players - 1), label="dealer")
    seat = data.draw(st.integers(0, players - 1), label="seat")
    seed = data.draw(seeds(), label="seed")
    shuffle = data.draw(st.randoms(use_true_random=False), label="shuffle")
    other, turned = restack_others(game, hands, dealer, seat, shuffle)
    policy = Policy(data.draw(st.integers(0, 2**32 - 1), label="policy"), pass_bias=0.5)
    a = game.new_match(seed=seed, dealer=dealer, hands=hands)
    b = game.new_match(seed=seed, dealer=dealer, hands=other, turned=turned)
    assert a.hand(seat) == b.hand(seat)
    taken: list[str] = []
    for _ in range(200):
        if made_public(a) != made_public(b):
            break
        assert View.from_state(a, seat) == View.from_state(b, seat), f"after {taken}"
        assert EventLog.from_state(a).for_seat(seat) == EventLog.from_state(b).for_seat(seat), f"after {taken}"
        if a.is_terminal:
            break
        common = [x for x in a.legal_actions() if b.is_legal(x)]
        if not common:
            break
        action = policy.choose(a, common)
        a, b = a.apply(action), b.apply(action)
        taken.append(str(action))


def made_public(state: State) -> tuple[int, ...]:
    """Return the seats the rules have made public as holders of a card.

    That is the declarer of a forced contract (it holds the forcing card), and
    the holder of a called card when the contract has it name trumps or
    exchange with the declarer, or when calls are public; and the cards of a
    hand laid face up for every seat (the dummy's). Two deals that differ
    here give views that differ, as the rules say they should.
    """
    d = state.deal
    seats: list[int] = []
    if parts.forced(state) and d.declarer is not None:
        seats.append(d.declarer)
    if parts.called(state) is not None and d.contract is not None and d.partner is not None:
        c = state.game.rules.contracts[d.contract]
        if c.exchange or c.trump_by == "called_holder" or state.game.rules.call_public:
            seats.append(d.partner)
    if state.game.tables.leads.first_card is not None and state.phase == "play" and not state.tally.winners:
        seats.append(state.leader)  # the holder of the first lead's card (Hearts' 2 of clubs) leads
    exposed = parts.exposed_hand(state)
    if exposed:  # a hand laid face up for every seat (Bridge's dummy after the opening lead): its cards, as a mask
        seats.append(exposed)
    return tuple(seats)


# -- secrets ---------------------------------------------------------------------------


#: The games with contracts that call a card (a secret partner, an exchange).
CALLING_GAMES = tuple(n for n in GAMES if any(c.call for c in short_game(n).rules.contracts))


@pytest.mark.skipif(not CALLING_GAMES, reason="no bundled game calls a partner")
@pytest.mark.parametrize("name", CALLING_GAMES)
@settings(max_examples=scaled(10, 40))
@given(data=st.data())
def test_secret_partner_and_exchange(name: str, data: st.DataObject) -> None:
    """Check the secrets of the called partner at every step of random matches.

    The called card's holder is in no other seat's view until the card is
    played, then in every view; cards handed face down in an exchange (the
    Dimidiator) are in the views and seat logs of the two seats of it only.
    The policy is told to bid one of the calling contracts whenever it may.
    """
    game = short_game(name)
    calling = tuple(c.name for c in game.rules.contracts if c.call)
    p = data.draw(playthroughs(seed=big_seeds(), min_pass_bias=0.5, favour=("", *calling)), label="p")
    with reproduction(game, p) as at:
        for step, state in walk(game, p):
            at.step, at.state = step, state
            check_partner_secret(state)
            events = state.last_events
            if any(isinstance(e, CardGiven | PartnerRevealed) for e in events):
                check_views(state)
            if any(isinstance(e, ExchangeDone) for e in events):
                log = EventLog.from_state(state)
                for seat in range(game.rules.players):
                    check_secrets(state, seat, log)
                check_json(state, log, range(game.rules.players))


@settings(max_examples=shared(5, 20, least=2))
@given(p=playthroughs(seed=big_seeds()))
def test_seat_logs_keep_secrets(game: Game, p: Playthrough) -> None:
    """No seat's log or view holds the seed or an unseen card of another hand."""
    with reproduction(game, p) as at:
        for step, state in walk(game, p):
            at.step, at.state = step, state
            if is_sampled(step) or state.is_terminal:
                log = EventLog.from_state(state)
                for seat in range(game.rules.players):
                    check_secrets(state, seat, log)


# -- regressions: engine bugs these tests found (fixed since) --------------------------

#: Two cuatrola deals (dealer 2, the turned AB makes bastos trumps) that differ only
#: in cards seat 1 cannot see: seat 0's AC and seat 2's CO change places, so seat 2
#: holds the Rey and Caballo of oros (a 20) in the second deal only.
MELD_A: Hands = (
    ("AO", "3O", "AE", "CO", "SO"),
    ("3E", "3C", "3B", "CC", "SC"),
    ("RO", "AC", "RB", "CE", "AB"),
    ("SE", "RC", "RE", "CB", "SB"),
)
MELD_B: Hands = (
    ("AO", "3O", "AE", "AC", "SO"),
    ("3E", "3C", "3B", "CC", "SC"),
    ("RO", "CO", "RB", "CE", "AB"),
    ("SE", "RC", "RE", "CB", "SB"),
)
MELD_ACTIONS = ["pass", "pass", "pass", "pass", "play SE", "play AE", "play 3E", "play CE"]


def test_declaration_window_does_not_show_who_holds_a_meld() -> None:
    """Seat 1's view and log are the same in two deals that differ only in hidden cards.

    The engine used to open a declaration window after a trick only for the
    winning side's seats that held a meld, so the phase and the seat to move
    told everyone who held a Rey and Caballo.
    """
    game = short_game("cuatrola")
    a = game.new_match(seed=0, dealer=2, hands=MELD_A)
    b = game.new_match(seed=0, dealer=2, hands=MELD_B)
    for action in MELD_ACTIONS:
        a, b = a.apply(action), b.apply(action)
        assert View.from_state(a, 1) == View.from_state(b, 1), f"after {action}"
        assert EventLog.from_state(a).for_seat(1) == EventLog.from_state(b).for_seat(1), f"after {action}"


@settings(max_examples=scaled(3, 10))
@given(name=st.sampled_from(GAMES), seed=st.integers(MAX_SEED - 2**20, MAX_SEED))
def test_log_round_trip_of_the_largest_seeds(name: str, seed: int) -> None:
    """The largest seeds give logs that read back and replay.

    ``new_match`` once accepted seeds whose logs the reader then refused;
    a seed past ``2**53`` is written as a decimal string.
    """
    state = short_game(name).new_match(seed=seed)
    text = EventLog.from_state(state).to_json()
    assert EventLog.from_json(text).to_json() == text
    assert trickrules.replay(text, partial=True) == state


@settings(max_examples=scaled(3, 10))
@given(name=st.sampled_from(GAMES), seed=st.integers(MAX_SEED + 1, 2**200))
def test_seed_beyond_what_a_log_keeps_is_refused(name: str, seed: int) -> None:
    """A seed whose log would not read back is refused at ``new_match``."""
    with pytest.raises(ValueError, match="seed"):
        short_game(name).new_match(seed=seed)


#: A stacked quadrille deal (dealer 1, so seat 2 bids first) where seat 2 holds every
#: King and Queen outside spades.
NO_CALL_HANDS: Hands = (
    ("KS", "QS", "JS", "AS", "2S", "3S", "4S", "5S", "6S", "7S"),
    ("2H", "3H", "4H", "5H", "6H", "7H", "AD", "2D", "3D", "4D"),
    ("KH", "KD", "KC", "QH", "QD", "QC", "JH", "JD", "JC", "AH"),
    ("5D", "6D", "7D", "AC", "2C", "3C", "4C", "5C", "6C", "7C"),
)


def test_declarer_holding_every_king_and_queen_can_call() -> None:
    """A declarer who must call a card always has one to call.

    The engine used to leave an Alliance declarer holding every King and Queen
    outside trumps with no legal call: the match was stuck in the call phase.
    """
    state = short_game("quadrille").new_match(seed=0, dealer=1, hands=NO_CALL_HANDS)
    for action in ["bid alliance", "pass", "pass", "pass", "trump S"]:
        state = state.apply(action)
    assert state.phase == "call"
    assert state.legal_actions()
    check_turn(state)
    state = state.apply(state.legal_actions()[0])
    check_cards(state)


#: A quadrille Dimidiator (dealer 1, so seat 2 bids first) on a stacked deal, one
#: suit per seat: seat 2 calls the King of hearts, gives 7D to its holder (seat 3),
#: gets the King itself back, and leads it.
GIVEN_BACK_HANDS: Hands = (
    ("KS", "QS", "JS", "AS", "2S", "3S", "4S", "5S", "6S", "7S"),
    ("KC", "QC", "JC", "AC", "2C", "3C", "4C", "5C", "6C", "7C"),
    ("KD", "QD", "JD", "AD", "2D", "3D", "4D", "5D", "6D", "7D"),
    ("KH", "QH", "JH", "AH", "2H", "3H", "4H", "5H", "6H", "7H"),
)
GIVEN_BACK_ACTIONS = [
    "bid dimidiator", "pass", "pass", "pass", "trump S", "call KH", "give 7D", "give KH", "pass",
    "play KH",
]  # fmt: skip


def test_called_card_given_back_reveals_the_partner() -> None:
    """The seat a PartnerRevealed event names is the partner the state and views name.

    In a Dimidiator the called King's holder may hand the King itself to the
    declarer. When the declarer played it, the engine used to name the
    declarer in PartnerRevealed while the state and views named the holder.
    """
    state = short_game("quadrille").new_match(seed=0, dealer=1, hands=GIVEN_BACK_HANDS)
    for action in GIVEN_BACK_ACTIONS:
        state = state.apply(action)
    events = [e for e in state.last_events if isinstance(e, PartnerRevealed)]
    assert events
    assert events[0].seat == state.deal.partner
    assert all(parts.v_partner(View.from_state(state, s)) == events[0].seat for s in range(state.game.rules.players))
