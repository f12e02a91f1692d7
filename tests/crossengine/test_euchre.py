"""Euchre, deal for deal against OpenSpiel's (``pyspiel.load_game("euchre")``).

Each seeded deal is dealt the same in both engines: OpenSpiel's chance
actions (the dealer, the twenty cards, the upcard) are chosen to give the
hands that ``game.new_match(hands=..., turned=..., dealer=...)`` stacks in
trickrules. Then a seeded random walk of choices goes through both: at every
decision the seat to move, the phase and the legal moves (as sets) must be
the same; at the end, every trick's winner and the deal's scores.

OpenSpiel plays one deal and returns zero-sum points, so the walk uses the
spec's options ``target = one_deal`` and ``zero_sum = on`` (docs/games.md);
every fourth deal is also walked through the spec's default scoring, where
the points go to the side that scores, and each side's points less the
other side's must be OpenSpiel's return.

A disagreement fails with the seed, the deal, the step and the moves so far.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import parts
import trickrules
from trickrules.engine.events import DealScored, TrickWon

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel (pyspiel) is not installed: pip install open_spiel to compare Euchre with it"
)

DEALS = 2000
SUITS = "CDHS"  # OpenSpiel's suit order: a card is rank * 4 + suit
RANKS = ("9", "10", "J", "Q", "K", "A")  # OpenSpiel's ranks 9 T J Q K A
PASS, FIRST_TRUMP, ALONE, PARTNER = 24, 25, 29, 30
#: OpenSpiel's phases by name, and the trickrules phase each one is.
PHASES = {"BIDDING": "making", "DISCARD": "discard", "GO_ALONE": "alone", "PLAY": "play"}
#: OpenSpiel's options, and the spec's options that mean the same.
OPTIONS = {
    "default": ({"allow_lone_defender": False, "stick_the_dealer": True}, {}),
    "lone defender": ({"allow_lone_defender": True, "stick_the_dealer": True}, {"allow_lone_defender": "on"}),
    "no stick": ({"allow_lone_defender": False, "stick_the_dealer": False}, {"stick_the_dealer": "off"}),
    "lone defender, no stick": (
        {"allow_lone_defender": True, "stick_the_dealer": False},
        {"allow_lone_defender": "on", "stick_the_dealer": "off"},
    ),
}
#: OpenSpiel's reading of the deal's length and scores.
ONE_DEAL = {"target": "one_deal", "zero_sum": "on"}


def code(card: int) -> str:
    """A card of OpenSpiel's as a trickrules card code."""
    return RANKS[card // 4] + SUITS[card % 4]


def text(phase: str, action: int) -> str:
    """An OpenSpiel player action as the trickrules action text."""
    if phase == "BIDDING":
        return "pass" if action == PASS else f"trump {SUITS[action - FIRST_TRUMP]}"
    if phase == "GO_ALONE":
        return {ALONE: "alone", PARTNER: "pass"}[action]
    return f"{'discard' if phase == 'DISCARD' else 'play'} {code(action)}"


class Deal:
    """One seeded deal: the dealer, the hands (OpenSpiel card numbers) and the upcard."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        rng = random.Random(seed)
        self.dealer = rng.randrange(4)
        cards = list(range(24))
        rng.shuffle(cards)
        self.hands = [cards[5 * seat : 5 * seat + 5] for seat in range(4)]
        self.upcard = cards[20]
        self.rng = rng  # then drives the choices

    def openspiel(self, game: Any) -> Any:
        """OpenSpiel's state after the chance actions that deal this deal (card i goes to dealer + i)."""
        state = game.new_initial_state()
        state.apply_action(self.dealer)
        for i in range(20):
            state.apply_action(self.hands[(self.dealer + i) % 4][i // 4])
        state.apply_action(self.upcard)
        return state

    def trickrules(self, game: trickrules.Game) -> trickrules.State:
        """The same deal, stacked in trickrules."""
        hands = [[code(c) for c in hand] for hand in self.hands]
        return game.new_match(seed=self.seed, dealer=self.dealer, hands=hands, turned=code(self.upcard))

    def __str__(self) -> str:
        hands = "; ".join(f"seat {s}: {' '.join(code(c) for c in h)}" for s, h in enumerate(self.hands))
        return f"seed {self.seed}, dealer {self.dealer}, upcard {code(self.upcard)}, {hands}"


def choose(rng: random.Random, phase: str, legal: list[int]) -> int:
    """A seeded random choice; passing is likelier while trumps are made, so that whole deals pass out too."""
    if phase == "BIDDING" and PASS in legal and rng.random() < 0.75:
        return PASS
    return legal[rng.randrange(len(legal))]


def walk(deal: Deal, os_game: Any, games: list[trickrules.Game]) -> tuple[Any, list[trickrules.State]]:
    """Play ``deal`` through OpenSpiel and each trickrules game, checking every decision; the final states."""
    os_state = deal.openspiel(os_game)
    states = [deal.trickrules(game) for game in games]
    moves: list[str] = []

    def where(step: str) -> str:
        return f"{deal}\nstep {len(moves)} ({step}); moves so far: {', '.join(moves) or 'none'}"

    while not os_state.is_terminal():
        phase = os_state.current_phase().name
        legal = os_state.legal_actions()
        expected = {text(phase, a) for a in legal}
        for state in states:
            assert state.to_move == os_state.current_player(), where("seat to move")
            assert state.phase == PHASES[phase], where(f"phase {state.phase} against {phase}")
            assert {str(a) for a in parts.adapter_legal(state)} == expected, where("legal moves")
        action = choose(deal.rng, phase, legal)
        moves.append(f"seat {os_state.current_player()} {text(phase, action)}")
        os_state.apply_action(action)
        states = [state.apply(text(phase, action)) for state in states]
    return os_state, states


def first_deal(state: trickrules.State) -> tuple[list[int], tuple[int, ...]]:
    """The winners of the first deal's tricks, and the scoreboard after it, from the match's events."""
    winners: list[int] = []
    for _, event in state.entries():
        if isinstance(event, TrickWon):
            winners.append(event.seat)
        elif isinstance(event, DealScored):
            return winners, event.scoreboard
    raise AssertionError("the first deal was not scored")


def check_end(deal: Deal, os_state: Any, state: trickrules.State, zero_sum: bool) -> None:
    """Every trick's winner and the deal's scores, at the end of the first deal.

    With ``zero_sum`` each seat's score is OpenSpiel's return; else (points to the side that
    scores) a seat's side's points less the other side's are.
    """
    winners, board = first_deal(state)
    assert len(winners) == (5 if os_state.num_cards_played() else 0), f"{deal}: tricks played"
    assert winners == [t.winner() for t in os_state.tricks()[: len(winners)]], f"{deal}: trick winners"
    scores = list(board) if zero_sum else [board[s] - board[(s + 1) % 4] for s in range(4)]
    assert scores == [round(x) for x in os_state.returns()], f"{deal}: scores {board}"


@pytest.mark.parametrize("name", list(OPTIONS))
def test_euchre_agrees_with_openspiel_deal_for_deal(name: str) -> None:
    os_options, options = OPTIONS[name]
    os_game = pyspiel.load_game("euchre", os_options)
    one_deal = trickrules.load("euchre", {**options, **ONE_DEAL})
    standard = trickrules.load("euchre", options)
    for seed in range(DEALS):
        deal = Deal(seed)
        games = [one_deal, standard] if seed % 4 == 0 else [one_deal]
        os_state, states = walk(deal, os_game, games)
        assert states[0].is_terminal, f"{deal}: OpenSpiel's deal is over, the match of one deal is not"
        check_end(deal, os_state, states[0], zero_sum=True)
        if len(states) > 1:
            check_end(deal, os_state, states[1], zero_sum=False)
