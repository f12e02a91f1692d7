"""Slovenian Tarok, deal for deal against OpenSpiel's ``tarok``: the same cards, the same choices, the same rules.

OpenSpiel deals at its single chance step from its own generator (the
parameter ``rng_seed``); its six talon cards in their order and every
player's hand are read from it, and trickrules is stacked with the same
hands and the same talon order (the ``arrange`` draw of the ``talon_sets``
mechanism), with the last seat dealing so that seat ``p`` is OpenSpiel's
player ``p`` (player 0, the forehand, is the eldest hand). A seeded random
player then walks one sequence of choices through both engines: bids,
the king called, the talon set taken and the discards, the cards played. At
every decision the seat to move and the set of legal actions must be the
same; after every trick, its winner (OpenSpiel's seat to move after it);
both deals must end at the same step, and each seat's score must be
OpenSpiel's return (its score with the captured-mond penalty).

A disagreement names the player count, the seed and the step.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import parts
import trickrules
from trickrules import Game, State
from trickrules.engine.events import TrickWon
from trickrules.engine.phases.talon_sets import arrangement_index
from trickrules.engine.values import Stacked

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (pip package open-spiel) is not installed")

#: The spec: not bundled yet (a bundled game must have a native kernel, and these mechanisms have none).
SPEC = Path(__file__).resolve().parents[2] / "specs" / "tarok.toml"
#: Seeded random deals per player count.
DEALS = 1000
#: How often the random player passes in the auction when he may (so every contract gets played).
PASSING = 0.8
#: OpenSpiel's contracts, in the order of its bidding actions 1 to 12 (0 is the pass).
CONTRACTS = (
    "klop",
    "three",
    "two",
    "one",
    "solo_three",
    "solo_two",
    "solo_one",
    "beggar",
    "solo_without",
    "open_beggar",
    "colour_valat",
    "valat",
)
#: OpenSpiel's game phases (``current_game_phase``) by name.
_BIDDING, _KING_CALLING, _TALON_EXCHANGE, _TRICKS = 1, 2, 3, 4


class Disagreement(AssertionError):
    """The engines differ; the message says where, so the deal can be replayed."""


def _phase(state: Any) -> int:
    return int(state.current_game_phase())


def openspiel_actions(os_state: Any, codes: tuple[str, ...]) -> dict[str, int]:
    """OpenSpiel's legal actions as trickrules action texts, each with its OpenSpiel action."""
    phase = _phase(os_state)
    out: dict[str, int] = {}
    for a in os_state.legal_actions():
        if phase == _BIDDING:
            text = "pass" if a == 0 else f"bid {CONTRACTS[a - 1]}"
        elif phase == _KING_CALLING:
            text = f"call {codes[a]}"
        elif phase == _TALON_EXCHANGE and len(os_state.talon()) == 6:
            text = f"take {a + 1}"
        elif phase == _TALON_EXCHANGE:
            text = f"discard {codes[a]}"
        else:
            text = f"play {codes[a]}"
        out[text] = a
    return out


def stacked_match(game: Game, os_state: Any, players: int, seed: int) -> State:
    """A trickrules match whose first deal is OpenSpiel's: the same hands, the same talon in the same order."""
    codes = game.cards.codes
    hands = tuple(tuple(codes[c] for c in os_state.player_cards(p)) for p in range(players))
    talon = tuple(int(c) for c in os_state.talon())
    index = arrangement_index(tuple(sorted(talon)), talon)
    return game.new_match(seed=seed, dealer=players - 1, deals={0: Stacked(hands, "", (("arrange", index),))})


def play_one(game: Game, players: int, seed: int) -> int:
    """Walk one deal through both engines; the number of decisions compared. Raise on a disagreement."""
    rng = random.Random(seed)
    os_game = pyspiel.load_game("tarok", {"players": players, "rng_seed": seed})
    os_state = os_game.new_initial_state()
    os_state.apply_action(0)  # OpenSpiel's one chance step deals everything from its generator
    state = stacked_match(game, os_state, players, seed)
    codes = game.cards.codes
    where = f"players={players} seed={seed}"
    steps = 0
    tricks = 0
    while not os_state.is_terminal():
        if state.phase == "over":
            raise Disagreement(f"{where} step {steps}: trickrules' deal is over, OpenSpiel's is not")
        seat = os_state.current_player()
        if state.to_move != seat:
            raise Disagreement(f"{where} step {steps}: seat to move {state.to_move} here, {seat} in OpenSpiel")
        theirs = openspiel_actions(os_state, codes)
        ours = {str(a) for a in parts.adapter_legal(state)}
        if ours != set(theirs):
            raise Disagreement(
                f"{where} step {steps}: legal actions differ: only here {sorted(ours - set(theirs))}, "
                f"only in OpenSpiel {sorted(set(theirs) - ours)} ({state.phase})"
            )
        # Passing most of the time lets the low contracts (klop, three, two, one) be played too.
        text = "pass" if "pass" in theirs and rng.random() < PASSING else rng.choice(sorted(theirs))
        in_trick = _phase(os_state) == _TRICKS
        os_state.apply_action(theirs[text])
        state = state.apply(text)
        steps += 1
        if in_trick and not os_state.is_terminal() and not os_state.trick_cards():
            won = [e for e in state.last_events if isinstance(e, TrickWon)]
            tricks += 1
            if len(won) != 1 or won[0].seat != os_state.current_player():
                raise Disagreement(
                    f"{where} step {steps}: trick {tricks} went to {[e.seat for e in won]} here, "
                    f"to {os_state.current_player()} in OpenSpiel"
                )
    if state.phase != "over":
        raise Disagreement(f"{where} step {steps}: OpenSpiel's deal is over, trickrules' is in {state.phase}")
    returns = [round(r) for r in os_state.returns()]
    if list(state.match.scores) != returns:
        contract = game.rules.contracts[state.deal.contract].name if state.deal.contract is not None else None
        raise Disagreement(
            f"{where}: scores {list(state.match.scores)} here, returns {returns} in OpenSpiel ({contract})"
        )
    return steps


@pytest.mark.parametrize("players", [3, 4])
def test_tarok_deals_agree_with_openspiel(players: int) -> None:
    game = trickrules.load(SPEC, {"players": str(players)})
    decisions = 0
    for seed in range(DEALS):
        decisions += play_one(game, players, 1 + seed)
    assert decisions > DEALS * 10  # every deal had a bidding, a talon or a play to compare
