"""Rules that a changed line of code or spec once left every test passing (issue 27 items 10 and 11).

**Equal places in a trick without trumps.** Under Quadrille's Whist-style
following (es:77, option ``whist_style_following = on``; ``play.trick_winner
= "any_suit"``) a trick without trumps goes to the card highest in its own
suit's plain order whatever its suit, so two cards of different suits can hold
the same place (the Kings; a black 7 and a red Ace, both fourth). The first
played of equals wins (quadrille-es:F39). Quadrille, its overlays and
Quintille (which keep the option) are checked; no other bundled game lets
cards tie (every other one has ``trick_winner = "led_suit"``, where only
cards of one suit compete). The rule is checked in the engine
(:func:`trickrules.engine.obligations.winner_index`, and whole tricks through
``State.apply``) and in the native kernel (:func:`trickrules.native.play.winning_index`,
and whole tricks through its ``play_card``), against the plain orders as the
documents give them (es:13, fi:16-17), not as the tables compute them.

**Hearts' passing cycle.** ``specs/hearts.toml`` passes left, right, across,
then holds, deal after deal (the rotation of pagat's Hearts, which the spec
cites). Eight deals of bundled Hearts are played, by the engine and by the
kernel's passing, and each deal's cards must go where that rotation says.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import numpy.typing as npt
import pytest

import trickrules
from trickrules.compile.cards import TRUMP_BASE
from trickrules.engine.events import CardPassed, PassingDone, TrickWon
from trickrules.engine.game import Game
from trickrules.engine.obligations import winner_index
from trickrules.engine.phases import passing as engine_passing
from trickrules.engine.state import State
from trickrules.engine.values import Phase
from trickrules.native import layout as L
from trickrules.native import passing as native_passing
from trickrules.native.engine_arrays import to_arrays
from trickrules.native.mt import from_random
from trickrules.native.play import play_card, winning_index
from trickrules.native.tables import Builder, export_core

Array = npt.NDArray[np.int64]

# -- equal places ------------------------------------------------------------------------------------------

#: The games that let two cards hold the same place in a trick: those with the Whist-style option, chosen.
WHIST = {"whist_style_following": "on"}
ANY_SUIT_GAMES = ("quadrille", "quadrille-no-forced-spadille", "quintille")
#: The plain orders, high to low, as es:13 and fi:16-17 give them (a card missing from one is a trump).
PLAIN = {
    "black": ("K", "Q", "J", "7", "6", "5", "4", "3", "2"),
    "red": ("K", "Q", "J", "A", "2", "3", "4", "5", "6", "7"),
}
COLOUR = {"S": "black", "C": "black", "H": "red", "D": "red"}


def _game(name: str) -> Game:
    return trickrules.load(name, WHIST)


def _place(code: str) -> int:
    """The card's place in its suit's plain order (0: the King), as the documents give it."""
    return PLAIN[COLOUR[code[-1]]].index(code[:-1])


def _plain_cards(game: Game, trump: int) -> list[int]:
    """The cards that are no trump when ``trump`` is the trump key."""
    power = game.tables.trumps[trump].power
    return [c for c in range(game.cards.size) if power[c] < TRUMP_BASE]


def _ties(game: Game, trump: int) -> Iterator[tuple[int, int, int | None]]:
    """Every (a, b, low): plain cards a, b of different suits at one place, and a plain card below both if any."""
    cards = _plain_cards(game, trump)
    code = game.cards.codes
    for a in cards:
        for b in cards:
            if a != b and code[a][-1] != code[b][-1] and _place(code[a]) == _place(code[b]):
                low = next((c for c in cards if _place(code[c]) > _place(code[a])), None)
                yield a, b, low


def test_the_any_suit_games_are_those_that_let_cards_tie() -> None:
    """Only the games of :data:`ANY_SUIT_GAMES` (with the option) let the trick go to any suit: they are all checked."""
    any_suit = []
    for name in trickrules.bundled_names():
        game = trickrules.load(name)
        if "whist_style_following" in game.spec.options:
            game = _game(name)
        if game.tables.rules.play.any_suit_wins:
            any_suit.append(name)
    assert sorted(any_suit) == sorted(ANY_SUIT_GAMES)


@pytest.mark.parametrize("name", ANY_SUIT_GAMES)
def test_the_engine_gives_a_trick_to_the_first_of_equal_places(name: str) -> None:
    game = _game(name)
    t = game.tables
    checked = 0
    for trump in sorted(t.trumps):
        for a, b, low in _ties(game, trump):
            assert winner_index(t, (a, b), trump) == 0
            if low is not None:
                assert winner_index(t, (low, a, b), trump) == 1
                assert winner_index(t, (a, low, b), trump) == 0
            checked += 1
    assert checked > 100  # the Kings, the Queens, the Jacks, and each black spot card with a red one


def _tables(game: Game) -> Array:
    b = Builder()
    export_core(game.tables, b)
    return b.array()


def _kernel_winner(tb: Array, st: Array, trump: int, trick: tuple[int, ...]) -> int:
    st[L.TRUMP_ROW] = trump
    for i, card in enumerate(trick):
        st[L.TRICK + i] = card
    return int(winning_index(tb, st, len(trick)))


@pytest.mark.parametrize("name", ANY_SUIT_GAMES)
def test_the_kernel_gives_a_trick_to_the_first_of_equal_places(name: str) -> None:
    game = _game(name)
    tb = _tables(game)
    st = to_arrays(game.new_match(seed=1, dealer=0))
    assert sorted(game.tables.trumps) == list(range(len(game.tables.trumps)))  # a trump key is its row
    checked = 0
    for trump in sorted(game.tables.trumps):
        for a, b, low in _ties(game, trump):
            assert _kernel_winner(tb, st, trump, (a, b)) == 0
            if low is not None:
                assert _kernel_winner(tb, st, trump, (low, a, b)) == 1
                assert _kernel_winner(tb, st, trump, (a, low, b)) == 0
            checked += 1
    assert checked > 100


#: Whole tricks (after the auction), the seat that must take each, and why.
#: Quadrille: dealer 0; seat 1 plays a Solo in hearts and leads; Quintille: seat 1 an Alliance in hearts
#: calling KC (seat 3's). The hands are those of the conformance cases of quadrille-es:L77.whist-following.
QUADRILLE_HANDS = [
    ["AS", "QS", "JS", "6S", "4S", "3S", "2S", "AC", "AH", "7H"],
    ["KS", "7S", "5S", "KH", "QH", "JH", "2H", "3H", "4H", "5H"],
    ["KD", "QD", "JD", "AD", "2D", "3D", "4D", "5D", "6D", "7D"],
    ["KC", "QC", "JC", "7C", "6C", "5C", "4C", "3C", "2C", "6H"],
]
QUINTILLE_HANDS = [
    ["AS", "QS", "JS", "7S", "6S", "5S", "AC", "AH"],
    ["KS", "4S", "KH", "QH", "JH", "2H", "3H", "4H"],
    ["KD", "QD", "JD", "AD", "2D", "3D", "4D", "5D"],
    ["KC", "2S", "3S", "QC", "JC", "6D", "7D", "5H"],
    ["7C", "6C", "5C", "4C", "3C", "2C", "6H", "7H"],
]
TRICKS = [
    ("quadrille", ("KS", "KD", "2C", "3S"), 1, "the King led keeps the trick from the King of diamonds"),
    ("quadrille", ("5S", "KD", "KC", "3S"), 2, "of two Kings thrown on a spade lead, the first wins"),
    ("quadrille", ("7S", "AD", "2C", "3S"), 1, "a black 7 and a red Ace are both fourth: the 7 led wins"),
    ("quintille", ("4S", "AD", "2S", "7C", "7S"), 2, "three cards fourth in their suits: the first of them"),
    ("quintille", ("KS", "KD", "2S", "2C", "5S"), 1, "five cards, two Kings: the one led"),
]
AUCTION = {
    "quadrille": ["bid solo", "pass", "pass", "pass", "trump H", "pass"],
    "quintille": ["bid alliance", "pass", "pass", "pass", "pass", "trump H", "call KC", "pass"],
}


def _before_the_trick(name: str) -> State:
    hands = QUADRILLE_HANDS if name == "quadrille" else QUINTILLE_HANDS
    state = _game(name).new_match(seed=0, dealer=0, hands=hands)
    for action in AUCTION[name]:
        state = state.apply(action)
    assert state.phase == Phase.PLAY
    assert state.to_move == 1
    return state


@pytest.mark.parametrize(("name", "cards", "winner", "why"), TRICKS, ids=[t[3] for t in TRICKS])
def test_the_engine_plays_a_trick_of_equal_places_to_the_first(
    name: str, cards: tuple[str, ...], winner: int, why: str
) -> None:
    state = _before_the_trick(name)
    for code in cards:
        state = state.apply(f"play {code}")
    (won,) = [e for e in state.last_events if isinstance(e, TrickWon)]
    assert (won.seat, tuple(won.cards)) == (winner, cards), why


@pytest.mark.parametrize(("name", "cards", "winner", "why"), TRICKS, ids=[t[3] for t in TRICKS])
def test_the_kernel_plays_a_trick_of_equal_places_to_the_first(
    name: str, cards: tuple[str, ...], winner: int, why: str
) -> None:
    state = _before_the_trick(name)
    game = _game(name)
    tb = _tables(game)
    st = to_arrays(state)
    ended = [bool(play_card(tb, st, int(st[L.TO_MOVE]), game.cards.card(code))) for code in cards]
    assert ended == [False] * (len(cards) - 1) + [True]
    assert (st[L.WINNERS], st[L.LEADER], st[L.TO_MOVE], st[L.WON_TRICKS + winner]) == (winner, winner, winner, 1), why


# -- Hearts' passing cycle ---------------------------------------------------------------------------------

#: Where bundled Hearts' cards go, deal after deal: seats on (1: to the left), 0 holding.
HEARTS_CYCLE = (1, 3, 2, 0)
DEALS = 8  # twice round the cycle


def _hearts_deal_starts() -> Iterator[State]:
    """The first state of each of :data:`DEALS` deals of a random bots' match of bundled Hearts."""
    game = trickrules.load("hearts")
    rng = random.Random(5)
    state = game.new_match(seed=27, dealer=2)
    number = -1
    while state.deal.number < DEALS:
        assert not state.is_terminal, "the match ended before the deals the test needs"
        if state.deal.number != number:
            number = state.deal.number
            yield state
        legal = state.legal_actions()
        state = state.apply(legal[int(rng.random() * len(legal))])


def test_hearts_bundled_spec_passes_left_right_across_then_holds() -> None:
    """The spec's clockwise seating makes seat ``s + 1`` the left-hand neighbour (``[seating]``, pagat's rotation)."""
    spec = trickrules.load("hearts").spec
    assert spec.seating.direction == "clockwise"
    assert trickrules.load("hearts").tables.passing.offsets == HEARTS_CYCLE


def test_the_engine_passes_hearts_cards_round_the_cycle_deal_after_deal() -> None:
    seen = []
    for start in _hearts_deal_starts():
        n = start.game.players
        want = HEARTS_CYCLE[start.deal.number % len(HEARTS_CYCLE)]
        state = start
        passed: list[CardPassed] = []
        done: list[PassingDone] = []
        rng = random.Random(start.deal.number)
        while state.phase == Phase.PASSING:
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.random() * len(legal))])
            passed += [e for e in state.last_events if isinstance(e, CardPassed)]
            done += [e for e in state.last_events if isinstance(e, PassingDone)]
        if want == 0:
            assert not passed, start.deal.number
            assert not done, start.deal.number
            assert start.phase != Phase.PASSING, start.deal.number
        else:
            assert len(passed) == 3 * n
            assert {(e.seat, e.to) for e in passed} == {(s, (s + want) % n) for s in range(n)}
            (delivered,) = done
            for e in passed:  # the card reaches the seat it was passed to, and is in its hand
                assert e.card in delivered.received[e.to]
                assert e.card in state.hand(e.to)
        seen.append(want)
    assert seen == [HEARTS_CYCLE[k % 4] for k in range(DEALS)]


def test_the_kernel_passes_hearts_cards_round_the_cycle_deal_after_deal() -> None:
    game = trickrules.load("hearts")
    b = Builder()
    export_core(game.tables, b)
    native_passing.export(game, b)
    tb = b.array()
    seen = []
    for start in _hearts_deal_starts():
        n = game.players
        st = to_arrays(start)  # the passing's block left empty: the kernel draws the deal's direction itself
        before = [int(st[L.HANDS + s]) for s in range(n)]
        native_passing.run(tb, st, from_random(random.Random(start.deal.number)))
        offset = int(st[native_passing.P_OFFSET])
        seen.append(offset)
        after = [int(st[L.HANDS + s]) for s in range(n)]
        if offset == 0:
            assert after == before
            continue
        for s in range(n):
            given = int(st[native_passing.P_PASSED + s])
            to = (s + offset) % n
            assert bin(given).count("1") == 3
            assert given & before[s] == given  # from the passer's hand
            assert not given & after[s]  # and gone from it
            assert given & after[to] == given  # in the receiver's
    assert seen == [HEARTS_CYCLE[k % 4] for k in range(DEALS)]
    assert seen == [engine_passing.offset(game, k, 0, 0) for k in range(DEALS)]
