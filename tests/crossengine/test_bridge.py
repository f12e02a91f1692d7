"""Bridge, deal for deal against OpenSpiel's ``bridge`` with the cards played: the same cards, the same choices.

OpenSpiel deals its chance actions in order, the ``k``-th card to seat
``k mod 4``; trickrules deals each deal from a seed, and OpenSpiel is given
the chance actions that make the same hands (seats 0-3 are North, East,
South, West on both sides). OpenSpiel's ``dealer``, ``dealer_vul`` and
``non_dealer_vul`` are the spec's options of the same names, and the spec is
loaded with ``boards = 1`` (a match of one board, as OpenSpiel's game). A seeded
random player then walks one sequence of choices through both engines: at
every decision the seat that decides (OpenSpiel's current player; in
trickrules the state's ``chooser``, the declarer while the dummy is to
play) and the legal calls or cards must be the same sets; at the end every
trick's winner (read from OpenSpiel's printout of the play), the
declarer's tricks, and the returns (each seat's score of the deal).

The calls are chosen by a style drawn per deal, so that contracts of every
level, doubled and redoubled ones and passed-out deals all come up: each
seat passes with a probability of the deal's, doubles or redoubles when it
may with another, and otherwise bids one of the few lowest bids (or, at
times, any bid). The cards are chosen uniformly.

The option settings (``CASES``): every dealer with every combination of
vulnerabilities (the first is OpenSpiel's defaults: dealer North, nobody
vulnerable); ``DEALS`` deals each.

A disagreement names the case, the seed and the step.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import parts
import trickrules
from trickrules import Game, State
from trickrules.engine.events import Dealt, TrickWon
from trickrules.engine.phases.doubling_auction import ContractMade

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (pip package open-spiel) is not installed")

#: Seeded random deals per case.
DEALS = 1000
#: trickrules' options that give OpenSpiel's reading: a match of one board (docs/decisions.md, BR5).
OPENSPIEL_READING: dict[str, object] = {"boards": 1}
#: The cases: OpenSpiel's parameters (the spec's options have the same names and meaning).
CASES: list[tuple[str, dict[str, Any]]] = [
    (
        f"dealer={dealer}, dealer_vul={dv}, non_dealer_vul={nv}",
        {"dealer": dealer, "dealer_vul": dv, "non_dealer_vul": nv},
    )
    for dealer in range(4)
    for dv in (False, True)
    for nv in (False, True)
]

_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
_SUITS = "CDHS"
_STRAINS = ["C", "D", "H", "S", "NT"]
_CALLS = 52  # OpenSpiel's action id of Pass; Dbl, RDbl, then 1C, 1D, ... 7NT
_SEATS = {"North": 0, "East": 1, "South": 2, "West": 3}


class Disagreement(AssertionError):
    """The engines differ; the message says where, so the deal can be replayed."""


def card_id(code: str) -> int:
    """OpenSpiel's action id of a trickrules card code: rank * 4 + suit."""
    return _RANKS.index(code[:-1]) * 4 + _SUITS.index(code[-1])


def move_of(action: int) -> str:
    """An OpenSpiel action as trickrules' action text."""
    if action < _CALLS:
        return f"play {_RANKS[action // 4]}{_SUITS[action % 4]}"
    call = action - _CALLS
    if call < 3:
        return ("pass", "double", "redouble")[call]
    bid = call - 3
    return f"bid {bid // 5 + 1}{_STRAINS[bid % 5]}"


def action_id(text: str) -> int:
    """A trickrules action text as OpenSpiel's action id."""
    words = text.split()
    if words[0] == "play":
        return card_id(words[1])
    if words[0] in ("pass", "double", "redouble"):
        return _CALLS + ("pass", "double", "redouble").index(words[0])
    level, strain = int(words[1][0]), words[1][1:]
    return _CALLS + 3 + (level - 1) * 5 + _STRAINS.index(strain)


def games(params: dict[str, Any]) -> tuple[Game, Any]:
    """The two engines' games for one case."""
    spiel_params = {"use_double_dummy_result": False, **params}
    return trickrules.load("bridge", {**params, **OPENSPIEL_READING}), pyspiel.load_game("bridge", spiel_params)


def dealt_hands(state: State) -> tuple[tuple[str, ...], ...]:
    """The hands of the first deal."""
    return next(e for _, e in state.entries() if isinstance(e, Dealt)).hands


def twin(state: State, game: Any) -> Any:
    """OpenSpiel's state dealt the hands ``state`` holds."""
    spiel = game.new_initial_state()
    hands = dealt_hands(state)
    for k in range(13):
        for seat in range(4):
            spiel.apply_action(card_id(hands[seat][k]))
    return spiel


def choose(rng: random.Random, style: tuple[float, float, int], legal: list[str]) -> str:
    """One of the legal actions (trickrules texts), calls by the deal's style, cards uniformly."""
    if legal[0].startswith("play"):
        return legal[rng.randrange(len(legal))]
    pass_rate, double_rate, reach = style
    doubles = [a for a in legal if a in ("double", "redouble")]
    if doubles and rng.random() < double_rate:
        return doubles[0]
    bids = sorted((a for a in legal if a.startswith("bid")), key=action_id)
    if not bids or rng.random() < pass_rate:
        return "pass"
    return bids[rng.randrange(min(reach, len(bids)))]


def walk(tr_game: Game, os_game: Any, seed: int, label: str) -> None:
    """Play deal ``seed`` of a case through both engines; raise :class:`Disagreement` where they differ."""
    rng = random.Random(seed)
    state = tr_game.new_match(seed=seed)
    spiel = twin(state, os_game)
    style = (rng.choice((0.3, 0.5, 0.7, 0.9)), rng.choice((0.0, 0.2, 0.6)), rng.choice((1, 3, 8, 35)))
    where = f"[{label}] seed {seed}, style {style}"
    step = 0
    while not state.is_terminal:
        if spiel.is_terminal():
            raise Disagreement(f"{where}, step {step}: OpenSpiel's deal is over, trickrules' is not")
        if state.chooser != spiel.current_player():
            raise Disagreement(
                f"{where}, step {step}: seat deciding {state.chooser} (to move {state.to_move}), "
                f"OpenSpiel's {spiel.current_player()}"
            )
        ours = sorted(str(a) for a in parts.adapter_legal(state))
        theirs = sorted(move_of(a) for a in spiel.legal_actions())
        if ours != theirs:
            raise Disagreement(f"{where}, step {step} (seat {state.chooser}): trickrules {ours}, OpenSpiel {theirs}")
        choice = choose(rng, style, ours)
        state = state.apply(choice)
        spiel.apply_action(action_id(choice))
        step += 1
    if not spiel.is_terminal():
        raise Disagreement(f"{where}: trickrules' deal is over after {step} steps, OpenSpiel's is not")
    check_end(state, spiel, where)


def check_end(state: State, spiel: Any, where: str) -> None:
    """Compare every trick's winner, the declarer's tricks and the returns."""
    winners = [e.seat for _, e in state.entries() if isinstance(e, TrickWon)]
    text = str(spiel)
    theirs = [_SEATS[name] for name in re.findall(r"Won by (\w+)\.", text)]
    if winners != theirs:
        raise Disagreement(f"{where}: trick winners {winners}, OpenSpiel's {theirs}")
    if winners:
        declarer = state.deal.declarer
        assert declarer is not None
        taken = sum(1 for w in winners if w % 2 == declarer % 2)
        found = re.search(r"Declarer tricks won: (\d+)", text)
        if found is None or int(found.group(1)) != taken:
            raise Disagreement(f"{where}: declarer's side took {taken} tricks; OpenSpiel: {found and found.group(0)}")
    returns = [float(x) for x in state.match.scores]
    if list(spiel.returns()) != returns:
        raise Disagreement(f"{where}: returns {returns}, OpenSpiel's {spiel.returns()}")


@pytest.mark.parametrize(("label", "params"), CASES, ids=[c[0] for c in CASES])
def test_bridge_deals_agree_with_openspiel(label: str, params: dict[str, Any]) -> None:
    tr_game, os_game = games(params)
    for seed in range(DEALS):
        walk(tr_game, os_game, seed, label)


def test_bridge_walks_cover_doubled_redoubled_slams_and_passed_out_deals() -> None:
    """The random walk reaches every kind of contract the scoring tells apart (else the agreement proves less)."""
    tr_game, _ = games({})
    seen: set[str] = set()
    for seed in range(DEALS):
        rng = random.Random(seed)
        state = tr_game.new_match(seed=seed)
        style = (rng.choice((0.3, 0.5, 0.7, 0.9)), rng.choice((0.0, 0.2, 0.6)), rng.choice((1, 3, 8, 35)))
        while not state.is_terminal:
            state = state.apply(choose(rng, style, sorted(str(a) for a in state.legal_actions())))
        contract = next((e.contract for _, e in state.entries() if isinstance(e, ContractMade)), "")
        if not contract:
            seen.add("passed out")
            continue
        seen.add("redoubled" if contract.endswith("XX") else "doubled" if contract.endswith("X") else "undoubled")
        seen.add("slam" if contract[0] in "67" else "game" if contract[0] in "345" else "part score")
        seen.add("made" if state.match.scores[state.deal.declarer or 0] > 0 else "set")
    assert seen >= {"passed out", "undoubled", "doubled", "redoubled", "slam", "game", "part score", "made", "set"}
