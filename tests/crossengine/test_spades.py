"""Spades, deal for deal against OpenSpiel's ``spades``: the same cards, the same choices, the same rules.

OpenSpiel plays one deal: seat 0 bids first and leads, and its card ``k`` is
dealt to seat ``k mod 4``. trickrules deals each deal from a seed with
seat 3 dealing (so seat 0 is the eldest hand), and OpenSpiel is given the
chance actions that make the same deal; the other way round, OpenSpiel's
chance actions are drawn at random and trickrules is stacked with the hands
they make. A seeded random player then walks one sequence of choices through
both engines. At every decision the seat to move and the legal moves (bids
and cards) must be the same sets; at the end every trick's winner, each
seat's tricks, the deal's score, OpenSpiel's returns (the score with the
bonus for winning or losing the match) and whether the match is over.

``specs/spades.toml`` is loaded with OpenSpiel's reading where its code and
the rules it states differ (docs/decisions.md, S1 to S4): spades are never
broken, bags are the last digit of the score, and ``use_mercy_rule`` is not
read. Each OpenSpiel parameter value tested gets ``DEALS`` deals; so do the
defaults. Whole trickrules matches are checked too, deal by deal, against a
fresh OpenSpiel deal given the match's scores so far (``set_current_scores``)
with the seats turned so that the eldest hand is OpenSpiel's seat 0: that
checks the bags carried from deal to deal.

A disagreement names the case, the seed, the deal and the step.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import parts
import trickrules
from trickrules import Game, State
from trickrules.engine.events import DealScored, Dealt, TrickWon

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (pip package open-spiel) is not installed")

#: Seeded random deals per case.
DEALS = 1000
#: Deals dealt the other way round (OpenSpiel's chance actions, trickrules stacked), with the defaults.
STACKED_DEALS = 300
#: Whole trickrules matches, every deal checked against OpenSpiel, and at least how many deals they make.
MATCHES = 400
MATCH_DEALS = 1000
#: trickrules' options that give OpenSpiel's reading (docs/decisions.md, S1 and S2).
OPENSPIEL_READING: dict[str, object] = {"spades_break": "never", "bag_count": "score_digit"}
#: The cases: OpenSpiel's parameters switched from their defaults (the spec's options have the same names).
CASES: list[tuple[str, dict[str, Any]]] = [
    ("defaults", {}),
    ("win_threshold=100", {"win_threshold": 100}),
    ("win_threshold=50", {"win_threshold": 50}),
    ("mercy_threshold=-100", {"mercy_threshold": -100}),
    ("mercy_threshold=0, win_threshold=100", {"mercy_threshold": 0, "win_threshold": 100}),
    ("use_mercy_rule=false, mercy_threshold=-100", {"use_mercy_rule": False, "mercy_threshold": -100}),
    (
        "win_or_loss_bonus=1000, win_threshold=100, mercy_threshold=-100",
        {"win_or_loss_bonus": 1000, "win_threshold": 100, "mercy_threshold": -100},
    ),
    ("win_or_loss_bonus=0, win_threshold=100", {"win_or_loss_bonus": 0, "win_threshold": 100}),
]

_RANKS = "23456789TJQKA"
_SUITS = "CDHS"
_BIDS = 52  # OpenSpiel's action id of the bid 0 (Nil); bid k is 52 + k


class Disagreement(AssertionError):
    """The engines differ; the message says where, so the deal can be replayed."""


def card_id(code: str) -> int:
    """OpenSpiel's action id of a trickrules card code (``10H`` is its ``HT``)."""
    rank, suit = code[:-1], code[-1]
    return _SUITS.index(suit) * 13 + _RANKS.index("T" if rank == "10" else rank)


def card_code(action: int) -> str:
    """The trickrules card code of an OpenSpiel card id."""
    rank = _RANKS[action % 13]
    return ("10" if rank == "T" else rank) + _SUITS[action // 13]


def move_of(action: int) -> str:
    """An OpenSpiel action as trickrules' action text."""
    return f"play {card_code(action)}" if action < _BIDS else f"bid {action - _BIDS}"


def action_id(text: str) -> int:
    """A trickrules action text as OpenSpiel's action id."""
    verb, arg = text.split()
    return card_id(arg) if verb == "play" else _BIDS + int(arg)


def games(params: dict[str, Any]) -> tuple[Game, Any]:
    """The two engines' games for one case: trickrules with OpenSpiel's reading."""
    options = {**params, **OPENSPIEL_READING}
    options["use_mercy_rule"] = True  # OpenSpiel reads use_mercy_rule but never uses it (S4)
    return trickrules.load("spades", options), pyspiel.load_game("spades", params)


def dealt_hands(state: State) -> tuple[tuple[str, ...], ...]:
    """The hands of the deal ``state`` is in."""
    dealt = [e for _, e in state.entries() if isinstance(e, Dealt) and e.deal == state.deal.number]
    return dealt[-1].hands


def twin(state: State, game: Any, eldest: int, scores: list[int]) -> Any:
    """OpenSpiel's state for the deal ``state`` holds, its seat ``p`` being trickrules' ``eldest + p``."""
    spiel = game.new_initial_state()
    hands = dealt_hands(state)
    for k in range(13):
        for p in range(4):
            spiel.apply_action(card_id(hands[(eldest + p) % 4][k]))
    spiel.set_current_scores(scores)
    return spiel


#: How a seat bids and plays: uniformly, or low (Nil often), or high.
STYLES = ("random", "low", "high")


def choose(rng: random.Random, style: str, legal: list[str]) -> str:
    """One of the legal actions (sorted trickrules texts) by a style."""
    if style == "random" or len(legal) == 1:
        return legal[rng.randrange(len(legal))]
    key = (lambda a: int(a.split()[1])) if legal[0].startswith("bid") else (lambda a: action_id(a) % 13)
    ordered = sorted(legal, key=key)
    if legal[0].startswith("bid"):  # low: Nil half the time, else one of the lowest three; high: the top three
        if style == "low":
            return ordered[0] if rng.random() < 0.5 else ordered[rng.randrange(min(3, len(ordered)))]
        return ordered[-1 - rng.randrange(min(3, len(ordered)))]
    return ordered[0] if style == "low" else ordered[-1]


def tricks_taken(spiel: Any) -> list[int]:
    """Each seat's tricks, from OpenSpiel's printout of a finished deal."""
    found = re.search(r"Tricks taken:\n\nNorth East  South  West\n([-\d ]+)\n", str(spiel))
    assert found is not None, str(spiel)
    return [int(x) for x in found.group(1).split()]


def play_deal(state: State, spiel: Any, rng: random.Random, where: str, *, alone: bool) -> State:
    """Play the deal ``state`` is in through both engines, comparing at every step; the state after it.

    ``alone``: the match started at this deal from no score, as OpenSpiel's game does, so whether the
    match is over and OpenSpiel's returns (which count the bonus) are compared too.
    """
    number = state.deal.number
    eldest = (state.dealer + 1) % 4
    start = state.match.scores
    styles = [rng.choice(STYLES) for _ in range(4)]
    where = f"{where}, deal {number} {dealt_hands(state)}, styles {styles}"
    step = 0
    os_winners: list[int] = []
    while not state.is_terminal and state.deal.number == number:
        mover = (eldest + spiel.current_player()) % 4 if not spiel.is_terminal() else None
        if mover != state.to_move:
            raise Disagreement(f"{where}, step {step}: seat to move {state.to_move}, OpenSpiel's {mover}")
        ours = sorted(str(a) for a in parts.adapter_legal(state))
        theirs = sorted(move_of(a) for a in spiel.legal_actions())
        if ours != theirs:
            raise Disagreement(f"{where}, step {step} (seat {mover}): trickrules allows {ours}, OpenSpiel {theirs}")
        assert state.to_move is not None
        choice = choose(rng, styles[state.to_move], ours)
        before = len(state.tally.winners)
        state = state.apply(choice)
        spiel.apply_action(action_id(choice))
        if len(state.tally.winners) > before and not spiel.is_terminal():
            os_winners.append((eldest + spiel.current_player()) % 4)  # the winner leads the next trick
        step += 1
    if not spiel.is_terminal():
        raise Disagreement(f"{where}: trickrules' deal is over after {step} steps, OpenSpiel's is not")
    check_tricks(state, spiel, number, eldest, os_winners, where)
    check_scores(state, spiel, number, eldest, start, where, alone=alone)
    return state


def deal_events(state: State, number: int) -> list[Any]:
    """The events of deal ``number``, from its dealing on."""
    entries = [e for _, e in state.entries()]
    start = next(k for k, e in enumerate(entries) if isinstance(e, Dealt) and e.deal == number)
    return entries[start:]


def check_tricks(state: State, spiel: Any, number: int, eldest: int, os_winners: list[int], where: str) -> None:
    """Compare the trick winners and each seat's tricks."""
    winners = [e.seat for e in deal_events(state, number) if isinstance(e, TrickWon)]
    if len(winners) != 13 or winners[:12] != os_winners:
        raise Disagreement(f"{where}: trick winners {winners}, OpenSpiel's (first twelve) {os_winners}")
    taken = tricks_taken(spiel)
    if [winners.count((eldest + p) % 4) for p in range(4)] != taken:
        raise Disagreement(f"{where}: trick winners {winners}, OpenSpiel's tricks by its seats {taken}")


def check_scores(
    state: State, spiel: Any, number: int, eldest: int, start: tuple[int, ...], where: str, *, alone: bool
) -> None:
    """Compare the scores after the deal; for a deal played alone, the match's end and the returns too."""
    scored = next(e for e in deal_events(state, number) if isinstance(e, DealScored))
    seats = [(eldest + p) % 4 for p in range(4)]
    after = [scored.scoreboard[seats[p]] for p in (0, 1)]
    if list(spiel.get_current_scores()) != after:
        raise Disagreement(f"{where}: scores after the deal {after}, OpenSpiel's {spiel.get_current_scores()}")
    if not alone:
        return
    if spiel.is_game_over() != state.is_terminal:
        raise Disagreement(f"{where}: the match over: {state.is_terminal}, OpenSpiel's {spiel.is_game_over()}")
    final = state.match.scores if state.is_terminal else scored.scoreboard
    returns = [float(final[s] - start[s]) for s in seats]
    if spiel.returns() != returns:
        raise Disagreement(f"{where}: returns {returns}, OpenSpiel's {spiel.returns()}")


def walk(tr_game: Game, os_game: Any, seed: int, label: str, *, stacked: bool = False) -> None:
    """Play deal ``seed`` of a case through both engines from no score; raise :class:`Disagreement`."""
    rng = random.Random(seed)
    if stacked:
        spiel = os_game.new_initial_state()
        while spiel.is_chance_node():
            spiel.apply_action(rng.choice(spiel.legal_actions()))
        order = list(spiel.history())
        hands = [[card_code(order[k]) for k in range(seat, 52, 4)] for seat in range(4)]
        state = tr_game.new_match(seed=seed, dealer=3, hands=hands)
        if [sorted(h) for h in dealt_hands(state)] != [sorted(h) for h in hands]:
            raise Disagreement(f"[{label}] seed {seed}: the stacked hands {hands} were not dealt as given")
    else:
        state = tr_game.new_match(seed=seed, dealer=3)
        spiel = twin(state, os_game, 0, [0, 0])
    play_deal(state, spiel, rng, f"[{label}] seed {seed}{' (stacked)' if stacked else ''}", alone=True)


def walk_match(tr_game: Game, os_game: Any, seed: int) -> int:
    """Play a whole trickrules match, each deal against a fresh OpenSpiel deal; the number of deals."""
    rng = random.Random(seed)
    state = tr_game.new_match(seed=seed, dealer=seed % 4)
    deals = 0
    while not state.is_terminal:
        eldest = (state.dealer + 1) % 4
        scores = [state.match.scores[eldest], state.match.scores[(eldest + 1) % 4]]
        spiel = twin(state, os_game, eldest, scores)
        state = play_deal(state, spiel, rng, f"[match] seed {seed}", alone=False)
        deals += 1
    return deals


@pytest.mark.parametrize(("label", "params"), CASES, ids=[c[0] for c in CASES])
def test_spades_deals_agree_with_openspiel(label: str, params: dict[str, Any]) -> None:
    tr_game, os_game = games(params)
    for seed in range(DEALS):
        walk(tr_game, os_game, seed, label)


def test_spades_stacked_deals_agree_with_openspiel() -> None:
    tr_game, os_game = games({})
    for seed in range(STACKED_DEALS):
        walk(tr_game, os_game, seed, "defaults", stacked=True)


def test_spades_matches_agree_with_openspiel_deal_by_deal() -> None:
    tr_game, os_game = games({})
    deals = 0
    for seed in range(MATCHES):
        deals += walk_match(tr_game, os_game, seed)
    assert deals >= MATCH_DEALS, deals
