"""Oh Hell, deal for deal against OpenSpiel's ``oh_hell``: the same cards, the same choices, the same rules.

OpenSpiel's chance actions are, in order: the number of tricks (the hand
size), the dealer, the cards (card ``k`` to seat ``k mod players``) and the
trump card, the stock's next card. Half the deals are dealt by trickrules
from a seed (``specs/oh-hell.toml``: its hand size drawn from the seed, a
dealer chosen by the test), and OpenSpiel is given the chance actions that
make the same deal; the other half the other way round: OpenSpiel's chance
actions are drawn at random and trickrules is stacked with the hands, the
turned card and the dealer they make. The hand sizes OpenSpiel may draw must
be the ones trickrules may deal. A seeded random player then walks one
sequence of choices through both engines: at every decision the seat to
move and the legal moves (bids and cards) must be the same sets; at the end
every trick's winner, each seat's tricks and each seat's score (OpenSpiel's
returns). Seats are the same numbers in both.

Each OpenSpiel parameter value tested gets ``DEALS`` deals; so do the
defaults. Matches of several deals (the spec's option ``deals``, which
OpenSpiel does not have) are checked too, each deal against a fresh OpenSpiel
deal. A disagreement names the case, the seed, the deal and the step.
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

#: Seeded random deals per case (half dealt by trickrules, half by OpenSpiel).
DEALS = 1000
#: Matches of several deals (option ``deals``), every deal checked against OpenSpiel.
MATCHES = 250
MATCH_DEALS = 4
#: The cases: OpenSpiel's parameters switched from their defaults (the spec's options have the same names).
CASES: list[tuple[str, dict[str, Any]]] = [
    ("defaults", {}),
    *((f"players={n}", {"players": n}) for n in (4, 5, 6, 7)),
    *((f"num_suits={n}", {"num_suits": n}) for n in (1, 2, 3)),
    *((f"num_cards_per_suit={n}", {"num_cards_per_suit": n}) for n in (2, 7, 10)),
    *((f"num_tricks_fixed={n}", {"num_tricks_fixed": n}) for n in (1, 5, 17)),
    ("off_bid_penalty=true", {"off_bid_penalty": True}),
    *((f"points_per_trick={n}", {"points_per_trick": n}) for n in (0, 2, 5)),
    ("players=5, num_suits=2, num_cards_per_suit=8", {"players": 5, "num_suits": 2, "num_cards_per_suit": 8}),
    ("off_bid_penalty=true, points_per_trick=3", {"off_bid_penalty": True, "points_per_trick": 3}),
]

_RANKS = "23456789TJQKA"
_SUITS = "CDSH"


class Disagreement(AssertionError):
    """The engines differ; the message says where, so the deal can be replayed."""


class Cards:
    """OpenSpiel's card and bid ids for one deck size: card ``rank * suits + suit``, bid ``cards + k``."""

    def __init__(self, game: Any) -> None:
        params = game.get_parameters()
        self.suits = int(params["num_suits"])
        self.size = self.suits * int(params["num_cards_per_suit"])

    def card_id(self, code: str) -> int:
        """OpenSpiel's id of a trickrules card code (``10H`` is its ``HT``)."""
        rank, suit = code[:-1], code[-1]
        return _RANKS.index("T" if rank == "10" else rank) * self.suits + _SUITS.index(suit)

    def card_code(self, card: int) -> str:
        """The trickrules card code of an OpenSpiel card id."""
        rank = _RANKS[card // self.suits]
        return ("10" if rank == "T" else rank) + _SUITS[card % self.suits]

    def move_of(self, action: int) -> str:
        """An OpenSpiel action as trickrules' action text."""
        return f"play {self.card_code(action)}" if action < self.size else f"bid {action - self.size}"

    def action_id(self, text: str) -> int:
        """A trickrules action text as OpenSpiel's action id."""
        verb, arg = text.split()
        return self.card_id(arg) if verb == "play" else self.size + int(arg)


def games(params: dict[str, Any], deals: int = 1) -> tuple[Game, Any]:
    """The two engines' games for one case."""
    return trickrules.load("oh-hell", {**params, "deals": deals}), pyspiel.load_game("oh_hell", params)


def dealt(state: State) -> Dealt:
    """The dealing of the deal ``state`` is in."""
    return [e for _, e in state.entries() if isinstance(e, Dealt) and e.deal == state.deal.number][-1]


def twin(state: State, game: Any, where: str) -> Any:
    """OpenSpiel's state for the deal ``state`` holds: its size, dealer, cards in dealing order, trump card."""
    cards = Cards(game)
    spiel = game.new_initial_state()
    size = state.deal.tricks
    allowed = set(state.game.rules.bids.sizes.of_deal(state.deal.number))
    if set(spiel.legal_actions()) != allowed:
        raise Disagreement(f"{where}: hand sizes {sorted(allowed)}, OpenSpiel's {spiel.legal_actions()}")
    spiel.apply_action(size)
    spiel.apply_action(state.dealer)
    event = dealt(state)
    n = state.game.players
    for k in range(size):
        for seat in range(n):
            spiel.apply_action(cards.card_id(event.hands[seat][k]))
    spiel.apply_action(cards.card_id(event.turned))
    return spiel


def stacked(game: Game, os_game: Any, rng: random.Random, seed: int, where: str) -> tuple[State, Any]:
    """OpenSpiel's chance actions drawn at random, and trickrules stacked with the deal they make."""
    cards = Cards(os_game)
    spiel = os_game.new_initial_state()
    while spiel.is_chance_node():
        spiel.apply_action(rng.choice(spiel.legal_actions()))
    size, dealer, *order = spiel.history()
    n = game.players
    hands = [[cards.card_code(order[k]) for k in range(seat, n * size, n)] for seat in range(n)]
    turned = cards.card_code(order[n * size])
    state = game.new_match(seed=seed, dealer=dealer, hands=hands, turned=turned)
    if state.deal.tricks != size or [sorted(h) for h in dealt(state).hands] != [sorted(h) for h in hands]:
        raise Disagreement(f"{where}: the stacked deal {hands}, turned {turned}, was not dealt as given")
    return state, spiel


def choose(rng: random.Random, style: str, legal: list[str], cards: Cards) -> str:
    """One of the legal actions by a style: uniformly, or low, or high (bids and cards alike)."""
    if style == "random" or len(legal) == 1:
        return legal[rng.randrange(len(legal))]
    ordered = sorted(legal, key=lambda a: cards.action_id(a) // (1 if a.startswith("bid") else cards.suits))
    return ordered[0] if style == "low" else ordered[-1]


def tricks_won(spiel: Any) -> list[int]:
    """Each seat's tricks, from OpenSpiel's printout of a finished deal."""
    found = re.search(r"Tricks Won: +([-\d ]+)\n", str(spiel))
    assert found is not None, str(spiel)
    return [int(x) for x in found.group(1).split()]


def play_deal(state: State, spiel: Any, rng: random.Random, where: str) -> State:
    """Play the deal ``state`` is in through both engines, comparing at every step; the state after it."""
    cards = Cards(spiel.get_game())
    number = state.deal.number
    start = state.match.scores
    styles = [rng.choice(("random", "random", "low", "high")) for _ in range(state.game.players)]
    event = dealt(state)
    where = f"{where}, deal {number} (dealer {event.dealer}, {event.hands}, turned {event.turned}), styles {styles}"
    step = 0
    os_winners: list[int] = []
    while not state.is_terminal and state.deal.number == number:
        mover = None if spiel.is_terminal() else spiel.current_player()
        if mover != state.to_move:
            raise Disagreement(f"{where}, step {step}: seat to move {state.to_move}, OpenSpiel's {mover}")
        ours = sorted(str(a) for a in parts.adapter_legal(state))
        theirs = sorted(cards.move_of(a) for a in spiel.legal_actions())
        if ours != theirs:
            raise Disagreement(f"{where}, step {step} (seat {mover}): trickrules allows {ours}, OpenSpiel {theirs}")
        assert state.to_move is not None
        choice = choose(rng, styles[state.to_move], ours, cards)
        before = len(state.tally.winners)
        state = state.apply(choice)
        spiel.apply_action(cards.action_id(choice))
        if len(state.tally.winners) > before and not spiel.is_terminal():
            os_winners.append(spiel.current_player())  # the winner leads the next trick
        step += 1
    if not spiel.is_terminal():
        raise Disagreement(f"{where}: trickrules' deal is over after {step} steps, OpenSpiel's is not")
    check_deal(state, spiel, number, start, os_winners, where)
    return state


def check_deal(
    state: State, spiel: Any, number: int, start: tuple[int, ...], os_winners: list[int], where: str
) -> None:
    """Compare the trick winners, each seat's tricks and each seat's score for the deal."""
    entries = [e for _, e in state.entries()]
    first = next(k for k, e in enumerate(entries) if isinstance(e, Dealt) and e.deal == number)
    events = entries[first:]
    winners = [e.seat for e in events if isinstance(e, TrickWon)]
    if winners[:-1] != os_winners:
        raise Disagreement(f"{where}: trick winners {winners}, OpenSpiel's (but the last) {os_winners}")
    taken = tricks_won(spiel)
    if [winners.count(s) for s in range(state.game.players)] != taken:
        raise Disagreement(f"{where}: trick winners {winners}, OpenSpiel's tricks per seat {taken}")
    scored = next(e for e in events if isinstance(e, DealScored))
    points = [float(x - y) for x, y in zip(scored.scoreboard, start, strict=True)]
    if spiel.returns() != points:
        raise Disagreement(f"{where}: the deal's points {points}, OpenSpiel's returns {spiel.returns()}")


def walk(game: Game, os_game: Any, seed: int, label: str) -> None:
    """Play deal ``seed`` of a case through both engines (dealt by trickrules for even seeds, else by OpenSpiel)."""
    rng = random.Random(seed)
    where = f"[{label}] seed {seed}"
    if seed % 2:
        state, spiel = stacked(game, os_game, rng, seed, f"{where} (stacked)")
        where += " (stacked)"
    else:
        state = game.new_match(seed=seed, dealer=rng.randrange(game.players))
        spiel = twin(state, os_game, where)
    after = play_deal(state, spiel, rng, where)
    if not after.is_terminal:
        raise Disagreement(f"{where}: the match of one deal is not over")


def walk_match(game: Game, os_game: Any, seed: int) -> int:
    """Play a whole match of several deals, each against a fresh OpenSpiel deal; the number of deals."""
    rng = random.Random(seed)
    state = game.new_match(seed=seed, dealer=seed % game.players)
    deals = 0
    while not state.is_terminal:
        where = f"[match] seed {seed}"
        state = play_deal(state, twin(state, os_game, where), rng, where)
        deals += 1
    return deals


@pytest.mark.parametrize(("label", "params"), CASES, ids=[c[0] for c in CASES])
def test_oh_hell_deals_agree_with_openspiel(label: str, params: dict[str, Any]) -> None:
    game, os_game = games(params)
    for seed in range(DEALS):
        walk(game, os_game, seed, label)


def test_oh_hell_matches_agree_with_openspiel_deal_by_deal() -> None:
    game, os_game = games({}, deals=MATCH_DEALS)
    deals = sum(walk_match(game, os_game, seed) for seed in range(MATCHES))
    assert deals >= 1000, deals
