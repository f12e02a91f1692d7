"""Skat, deal for deal against OpenSpiel's ``skat``: the same cards, the same choices, the same rules.

OpenSpiel plays one deal with no dealer: seat 0 speaks first and leads. trickrules
plays ``specs/skat-openspiel.toml`` (the overlay of the real game with OpenSpiel's
reading, docs/decisions.md SK1 to SK8) with seat 2 dealing, so that seat 0 is the
eldest hand and the seats are the same on both sides. Deals are made both ways:
from a trickrules seed, OpenSpiel being given the chance actions that deal the same
hands and skat (its deal order: 3 cards each, the skat, 4 each, 3 each); and from
OpenSpiel's chance actions drawn at random, trickrules being stacked with the hands
they make (the skat is then the two cards no hand holds). A seeded random player
walks one sequence of choices through both: at every decision the seat to move and
the set of legal actions (games named or passes, discards, cards) must be equal;
after every trick its winner; at the end whether the deal is over and the returns
(trickrules keeps them as whole points 240 times OpenSpiel's: SK7).

A disagreement names the seed, the direction, the hands and the step.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any

import pytest

import parts
import trickrules
from trickrules import Game, State
from trickrules.engine.events import Dealt, TrickWon

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (pip package open-spiel) is not installed")

#: Deals from trickrules' seeds, and deals from OpenSpiel's chance actions (trickrules stacked).
SEEDED_DEALS = 1000
STACKED_DEALS = 500
#: The scale of trickrules' scores: OpenSpiel's returns times this (SK7).
SCALE = 240

_RANKS = ("7", "8", "9", "Q", "K", "10", "A", "J")  # OpenSpiel's rank order within a suit
_SUITS = "DHSC"
_BIDS = 32  # OpenSpiel's action id of a pass; game type k is 32 + k
_GAMES = ("pass", "bid diamonds", "bid hearts", "bid spades", "bid clubs", "bid grand", "bid null")
#: OpenSpiel's dealing: the seat (3 for the skat) each chance action's card goes to, in order.
_DEAL_TO = (0,) * 3 + (1,) * 3 + (2,) * 3 + (3,) * 2 + (0,) * 4 + (1,) * 4 + (2,) * 4 + (0,) * 3 + (1,) * 3 + (2,) * 3


class Disagreement(AssertionError):
    """The engines differ; the message says where, so the deal can be played again."""


def card_id(code: str) -> int:
    """OpenSpiel's id of a trickrules card code."""
    return _SUITS.index(code[-1]) * 8 + _RANKS.index(code[:-1])


def card_code(card: int) -> str:
    """The trickrules card code of an OpenSpiel card id."""
    return _RANKS[card % 8] + _SUITS[card // 8]


def action_text(spiel: Any, action: int) -> str:
    """An OpenSpiel action as trickrules' action text (a card is discarded in the discard phase)."""
    if action >= _BIDS:
        return _GAMES[action - _BIDS]
    verb = "discard" if "Phase: discarding cards" in str(spiel) else "play"
    return f"{verb} {card_code(action)}"


def action_id(text: str) -> int:
    """A trickrules action text as OpenSpiel's action id."""
    if text in _GAMES:
        return _BIDS + _GAMES.index(text)
    return card_id(text.split()[1])


def dealt_hands(state: State) -> tuple[tuple[str, ...], ...]:
    """The hands dealt in the deal ``state`` is in."""
    return next(e.hands for _, e in state.entries() if isinstance(e, Dealt))


def twin(os_game: Any, hands: tuple[tuple[str, ...], ...], skat: list[str]) -> Any:
    """OpenSpiel's state after dealing ``hands`` and ``skat`` in its deal order."""
    piles = [list(h) for h in hands] + [list(skat)]
    spiel = os_game.new_initial_state()
    for pile in _DEAL_TO:
        spiel.apply_action(card_id(piles[pile].pop(0)))
    return spiel


def choose(rng: random.Random, passing: float, legal: list[str]) -> str:
    """One legal action: a pass with probability ``passing`` where one is legal, else uniformly."""
    if "pass" in legal and rng.random() < passing:
        return "pass"
    return legal[rng.randrange(len(legal))]


def last_winner(spiel: Any) -> int:
    """The winner of the last trick OpenSpiel played, from its printout."""
    found = re.search(r"Last trick won by player (\d+)", str(spiel))
    assert found is not None, str(spiel)
    return int(found.group(1))


def play_deal(state: State, spiel: Any, rng: random.Random, where: str) -> int:
    """Walk one deal through both engines, comparing at every step; the number of decisions compared."""
    passing = rng.choice((1 / 7, 0.5, 0.8))
    where = f"{where}, hands {dealt_hands(state)}, passing {passing:.2f}"
    step = 0
    os_winners: list[int] = []
    while not state.is_terminal:
        mover = None if spiel.is_terminal() else spiel.current_player()
        if mover != state.to_move:
            raise Disagreement(f"{where}, step {step}: seat to move {state.to_move}, OpenSpiel's {mover}")
        ours = sorted(str(a) for a in parts.adapter_legal(state))
        theirs = sorted(action_text(spiel, a) for a in spiel.legal_actions())
        if ours != theirs:
            raise Disagreement(f"{where}, step {step} (seat {mover}): trickrules allows {ours}, OpenSpiel {theirs}")
        choice = choose(rng, passing, ours)
        before = len(state.tally.winners)
        state = state.apply(choice)
        spiel.apply_action(action_id(choice))
        if len(state.tally.winners) > before:
            os_winners.append(spiel.current_player() if not spiel.is_terminal() else last_winner(spiel))
        step += 1
    if not spiel.is_terminal():
        raise Disagreement(f"{where}: trickrules' deal is over after {step} steps, OpenSpiel's is not")
    winners = [e.seat for _, e in state.entries() if isinstance(e, TrickWon)]
    if winners != os_winners:
        raise Disagreement(f"{where}: trick winners {winners}, OpenSpiel's {os_winners}")
    returns = [Fraction(score, SCALE) for score in state.match.scores]
    if any(abs(float(r) - o) > 1e-12 for r, o in zip(returns, spiel.returns(), strict=True)):
        raise Disagreement(f"{where}: returns {[str(r) for r in returns]}, OpenSpiel's {spiel.returns()}")
    return step


def walk(tr_game: Game, os_game: Any, seed: int, *, stacked: bool) -> int:
    """Play deal ``seed`` through both engines; the number of decisions compared."""
    rng = random.Random(seed)
    if stacked:
        spiel = os_game.new_initial_state()
        while spiel.is_chance_node():
            spiel.apply_action(rng.choice(spiel.legal_actions()))
        piles: list[list[str]] = [[], [], [], []]
        for pile, action in zip(_DEAL_TO, spiel.history(), strict=True):
            piles[pile].append(card_code(action))
        state = tr_game.new_match(seed=seed, dealer=2, hands=piles[:3])
        if [sorted(h) for h in dealt_hands(state)] != [sorted(h) for h in piles[:3]]:
            raise Disagreement(f"seed {seed} (stacked): the hands {piles[:3]} were not dealt as given")
    else:
        state = tr_game.new_match(seed=seed, dealer=2)
        hands = dealt_hands(state)
        held = {c for h in hands for c in h}
        skat = [c for c in tr_game.cards.codes if c not in held]
        spiel = twin(os_game, hands, skat)
    return play_deal(state, spiel, rng, f"seed {seed}{' (stacked)' if stacked else ''}")


def test_skat_deals_agree_with_openspiel() -> None:
    tr_game, os_game = trickrules.load("skat-openspiel"), pyspiel.load_game("skat")
    decisions = sum(walk(tr_game, os_game, seed, stacked=False) for seed in range(SEEDED_DEALS))
    decisions += sum(walk(tr_game, os_game, seed, stacked=True) for seed in range(STACKED_DEALS))
    assert decisions > 30 * (SEEDED_DEALS + STACKED_DEALS) // 2


def test_null_ends_at_the_soloists_first_trick_in_both() -> None:
    """A Null game the soloist loses at the first trick: both engines end the deal there, with the same returns."""
    tr_game, os_game = trickrules.load("skat-openspiel"), pyspiel.load_game("skat")
    hands = (
        ("AD", "KD", "QD", "JD", "10D", "9D", "8D", "7D", "AH", "KH"),
        ("QH", "JH", "10H", "9H", "8H", "7H", "AS", "KS", "QS", "JS"),
        ("10S", "9S", "8S", "7S", "AC", "KC", "QC", "JC", "10C", "9C"),
    )
    state = tr_game.new_match(seed=0, dealer=2, hands=[list(h) for h in hands])
    spiel = twin(os_game, hands, ["8C", "7C"])
    moves = ["bid null", "discard 8C", "discard 7C", "play AD", "play QH", "play 10S"]
    for move in moves:
        assert sorted(str(a) for a in state.legal_actions()) == sorted(
            action_text(spiel, a) for a in spiel.legal_actions()
        )
        state = state.apply(move)
        spiel.apply_action(action_id(move))
    assert state.is_terminal
    assert spiel.is_terminal()
    assert state.match.scores == (-60, 30, 30)
    assert [Fraction(s, SCALE) for s in state.match.scores] == [Fraction(r) for r in spiel.returns()]
